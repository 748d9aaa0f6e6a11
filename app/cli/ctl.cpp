#include "app/cli/ctl.h"

#include "app/agent/agent.h"

#include "app/monitor/outcome.h"
#include "app/monitor/sweepexport.h"
#include "app/store/taskstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

#include <cstdio>
#include <unistd.h>

namespace Eddy::Cli {

using json = nlohmann::json;

namespace {

json parseJson(const QString &text)
{
    return json::parse(text.toStdString(), nullptr, false);
}

json parseJsonText(const QString &text)
{
    const json j = parseJson(text);
    return j.is_discarded() ? json() : j;
}

QString isoMs(std::optional<qint64> ms)
{
    if (!ms || *ms <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString scalarText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_null())
        return {};
    return QString::fromStdString(v.dump());
}

} // namespace

Ctl::Ctl(QStringList arguments, QObject *parent)
    : QObject(parent), m_args(std::move(arguments)), m_out(stdout), m_err(stderr)
{
    m_interactive = ::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO);
}

QString Ctl::usage()
{
    return QStringLiteral(
        "Usage: eddyctl [--db FILE] [--token TOKEN] [--json] COMMAND ...\n"
        "Commands:\n"
        "  discover URL                          show what the MCP server says about itself\n"
        "  tools URL                             list the server's tools\n"
        "  call URL TOOL ARGS_JSON [--wait] [--answers FILE]\n"
        "                                        call a tool once (journalled like a sweep)\n"
        "  sweep submit URL SPEC.json [--session NAME]\n"
        "                                        journal and submit a sweep\n"
        "  tasks [--status S]                    list stored tasks (Eddy's own task numbers)\n"
        "  watch [--until-done] [--answers FILE]\n"
        "                                        resume every live task and monitor it\n"
        "  answer TASK KEY JSON                  answer a task's question once\n"
        "  cancel TASK                           request cancellation\n"
        "  result TASK                           print a finished task's result\n"
        "  export SWEEP --format csv|json        export a sweep's cases and results\n"
        "  sessions                              list sessions\n"
        "  attach SESSION QUERY                  attach matching tasks to a session, e.g.\n"
        "                                        tool=run_cfd_case status=completed reynolds=400\n"
        "  agent PROMPT [--session NAME] [--yes]\n"
        "                                        one headless agent turn over the stored servers;\n"
        "                                        --agent-url URL (or EDDY_AGENT_URL), --agent-model M,\n"
        "                                        --agent-key KEY, --agent-context TOKENS, --no-stream\n"
        "Exit codes: 0 ok, 1 failure, 2 usage. Docs: docs/eddyctl.md\n");
}

void Ctl::finish(int code)
{
    if (m_finished)
        return;
    m_finished = true;
    m_out.flush();
    m_err.flush();
    QTimer::singleShot(0, this, [this, code] { emit done(code); });
}

void Ctl::fail(const QString &message, int code)
{
    m_err << "eddyctl: " << message << Qt::endl;
    if (code == Usage)
        m_err << "Run eddyctl --help for the commands." << Qt::endl;
    finish(code);
}

bool Ctl::parse()
{
    QStringList positional;
    static const QStringList valued{QStringLiteral("--db"), QStringLiteral("--token"), QStringLiteral("--answers"),
                                    QStringLiteral("--session"), QStringLiteral("--status"), QStringLiteral("--format"),
                                    QStringLiteral("--agent-url"), QStringLiteral("--agent-model"),
                                    QStringLiteral("--agent-key"), QStringLiteral("--agent-context")};
    for (int i = 0; i < m_args.size(); ++i) {
        QString a = m_args[i];
        QString value;
        bool hasValue = false;
        if (a.startsWith(QLatin1String("--")) && a.contains(QLatin1Char('='))) {
            value = a.mid(a.indexOf(QLatin1Char('=')) + 1);
            a = a.left(a.indexOf(QLatin1Char('=')));
            hasValue = true;
        }
        if (valued.contains(a)) {
            if (!hasValue) {
                if (i + 1 >= m_args.size()) {
                    fail(QStringLiteral("%1 needs a value.").arg(a), Usage);
                    return false;
                }
                value = m_args[++i];
            }
            if (a == QLatin1String("--db")) m_db = value;
            else if (a == QLatin1String("--token")) m_token = value;
            else if (a == QLatin1String("--answers")) m_answersFile = value;
            else if (a == QLatin1String("--session")) m_session = value;
            else if (a == QLatin1String("--status")) m_status = value;
            else if (a == QLatin1String("--format")) m_format = value;
            else if (a == QLatin1String("--agent-url")) m_agentSettings.baseUrl = value;
            else if (a == QLatin1String("--agent-model")) m_agentSettings.model = value;
            else if (a == QLatin1String("--agent-key")) m_agentSettings.apiKey = value;
            else if (a == QLatin1String("--agent-context")) m_agentContext = value;
        } else if (a == QLatin1String("--json")) {
            m_json = true;
        } else if (a == QLatin1String("--wait")) {
            m_wait = true;
        } else if (a == QLatin1String("--until-done")) {
            m_untilDone = true;
        } else if (a == QLatin1String("--yes")) {
            m_yes = true;
        } else if (a == QLatin1String("--no-stream")) {
            m_agentSettings.stream = false;
        } else if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            m_out << usage();
            finish(Ok);
            return false;
        } else if (a.startsWith(QLatin1String("--")) && a.size() > 2) {
            fail(QStringLiteral("unknown option %1.").arg(a), Usage);
            return false;
        } else {
            positional << m_args[i];
        }
    }
    m_args = positional;
    if (m_args.isEmpty()) {
        m_err << usage();
        finish(Usage);
        return false;
    }
    if (m_db.isEmpty())
        m_db = Store::TaskStore::defaultPath();
    return true;
}

