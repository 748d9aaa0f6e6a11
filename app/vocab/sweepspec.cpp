#include "app/vocab/sweepspec.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace Eddy::Monitor {

using json = nlohmann::ordered_json;

namespace {

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

bool number(const json &obj, const char *key, double *out)
{
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return false;
    *out = it->get<double>();
    return std::isfinite(*out);
}

bool parseAxis(const QString &name, const json &def, SweepAxis *axis, QString *error)
{
    axis->name = name;
    if (!def.is_object() || def.size() < 1)
        return fail(error, QStringLiteral("vary.%1 must be an object such as {\"list\": [...]}, "
                                          "{\"range\": {\"from\", \"to\", \"step\"}} or {\"min\", \"max\"}").arg(name));
    if (def.contains("list")) {
        if (def.size() != 1)
            return fail(error, QStringLiteral("vary.%1: \"list\" cannot be combined with other keys").arg(name));
        const json &list = def["list"];
        if (!list.is_array() || list.empty())
            return fail(error, QStringLiteral("vary.%1.list must be a non-empty array of values").arg(name));
        axis->kind = SweepAxis::Kind::List;
        for (const json &v : list)
            axis->values.push_back(nlohmann::json(v));
        return true;
    }
    if (def.contains("range")) {
        if (def.size() != 1)
            return fail(error, QStringLiteral("vary.%1: \"range\" cannot be combined with other keys").arg(name));
        const json &r = def["range"];
        if (!r.is_object())
            return fail(error, QStringLiteral("vary.%1.range must be {\"from\": a, \"to\": b, \"step\": s}").arg(name));
        for (auto it = r.begin(); it != r.end(); ++it)
            if (it.key() != "from" && it.key() != "to" && it.key() != "step")
                return fail(error, QStringLiteral("vary.%1.range: unknown key \"%2\" (use from, to, step)")
                                       .arg(name, QString::fromStdString(it.key())));
        if (!number(r, "from", &axis->from) || !number(r, "to", &axis->to) || !number(r, "step", &axis->step))
            return fail(error, QStringLiteral("vary.%1.range needs numeric from, to and step").arg(name));
        if (axis->step <= 0)
            return fail(error, QStringLiteral("vary.%1.range.step must be greater than 0").arg(name));
        if (axis->to < axis->from)
            return fail(error, QStringLiteral("vary.%1.range: to (%2) is below from (%3)").arg(name).arg(axis->to).arg(axis->from));
        axis->kind = SweepAxis::Kind::Range;
        return true;
    }
    if (def.contains("min") || def.contains("max")) {
        for (auto it = def.begin(); it != def.end(); ++it)
            if (it.key() != "min" && it.key() != "max")
                return fail(error, QStringLiteral("vary.%1: unknown key \"%2\" (use min and max)")
                                       .arg(name, QString::fromStdString(it.key())));
        if (!number(def, "min", &axis->min) || !number(def, "max", &axis->max))
            return fail(error, QStringLiteral("vary.%1 needs numeric min and max").arg(name));
        if (axis->max < axis->min)
            return fail(error, QStringLiteral("vary.%1: max (%2) is below min (%3)").arg(name).arg(axis->max).arg(axis->min));
        axis->kind = SweepAxis::Kind::Interval;
        return true;
    }
    return fail(error, QStringLiteral("vary.%1: unknown key \"%2\" (use list, range, or min/max)")
                           .arg(name, QString::fromStdString(def.begin().key())));
}

} // namespace

std::optional<SweepSpec> SweepSpec::fromText(const QByteArray &text, QString *error)
{
    const json doc = json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (doc.is_discarded()) {
        fail(error, QStringLiteral("The sweep file is not valid JSON; check brackets, commas and quotes."));
        return std::nullopt;
    }
    return fromJson(doc, error);
}

std::optional<SweepSpec> SweepSpec::fromJson(const nlohmann::json &doc, QString *error)
{
    return fromJson(json(doc), error);
}

