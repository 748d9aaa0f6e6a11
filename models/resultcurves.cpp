#include "models/resultcurves.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace Eddy {

using json = nlohmann::json;

namespace {

bool isNumberArray(const json &v)
{
    return v.is_array() && v.size() >= 2
           && std::all_of(v.begin(), v.end(), [](const json &e) { return e.is_number(); });
}

bool isXyArray(const json &v)
{
    return v.is_array() && v.size() >= 2 && std::all_of(v.begin(), v.end(), [](const json &e) {
               return e.is_object() && e.contains("x") && e.contains("y") && e["x"].is_number() && e["y"].is_number();
           });
}

void collect(const json &value, const QString &path, QList<ResultCurve> &out, int depth)
{
    if (depth > 4)
        return;
    if (isXyArray(value)) {
        ResultCurve c{path, QStringLiteral("x"), QStringLiteral("y"), {}, {}, {}};
        for (const json &e : value)
            c.points.emplace_back(e["x"].get<double>(), e["y"].get<double>());
        out << c;
        return;
    }
    if (isNumberArray(value)) {
        ResultCurve c{path, QCoreApplication::translate("Eddy::ResultCurve", "index"), path.section(QLatin1Char('.'), -1), {}, {}, {}};
        for (size_t i = 0; i < value.size(); ++i)
            c.points.emplace_back(double(i), value[i].get<double>());
        out << c;
        return;
    }
    if (!value.is_object())
        return;
    // Two numeric arrays of one length: a profile (position on x).
    std::vector<std::string> arrays;
    for (auto it = value.begin(); it != value.end(); ++it)
        if (isNumberArray(*it))
            arrays.push_back(it.key());
    if (arrays.size() == 2 && value[arrays[0]].size() == value[arrays[1]].size()) {
        static const std::array<const char *, 6> positions{"x", "y", "t", "time", "iteration", "s"};
        std::string xKey = arrays[0];
        for (const char *p : positions) {
            if (std::find(arrays.begin(), arrays.end(), p) != arrays.end()) {
                xKey = p;
                break;
            }
        }
        const std::string yKey = xKey == arrays[0] ? arrays[1] : arrays[0];
        ResultCurve c{path, QString::fromStdString(xKey), QString::fromStdString(yKey), {}, {}, {}};
        const json &xs = value[xKey];
        const json &ys = value[yKey];
        for (size_t i = 0; i < xs.size(); ++i)
            c.points.emplace_back(xs[i].get<double>(), ys[i].get<double>());
        out << c;
        for (auto it = value.begin(); it != value.end(); ++it)
            if (it->is_structured() && !isNumberArray(*it))
                collect(*it, path.isEmpty() ? QString::fromStdString(it.key()) : path + QLatin1Char('.') + QString::fromStdString(it.key()), out, depth + 1);
        return;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (it->is_structured())
            collect(*it, path.isEmpty() ? QString::fromStdString(it.key()) : path + QLatin1Char('.') + QString::fromStdString(it.key()), out,
                    depth + 1);
    }
}

// y grows or falls by one step at every point: a counter, not a result.
bool isEvenlySpaced(const ResultCurve &c)
{
    if (c.points.size() < 2)
        return true;
    const double step = c.points[1].y() - c.points[0].y();
    const double scale = std::max(std::abs(c.points.front().y()), std::abs(c.points.back().y()));
    for (size_t i = 1; i < c.points.size(); ++i) {
        if (std::abs(c.points[i].y() - c.points[i - 1].y() - step) > 1e-9 * std::max(1.0, scale))
            return false;
    }
    return true;
}

int interest(const ResultCurve &c)
{
    if (isEvenlySpaced(c))
        return 0;
    if (!c.reference.empty())
        return 3;
    return c.xLabel == QCoreApplication::translate("Eddy::ResultCurve", "index") ? 1 : 2;
}

} // namespace

int preferredCurve(const QList<ResultCurve> &curves)
{
    int best = curves.isEmpty() ? -1 : 0;
    for (int i = 1; i < curves.size(); ++i) {
        if (interest(curves.at(i)) > interest(curves.at(best)))
            best = i;
    }
    return best;
}

QList<ResultCurve> resultCurves(const QString &resultJson)
{
    QList<ResultCurve> out;
    const json result = json::parse(resultJson.toStdString(), nullptr, false);
    if (!result.is_object() || !result.contains("structuredContent"))
        return out;
    const json &content = result["structuredContent"];
    collect(content, QString(), out, 0);
    // Reference curves join the curve of the same name.
    QString source;
    if (content.is_object() && content.contains("reference") && content["reference"].is_object()
        && content["reference"].contains("source") && content["reference"]["source"].is_string())
        source = QString::fromStdString(content["reference"]["source"].get<std::string>());
    static const QLatin1String prefix("reference.");
    for (qsizetype i = 0; i < out.size();) {
        if (!out[i].name.startsWith(prefix)) {
            ++i;
            continue;
        }
        const QString target = out[i].name.mid(prefix.size());
        auto it = std::find_if(out.begin(), out.end(), [&](const ResultCurve &c) { return c.name == target; });
        if (it == out.end()) {
            ++i;
            continue;
        }
        ResultCurve ref = out.takeAt(i);
        it = std::find_if(out.begin(), out.end(), [&](const ResultCurve &c) { return c.name == target; });
        const bool swapped = ref.xLabel == it->yLabel && ref.yLabel == it->xLabel;
        for (const QPointF &p : ref.points)
            it->reference.push_back(swapped ? QPointF(p.y(), p.x()) : p);
        it->referenceSource = source.isEmpty() ? QCoreApplication::translate("Eddy::ResultCurve", "Reference")
                                               : source;
    }
    return out;
}

} // namespace Eddy