bool Ctl::openEngine(bool monitoring)
{
    m_engine.setMonitoring(monitoring);
    // Tuning for scripts and tests (docs/eddyctl.md): how long a call fights a failing server.
    bool ok = false;
    bool okBase = false;
    const int retries = qEnvironmentVariableIntValue("EDDY_CALL_RETRIES", &ok);
    const int baseMs = qEnvironmentVariableIntValue("EDDY_CALL_RETRY_BASE_MS", &okBase);
    if (ok || okBase)
        m_engine.setCaseRetryPolicy(ok ? retries : 6, okBase ? std::max(1, baseMs) : 1000);
    if (const int ms = qEnvironmentVariableIntValue("EDDY_REQUEST_TIMEOUT_MS", &ok); ok && ms > 0)
        m_engine.setRequestTimeoutMs(ms);
    const QStringList floor = qEnvironmentVariable("EDDY_SLOW_FLOOR").split(QLatin1Char(':'));
    if (floor.size() == 2) // BYTES_PER_SECOND:WINDOW_MS
        m_engine.setSlowTransferFloor(floor[0].toInt(), floor[1].toInt());
    connect(&m_engine, &Monitor::Engine::operationFailed, this, [this](const QString &message) {
        m_err << "eddyctl: " << message << Qt::endl;
    });
    if (!m_engine.open(m_db)) {
        fail(m_engine.store().lastError());
        return false;
    }
    return true;
}

std::optional<qint64> Ctl::serverFor(const QString &url)
{
    const qint64 id = m_engine.addServer(url, {}, m_token);
    if (id < 0) {
        finish(Failure);
        return std::nullopt;
    }
    return id;
}

