#include "models/sweepreportreader.h"

#include "app/vocab/jsonfield.h"
#include "app/monitor/engine.h"
#include "models/resultcurves.h"

#include <QDateTime>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <map>

namespace Eddy {

using json = nlohmann::ordered_json;

namespace {

json parse(const QString &text)
{
    return Json::parseText<json>(text);
}

QString valueText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

// How the spec gives a varied parameter's values: a list, a range, or the JSON as written.
QString variedText(const json &v)
{
    if (v.is_object() && v.contains("list") && v["list"].is_array()) {
        QStringList values;
        for (const json &x : v["list"])
            values << valueText(x);
        return values.join(QStringLiteral(", "));
    }
    if (v.is_object() && v.contains("range") && v["range"].is_object()) {
        const json &r = v["range"];
        return SweepReportReader::tr("%1 to %2 in steps of %3")
            .arg(valueText(r.value("from", json())), valueText(r.value("to", json())),
                 valueText(r.value("step", json())));
    }
    return valueText(v);
}

QString errorText(const QString &errorJson)
{
    const json e = parse(errorJson);
    if (e.is_object() && e.value("message", json()).is_string())
        return QString::fromStdString(e["message"].get<std::string>());
    return errorJson;
}

QList<QPair<QString, std::vector<QPointF>>> residualsFromResult(const QString &resultJson)
{
    QList<QPair<QString, std::vector<QPointF>>> out;
    static const QString prefix = QStringLiteral("residual_history.");
    for (const ResultCurve &c : resultCurves(resultJson)) {
        if (c.name.startsWith(prefix) && c.name != prefix + QStringLiteral("iteration"))
            out << qMakePair(c.name.mid(prefix.size()), c.points);
    }
    return out;
}

// The residual series of the progress samples: "residual.u" -> u, "residual" -> residual.
QList<QPair<QString, std::vector<QPointF>>> residualsFromSamples(const QList<Store::ProgressSample> &samples)
{
    std::map<QString, std::vector<QPointF>> bySeries;
    for (const Store::ProgressSample &s : samples) {
        if (s.series == QLatin1String("residual"))
            bySeries[s.series].push_back(QPointF(s.x, s.y));
        else if (s.series.startsWith(QLatin1String("residual.")))
            bySeries[s.series.mid(9)].push_back(QPointF(s.x, s.y));
    }
    QList<QPair<QString, std::vector<QPointF>>> out;
    for (auto &[name, points] : bySeries) {
        if (points.size() >= 2)
            out << qMakePair(name, std::move(points));
    }
    return out;
}

// A server without a name as "host:port": the report holds no address a browser could follow.
QString hostAndPort(const QString &url)
{
    const QUrl u(url);
    return u.port() > 0 ? QStringLiteral("%1:%2").arg(u.host()).arg(u.port()) : u.host();
}

} // namespace

bool SweepReportReader::hasResidualHistory(const QString &resultJson)
{
    return resultJson.contains(QLatin1String("\"residual_history\""));
}

QString SweepReportReader::answerText(const QString &elicitResultJson)
{
    const json a = parse(elicitResultJson);
    if (!a.is_object())
        return elicitResultJson;
    const std::string action = a.value("action", std::string());
    if (action == "decline")
        return tr("declined");
    if (action == "cancel")
        return tr("cancelled");
    QStringList parts;
    if (a.contains("content") && a["content"].is_object()) {
        for (auto it = a["content"].begin(); it != a["content"].end(); ++it)
            parts << tr("%1 = %2").arg(QString::fromStdString(it.key()), valueText(it.value()));
    }
    return parts.isEmpty() ? tr("accepted") : parts.join(QStringLiteral(", "));
}

SweepReportInput SweepReportReader::fromRecords(const Records &r)
{
    SweepReportInput in;
    in.sweepNumber = r.sweep.id;
    in.tool = r.sweep.tool;
    in.server = r.server;
    in.session = r.session;
    in.createdAtMs = r.sweep.createdAtMs;
    in.tags = r.sweep.tags;
    in.baselineIndex = r.baselineIndex;
    if (!r.sweep.note.isEmpty())
        in.notes << SweepReportInput::Note{r.sweep.note, QString(), 0};
    in.generatedAtMs = QDateTime::currentMSecsSinceEpoch();
    const json spec = parse(r.sweep.spec);
    if (spec.is_object()) {
        in.concurrency = spec.value("concurrency", r.sweep.concurrency);
        if (spec.value("mode", json()).is_string())
            in.mode = QString::fromStdString(spec["mode"].get<std::string>());
        if (spec.value("vary", json()).is_object()) {
            for (auto it = spec["vary"].begin(); it != spec["vary"].end(); ++it)
                in.varied << qMakePair(QString::fromStdString(it.key()), variedText(it.value()));
        }
        if (spec.value("fixed", json()).is_object()) {
            for (auto it = spec["fixed"].begin(); it != spec["fixed"].end(); ++it)
                in.fixed << qMakePair(QString::fromStdString(it.key()), valueText(it.value()));
        }
    }
    QStringList varied;
    for (const auto &v : std::as_const(in.varied))
        varied << v.first;
    const Monitor::SweepExport::Table table = Monitor::SweepExport::table(r.rows, varied);
    in.argumentColumns = table.argumentColumns;
    in.resultColumns = table.resultColumns;
    in.variedCount = int(varied.size());
    for (qsizetype i = 0; i < r.rows.size(); ++i) {
        const Monitor::SweepExport::Row &row = r.rows[i];
        const auto &line = table.lines[i];
        SweepReportInput::Case c;
        c.index = row.c.index;
        c.tags = row.c.tags;
        if (!row.c.note.isEmpty())
            c.notes << SweepReportInput::Note{row.c.note, QString(), 0};
        c.status = line.status;
        c.arguments = line.arguments;
        c.results = line.results;
        c.submitted = line.outcome != QLatin1String("not_submitted");
        if (row.task) {
            c.taskNumber = row.task->id;
            c.outcome = Monitor::outcomeOf(*row.task);
            if (!row.task->error.isEmpty())
                c.error = errorText(row.task->error);
            c.residuals = residualsFromResult(row.task->result);
            if (c.residuals.isEmpty())
                c.residuals = residualsFromSamples(r.samples.value(row.task->id));
            for (const Store::InputRequestRecord &q : r.questions.value(row.task->id)) {
                SweepReportInput::Question out;
                const json req = parse(q.request);
                const json params = req.is_object() ? req.value("params", json::object()) : json::object();
                out.message = params.value("message", json()).is_string()
                                  ? QString::fromStdString(params["message"].get<std::string>())
                                  : QString();
                if (!q.answer.isEmpty() && q.state != Store::InputState::Pending)
                    out.answer = answerText(q.answer);
                out.answeredBy = q.answeredBy;
                out.state = q.state;
                out.askedAtMs = q.firstSeenAtMs;
                out.answeredAtMs = q.answeredAtMs;
                c.questions << out;
            }
        } else if (row.c.state == Store::CaseState::Rejected) {
            c.outcome = Monitor::Outcome::Failed;
            c.error = errorText(row.c.error);
        }
        in.cases << c;
    }
    return in;
}

std::optional<SweepReportInput> SweepReportReader::read(Monitor::Engine &engine, qint64 sweepId)
{
    const auto sweep = engine.catalogue().sweep(sweepId);
    if (!sweep)
        return std::nullopt;
    Records r;
    r.sweep = *sweep;
    if (const auto server = engine.catalogue().server(sweep->serverId))
        r.server = server->name.isEmpty() ? hostAndPort(server->url) : server->name;
    if (sweep->sessionId) {
        for (const Store::SessionRecord &s : engine.catalogue().sessions()) {
            if (s.id == *sweep->sessionId)
                r.session = s.name;
        }
    }
    r.rows = engine.catalogue().exportRows(sweepId);
    if (sweep->baselineCaseId) {
        for (const Store::CaseRecord &c : engine.catalogue().cases(sweepId))
            if (c.id == *sweep->baselineCaseId)
                r.baselineIndex = c.index;
    }
    for (const auto &row : std::as_const(r.rows)) {
        if (!row.task)
            continue;
        r.questions.insert(row.task->id, engine.catalogue().inputRequests(row.task->id));
        if (!hasResidualHistory(row.task->result))
            r.samples.insert(row.task->id, engine.catalogue().progressSamples(row.task->id));
    }
    return fromRecords(r);
}

} // namespace Eddy
