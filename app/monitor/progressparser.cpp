#include "app/monitor/progressparser.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

namespace Eddy::Monitor {

namespace {

#define EDDY_NUM "([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?(?:nan|NaN|inf|Inf|infinity|Infinity))"

const QRegularExpression &iterationRe()
{
    static const QRegularExpression re(QStringLiteral("\\b(?:iteration|iter|it)\\s*[=:]?\\s*(\\d+)(?:\\s*(?:of|/)\\s*(\\d+))?"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &residualRe()
{
    static const QRegularExpression re(QStringLiteral("\\bresiduals?\\s*[=:]?\\s*" EDDY_NUM "?\\s*(?:\\(([^)]*)\\))?"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &fieldRe()
{
    // Field names as the solver writes them, Greek included: "u", "v", "ω", "k", "epsilon".
    static const QRegularExpression re(QStringLiteral("([\\p{L}_][\\p{L}\\p{N}_]*)\\s*[=:]?\\s*" EDDY_NUM));
    return re;
}
// "converged after 812 iterations", "stopped at the iteration limit (400)": counts that come
// after their word, in final messages.
const QRegularExpression &iterationsAfterRe()
{
    static const QRegularExpression re(
        QStringLiteral("\\b(\\d+)\\s+iterations?\\b|\\biteration limit\\s*\\(\\s*(\\d+)\\s*\\)"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &percentRe()
{
    static const QRegularExpression re(QStringLiteral("(\\d+(?:\\.\\d+)?)\\s*%"));
    return re;
}
const QRegularExpression &timeRe()
{
    static const QRegularExpression re(QStringLiteral("\\btime\\s*[=:]\\s*" EDDY_NUM),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &stepRe()
{
    static const QRegularExpression re(QStringLiteral("\\bstep\\s*[=:]?\\s*(\\d+)(?:\\s*(?:of|/)\\s*(\\d+))?"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}
const QRegularExpression &queueRe()
{
    static const QRegularExpression re(QStringLiteral("\\bqueued\\b[^0-9]*?position\\s*[=:]?\\s*(\\d+)"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

// NaN cannot be stored (SQLite turns it into NULL) and means the same as a blow-up: infinity.
std::optional<double> toNumber(const QString &text)
{
    if (text.isEmpty())
        return std::nullopt;
    const QString t = text.toLower();
    if (t.contains(QLatin1String("nan")) || t.contains(QLatin1String("inf")))
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
}

} // namespace

QString ProgressParser::checkPattern(const QString &pattern)
{
    const QRegularExpression re(pattern);
    if (!re.isValid())
        return QStringLiteral("The pattern is not a valid regular expression: %1 (at offset %2).")
            .arg(re.errorString())
            .arg(re.patternErrorOffset());
    bool named = false;
    for (const QString &n : re.namedCaptureGroups())
        named = named || !n.isEmpty();
    if (!named)
        return QStringLiteral("The pattern has no named capture such as (?<residual>[0-9.eE+-]+); "
                              "each named capture becomes a chart series.");
    return {};
}

QStringList ProgressParser::setTemplates(const QList<Store::ProgressTemplate> &templates)
{
    QStringList problems;
    m_templates.clear();
    for (const Store::ProgressTemplate &t : templates) {
        const QString err = checkPattern(t.pattern);
        if (!err.isEmpty()) {
            problems << QStringLiteral("%1: %2").arg(t.name, err);
            continue;
        }
        m_templates.append({t.tool, t.name, QRegularExpression(t.pattern)});
    }
    return problems;
}

QList<Store::ProgressSample> ProgressParser::parse(const QString &message, const QString &tool,
                                                   qint64 atMs, qint64 taskId,
                                                   std::optional<double> fallbackX) const
{
    QList<std::pair<QString, double>> values;
    std::optional<double> x;

    if (const auto m = iterationRe().match(message); m.hasMatch()) {
        const double it = m.captured(1).toDouble();
        values.append({Iteration, it});
        x = it;
        if (!m.captured(2).isEmpty())
            values.append({MaxIterations, m.captured(2).toDouble()});
    } else if (const auto a = iterationsAfterRe().match(message); a.hasMatch()) {
        const double it = (a.captured(1).isEmpty() ? a.captured(2) : a.captured(1)).toDouble();
        values.append({Iteration, it});
        x = it;
    }
    if (const auto m = stepRe().match(message); m.hasMatch()) {
        const double s = m.captured(1).toDouble();
        values.append({Step, s});
        if (!x)
            x = s;
        if (!m.captured(2).isEmpty())
            values.append({QStringLiteral("max_steps"), m.captured(2).toDouble()});
    }
    if (const auto m = timeRe().match(message); m.hasMatch()) {
        if (auto t = toNumber(m.captured(1))) {
            values.append({Time, *t});
            if (!x)
                x = *t;
        }
    }
    auto it = residualRe().globalMatch(message);
    while (it.hasNext()) {
        const auto m = it.next();
        if (auto r = toNumber(m.captured(1)))
            values.append({Residual, *r});
        const QString fields = m.captured(2);
        if (!fields.isEmpty()) {
            auto f = fieldRe().globalMatch(fields);
            while (f.hasNext()) {
                const auto fm = f.next();
                if (auto v = toNumber(fm.captured(2)))
                    values.append({Residual + QLatin1Char('.') + fm.captured(1), *v});
            }
        }
    }
    if (const auto m = percentRe().match(message); m.hasMatch())
        values.append({Percent, m.captured(1).toDouble()});
    if (const auto m = queueRe().match(message); m.hasMatch())
        values.append({QueuePosition, m.captured(1).toDouble()});

    for (const Compiled &t : m_templates) {
        if (!t.tool.isEmpty() && t.tool != tool)
            continue;
        const auto m = t.re.match(message);
        if (!m.hasMatch())
            continue;
        for (const QString &name : t.re.namedCaptureGroups()) {
            if (name.isEmpty())
                continue;
            if (auto v = toNumber(m.captured(name))) {
                if (name == QLatin1String("x") || name == Iteration)
                    x = *v;
                if (name != QLatin1String("x"))
                    values.append({name, *v});
            }
        }
    }

    QList<Store::ProgressSample> out;
    // Never a clock time on x: a message without a counter continues the task's last x.
    const double xv = x.value_or(fallbackX.value_or(0.0));
    for (const auto &[series, y] : values) {
        Store::ProgressSample s;
        s.taskId = taskId;
        s.atMs = atMs;
        s.series = series;
        s.x = xv;
        s.y = y;
        out.append(s);
    }
    return out;
}

QList<Store::ProgressSample> ProgressParser::historySamples(const QString &resultJson, qint64 taskId,
                                                            qint64 atMs)
{
    using json = nlohmann::json;
    QList<Store::ProgressSample> out;
    if (!resultJson.contains(QLatin1String("residual_history")))
        return out;
    const QByteArray utf8 = resultJson.toUtf8();
    const json result = json::parse(utf8.constBegin(), utf8.constEnd(), nullptr, false);
    if (!result.is_object() || !result.contains("structuredContent") || !result["structuredContent"].is_object())
        return out;
    const json &content = result["structuredContent"];
    auto h = content.find("residual_history");
    if (h == content.end() || !h->is_object())
        return out;
    auto it = h->find("iteration");
    if (it == h->end() || !it->is_array() || it->empty())
        return out;
    const json &iterations = *it;
    const std::size_t n = iterations.size();
    std::vector<double> overall(n, -1.0);
    bool ownOverall = false;
    const auto add = [&](const QString &series, std::size_t i, double y) {
        Store::ProgressSample s;
        s.taskId = taskId;
        s.atMs = atMs;
        s.series = series;
        s.x = iterations[i].get<double>();
        s.y = y;
        out.append(s);
    };
    for (auto f = h->begin(); f != h->end(); ++f) {
        if (f.key() == "iteration" || !f->is_array() || f->size() != n)
            continue;
        const QString name = QString::fromStdString(f.key());
        const bool isOverall = name == Residual;
        ownOverall = ownOverall || isOverall;
        for (std::size_t i = 0; i < n; ++i) {
            if (!iterations[i].is_number())
                continue;
            const json &v = (*f)[i];
            // A null marks a blow-up (JSON has no infinity): the chart shows it as off the scale.
            const double y = v.is_number() ? v.get<double>() : std::numeric_limits<double>::infinity();
            if (!v.is_number() && !v.is_null())
                continue;
            add(isOverall ? Residual : Residual + QLatin1Char('.') + name, i, y);
            if (!isOverall)
                overall[i] = std::max(overall[i], y);
        }
    }
    if (!ownOverall) {
        for (std::size_t i = 0; i < n; ++i) {
            if (overall[i] >= 0 && iterations[i].is_number())
                add(Residual, i, overall[i]);
        }
    }
    return out;
}

bool ProgressParser::hasOwnX(const QList<Store::ProgressSample> &samples)
{
    return std::any_of(samples.begin(), samples.end(), [](const Store::ProgressSample &s) {
        return s.series == Iteration || s.series == Step || s.series == Time;
    });
}

} // namespace Eddy::Monitor