bool Ctl::loadAnswers()
{
    if (m_answersFile.isEmpty())
        return true;
    QFile f(m_answersFile);
    if (!f.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read the answers file %1: %2").arg(m_answersFile, f.errorString()));
        return false;
    }
    const QByteArray data = f.readAll();
    const json j = json::parse(data.constBegin(), data.constEnd(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        fail(QStringLiteral("the answers file %1 must be a JSON object of form values by field name, "
                            "e.g. {\"action\": \"repair\", \"smoothing_passes\": 5}.").arg(m_answersFile), Usage);
        return false;
    }
    m_answers = j;
    m_engine.setAutoAnswers(j);
    return true;
}

void Ctl::hookInput()
{
    connect(&m_engine, &Monitor::Engine::inputRequested, this, [this](const Store::InputRequestRecord &r) {
        if (m_answers)
            return; // the engine answers from the file
        if (m_interactive) {
            askInteractively(r);
            return;
        }
        const json req = parseJsonText(r.request);
        const QString message = QString::fromStdString(req.value("params", json::object()).value("message", std::string()));
        m_err << QStringLiteral("task %1 asks (%2): %3\n  answer with: eddyctl answer %1 %2 '{\"action\":\"accept\",\"content\":{...}}'")
                     .arg(r.taskId).arg(r.key, message)
              << Qt::endl;
    });
    // Questions asked before any task exists (multi round-trip tools/call): no task number yet,
    // so they name the tool and its arguments.
    connect(&m_engine, &Monitor::Engine::caseInputRequested, this,
            [this](const Monitor::Engine::CaseQuestion &q) {
        if (m_answers)
            return; // the engine answers from the file
        const QString who = QStringLiteral("The call of %1 %2").arg(q.tool, q.arguments);
        if (m_interactive) {
            askOnTerminal(who, parseJsonText(q.request), [this, q](const QByteArray &answer) {
                m_engine.answerCaseInput(q.caseId, q.key, answer);
            });
            return;
        }
        const json req = parseJsonText(q.request);
        const QString message = QString::fromStdString(req.value("params", json::object()).value("message", std::string()));
        if (q.caseId != m_waitCase) {
            m_err << QStringLiteral("%1 asks before starting (question \"%2\"): %3; run eddyctl watch "
                                    "in a terminal or with --answers FILE to answer it.")
                         .arg(who, q.key, message)
                  << Qt::endl;
            return;
        }
        fail(QStringLiteral("%1 asks before starting (question \"%2\"): %3\n  Nothing can answer it here: "
                            "run the command in a terminal, or give the form values with --answers FILE "
                            "(a JSON object by field name). The call is kept: eddyctl watch --answers FILE "
                            "sends it again with the same idempotency key.")
                 .arg(who, q.key, message));
    });
    connect(&m_engine, &Monitor::Engine::caseInputAnswered, this,
            [this](qint64 caseId, const QString &key, bool ok, const QString &message) {
                if (ok)
                    m_err << QStringLiteral("call %1: answered \"%2\"").arg(caseId).arg(key) << Qt::endl;
                else
                    m_err << QStringLiteral("call %1: answer to \"%2\" failed: %3").arg(caseId).arg(key, message) << Qt::endl;
            });
    connect(&m_engine, &Monitor::Engine::caseRetrying, this,
            [this](qint64 caseId, int, int, qint64, const QString &message) {
                m_err << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
            });
    connect(&m_engine, &Monitor::Engine::inputAnswered, this,
            [this](qint64 taskId, const QString &key, bool ok, const QString &message) {
                if (ok)
                    m_err << QStringLiteral("task %1: answered \"%2\"").arg(taskId).arg(key) << Qt::endl;
                else
                    m_err << QStringLiteral("task %1: answer to \"%2\" failed: %3").arg(taskId).arg(key, message) << Qt::endl;
            });
}

void Ctl::askInteractively(const Store::InputRequestRecord &r)
{
    askOnTerminal(QStringLiteral("Task %1").arg(r.taskId), parseJsonText(r.request),
                  [this, r](const QByteArray &answer) {
                      m_engine.answerInput(r.taskId, r.key, answer, QStringLiteral("eddyctl"));
                  });
}

void Ctl::askOnTerminal(const QString &who, const json &req, const std::function<void(const QByteArray &)> &send)
{
    const json params = req.value("params", json::object());
    QTextStream in(stdin);
    m_err << QStringLiteral("\n%1 asks: %2\n").arg(who, QString::fromStdString(params.value("message", std::string())));
    if (params.value("mode", std::string("form")) != "form") {
        m_err << QStringLiteral("Open this URL to continue: %1\nType 'accept' once done, anything else declines: ")
                     .arg(QString::fromStdString(params.value("url", std::string())));
        m_err.flush();
        const QString line = in.readLine().trimmed();
        const json answer{{"action", line == QLatin1String("accept") ? "accept" : "decline"}};
        send(QByteArray::fromStdString(answer.dump()));
        return;
    }
    const json schema = params.value("requestedSchema", json::object());
    const json props = schema.value("properties", json::object());
    json values = json::object();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const json &p = it.value();
        const std::string type = p.value("type", std::string("string"));
        QString hint;
        if (p.contains("enum"))
            hint = QStringLiteral(" (%1)").arg(QString::fromStdString(p["enum"].dump()));
        if (p.contains("default"))
            hint += QStringLiteral(" [%1]").arg(scalarText(p["default"]));
        for (;;) {
            m_err << QString::fromStdString(p.value("title", it.key())) << hint << ": ";
            m_err.flush();
            const QString line = in.readLine().trimmed();
            if (in.atEnd() && line.isEmpty())
                break;
            if (line.isEmpty())
                break; // default (or left out)
            json v;
            if (type == "string")
                v = line.toStdString();
            else
                v = parseJson(line);
            if (v.is_discarded()) {
                m_err << "  not a valid " << QString::fromStdString(type) << "; try again." << Qt::endl;
                continue;
            }
            values[it.key()] = v;
            break;
        }
    }
    QString error;
    const json answer = Monitor::InputInbox::answerFromValues(req, values, &error);
    if (answer.is_null()) {
        m_err << error << Qt::endl;
        return;
    }
    send(QByteArray::fromStdString(answer.dump()));
}

json Ctl::taskJson(const Store::TaskRecord &t)
{
    const auto sessions = m_engine.store().sessionNamesOfTask(t.id);
    json sessionList = json::array();
    for (const QString &s : sessions)
        sessionList.push_back(s.toStdString());
    const auto server = m_engine.store().server(t.serverId);
    json j{{"id", t.id},
           {"status", Store::toText(t.status).toStdString()},
           {"statusMessage", t.statusMessage.toStdString()},
           {"pattern", t.pattern.toStdString()},
           {"tool", t.tool.toStdString()},
           {"arguments", parseJsonText(t.arguments)},
           {"sweep", t.sweepId ? json(*t.sweepId) : json()},
           {"session", sessions.isEmpty() ? json() : json(sessions.first().toStdString())},
           {"sessions", sessionList},
           {"server", server ? server->url.toStdString() : std::string()},
           {"createdAt", t.createdAt.isEmpty() ? isoMs(t.firstSeenAtMs).toStdString() : t.createdAt.toStdString()},
           {"lastUpdatedAt", t.lastUpdatedAt.isEmpty() ? isoMs(t.updatedAtMs).toStdString() : t.lastUpdatedAt.toStdString()},
           {"isError", t.isToolError},
           {"cancelRequested", t.cancelRequested},
           {"ttlMs", t.ttlMs ? json(*t.ttlMs) : json()},
           {"finishedAt", t.finishedAtMs ? json(isoMs(t.finishedAtMs).toStdString()) : json()}};
    return j;
}

void Ctl::printChange(const Store::TaskRecord &t)
{
    if (m_json) {
        m_out << QString::fromStdString(taskJson(t).dump()) << Qt::endl;
        return;
    }
    m_out << QStringLiteral("task %1  %2%3  %4")
                 .arg(t.id)
                 .arg(Store::toText(t.status))
                 .arg(t.isToolError ? QStringLiteral(" (tool error)") : QString())
                 .arg(t.statusMessage)
          << Qt::endl;
}

