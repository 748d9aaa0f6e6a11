#include "app/vocab/sweepexpander.h"
#include "app/vocab/schemavalidator.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>
#include <numeric>
#include <random>

namespace Eddy::Monitor {

using json = nlohmann::json;

namespace {

constexpr const char *s_keyArgument = "idempotency_key";

json numberValue(double v, bool integer)
{
    if (integer)
        return json(qint64(std::llround(v)));
    // Steps like 0.1 accumulate binary noise: keep 12 significant digits.
    const double rounded = std::stod(QString::number(v, 'g', 12).toStdString());
    return json(rounded);
}

bool addError(QStringList *errors, const QString &e)
{
    if (errors && !errors->contains(e) && errors->size() < 20)
        *errors << e;
    return false;
}

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> row(size_t(b.size()) + 1);
    std::iota(row.begin(), row.end(), 0);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int up = row[size_t(j)];
            row[size_t(j)] = std::min({up + 1, row[size_t(j - 1)] + 1,
                                       diagonal + (a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[size_t(b.size())];
}

QString numberText(double d)
{
    return QString::number(d, 'g', 12);
}

} // namespace

QString SweepExpander::expects(const json &prop)
{
    if (!prop.is_object())
        return {};
    if (const auto e = prop.find("enum"); e != prop.end() && e->is_array()) {
        QStringList options;
        for (const json &o : *e)
            options << QString::fromStdString(o.dump());
        return QStringLiteral("one of %1").arg(options.join(QStringLiteral(", ")));
    }
    const QString type = SchemaValidator::typeOf(prop);
    QString what = type == QLatin1String("integer")   ? QStringLiteral("an integer")
                   : type == QLatin1String("number")  ? QStringLiteral("a number")
                   : type == QLatin1String("string")  ? QStringLiteral("a text in quotes")
                   : type == QLatin1String("boolean") ? QStringLiteral("true or false")
                   : type == QLatin1String("array")   ? QStringLiteral("a list [...]")
                   : type == QLatin1String("object")  ? QStringLiteral("an object {...}")
                                                      : QString();
    if (what.isEmpty())
        return {};
    const auto bound = [&prop](const char *key) -> std::optional<double> {
        const auto it = prop.find(key);
        if (it == prop.end() || !it->is_number())
            return std::nullopt;
        return it->get<double>();
    };
    const auto min = bound("minimum"), max = bound("maximum");
    const auto xmin = bound("exclusiveMinimum"), xmax = bound("exclusiveMaximum");
    if (min && max)
        what += QStringLiteral(" from %1 to %2").arg(numberText(*min), numberText(*max));
    else if (xmin && max)
        what += QStringLiteral(" above %1 and at most %2").arg(numberText(*xmin), numberText(*max));
    else if (min)
        what += QStringLiteral(" of at least %1").arg(numberText(*min));
    else if (xmin)
        what += QStringLiteral(" above %1").arg(numberText(*xmin));
    else if (max)
        what += QStringLiteral(" of at most %1").arg(numberText(*max));
    else if (xmax)
        what += QStringLiteral(" below %1").arg(numberText(*xmax));
    return what;
}

QList<SweepExpander::Problem> SweepExpander::checkArguments(const SweepSpec &spec, const json &inputSchema)
{
    QList<Problem> out;
    const json props = inputSchema.is_object() ? inputSchema.value("properties", json::object()) : json::object();
    const bool hasProps = props.is_object() && !props.empty();
    QStringList names; // the tool's arguments, the key Eddy sets left out
    for (auto it = props.begin(); hasProps && it != props.end(); ++it)
        if (it.key() != s_keyArgument)
            names << QString::fromStdString(it.key());
    const QString accepted = names.join(QStringLiteral(", "));
    // The argument a misspelt key most likely means: close in spelling, or one starts the other.
    const auto likeliest = [&names](const QString &key) {
        QString best;
        // A typo or two, fewer in a short name ("seed" is not "grid").
        const int allowed = std::clamp(int(key.size()) / 3, 1, 3);
        int bestDistance = allowed + 1;
        for (const QString &n : names) {
            int d = editDistance(key, n);
            if (d >= bestDistance && key.size() >= 4 && n.size() >= 4
                && (n.startsWith(key, Qt::CaseInsensitive) || key.startsWith(n, Qt::CaseInsensitive)))
                d = allowed;
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return best;
    };
    const auto unknown = [&](const QString &where, const QString &key) {
        const QString meant = likeliest(key);
        Problem p{key, meant, {}};
        p.text = meant.isEmpty()
                     ? QStringLiteral("%1.%2: the tool %3 has no argument \"%2\" (it accepts: %4)")
                           .arg(where, key, spec.tool, accepted)
                     : QStringLiteral("%1.%2: the tool %3 has no argument \"%2\"; did you mean "
                                      "\"%4\"? (it accepts: %5)")
                           .arg(where, key, spec.tool, meant, accepted);
        out << p;
    };
    for (auto it = spec.fixed.begin(); it != spec.fixed.end(); ++it) {
        const QString key = QString::fromStdString(it.key());
        if (it.key() == s_keyArgument) {
            out << Problem{key, {}, QStringLiteral("fixed.idempotency_key: Eddy sets a unique key for every case; remove it.")};
        } else if (hasProps && !props.contains(it.key())) {
            unknown(QStringLiteral("fixed"), key);
        } else if (hasProps) {
            const json &prop = props[it.key()];
            const QStringList problems
                = SchemaValidator::validate(it.value(), prop, QStringLiteral("fixed.%1").arg(key));
            if (!problems.isEmpty()) {
                const QString wanted = expects(prop);
                out << Problem{key, key,
                               wanted.isEmpty() ? problems.join(QStringLiteral("; "))
                                                : QStringLiteral("%1 (the tool %2 expects %3)")
                                                      .arg(problems.join(QStringLiteral("; ")), spec.tool, wanted)};
            }
        }
    }
    for (const SweepAxis &axis : spec.axes) {
        if (axis.name == QLatin1String(s_keyArgument))
            out << Problem{axis.name, {}, QStringLiteral("vary.idempotency_key: Eddy sets a unique key for every case; remove it.")};
        else if (hasProps && !props.contains(axis.name.toStdString()))
            unknown(QStringLiteral("vary"), axis.name);
    }
    return out;
}

std::vector<std::vector<double>> SweepExpander::latinHypercube(int n, int dims, quint64 seed)
{
    // mt19937_64 is specified bit-for-bit by the standard; distributions are not, so the
    // uniform draw and the shuffle are written out to keep a seed's cases the same everywhere.
    std::mt19937_64 rng(seed);
    auto uniform = [&rng] { return double(rng() >> 11) * (1.0 / 9007199254740992.0); };
    std::vector<std::vector<double>> points(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(dims)));
    std::vector<int> perm(static_cast<size_t>(n));
    for (int d = 0; d < dims; ++d) {
        std::iota(perm.begin(), perm.end(), 0);
        for (int i = n - 1; i > 0; --i)
            std::swap(perm[size_t(i)], perm[size_t(rng() % quint64(i + 1))]);
        for (int i = 0; i < n; ++i)
            points[size_t(i)][size_t(d)] = (perm[size_t(i)] + uniform()) / n;
    }
    return points;
}

std::optional<std::vector<json>> SweepExpander::expand(const SweepSpec &spec, const json &inputSchema,
                                                       QStringList *errors)
{
    const json props = inputSchema.is_object() ? inputSchema.value("properties", json::object()) : json::object();
    bool ok = true;
    for (const Problem &p : checkArguments(spec, inputSchema))
        ok = addError(errors, p.text);
    if (!ok)
        return std::nullopt;

    // Values of each axis (grid) or the axis' mapping from [0,1) (lhs).
    auto isInteger = [&](const QString &name) {
        return SchemaValidator::typeOf(props.value(name.toStdString(), json::object())) == QLatin1String("integer");
    };
    std::vector<std::vector<json>> axisValues;
    for (const SweepAxis &axis : spec.axes) {
        std::vector<json> values;
        const bool integer = isInteger(axis.name);
        if (axis.kind == SweepAxis::Kind::List) {
            values = axis.values;
        } else if (axis.kind == SweepAxis::Kind::Range) {
            const double span = (axis.to - axis.from) / axis.step;
            if (span > MaxCases) {
                addError(errors, QStringLiteral("vary.%1.range gives more than %2 values; use a larger step.").arg(axis.name).arg(MaxCases));
                return std::nullopt;
            }
            const int count = int(std::floor(span + 1e-9)) + 1;
            if (integer && (std::floor(axis.from) != axis.from || std::floor(axis.step) != axis.step)) {
                addError(errors, QStringLiteral("vary.%1.range: %1 is an integer argument, so from and step must be whole numbers.").arg(axis.name));
                return std::nullopt;
            }
            for (int i = 0; i < count; ++i)
                values.push_back(numberValue(axis.from + i * axis.step, integer));
        }
        axisValues.push_back(std::move(values));
    }

    std::vector<json> cases;
    if (spec.mode == SweepSpec::Mode::Grid) {
        double total = 1;
        for (const auto &v : axisValues)
            total *= double(v.size());
        if (total > MaxCases) {
            addError(errors, QStringLiteral("The grid has %1 cases; the limit is %2. Use fewer values or an lhs sweep.")
                                 .arg(total, 0, 'f', 0).arg(MaxCases));
            return std::nullopt;
        }
        std::vector<size_t> idx(axisValues.size(), 0);
        for (qint64 c = 0; c < qint64(total); ++c) {
            json args = spec.fixed;
            for (size_t a = 0; a < axisValues.size(); ++a)
                args[spec.axes[a].name.toStdString()] = axisValues[a][idx[a]];
            cases.push_back(std::move(args));
            // Odometer: the last axis varies fastest.
            for (size_t a = axisValues.size(); a-- > 0;) {
                if (++idx[a] < axisValues[a].size())
                    break;
                idx[a] = 0;
            }
        }
    } else {
        if (spec.samples > MaxCases) {
            addError(errors, QStringLiteral("samples: %1 is above the limit of %2 cases.").arg(spec.samples).arg(MaxCases));
            return std::nullopt;
        }
        const auto points = latinHypercube(spec.samples, int(spec.axes.size()), spec.seed);
        for (const auto &p : points) {
            json args = spec.fixed;
            for (size_t a = 0; a < spec.axes.size(); ++a) {
                const SweepAxis &axis = spec.axes[a];
                json v;
                if (axis.kind == SweepAxis::Kind::List) {
                    const size_t i = std::min(axis.values.size() - 1, size_t(p[a] * double(axis.values.size())));
                    v = axis.values[i];
                } else {
                    v = numberValue(axis.min + p[a] * (axis.max - axis.min), isInteger(axis.name));
                }
                args[axis.name.toStdString()] = v;
            }
            cases.push_back(std::move(args));
        }
    }

    // Every case against the schema, with a stand-in key where the tool takes one (Eddy adds
    // the real key when journalling).
    const bool takesKey = props.is_object() && props.contains(s_keyArgument);
    int shown = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        json probe = cases[i];
        if (takesKey)
            probe[s_keyArgument] = "eddy-key-check";
        const QStringList problems = SchemaValidator::validate(probe, inputSchema);
        if (!problems.isEmpty()) {
            ok = false;
            for (const QString &p : problems) {
                if (shown < 10 && errors && !errors->contains(p)) {
                    *errors << QStringLiteral("case %1: %2").arg(i + 1).arg(p);
                    ++shown;
                }
            }
        }
    }
    if (cases.empty()) {
        addError(errors, QStringLiteral("The sweep has no cases."));
        return std::nullopt;
    }
    if (!ok)
        return std::nullopt;
    return cases;
}

} // namespace Eddy::Monitor
