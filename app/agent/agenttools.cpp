#include "app/agent/agenttools.h"
#include "app/agent/agenttools_p.h"

#include "app/agent/log.h"
#include "app/monitor/engine.h"
#include "app/monitor/progressanalyzer.h"

#include <QDateTime>

#include <algorithm>

using nlohmann::json;

namespace Eddy::Agent {

AgentTools::AgentTools(Monitor::Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    qRegisterMetaType<Eddy::Agent::ToolOutcome>();
}

AgentTools::~AgentTools()
{
    if (m_op) {
        for (const auto &c : std::as_const(m_op->connections))
            disconnect(c);
        delete m_op;
    }
}

QList<qint64> AgentTools::serversWithoutTools()
{
    QList<qint64> out;
    if (!m_engine)
        return out;
    for (const Store::ServerRecord &s : m_engine->catalogue().servers())
        if (s.tools.trimmed().isEmpty())
            out << s.id;
    return out;
}

json AgentTools::definitions()
{
    json out = eddyTools();
    m_mcpTools.clear();
    if (!m_engine)
        return out;
    const QList<Store::ServerRecord> servers = m_engine->catalogue().servers();
    QHash<QString, int> nameCount;
    QList<std::pair<Store::ServerRecord, json>> all;
    for (const Store::ServerRecord &s : servers) {
        const json tools = parseJson(s.tools);
        if (!tools.is_array())
            continue;
        for (const json &t : tools) {
            if (!t.is_object() || !t.contains("name") || !t["name"].is_string())
                continue;
            ++nameCount[Json::string(t, "name")];
            all.push_back({s, t});
        }
    }
    for (const auto &[server, t] : all) {
        const QString tool = Json::string(t, "name");
        // Names clash across servers or with Eddy's own tools: prefix the server number.
        static const QStringList own = {QStringLiteral("submit_sweep"), QStringLiteral("list_tasks"),
                                        QStringLiteral("get_task"), QStringLiteral("get_result"),
                                        QStringLiteral("cancel_task"), QStringLiteral("answer_input")};
        QString offered = tool;
        if (nameCount.value(tool) > 1 || own.contains(tool))
            offered = QStringLiteral("s%1_%2").arg(server.id).arg(tool);
        const json annotations = t.value("annotations", json::object());
        // MCP defaults: readOnlyHint false, destructiveHint true.
        const bool readOnly = annotations.is_object() && annotations.value("readOnlyHint", false);
        const bool destructive = !readOnly && annotations.is_object()
                                 && annotations.value("destructiveHint", true);
        m_mcpTools.insert(offered, McpTool{server.id, tool, destructive});
        const QString serverName = server.name.isEmpty() ? server.url : server.name;
        const QString description = QStringLiteral("MCP tool \"%1\" of server %2 (%3). Calling it "
                                                   "starts an Eddy task and returns its task number "
                                                   "at once. %4%5")
                                        .arg(tool).arg(server.id).arg(serverName, toolDescriptionPrefix(),
                                                                      Json::string(t, "description"));
        json schema = t.value("inputSchema", json::object());
        if (schema.is_object() && schema.contains("properties") && schema["properties"].is_object())
            schema["properties"].erase("idempotency_key"); // Eddy supplies it
        out.push_back({{"type", "function"},
                       {"function",
                        {{"name", offered.toStdString()},
                         {"description", description.toStdString()},
                         {"parameters", schema}}}});
    }
    return out;
}

AgentTools::Confirmation AgentTools::confirmation(const QString &name, const json &arguments, QString *why)
{
    if (name == QLatin1String("answer_input")) {
        if (why)
            *why = tr("Send this answer to task #%1: %2")
                       .arg(integer(arguments, "task").value_or(0))
                       .arg(QString::fromStdString(arguments.value("answer", json::object()).dump()));
        return Confirmation::NeedsPerson;
    }
    if (name == QLatin1String("cancel_task")) {
        if (why)
            *why = tr("Cancel task #%1.").arg(integer(arguments, "task").value_or(0));
        return Confirmation::Needed;
    }
    if (m_mcpTools.isEmpty())
        definitions();
    const auto it = m_mcpTools.constFind(name);
    if (it != m_mcpTools.constEnd() && it->destructive) {
        if (why)
            *why = tr("Call %1 (the server marks it destructive) with %2.")
                       .arg(it->tool, compactArguments(arguments));
        return Confirmation::Needed;
    }
    return Confirmation::NotNeeded;
}

QString AgentTools::scrub(const QString &text)
{
    QString out = text;
    const json j = parseJson(text);
    if (!j.is_discarded() && (j.is_object() || j.is_array())) {
        json copy = j;
        stripIds(copy);
        out = QString::fromStdString(copy.dump());
    }
    if (m_engine && m_engine->isOpen())
        for (const QString &id : m_engine->catalogue().serverTaskIds())
            if (id.size() >= 4)
                out.replace(id, QStringLiteral("[server task id withheld]"));
    return out;
}

QString AgentTools::verdict(const Store::TaskRecord &t)
{
    switch (t.status) {
    case Store::TaskStatus::Working:
        return QStringLiteral("working");
    case Store::TaskStatus::InputRequired:
        return QStringLiteral("waiting for the user's answer");
    case Store::TaskStatus::Failed:
        return QStringLiteral("failed");
    case Store::TaskStatus::Cancelled:
        return QStringLiteral("cancelled");
    case Store::TaskStatus::Expired:
        return QStringLiteral("expired (the server forgot it before a result was stored)");
    case Store::TaskStatus::Lost:
        return QStringLiteral("lost (the server does not know it)");
    case Store::TaskStatus::Completed:
        break;
    }
    if (t.isToolError)
        return QStringLiteral("completed with a tool error");
    const json r = parseJson(t.result);
    const json sc = r.is_object() ? r.value("structuredContent", json()) : json();
    if (sc.is_object() && sc.contains("converged") && sc["converged"].is_boolean()) {
        QString v = sc["converged"].get<bool>() ? QStringLiteral("converged") : QStringLiteral("not converged");
        if (sc.contains("iterations") && sc["iterations"].is_number())
            v += QStringLiteral(" (%1 iterations)").arg(QString::fromStdString(sc["iterations"].dump()));
        return QStringLiteral("completed, ") + v;
    }
    return QStringLiteral("completed");
}

QString AgentTools::taskLine(const Store::TaskRecord &t)
{
    return QStringLiteral("#%1 %2 %3: %4")
        .arg(t.id)
        .arg(t.tool, compactArguments(shownArguments(t.arguments)), verdict(t));
}

json AgentTools::taskSummary(const Store::TaskRecord &t, bool detailed)
{
    json j = {{"task", t.id},
              {"tool", t.tool.toStdString()},
              {"arguments", shownArguments(t.arguments)},
              {"status", Store::toText(t.status).toStdString()},
              {"verdict", verdict(t).toStdString()}};
    if (t.sweepId)
        j["sweep"] = *t.sweepId;
    if (!t.statusMessage.isEmpty())
        j["status_message"] = t.statusMessage.left(300).toStdString();
    if (t.cancelRequested && t.isLive())
        j["cancel_requested"] = true;
    if (!detailed)
        return j;
    if (m_engine && t.isLive()) {
        const auto e = Monitor::ProgressAnalyzer::analyse(m_engine->catalogue().progressSamples(t.id));
        json p = json::object();
        if (e.fraction)
            p["fraction"] = *e.fraction;
        if (e.etaMs)
            p["eta_seconds"] = *e.etaMs / 1000;
        if (e.residual)
            p["residual"] = *e.residual;
        p["trend"] = Monitor::ProgressAnalyzer::toString(e.verdict).toStdString();
        j["progress"] = p;
    }
    if (!t.result.isEmpty()) {
        const json r = parseJson(t.result);
        j["result_summary"] = resultText(r).left(600).toStdString();
    }
    if (!t.error.isEmpty())
        j["error"] = t.error.left(600).toStdString();
    if (m_engine) {
        const QList<QString> sessions = m_engine->catalogue().sessionNamesOfTask(t.id);
        json s = json::array();
        for (const QString &name : sessions)
            s.push_back(name.toStdString());
        j["sessions"] = s;
    }
    return j;
}

ToolOutcome AgentTools::fail(const QString &message)
{
    ToolOutcome o;
    o.ok = false;
    o.content = QString::fromStdString(json{{"error", message.toStdString()}}.dump());
    o.card = message;
    return o;
}

void AgentTools::complete(ToolOutcome outcome)
{
    if (!m_op)
        return;
    Operation *op = m_op;
    m_op = nullptr;
    for (const auto &c : std::as_const(op->connections))
        disconnect(c);
    const qint64 seq = op->seq;
    op->timeout->stop();
    op->timeout->deleteLater();
    if (!outcome.ok) {
        // A refusal names the request, so the model and the GUI can tell which one it was.
        json content = parseJson(outcome.content);
        if (content.is_object()) {
            if (!op->callId.isEmpty())
                content["tool_call_id"] = op->callId.toStdString();
            if (!op->request.is_null())
                content["request"] = op->request;
            outcome.content = QString::fromStdString(content.dump());
        }
    }
    delete op;
    outcome.content = scrub(outcome.content);
    outcome.card = scrub(outcome.card);
    emit finished(seq, outcome);
}

void AgentTools::abort()
{
    if (m_op)
        complete(fail(tr("Stopped by the user before Eddy answered.")));
}

void AgentTools::run(qint64 seq, const QString &name, const json &arguments,
                     std::optional<qint64> sessionId, const QString &callId)
{
    Q_ASSERT(!m_op);
    m_op = new Operation;
    m_op->seq = seq;
    m_op->name = name;
    m_op->sessionId = sessionId;
    m_op->callId = callId;
    m_op->timeout = new QTimer(this);
    m_op->timeout->setSingleShot(true);
    if (!m_engine || !m_engine->isOpen()) {
        complete(fail(tr("Eddy's database is not open.")));
        return;
    }
    if (!arguments.is_object()) {
        complete(fail(tr("The arguments of %1 must be a JSON object.").arg(name)));
        return;
    }
    if (name == QLatin1String("submit_sweep"))
        return runSubmitSweep(arguments, sessionId);
    if (name == QLatin1String("list_tasks"))
        return complete(listTasks(arguments, sessionId));
    if (name == QLatin1String("get_task"))
        return complete(getTask(arguments, false));
    if (name == QLatin1String("get_result"))
        return complete(getTask(arguments, true));
    if (name == QLatin1String("cancel_task"))
        return complete(cancelTask(arguments));
    if (name == QLatin1String("answer_input"))
        return runAnswerInput(arguments);
    if (m_mcpTools.isEmpty())
        definitions();
    const auto it = m_mcpTools.constFind(name);
    if (it == m_mcpTools.constEnd()) {
        complete(fail(tr("There is no tool \"%1\"; use one of the tools offered.").arg(name)));
        return;
    }
    runMcpTool(*it, arguments, sessionId);
}

} // namespace Eddy::Agent