void Ctl::start()
{
    if (!parse())
        return;
    const QString cmd = m_args.first();
    if (cmd == QLatin1String("discover")) cmdDiscover();
    else if (cmd == QLatin1String("tools")) cmdTools();
    else if (cmd == QLatin1String("call")) cmdCall();
    else if (cmd == QLatin1String("sweep")) cmdSweepSubmit();
    else if (cmd == QLatin1String("tasks")) cmdTasks();
    else if (cmd == QLatin1String("watch")) cmdWatch();
    else if (cmd == QLatin1String("answer")) cmdAnswer();
    else if (cmd == QLatin1String("cancel")) cmdCancel();
    else if (cmd == QLatin1String("result")) cmdResult();
    else if (cmd == QLatin1String("export")) cmdExport();
    else if (cmd == QLatin1String("sessions")) cmdSessions();
    else if (cmd == QLatin1String("attach")) cmdAttach();
    else if (cmd == QLatin1String("agent")) cmdAgent();
    else fail(QStringLiteral("unknown command \"%1\".").arg(cmd), Usage);
}

// ---------------------------------------------------------------- commands

void Ctl::cmdDiscover()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl discover URL"), Usage);
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::serverStateChanged, this,
            [this, sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
                if (serverId != sid || m_finished)
                    return;
                if (state != Monitor::Engine::ServerState::Online)
                    return fail(QStringLiteral("cannot reach %1: %2").arg(m_args[1], message));
                const auto rec = m_engine.store().server(sid);
                const json d = parseJsonText(rec ? rec->discovery : QString());
                if (m_json) {
                    m_out << QString::fromStdString(d.dump(2)) << Qt::endl;
                } else {
                    m_out << QStringLiteral("server:    %1 %2\n").arg(QString::fromStdString(d.value("serverName", std::string())),
                                                                 QString::fromStdString(d.value("serverVersion", std::string())));
                    m_out << QStringLiteral("protocol:  %1 (%2)\n").arg(QString::fromStdString(d.value("protocolVersion", std::string())),
                                                                   QString::fromStdString(d.value("era", std::string())));
                    m_out << QStringLiteral("versions:  %1\n").arg(QString::fromStdString(d.value("supportedVersions", json::array()).dump()));
                    m_out << QStringLiteral("tasks:     %1\n").arg(d.value("offersTasks", false) ? QStringLiteral("offered") : QStringLiteral("not offered"));
                    const std::string instr = d.value("instructions", std::string());
                    if (!instr.empty())
                        m_out << QStringLiteral("about:     %1\n").arg(QString::fromStdString(instr));
                }
                finish(Ok);
            });
    m_engine.refreshServer(*id);
}

void Ctl::cmdTools()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl tools URL"), Usage);
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::serverStateChanged, this,
            [this, sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
                if (serverId == sid && state == Monitor::Engine::ServerState::Unreachable)
                    fail(QStringLiteral("cannot reach %1: %2").arg(m_args[1], message));
            });
    connect(&m_engine, &Monitor::Engine::toolsChanged, this, [this, sid = *id](qint64 serverId) {
        if (serverId != sid || m_finished)
            return;
        const auto rec = m_engine.store().server(sid);
        const json tools = parseJsonText(rec ? rec->tools : QString());
        if (m_json) {
            m_out << QString::fromStdString(tools.dump(2)) << Qt::endl;
        } else {
            for (const json &t : tools) {
                m_out << QString::fromStdString(t.value("name", std::string()));
                const std::string title = t.value("title", std::string());
                if (!title.empty())
                    m_out << "  " << QString::fromStdString(title);
                m_out << "\n";
                const json props = t.value("inputSchema", json::object()).value("properties", json::object());
                for (auto p = props.begin(); p != props.end(); ++p)
                    m_out << "    " << QString::fromStdString(p.key()) << ": "
                          << QString::fromStdString(p.value().value("type", std::string("any"))) << "\n";
            }
        }
        finish(Ok);
    });
    m_engine.refreshServer(*id);
}

