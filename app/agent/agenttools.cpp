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

std::optional<qint64> AgentTools::pickServer(const json &arguments, QString *error)
{
    const QList<Store::ServerRecord> servers = m_engine->catalogue().servers();
    if (const auto id = integer(arguments, "server")) {
        for (const auto &s : servers)
            if (s.id == *id)
                return s.id;
        *error = tr("There is no server %1.").arg(*id);
        return std::nullopt;
    }
    if (servers.size() == 1)
        return servers.first().id;
    *error = servers.isEmpty() ? tr("No MCP server is configured; add one in Eddy first.")
                               : tr("Several servers are configured; give \"server\" (their numbers: %1).")
                                     .arg([&] {
                                         QStringList ids;
                                         for (const auto &s : servers)
                                             ids << QString::number(s.id);
                                         return ids.join(QStringLiteral(", "));
                                     }());
    return std::nullopt;
}

void AgentTools::runSubmitSweep(const json &arguments, std::optional<qint64> sessionId)
{
    QString error;
    const auto serverId = pickServer(arguments, &error);
    if (!serverId)
        return complete(fail(error));
    json spec = arguments.value("spec", json());
    if (spec.is_string())
        spec = json::parse(spec.get<std::string>(), nullptr, false);
    if (!spec.is_object())
        return complete(fail(tr("\"spec\" must be a sweep spec object like {\"tool\": \"run_cfd_case\", "
                                "\"fixed\": {\"grid\": 64}, \"vary\": {\"reynolds\": {\"list\": [100, 400]}}}.")));
    Monitor::Engine *e = m_engine;
    m_op->request = {{"tool", spec.value("tool", json())}, {"spec", spec}};
    const std::optional<qint64> session = sessionId;
    watchSubmission(*serverId, true,
        [this, spec, session](qint64 sweepId) {
            // Ours when it is this conversation's sweep with exactly this spec.
            const auto sweep = m_engine->catalogue().sweep(sweepId);
            return sweep && sweep->sessionId == session && parseJson(sweep->spec) == spec;
        },
        [this](qint64 sweepId) {
            m_op->sweepId = sweepId;
            m_op->request["sweep"] = sweepId;
            checkSweepDone();
        },
        [this](const QString &message) { complete(fail(tr("The sweep was refused: %1").arg(message))); });
    m_op->connections << connect(e, &Monitor::Engine::caseSubmitted, this, [this] { checkSweepDone(); });
    m_op->connections << connect(e, &Monitor::Engine::caseRejected, this, [this] { checkSweepDone(); });
    m_op->connections << connect(m_op->timeout, &QTimer::timeout, this, [this] {
        if (!m_op)
            return;
        if (!m_op->sweepId)
            return complete(fail(tr("Eddy did not journal the sweep within %1 s; check the server.").arg(s_submitWaitMs / 1000)));
        checkSweepDone();
        if (m_op) {
            // Not every case has a task yet: answer with what exists; the engine keeps sending.
            const qint64 sweepId = *m_op->sweepId;
            ToolOutcome o;
            const QList<Store::TaskRecord> tasks = m_engine->catalogue().tasks(sweepQuery(sweepId));
            json list = json::array();
            for (const auto &t : tasks) {
                list.push_back(taskSummary(t, false));
                o.taskIds << t.id;
            }
            o.content = QString::fromStdString(json{{"sweep", sweepId}, {"tasks", list},
                {"note", "some cases are still being sent; list_tasks with this sweep shows them later"}}.dump());
            o.card = tr("Sweep %1: %n task(s) so far, more being sent", nullptr, int(tasks.size())).arg(sweepId);
            complete(o);
        }
    });
    m_op->timeout->start(s_submitWaitMs);
    submit([e, serverId, spec, sessionId] {
        e->submitSweep(*serverId, QByteArray::fromStdString(spec.dump()), sessionId);
    });
}

