#include "models/reviewfilter.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace Eddy {

using json = nlohmann::json;

namespace {
constexpr int s_version = 1;
constexpr Monitor::Outcome s_allOutcomes[] = {
    Monitor::Outcome::Working,      Monitor::Outcome::NeedsInput, Monitor::Outcome::Converged,
    Monitor::Outcome::Completed,    Monitor::Outcome::NotConverged, Monitor::Outcome::ToolError,
    Monitor::Outcome::Failed,       Monitor::Outcome::Cancelled,  Monitor::Outcome::Expired,
    Monitor::Outcome::Lost};
} // namespace

std::optional<Monitor::Outcome> ReviewFilter::outcomeFromKey(const QString &key)
{
    for (const Monitor::Outcome o : s_allOutcomes)
        if (Monitor::OutcomeText::key(o) == key)
            return o;
    return std::nullopt;
}

QByteArray ReviewFilter::toJson() const
{
    json j{{"eddyFilter", s_version}};
    json r = json::object();
    for (auto it = ranges.cbegin(); it != ranges.cend(); ++it) {
        json range = json::object();
        if (it->min)
            range["min"] = *it->min;
        if (it->max)
            range["max"] = *it->max;
        r[it.key().toStdString()] = range;
    }
    if (!r.empty())
        j["ranges"] = r;
    QStringList keys;
    for (const Monitor::Outcome o : outcomes)
        keys << Monitor::OutcomeText::key(o);
    keys.sort();
    if (!keys.isEmpty()) {
        j["outcomes"] = json::array();
        for (const QString &k : keys)
            j["outcomes"].push_back(k.toStdString());
    }
    if (!tags.isEmpty()) {
        j["tags"] = json::array();
        for (const QString &t : tags)
            j["tags"].push_back(t.toStdString());
    }
    if (!text.trimmed().isEmpty())
        j["text"] = text.trimmed().toStdString();
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

std::optional<ReviewFilter> ReviewFilter::fromJson(const QByteArray &data, QString *error)
{
    const json j = json::parse(data.constBegin(), data.constEnd(), nullptr, false);
    const auto bad = [error](const QString &why) {
        *error = why;
        return std::nullopt;
    };
    if (j.is_discarded() || !j.is_object())
        return bad(tr("The file is not JSON. A filter file is written by Save Filter...; choose "
                      "one of those."));
    if (!j.contains("eddyFilter"))
        return bad(tr("The file is JSON but not an Eddy filter (it has no \"eddyFilter\" key). "
                      "Choose a file written by Save Filter...."));
    if (!j["eddyFilter"].is_number_integer() || j["eddyFilter"].get<int>() != s_version)
        return bad(tr("The filter file was written by another version of Eddy (\"eddyFilter\": "
                      "%1; this Eddy reads %2). Save the filter again with this Eddy.")
                       .arg(QString::fromStdString(j["eddyFilter"].dump()))
                       .arg(s_version));
    ReviewFilter f;
    const json ranges = j.value("ranges", json::object());
    if (!ranges.is_object())
        return bad(tr("\"ranges\" must be an object of {\"min\": number, \"max\": number} by "
                      "name."));
    for (auto it = ranges.begin(); it != ranges.end(); ++it) {
        const QString name = QString::fromStdString(it.key());
        if (!it->is_object())
            return bad(tr("The range of \"%1\" must be an object like {\"min\": 100, \"max\": "
                          "400}.").arg(name));
        Range r;
        for (const char *end : {"min", "max"}) {
            if (!it->contains(end) || (*it)[end].is_null())
                continue;
            if (!(*it)[end].is_number())
                return bad(tr("The %1 of \"%2\" must be a number.").arg(QLatin1String(end), name));
            (std::string(end) == "min" ? r.min : r.max) = (*it)[end].get<double>();
        }
        if (r.min && r.max && *r.min > *r.max)
            return bad(tr("The range of \"%1\" has its min above its max.").arg(name));
        f.ranges.insert(name, r);
    }
    const json outcomes = j.value("outcomes", json::array());
    if (!outcomes.is_array())
        return bad(tr("\"outcomes\" must be a list such as [\"failed\", \"not_converged\"]."));
    for (const json &o : outcomes) {
        const auto outcome = o.is_string() ? outcomeFromKey(QString::fromStdString(o.get<std::string>()))
                                           : std::nullopt;
        if (!outcome) {
            QStringList known;
            for (const Monitor::Outcome k : s_allOutcomes)
                known << Monitor::OutcomeText::key(k);
            return bad(tr("Unknown outcome %1; use %2.")
                           .arg(QString::fromStdString(o.dump()), known.join(QStringLiteral(", "))));
        }
        f.outcomes.insert(*outcome);
    }
    const json tags = j.value("tags", json::array());
    if (!tags.is_array() || !std::all_of(tags.begin(), tags.end(), [](const json &t) { return t.is_string(); }))
        return bad(tr("\"tags\" must be a list of words such as [\"suspect\"]."));
    for (const json &t : tags)
        f.tags << QString::fromStdString(t.get<std::string>());
    const json text = j.value("text", json(""));
    if (!text.is_string())
        return bad(tr("\"text\" must be a string of words."));
    f.text = QString::fromStdString(text.get<std::string>());
    return f;
}

} // namespace Eddy