void Ctl::cmdCall()
{
    if (m_args.size() != 4)
        return fail(QStringLiteral("usage: eddyctl call URL TOOL ARGS_JSON [--wait] [--answers FILE]"), Usage);
    const json args = parseJson(m_args[3]);
    if (args.is_discarded() || !args.is_object())
        return fail(QStringLiteral("ARGS_JSON must be a JSON object, e.g. '{\"reynolds\": 100, \"grid\": 32}'."), Usage);
    if (!openEngine(true) || !loadAnswers())
        return;
    hookInput();
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::submissionRejected, this, [this](const QString &m) { fail(m); });
    connect(&m_engine, &Monitor::Engine::callJournalled, this, [this](qint64 caseId) { m_waitCase = caseId; });
    connect(&m_engine, &Monitor::Engine::caseRejected, this, [this](qint64 caseId, const QString &m) {
        if (caseId == m_waitCase)
            fail(QStringLiteral("the server refused the call: %1").arg(m));
    });
    connect(&m_engine, &Monitor::Engine::caseDeferred, this, [this](qint64 caseId, const QString &m) {
        if (caseId == m_waitCase)
            fail(m);
    });
    connect(&m_engine, &Monitor::Engine::caseSubmitted, this, [this](qint64 caseId, qint64 taskId) {
        if (caseId != m_waitCase)
            return;
        m_waitTask = taskId;
        const auto t = m_engine.store().task(taskId);
        if (!m_wait && t && t->isLive() && t->pattern == QLatin1String("streamed")) {
            // Its result comes only on this connection: leaving now would lose it.
            m_wait = true;
            m_err << QStringLiteral("task %1 is a streamed call (the server offers no task for "
                                    "it): waiting for its result on this connection")
                         .arg(taskId)
                  << Qt::endl;
        } else if (!m_wait) {
            if (m_json)
                m_out << QString::fromStdString(taskJson(*t).dump()) << Qt::endl;
            else
                m_out << QStringLiteral("task %1 %2").arg(taskId).arg(Store::toText(t->status)) << Qt::endl;
            finish(Ok);
        } else if (!m_interactive && !m_answers) {
            m_err << QStringLiteral("task %1 submitted; waiting for it to finish").arg(taskId) << Qt::endl;
        }
    });
    connect(&m_engine, &Monitor::Engine::taskFinished, this, [this](const Store::TaskRecord &t) {
        if (!m_wait || t.id != m_waitTask)
            return;
        if (!t.result.isEmpty())
            m_out << QString::fromStdString(parseJsonText(t.result).dump(2)) << Qt::endl;
        else if (!t.error.isEmpty())
            m_out << QString::fromStdString(parseJsonText(t.error).dump(2)) << Qt::endl;
        if (t.status == Store::TaskStatus::Completed && !t.isToolError)
            return finish(Ok);
        m_err << QStringLiteral("task %1 ended %2%3%4").arg(t.id).arg(Store::toText(t.status),
                                                               t.isToolError ? QStringLiteral(" with a tool error") : QString(),
                                                               t.statusMessage.isEmpty() ? QString()
                                                                                         : QStringLiteral(": ") + t.statusMessage)
              << Qt::endl;
        finish(Failure);
    });
    m_engine.callOnce(*id, m_args[2], m_args[3].toUtf8(), std::nullopt);
}

void Ctl::cmdSweepSubmit()
{
    if (m_args.size() != 4 || m_args[1] != QLatin1String("submit"))
        return fail(QStringLiteral("usage: eddyctl sweep submit URL SPEC.json [--session NAME]"), Usage);
    QFile f(m_args[3]);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the sweep file %1: %2").arg(m_args[3], f.errorString()));
    const QByteArray spec = f.readAll();
    QString error;
    if (!Monitor::SweepSpec::fromText(spec, &error))
        return fail(QStringLiteral("%1: %2").arg(m_args[3], error), Usage);
    if (!openEngine(true))
        return;
    const auto id = serverFor(m_args[2]);
    if (!id)
        return;
    std::optional<qint64> session;
    if (!m_session.isEmpty()) {
        if (auto s = m_engine.store().sessionByName(m_session))
            session = s->id;
        else if (qint64 sid = m_engine.createSession(m_session); sid > 0)
            session = sid;
        else
            return finish(Failure);
    }
    // Only this sweep's cases count; other unsent cases in the database go out too.
    auto total = std::make_shared<int>(-1);
    auto doneCount = std::make_shared<int>(0);
    auto sweepId = std::make_shared<qint64>(-1);
    auto maybeFinish = [this, total, doneCount, sweepId] {
        if (*total >= 0 && *doneCount >= *total) {
            if (m_json)
                m_out << QString::fromStdString(json{{"sweep", *sweepId}, {"cases", *total}, {"rejected", m_rejected}}.dump()) << Qt::endl;
            else
                m_out << QStringLiteral("sweep %1: %2 case(s) submitted, %3 rejected").arg(*sweepId).arg(*total - m_rejected).arg(m_rejected) << Qt::endl;
            finish(m_rejected ? Failure : Ok);
        }
    };
    connect(&m_engine, &Monitor::Engine::submissionRejected, this, [this](const QString &m) { fail(m); });
    connect(&m_engine, &Monitor::Engine::sweepSubmitted, this, [this, total, sweepId, doneCount, maybeFinish](qint64 sid, int n) {
        *sweepId = sid;
        *total = n;
        const auto cases = m_engine.store().cases(sid);
        for (const Store::CaseRecord &c : cases) {
            if (c.state == Store::CaseState::Pending || c.state == Store::CaseState::Sent)
                m_expectCases.insert(c.id);
            else
                ++*doneCount;
        }
        m_err << QStringLiteral("sweep %1: %2 case(s) journalled").arg(sid).arg(n) << Qt::endl;
        maybeFinish();
    });
    connect(&m_engine, &Monitor::Engine::caseSubmitted, this, [this, doneCount, maybeFinish](qint64 caseId, qint64 taskId) {
        if (!m_expectCases.remove(caseId))
            return;
        ++*doneCount;
        if (!m_json)
            m_err << QStringLiteral("case %1 -> task %2").arg(caseId).arg(taskId) << Qt::endl;
        maybeFinish();
    });
    connect(&m_engine, &Monitor::Engine::caseRejected, this, [this, doneCount, maybeFinish](qint64 caseId, const QString &m) {
        if (!m_expectCases.remove(caseId))
            return;
        ++*doneCount;
        ++m_rejected;
        m_err << QStringLiteral("case %1 rejected: %2").arg(caseId).arg(m) << Qt::endl;
        maybeFinish();
    });
    m_engine.submitSweep(*id, spec, session);
}