void AgentTools::checkSweepDone()
{
    if (!m_op || !m_op->sweepId)
        return;
    const qint64 sweepId = *m_op->sweepId;
    const QList<Store::CaseRecord> cases = m_engine->catalogue().cases(sweepId);
    json problems = json::array();
    QStringList refusedCases;
    for (const auto &c : cases) {
        if (c.state == Store::CaseState::Rejected) {
            const json err = parseJson(c.error);
            const json shown = shownArguments(c.arguments);
            problems.push_back({{"case", c.index}, {"arguments", shown},
                                {"error", (err.is_object() ? Json::string(err, "message") : c.error).toStdString()}});
            refusedCases << tr("case %1 %2").arg(c.index).arg(compactArguments(shown));
        } else if (!c.taskId) {
            return; // still sending
        }
    }
    ToolOutcome o;
    json list = json::array();
    QStringList numbers;
    for (const auto &t : m_engine->catalogue().tasks(sweepQuery(sweepId))) {
        list.push_back(taskSummary(t, false));
        o.taskIds << t.id;
        numbers << QStringLiteral("#%1").arg(t.id);
    }
    json content = {{"sweep", sweepId}, {"cases", cases.size()}, {"tasks", list},
                    {"note", "Tasks run on the server; Eddy's monitor follows them. Do not wait: "
                             "check later with get_task or list_tasks."}};
    const int rejected = int(problems.size());
    if (rejected) {
        // The refused cases by their place in the sweep and arguments, under the call's id.
        content["rejected"] = problems;
        content["tool_call_id"] = m_op->callId.toStdString();
    }
    if (rejected && rejected == int(cases.size())) {
        content["error"] = tr("The server refused every case of sweep %1.").arg(sweepId).toStdString();
        o.ok = false; // complete() adds what was asked for
    }
    o.content = QString::fromStdString(content.dump());
    o.card = tr("Sweep %1: %n task(s) started (%2)", nullptr, int(o.taskIds.size()))
                 .arg(sweepId).arg(numbers.join(QStringLiteral(", ")));
    if (rejected)
        o.card += tr("; %n case(s) rejected: %1", nullptr, rejected).arg(refusedCases.join(QStringLiteral(", ")));
    complete(o);
}

