#include "app/monitor/sweepexpander.h"
#include "app/monitor/schemavalidator.h"

#include <QSet>

#include <cmath>
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

} // namespace

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
    const bool hasProps = props.is_object() && !props.empty();
    bool ok = true;
    auto known = [&](const std::string &name) { return !hasProps || props.contains(name); };
    auto knownList = [&] {
        QStringList names;
        for (auto it = props.begin(); it != props.end(); ++it)
            if (it.key() != s_keyArgument)
                names << QString::fromStdString(it.key());
        return names.join(QStringLiteral(", "));
    };
    for (auto it = spec.fixed.begin(); it != spec.fixed.end(); ++it) {
        if (it.key() == s_keyArgument)
            ok = addError(errors, QStringLiteral("fixed.idempotency_key: Eddy sets a unique key for every case; remove it."));
        else if (!known(it.key()))
            ok = addError(errors, QStringLiteral("fixed.%1: the tool %2 has no such argument (it accepts: %3)")
                                      .arg(QString::fromStdString(it.key()), spec.tool, knownList()));
    }
    for (const SweepAxis &axis : spec.axes) {
        if (axis.name == QLatin1String(s_keyArgument))
            ok = addError(errors, QStringLiteral("vary.idempotency_key: Eddy sets a unique key for every case; remove it."));
        else if (!known(axis.name.toStdString()))
            ok = addError(errors, QStringLiteral("vary.%1: the tool %2 has no such argument (it accepts: %3)")
                                      .arg(axis.name, spec.tool, knownList()));
    }
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