void Ctl::cmdTasks()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl tasks [--json] [--status S]"), Usage);
    Store::TaskQuery q;
    if (!m_status.isEmpty()) {
        q.status = Store::taskStatusFromString(m_status);
        if (!q.status)
            return fail(QStringLiteral("unknown status \"%1\" (use working, input_required, completed, failed, "
                                       "cancelled, expired or lost).").arg(m_status), Usage);
    }
    if (!openEngine(false))
        return;
    const auto tasks = m_engine.store().tasks(q);
    if (m_json) {
        json arr = json::array();
        for (const Store::TaskRecord &t : tasks)
            arr.push_back(taskJson(t));
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        m_out << QStringLiteral("%1  %2  %3  %4  %5\n").arg(QStringLiteral("ID"), -6).arg(QStringLiteral("STATUS"), -16)
                     .arg(QStringLiteral("SWEEP"), -5).arg(QStringLiteral("TOOL"), -14).arg(QStringLiteral("MESSAGE"));
        for (const Store::TaskRecord &t : tasks)
            m_out << QStringLiteral("%1  %2  %3  %4  %5\n")
                         .arg(t.id, -6)
                         .arg(Store::toText(t.status) + (t.isToolError ? QStringLiteral("*") : QString()), -16)
                         .arg(t.sweepId ? QString::number(*t.sweepId) : QStringLiteral("-"), -5)
                         .arg(t.tool, -14)
                         .arg(t.statusMessage);
    }
    finish(Ok);
}

void Ctl::cmdWatch()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl watch [--until-done] [--answers FILE]"), Usage);
    hookInput();
    connect(&m_engine, &Monitor::Engine::changesReady, this, [this](const Monitor::ChangeSet &c) {
        for (const Store::TaskRecord &t : c.tasks)
            printChange(t);
    });
    connect(&m_engine, &Monitor::Engine::ttlWarning, this, [this](qint64 taskId, qint64 msLeft) {
        m_err << QStringLiteral("task %1: the server may forget it in %2 s; its result is at risk")
                     .arg(taskId).arg(msLeft / 1000) << Qt::endl;
    });
    connect(&m_engine, &Monitor::Engine::idle, this, [this] {
        if (!m_untilDone)
            return;
        const auto counts = m_engine.store().tasks();
        int bad = 0;
        for (const auto &t : counts)
            bad += t.status == Store::TaskStatus::Lost || t.status == Store::TaskStatus::Expired;
        m_err << QStringLiteral("all tasks finished") << Qt::endl;
        finish(Ok);
    });
    // Everything is set up before open(): reattach happens inside it.
    m_engine.setMonitoring(true);
    if (!m_answersFile.isEmpty()) {
        QFile f(m_answersFile);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the answers file %1: %2").arg(m_answersFile, f.errorString()));
        const QByteArray data = f.readAll();
        const json j = json::parse(data.constBegin(), data.constEnd(), nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return fail(QStringLiteral("the answers file %1 must be a JSON object of form values by field name.").arg(m_answersFile), Usage);
        m_answers = j;
        m_engine.setAutoAnswers(j);
    }
    if (!openEngine(true))
        return;
    if (!m_json)
        m_err << QStringLiteral("watching %1 live task(s)").arg(m_engine.liveTaskCount()) << Qt::endl;
}

void Ctl::cmdAnswer()
{
    if (m_args.size() != 4)
        return fail(QStringLiteral("usage: eddyctl answer TASK KEY JSON"), Usage);
    bool ok = false;
    const qint64 task = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks."), Usage);
    json answer = parseJson(m_args[3]);
    if (answer.is_discarded() || !answer.is_object())
        return fail(QStringLiteral("JSON must be an object: an ElicitResult like {\"action\":\"accept\",\"content\":{...}} "
                                   "or plain form values like {\"action\":\"repair\"}."), Usage);
    if (!openEngine(false))
        return;
    const auto rec = m_engine.store().inputRequest(task, m_args[2]);
    if (!rec)
        return fail(QStringLiteral("task %1 has no question \"%2\"; run eddyctl watch to collect questions, "
                                   "or eddyctl tasks --status input_required.").arg(task).arg(m_args[2]));
    // Plain form values become the content of an accept, checked against the question's form.
    const bool isElicitResult = answer.contains("action") && answer["action"].is_string()
                                && (answer["action"] == "accept" || answer["action"] == "decline"
                                    || answer["action"] == "cancel")
                                && (answer.size() == 1 || (answer.size() == 2 && answer.contains("content")));
    if (!isElicitResult) {
        QString error;
        answer = Monitor::InputInbox::answerFromValues(parseJsonText(rec->request), answer, &error);
        if (answer.is_null())
            return fail(error);
    }
    connect(&m_engine, &Monitor::Engine::inputAnswered, this,
            [this, task](qint64 taskId, const QString &key, bool ok, const QString &message) {
                if (taskId != task || key != m_args[2])
                    return;
                if (!ok)
                    return fail(message);
                m_out << QStringLiteral("task %1: answered \"%2\"").arg(taskId).arg(key) << Qt::endl;
                finish(Ok);
            });
    m_engine.answerInput(task, m_args[2], QByteArray::fromStdString(answer.dump()), QStringLiteral("eddyctl"));
}