void AgentTools::runMcpTool(const McpTool &tool, const json &arguments, std::optional<qint64> sessionId)
{
    Monitor::Engine *e = m_engine;
    const QString toolName = tool.tool;
    const qint64 serverId = tool.serverId;
    json shown = arguments;
    shown.erase("idempotency_key");
    m_op->request = {{"tool", toolName.toStdString()}, {"server", serverId}, {"arguments", shown}};
    watchSubmission(serverId, false,
        [this, toolName, serverId, shown](qint64 caseId) {
            // Ours when it is a single call of this tool with exactly these arguments.
            const auto c = m_engine->catalogue().caseRecord(caseId);
            return c && !c->sweepId && c->serverId == serverId && c->tool == toolName
                   && shownArguments(c->arguments) == shown;
        },
        [this](qint64 caseId) {
            m_op->caseId = caseId;
            m_op->request["case"] = caseId;
        },
        [this, toolName](const QString &message) { complete(fail(tr("%1 was not called: %2").arg(toolName, message))); });
    m_op->connections << connect(e, &Monitor::Engine::caseRejected, this, [this, toolName](qint64 caseId, const QString &message) {
        if (m_op && m_op->caseId == caseId)
            complete(fail(tr("The server refused %1: %2").arg(toolName, message)));
    });
    m_op->connections << connect(e, &Monitor::Engine::caseSubmitted, this, [this](qint64 caseId, qint64 taskId) {
        if (!m_op || m_op->caseId != caseId)
            return;
        const auto t = m_engine->catalogue().task(taskId);
        if (!t)
            return complete(fail(tr("Task #%1 vanished from the database.").arg(taskId)));
        ToolOutcome o;
        o.taskIds << t->id;
        json content = taskSummary(*t, false);
        if (t->isLive()) {
            content["note"] = "Started as a task; Eddy's monitor follows it. Do not wait: check later "
                              "with get_task.";
        } else {
            const json r = parseJson(t->result);
            content["result_summary"] = resultText(r).left(s_resultTextLimit).toStdString();
            if (r.is_object() && r.contains("structuredContent"))
                content["structured"] = r["structuredContent"];
        }
        o.content = QString::fromStdString(content.dump());
        o.card = tr("%1: task #%2 %3").arg(t->tool).arg(t->id).arg(verdict(*t));
        complete(o);
    });
    // The server asks before it starts a task (multi round trip): by the same rule as a task's
    // question, the agent never answers it itself; it waits in the Inbox for the user, and the
    // call goes on once answered.
    m_op->connections << connect(e, &Monitor::Engine::caseInputRequested, this,
                                 [this, toolName](const Monitor::Engine::CaseQuestion &q) {
        if (!m_op || m_op->caseId != q.caseId)
            return;
        const json req = parseJson(q.request);
        const QString asked = QString::fromStdString(
            req.value("params", json::object()).value("message", std::string()));
        ToolOutcome o;
        o.content = QString::fromStdString(
            json{{"case", q.caseId}, {"asks", q.key.toStdString()}, {"message", asked.toStdString()},
                 {"note", "The server asks the user before it starts; the question waits in "
                          "Eddy's Inbox. Do not answer it yourself. The call goes on once the "
                          "user answers; list_tasks shows its task then."}}.dump());
        o.card = tr("%1: asks before starting (\"%2\"); waiting in the Inbox").arg(toolName, q.key);
        complete(o);
    });
    m_op->connections << connect(e, &Monitor::Engine::caseDeferred, this, [this, toolName](qint64 caseId, const QString &message) {
        if (m_op && m_op->caseId == caseId)
            complete(fail(tr("%1 was not started: %2").arg(toolName, message)));
    });
    m_op->connections << connect(m_op->timeout, &QTimer::timeout, this, [this, toolName] {
        complete(fail(tr("%1: the server gave no task handle within %2 s; Eddy keeps trying, "
                         "list_tasks shows it later.").arg(toolName).arg(s_submitWaitMs / 1000)));
    });
    m_op->timeout->start(s_submitWaitMs);
    submit([e, tool, arguments, sessionId] {
        e->callOnce(tool.serverId, tool.tool, QByteArray::fromStdString(arguments.dump()), sessionId);
    });
}

void AgentTools::submit(const std::function<void()> &call)
{
    Operation *op = m_op;
    op->inEngineCall = true;
    call();
    if (m_op == op) // else answered (and deleted) during the call
        op->inEngineCall = false;
}

