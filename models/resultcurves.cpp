#include "models/resultcurves.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

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
        ResultCurve c{path, QStringLiteral("x"), QStringLiteral("y"), {}};
        for (const json &e : value)
            c.points.emplace_back(e["x"].get<double>(), e["y"].get<double>());
        out << c;
        return;
    }
    if (isNumberArray(value)) {
        ResultCurve c{path, QCoreApplication::translate("Eddy::ResultCurve", "index"), path.section(QLatin1Char('.'), -1), {}};
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
        ResultCurve c{path, QString::fromStdString(xKey), QString::fromStdString(yKey), {}};
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

} // namespace

QList<ResultCurve> resultCurves(const QString &resultJson)
{
    QList<ResultCurve> out;
    const json result = json::parse(resultJson.toStdString(), nullptr, false);
    if (!result.is_object() || !result.contains("structuredContent"))
        return out;
    collect(result["structuredContent"], QString(), out, 0);
    return out;
}

} // namespace Eddy