void Ctl::cmdCancel()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl cancel TASK"), Usage);
    bool ok = false;
    const qint64 task = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks."), Usage);
    if (!openEngine(false))
        return;
    if (!m_engine.store().task(task))
        return fail(QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(task));
    connect(&m_engine, &Monitor::Engine::cancelSent, this, [this, task](qint64 taskId, bool ok, const QString &message) {
        if (taskId != task)
            return;
        if (!ok)
            return fail(message);
        m_out << QStringLiteral("task %1: cancel requested (the server decides; watch shows the outcome)").arg(taskId) << Qt::endl;
        finish(Ok);
    });
    m_engine.cancelTasks({task});
}

void Ctl::cmdResult()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl result TASK"), Usage);
    bool ok = false;
    const qint64 task = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks."), Usage);
    if (!openEngine(false))
        return;
    const auto t = m_engine.store().task(task);
    if (!t)
        return fail(QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(task));
    if (t->isLive())
        return fail(QStringLiteral("task %1 is still %2 (%3); run eddyctl watch --until-done first.")
                        .arg(task).arg(Store::toText(t->status), t->statusMessage));
    if (!t->result.isEmpty()) {
        m_out << QString::fromStdString(parseJsonText(t->result).dump(2)) << Qt::endl;
        return finish(t->isToolError ? Failure : Ok);
    }
    if (!t->error.isEmpty())
        m_out << QString::fromStdString(parseJsonText(t->error).dump(2)) << Qt::endl;
    m_err << QStringLiteral("task %1 ended %2: %3").arg(task).arg(Store::toText(t->status), t->statusMessage) << Qt::endl;
    finish(Failure);
}

void Ctl::cmdExport()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl export SWEEP --format csv|json"), Usage);
    bool ok = false;
    const qint64 sweep = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."), Usage);
    const QString format = m_format.isEmpty() ? (m_json ? QStringLiteral("json") : QStringLiteral("csv")) : m_format;
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(QStringLiteral("--format must be csv or json."), Usage);
    if (!openEngine(false))
        return;
    if (!m_engine.store().sweep(sweep))
        return fail(QStringLiteral("there is no sweep %1.").arg(sweep));
    const auto cases = m_engine.store().cases(sweep);
    struct Row
    {
        Store::CaseRecord c;
        std::optional<Store::TaskRecord> t;
        json args;
        json result;
        QString answer; // InputInbox::answerSummary() of the task's questions
    };
    std::vector<Row> rows;
    for (const Store::CaseRecord &c : cases) {
        Row r{c, c.taskId ? m_engine.store().task(*c.taskId) : std::nullopt, parseJsonText(c.arguments), json(), QString()};
        r.args.erase("idempotency_key");
        if (r.t && !r.t->result.isEmpty())
            r.result = parseJsonText(r.t->result);
        if (r.t)
            r.answer = Monitor::InputInbox::answerSummary(m_engine.store().inputRequests(r.t->id));
        rows.push_back(std::move(r));
    }
    if (format == QLatin1String("json")) {
        json arr = json::array();
        for (const Row &r : rows) {
            json j{{"case", r.c.index + 1},
                   {"task", r.t ? json(r.t->id) : json()},
                   {"status", r.t ? Store::toText(r.t->status).toStdString() : Store::toText(r.c.state).toStdString()},
                   {"outcome", r.t ? Monitor::OutcomeText::key(Monitor::outcomeOf(*r.t)).toStdString() : std::string()},
                   {"arguments", r.args},
                   {"isError", r.t ? r.t->isToolError : false},
                   {"result", r.result}};
            if (!r.answer.isEmpty())
                j["answer"] = r.answer.toStdString();
            if (r.t && !r.t->error.isEmpty())
                j["error"] = parseJsonText(r.t->error);
            else if (!r.c.error.isEmpty())
                j["error"] = parseJsonText(r.c.error);
            arr.push_back(std::move(j));
        }
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
        return finish(Ok);
    }
    // CSV: the same code path as the GUI's Export CSV (case order, outcome, is_error, every
    // argument, every scalar of structuredContent).
    const auto sw = m_engine.store().sweep(sweep);
    m_out << Monitor::SweepExport::csv(Monitor::SweepExport::rows(m_engine.store(), sweep),
                                       Monitor::SweepExport::variedNames(sw->spec));
    m_out.flush();
    finish(Ok);
}