void AgentTools::watchSubmission(qint64 serverId, bool sweep, std::function<bool(qint64)> isOurs,
                                 std::function<void(qint64)> journalled,
                                 std::function<void(const QString &)> refused)
{
    // The engine's answers (sweepSubmitted/callJournalled or submissionRejected) do not name the
    // request. It answers during the call when it knows the server's tools; otherwise right
    // after the tools list arrives, for every submission that waited, in one go. So: an answer
    // during our call is ours; a later journal entry is ours when isOurs() recognises it in the
    // database; a later refusal can only be ours when it comes right after our server's tools
    // arrived and nothing of ours was journalled by the end of that burst.
    Monitor::Engine *e = m_engine;
    const auto onJournalled = [this, isOurs, journalled](qint64 id) {
        if (!m_op || m_op->journalled || (!m_op->inEngineCall && !isOurs(id)))
            return;
        m_op->journalled = true;
        journalled(id);
    };
    if (sweep)
        m_op->connections << connect(e, &Monitor::Engine::sweepSubmitted, this,
                                     [onJournalled](qint64 id, int) { onJournalled(id); });
    else
        m_op->connections << connect(e, &Monitor::Engine::callJournalled, this, onJournalled);
    const auto toolsArrived = [this] {
        if (!m_op)
            return;
        m_op->toolsArrived = true;
        QTimer::singleShot(0, this, [this, seq = m_op->seq] {
            if (m_op && m_op->seq == seq)
                m_op->toolsArrived = false;
        });
    };
    m_op->connections << connect(e, &Monitor::Engine::toolsChanged, this, [serverId, toolsArrived](qint64 id) {
        if (id == serverId)
            toolsArrived();
    });
    m_op->connections << connect(e, &Monitor::Engine::serverStateChanged, this,
                                 [serverId, toolsArrived](qint64 id, Monitor::Engine::ServerState state, const QString &) {
        if (id == serverId && state == Monitor::Engine::ServerState::Unreachable)
            toolsArrived();
    });
    m_op->connections << connect(e, &Monitor::Engine::submissionRejected, this, [this, refused](const QString &message) {
        if (!m_op || m_op->journalled)
            return;
        if (m_op->inEngineCall)
            return refused(message);
        if (!m_op->toolsArrived)
            return; // another submission's, answered at once
        m_op->rejections << message;
        if (m_op->rejections.size() > 1)
            return;
        QTimer::singleShot(0, this, [this, seq = m_op->seq, refused] {
            if (!m_op || m_op->seq != seq || m_op->journalled)
                return;
            const QStringList r = m_op->rejections;
            refused(r.size() == 1 ? r.first()
                                  : tr("one of these (Eddy refused %1 submissions at that moment): %2")
                                        .arg(r.size()).arg(r.join(QStringLiteral(" | "))));
        });
    });
}

ToolOutcome AgentTools::listTasks(const json &arguments, std::optional<qint64> sessionId)
{
    Store::TaskQuery q;
    if (const QString name = Json::string(arguments, "session"); !name.isEmpty()) {
        const auto session = m_engine->catalogue().sessionByName(name);
        if (!session)
            return fail(tr("There is no session \"%1\"; the session list in Eddy shows their names.").arg(name));
        q.sessionId = session->id;
    } else if (Json::string(arguments, "scope") != QLatin1String("all")) {
        q.sessionId = sessionId;
    }
    q.sweepId = integer(arguments, "sweep");
    q.tool = Json::string(arguments, "tool");
    if (const QString s = Json::string(arguments, "status"); !s.isEmpty()) {
        q.status = Store::taskStatusFromString(s);
        if (!q.status)
            return fail(tr("Unknown status \"%1\"; use working, input_required, completed, failed, "
                           "cancelled, expired or lost.").arg(s));
    }
    if (arguments.contains("arguments") && arguments["arguments"].is_object())
        for (const auto &[k, v] : arguments["arguments"].items())
            q.arguments << qMakePair(QString::fromStdString(k),
                                     QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump()));
    const int limit = int(std::clamp<qint64>(integer(arguments, "limit").value_or(50), 1, 500));
    QList<Store::TaskRecord> tasks = m_engine->catalogue().tasks(q);
    const int total = int(tasks.size());
    if (tasks.size() > limit)
        tasks = tasks.mid(tasks.size() - limit);
    ToolOutcome o;
    json list = json::array();
    for (const auto &t : tasks) {
        list.push_back(taskSummary(t, false));
        o.taskIds << t.id;
    }
    o.content = QString::fromStdString(json{{"count", total}, {"shown", list.size()}, {"tasks", list}}.dump());
    o.card = tr("list_tasks: %n task(s)", nullptr, total);
    return o;
}