std::optional<SweepSpec> SweepSpec::fromJson(const json &doc, QString *error)
{
    if (!doc.is_object()) {
        fail(error, QStringLiteral("A sweep file is a JSON object with \"tool\", \"fixed\", \"vary\" and \"mode\"."));
        return std::nullopt;
    }
    static const QSet<QString> known{QStringLiteral("tool"), QStringLiteral("fixed"), QStringLiteral("vary"),
                                     QStringLiteral("mode"), QStringLiteral("samples"), QStringLiteral("seed"),
                                     QStringLiteral("concurrency"), QStringLiteral("description")};
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (!known.contains(QString::fromStdString(it.key()))) {
            fail(error, QStringLiteral("Unknown key \"%1\" in the sweep file (known: tool, fixed, vary, "
                                       "mode, samples, seed, concurrency, description).")
                            .arg(QString::fromStdString(it.key())));
            return std::nullopt;
        }
    }
    SweepSpec spec;
    spec.raw = doc;
    if (!doc.contains("tool") || !doc["tool"].is_string() || doc["tool"].get<std::string>().empty()) {
        fail(error, QStringLiteral("The sweep file needs \"tool\": the name of the tool to call."));
        return std::nullopt;
    }
    spec.tool = QString::fromStdString(doc["tool"].get<std::string>());
    if (doc.contains("fixed")) {
        if (!doc["fixed"].is_object()) {
            fail(error, QStringLiteral("\"fixed\" must be an object of argument values."));
            return std::nullopt;
        }
        spec.fixed = nlohmann::json(doc["fixed"]);
    }
    if (doc.contains("description")) {
        if (!doc["description"].is_string()) {
            fail(error, QStringLiteral("\"description\" must be a text in quotes."));
            return std::nullopt;
        }
        spec.description = QString::fromStdString(doc["description"].get<std::string>());
    }
    const json modeValue = doc.value("mode", json("grid"));
    const std::string mode = modeValue.is_string() ? modeValue.get<std::string>() : std::string();
    if (mode != "grid" && mode != "lhs") {
        fail(error, QStringLiteral("\"mode\" must be \"grid\" or \"lhs\"."));
        return std::nullopt;
    }
    spec.mode = mode == "lhs" ? Mode::LatinHypercube : Mode::Grid;
    if (doc.contains("vary")) {
        const json &vary = doc["vary"];
        if (!vary.is_object()) {
            fail(error, QStringLiteral("\"vary\" must be an object: argument name -> how it varies."));
            return std::nullopt;
        }
        for (auto it = vary.begin(); it != vary.end(); ++it) {
            const QString name = QString::fromStdString(it.key());
            if (spec.fixed.contains(it.key())) {
                fail(error, QStringLiteral("\"%1\" is both fixed and varied; keep it in one place.").arg(name));
                return std::nullopt;
            }
            SweepAxis axis;
            if (!parseAxis(name, it.value(), &axis, error))
                return std::nullopt;
            if (spec.mode == Mode::LatinHypercube && axis.kind == SweepAxis::Kind::Range) {
                fail(error, QStringLiteral("vary.%1: lhs mode uses {\"min\", \"max\"} or a list, not a range.").arg(name));
                return std::nullopt;
            }
            if (spec.mode == Mode::Grid && axis.kind == SweepAxis::Kind::Interval) {
                fail(error, QStringLiteral("vary.%1: {\"min\", \"max\"} needs \"mode\": \"lhs\"; grid mode uses list or range.").arg(name));
                return std::nullopt;
            }
            spec.axes.push_back(axis);
            spec.variedOrder << name;
        }
        std::stable_sort(spec.axes.begin(), spec.axes.end(),
                         [](const SweepAxis &a, const SweepAxis &b) { return a.name.toStdString() < b.name.toStdString(); });
    }
    if (spec.mode == Mode::LatinHypercube) {
        if (!doc.contains("samples") || !doc["samples"].is_number_integer() || doc["samples"].get<qint64>() < 1) {
            fail(error, QStringLiteral("lhs mode needs \"samples\": a whole number of cases, at least 1."));
            return std::nullopt;
        }
        spec.samples = int(std::min<qint64>(doc["samples"].get<qint64>(), 1000000));
        if (doc.contains("seed")) {
            if (!doc["seed"].is_number_integer()) {
                fail(error, QStringLiteral("\"seed\" must be a whole number."));
                return std::nullopt;
            }
            spec.seed = quint64(doc["seed"].get<qint64>());
        }
    } else if (doc.contains("samples") || doc.contains("seed")) {
        fail(error, QStringLiteral("\"samples\" and \"seed\" belong to \"mode\": \"lhs\"; remove them for a grid."));
        return std::nullopt;
    }
    if (doc.contains("concurrency")) {
        if (!doc["concurrency"].is_number_integer() || doc["concurrency"].get<qint64>() < 1
            || doc["concurrency"].get<qint64>() > 256) {
            fail(error, QStringLiteral("\"concurrency\" must be a whole number from 1 to 256."));
            return std::nullopt;
        }
        spec.concurrency = int(doc["concurrency"].get<qint64>());
    }
    return spec;
}

} // namespace Eddy::Monitor