void Ctl::cmdSessions()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl sessions"), Usage);
    if (!openEngine(false))
        return;
    const auto sessions = m_engine.store().sessions();
    if (m_json) {
        json arr = json::array();
        for (const auto &s : sessions)
            arr.push_back({{"id", s.id}, {"name", s.name.toStdString()}, {"tasks", s.taskCount},
                           {"createdAt", isoMs(s.createdAtMs).toStdString()}});
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        for (const auto &s : sessions)
            m_out << QStringLiteral("%1  %2  (%3 task(s))\n").arg(s.id, -4).arg(s.name).arg(s.taskCount);
    }
    finish(Ok);
}

void Ctl::cmdAttach()
{
    if (m_args.size() < 3)
        return fail(QStringLiteral("usage: eddyctl attach SESSION QUERY (e.g. tool=run_cfd_case status=completed reynolds=400)"), Usage);
    Store::TaskQuery q;
    const QStringList terms = m_args.mid(2).join(QLatin1Char(' ')).split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    for (const QString &term : terms) {
        const int eq = term.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return fail(QStringLiteral("query term \"%1\" is not NAME=VALUE.").arg(term), Usage);
        const QString key = term.left(eq);
        const QString value = term.mid(eq + 1);
        if (key == QLatin1String("server")) {
            q.serverUrl = value;
        } else if (key == QLatin1String("tool")) {
            q.tool = value;
        } else if (key == QLatin1String("status")) {
            q.status = Store::taskStatusFromString(value);
            if (!q.status)
                return fail(QStringLiteral("unknown status \"%1\".").arg(value), Usage);
        } else if (key == QLatin1String("sweep")) {
            q.sweepId = value.toLongLong();
        } else if (key == QLatin1String("from") || key == QLatin1String("to")) {
            QDateTime t = QDateTime::fromString(value, Qt::ISODate);
            if (!t.isValid())
                t = QDate::fromString(value, Qt::ISODate).startOfDay(Qt::UTC);
            if (!t.isValid())
                return fail(QStringLiteral("%1=%2: use an ISO date such as 2026-11-29 or 2026-11-29T20:00:00Z.").arg(key, value), Usage);
            (key == QLatin1String("from") ? q.fromMs : q.toMs) = t.toMSecsSinceEpoch();
        } else {
            q.arguments.append({key.startsWith(QLatin1String("arg.")) ? key.mid(4) : key, value});
        }
    }
    if (!openEngine(false))
        return;
    qint64 session = -1;
    if (auto s = m_engine.store().sessionByName(m_args[1]))
        session = s->id;
    else
        session = m_engine.createSession(m_args[1]);
    if (session < 0)
        return finish(Failure);
    const int n = m_engine.attachTasks(session, q);
    if (n < 0)
        return finish(Failure);
    if (m_json)
        m_out << QString::fromStdString(json{{"session", m_args[1].toStdString()}, {"attached", n}}.dump()) << Qt::endl;
    else
        m_out << QStringLiteral("attached %1 task(s) to session \"%2\"").arg(n).arg(m_args[1]) << Qt::endl;
    finish(Ok);
}

void Ctl::cmdAgent()
{
    if (m_args.size() != 2 || m_args[1].trimmed().isEmpty())
        return fail(QStringLiteral("usage: eddyctl agent \"PROMPT\" [--session NAME] [--yes] [--agent-url URL]"), Usage);
    if (!m_agentContext.isEmpty()) {
        bool ok = false;
        m_agentSettings.contextTokens = m_agentContext.toInt(&ok);
        if (!ok)
            return fail(QStringLiteral("--agent-context needs a number of tokens, e.g. 8192."), Usage);
    }
    if (const QString problem = m_agentSettings.problem(); !problem.isEmpty())
        return fail(problem, Usage);
    if (!openEngine(true))
        return;
    m_agent = new Agent::Agent(&m_engine, this);
    m_agent->setSettings(m_agentSettings);
    // Headless: nobody can confirm, so destructive calls run only with --yes, and answers to a
    // task's questions are never sent (Agent refuses them outside Ask).
    m_agent->setConfirmationPolicy(m_yes ? Agent::Agent::ConfirmationPolicy::AllowAll
                                         : Agent::Agent::ConfirmationPolicy::DenyAll);
    if (!m_agent->openConversation(m_session))
        return fail(m_agent->errorString());
    m_err << "conversation: " << m_agent->sessionName() << Qt::endl;
    connect(m_agent, &Agent::Agent::contentDelta, this, [this](const QString &text) {
        m_out << text;
        m_out.flush();
        m_atLineStart = text.endsWith(QLatin1Char('\n'));
    });
    connect(m_agent, &Agent::Agent::toolCardReady, this,
            [this](const QString &tool, const QString &card, const QList<qint64> &, bool ok) {
        if (!m_atLineStart)
            m_out << Qt::endl;
        m_out << (ok ? "[tool] " : "[tool failed] ") << (card.isEmpty() ? tool : card) << Qt::endl;
        m_atLineStart = true;
    });
    connect(m_agent, &Agent::Agent::turnFinished, this, [this](bool ok, const QString &error) {
        if (!m_atLineStart)
            m_out << Qt::endl;
        if (!ok)
            return fail(error);
        finish(Ok);
    });
    m_agent->send(m_args[1]);
}

} // namespace Eddy::Cli