ToolOutcome AgentTools::getTask(const json &arguments, bool wantResult)
{
    const auto id = integer(arguments, "task");
    if (!id)
        return fail(tr("Give \"task\": Eddy's task number, e.g. 12."));
    const auto t = m_engine->catalogue().task(*id);
    if (!t)
        return fail(tr("There is no task #%1; list_tasks shows the known ones.").arg(*id));
    ToolOutcome o;
    o.taskIds << t->id;
    if (!wantResult) {
        o.content = QString::fromStdString(taskSummary(*t, true).dump());
        o.card = tr("get_task: %1").arg(taskLine(*t));
        return o;
    }
    if (t->result.isEmpty() && t->error.isEmpty()) {
        o.content = QString::fromStdString(json{{"task", t->id}, {"status", Store::toText(t->status).toStdString()},
            {"note", "no result yet; the task is still running or ended without one"}}.dump());
        o.card = tr("get_result: #%1 has no result yet").arg(t->id);
        return o;
    }
    json r = parseJson(t->result);
    json content = {{"task", t->id}, {"status", Store::toText(t->status).toStdString()},
                    {"is_error", t->isToolError}};
    if (r.is_object()) {
        if (r.contains("structuredContent"))
            content["structured"] = r["structuredContent"];
        content["text"] = resultText(r).left(s_resultTextLimit).toStdString();
    }
    if (!t->error.isEmpty())
        content["error"] = t->error.left(s_resultTextLimit).toStdString();
    o.content = QString::fromStdString(content.dump());
    o.card = tr("get_result: %1").arg(taskLine(*t));
    return o;
}

ToolOutcome AgentTools::cancelTask(const json &arguments)
{
    const auto id = integer(arguments, "task");
    if (!id)
        return fail(tr("Give \"task\": Eddy's task number, e.g. 12."));
    const auto t = m_engine->catalogue().task(*id);
    if (!t)
        return fail(tr("There is no task #%1.").arg(*id));
    if (!t->isLive())
        return fail(tr("Task #%1 has already ended (%2).").arg(*id).arg(verdict(*t)));
    m_engine->cancelTasks({*id});
    ToolOutcome o;
    o.taskIds << *id;
    o.content = QString::fromStdString(json{{"task", *id}, {"note", "cancellation requested; the "
        "monitor shows when the server agrees"}}.dump());
    o.card = tr("cancel_task: cancellation of #%1 requested").arg(*id);
    return o;
}

void AgentTools::runAnswerInput(const json &arguments)
{
    const auto id = integer(arguments, "task");
    if (!id)
        return complete(fail(tr("Give \"task\": Eddy's task number, e.g. 12.")));
    QString key = Json::string(arguments, "key");
    if (key.isEmpty()) {
        QStringList open;
        for (const auto &r : m_engine->catalogue().inputRequests(*id))
            if (r.state == Store::InputState::Pending)
                open << r.key;
        if (open.size() != 1)
            return complete(fail(open.isEmpty() ? tr("Task #%1 has no open question.").arg(*id)
                                                : tr("Task #%1 has several open questions; give \"key\" (%2).")
                                                      .arg(*id).arg(open.join(QStringLiteral(", ")))));
        key = open.first();
    }
    const json answer = arguments.value("answer", json());
    if (!answer.is_object())
        return complete(fail(tr("\"answer\" must be an object like {\"action\": \"accept\", \"content\": {...}}.")));
    m_op->taskId = *id;
    m_op->key = key;
    m_op->connections << connect(m_engine, &Monitor::Engine::inputAnswered, this,
                                 [this](qint64 taskId, const QString &k, bool ok, const QString &message) {
        if (!m_op || taskId != m_op->taskId || k != m_op->key)
            return;
        if (!ok)
            return complete(fail(tr("The answer was not accepted: %1").arg(message)));
        ToolOutcome o;
        o.taskIds << taskId;
        o.content = QString::fromStdString(json{{"task", taskId}, {"answered", true}}.dump());
        o.card = tr("answer_input: #%1 answered").arg(taskId);
        complete(o);
    });
    m_op->connections << connect(m_op->timeout, &QTimer::timeout, this, [this] {
        complete(fail(tr("The server did not confirm the answer within %1 s; the Inbox shows its state.")
                          .arg(s_answerWaitMs / 1000)));
    });
    m_op->timeout->start(s_answerWaitMs);
    m_engine->answerInput(*id, key, QByteArray::fromStdString(answer.dump()), QStringLiteral("agent"));
}

} // namespace Eddy::Agent
