#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

#include "app/agent/agent.h"
#include "app/mcp/client.h"
#include "app/mcp/oauth.h"
#include "app/monitor/samplethinner.h"
#include "app/monitor/sweepexport.h"
#include "app/vocab/outcome.h"
#include "app/vocab/records.h"
#include "models/sweepreport.h"
#include "models/sweepreportreader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QTranslator>
#include <QUrl>

#include <cstdio>
#include <unistd.h>

namespace Eddy::Cli {

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
        "  adapter show URL | adapter set URL FILE\n"
        "                                        the server's job adapter (stored or proposed)\n"
        "  call URL TOOL ARGS_JSON [--wait] [--answers FILE]\n"
        "                                        call a tool once (journalled like a sweep)\n"
        "  sweep submit URL SPEC.json [--session NAME]\n"
        "                                        journal and submit a sweep\n"
        "  tasks [--status S] [--tag TAG]        list stored tasks (Eddy's own task numbers)\n"
        "  watch [--until-done] [--answers FILE]\n"
        "                                        resume every live task and monitor it\n"
        "  answer TASK KEY JSON                  answer a task's question once\n"
        "  cancel TASK                           request cancellation\n"
        "  result TASK                           print a finished task's result\n"
        "  export SWEEP --format csv|json        export a sweep's cases and results\n"
        "  report SWEEP [-o FILE] [--pdf FILE] [--lang de|en]\n"
        "                                        the sweep report: one self-contained HTML file\n"
        "                                        (parameters, outcomes, charts, every question\n"
        "                                        with its answer, who gave it and when) to FILE or\n"
        "                                        standard output; --pdf FILE writes it as a PDF;\n"
        "                                        its language is English unless --lang says\n"
        "  samples thin --older-than DAYSd --keep 1-in-N [--yes]\n"
        "                                        thin the progress samples of runs finished longer\n"
        "                                        ago: each series keeps every N-th sample, its first\n"
        "                                        and last. Without --yes only counts what would go\n"
        "  note TASK|sweep SWEEP [TEXT]          show or set the note of a task's case or a sweep\n"
        "  tag TASK|sweep SWEEP [TAG|+TAG|-TAG ...]\n"
        "                                        show, add or remove tags\n"
        "  baseline SWEEP [TASK|none]            show or mark the sweep's baseline case\n"
        "  pause SWEEP | resume SWEEP            hold or release a sweep's unsent cases\n"
        "  sessions                              list sessions\n"
        "  servers                               list servers with their task counts\n"
        "  servers remove NAME|URL [--delete-tasks]\n"
        "                                        remove a server; its tasks are kept as history\n"
        "                                        (running ones no longer watched) unless\n"
        "                                        --delete-tasks deletes them with it\n"
        "  servers set NAME|URL [--url URL] [--name NAME] [--token TOKEN]\n"
        "                                        change a server's address, name or token; its\n"
        "                                        tasks stay (a running Eddy follows at once)\n"
        "  attach SESSION QUERY                  attach matching tasks to a session, e.g.\n"
        "                                        tool=run_cfd_case status=completed reynolds=400\n"
        "  agent PROMPT [--session NAME] [--yes]\n"
        "                                        one headless agent turn over the stored servers;\n"
        "                                        --agent-url URL (or EDDY_AGENT_URL), --agent-model M,\n"
        "                                        --agent-key KEY, --agent-context TOKENS, --no-stream\n"
        "  handles export [QUERY] (-o FILE | --stdout)\n"
        "                                        write task references other MCP clients resume\n"
        "                                        (QUERY: task numbers, session=NAME, sweep=N,\n"
        "                                        status=S). They hold task ids, which are secrets:\n"
        "                                        -o FILE is created mode 0600; standard output only\n"
        "                                        when it is not a terminal, or with --stdout\n"
        "  handles import FILE [--server URL] [--session NAME] [--wait]\n"
        "                                        take over tasks another client handed off\n"
        "Signing in (a server without --token that asks for it): the sign-in address is printed\n"
        "and opened in $EDDY_BROWSER or xdg-open; --no-browser only prints it.\n"
        "  --oauth-client-id ID (secret in EDDY_OAUTH_CLIENT_SECRET), --oauth-client-metadata-url URL,\n"
        "  --client-credentials (unattended, needs the client id and its secret or key)\n"
        "  --oauth-private-key FILE (PEM or JWK: private_key_jwt instead of the secret)\n"
        "  --oauth-workload-token FILE (unattended: the JWT bearer grant of a workload token)\n"
        "  --oauth-id-token FILE --oauth-idp-token-url URL --oauth-idp-client-id ID (secret in\n"
        "  EDDY_OAUTH_IDP_CLIENT_SECRET) (unattended: the ID token exchanged for an ID-JAG)\n"
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
                                    QStringLiteral("--agent-key"), QStringLiteral("--agent-context"),
                                    QStringLiteral("--server"), QStringLiteral("--output"),
                                    QStringLiteral("--url"), QStringLiteral("--name"), QStringLiteral("--pdf"),
                                    QStringLiteral("--older-than"), QStringLiteral("--keep"),
                                    QStringLiteral("--lang"), QStringLiteral("--tag"),
                                    QStringLiteral("--oauth-client-id"),
                                    QStringLiteral("--oauth-client-metadata-url"),
                                    QStringLiteral("--oauth-private-key"), QStringLiteral("--oauth-workload-token"),
                                    QStringLiteral("--oauth-id-token"), QStringLiteral("--oauth-idp-token-url"),
                                    QStringLiteral("--oauth-idp-client-id")};
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
            else if (a == QLatin1String("--url")) m_newUrl = value;
            else if (a == QLatin1String("--name")) m_newName = value;
            else if (a == QLatin1String("--answers")) m_answersFile = value;
            else if (a == QLatin1String("--session")) m_session = value;
            else if (a == QLatin1String("--status")) m_status = value;
            else if (a == QLatin1String("--format")) m_format = value;
            else if (a == QLatin1String("--agent-url")) m_agentSettings.baseUrl = value;
            else if (a == QLatin1String("--agent-model")) m_agentSettings.model = value;
            else if (a == QLatin1String("--agent-key")) m_agentSettings.apiKey = value;
            else if (a == QLatin1String("--agent-context")) m_agentContext = value;
            else if (a == QLatin1String("--server")) m_server = value;
            else if (a == QLatin1String("--output")) m_output = value;
            else if (a == QLatin1String("--pdf")) m_pdf = value;
            else if (a == QLatin1String("--lang")) m_lang = value;
            else if (a == QLatin1String("--older-than")) m_olderThan = value;
            else if (a == QLatin1String("--keep")) m_keep = value;
            else if (a == QLatin1String("--tag")) m_tag = value;
            else if (a == QLatin1String("--oauth-client-id")) m_oauthClientId = value;
            else if (a == QLatin1String("--oauth-client-metadata-url")) m_oauthClientMetadataUrl = value;
            else if (a == QLatin1String("--oauth-private-key")) m_oauthPrivateKey = value;
            else if (a == QLatin1String("--oauth-workload-token")) m_oauthWorkloadToken = value;
            else if (a == QLatin1String("--oauth-id-token")) m_oauthIdToken = value;
            else if (a == QLatin1String("--oauth-idp-token-url")) m_oauthIdpTokenUrl = value;
            else if (a == QLatin1String("--oauth-idp-client-id")) m_oauthIdpClientId = value;
            m_tokenGiven = m_tokenGiven || a == QLatin1String("--token"); // servers set: even ""
        } else if (a == QLatin1String("--json")) {
            m_json = true;
        } else if (a == QLatin1String("--wait")) {
            m_wait = true;
        } else if (a == QLatin1String("--until-done")) {
            m_untilDone = true;
        } else if (a == QLatin1String("--keep-tasks")) {
            m_keepTasks = true;
        } else if (a == QLatin1String("--delete-tasks")) {
            m_deleteTasks = true;
        } else if (a == QLatin1String("--stdout")) {
            m_toStdout = true;
        } else if (a == QLatin1String("--no-browser")) {
            m_noBrowser = true;
        } else if (a == QLatin1String("--client-credentials")) {
            m_clientCredentials = true;
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
        m_db = Store::defaultDatabasePath();
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
    setUpSignIn(); // before open(): the engine makes its server clients there
    if (!m_engine.open(m_db)) {
        fail(m_engine.storeError());
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
    const auto sessions = m_engine.catalogue().sessionNamesOfTask(t.id);
    json sessionList = json::array();
    for (const QString &s : sessions)
        sessionList.push_back(s.toStdString());
    const auto server = m_engine.catalogue().server(t.serverId);
    json j{{"id", t.id},
           {"status", Store::toText(t.status).toStdString()},
           {"statusMessage", t.statusMessage.toStdString()},
           {"pattern", patternName(t.pattern).toStdString()},
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
    // The engineer's note and tags on the task's case (eddyctl note, eddyctl tag).
    const auto c = t.caseId ? m_engine.catalogue().caseRecord(*t.caseId) : std::nullopt;
    json tags = json::array();
    for (const QString &tag : c ? c->tags : QStringList())
        tags.push_back(tag.toStdString());
    j["note"] = c ? c->note.toStdString() : std::string();
    j["tags"] = tags;
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
    else if (cmd == QLatin1String("report")) cmdReport();
    else if (cmd == QLatin1String("samples")) cmdSamples();
    else if (cmd == QLatin1String("sessions")) cmdSessions();
    else if (cmd == QLatin1String("attach")) cmdAttach();
    else if (cmd == QLatin1String("agent")) cmdAgent();
    else if (cmd == QLatin1String("handles")) cmdHandles();
    else if (cmd == QLatin1String("adapter")) cmdAdapter();
    else if (cmd == QLatin1String("servers")) cmdServers();
    else if (cmd == QLatin1String("note")) cmdNote();
    else if (cmd == QLatin1String("tag")) cmdTag();
    else if (cmd == QLatin1String("baseline")) cmdBaseline();
    else if (cmd == QLatin1String("pause")) cmdPause(true);
    else if (cmd == QLatin1String("resume")) cmdPause(false);
    else fail(QStringLiteral("unknown command \"%1\".").arg(cmd), Usage);
}

// Signing in to a server that asks for MCP authorization (docs/eddyctl.md, "Signing in"):
// eddyctl prints the authorization URL and opens it in a browser, unless --no-browser; a
// loopback listener (Mcp::OAuth) takes the redirect. --client-credentials (with a secret or
// --oauth-private-key), --oauth-workload-token and --oauth-id-token sign in unattended.

void Ctl::setUpSignIn()
{
    auto settings = std::make_shared<Mcp::OAuthSettings>();
    settings->clientId = m_oauthClientId;
    // A secret never on the command line, where every user's ps can read it.
    // A private key signs a client assertion instead (private_key_jwt; app/mcp/oauthgrants.h).
    settings->privateKeyFile = m_oauthPrivateKey;
    if (m_oauthPrivateKey.isEmpty())
        settings->clientSecret = qEnvironmentVariable("EDDY_OAUTH_CLIENT_SECRET");
    settings->workloadTokenFile = m_oauthWorkloadToken;
    settings->idTokenFile = m_oauthIdToken;
    settings->idpTokenUrl = QUrl(m_oauthIdpTokenUrl);
    settings->idpClientId = m_oauthIdpClientId;
    settings->idpClientSecret = qEnvironmentVariable("EDDY_OAUTH_IDP_CLIENT_SECRET");
    settings->clientMetadataUrl = QUrl(m_oauthClientMetadataUrl.isEmpty()
                                           ? qEnvironmentVariable("EDDY_OAUTH_CLIENT_METADATA_URL")
                                           : m_oauthClientMetadataUrl);
    settings->clientCredentials = m_clientCredentials;
    bool ok = false;
    if (const int s = qEnvironmentVariableIntValue("EDDY_SIGNIN_TIMEOUT_S", &ok); ok && s > 0)
        settings->signInTimeoutMs = s * 1000;
    const bool noBrowser = m_noBrowser;
    settings->openAuthorizationUrl = [this, noBrowser](const QUrl &url) {
        const QString text = url.toString(QUrl::FullyEncoded);
        m_err << "eddyctl: the server asks you to sign in. Open this address in a browser and "
                 "finish signing in there; eddyctl waits:\n  "
              << text << Qt::endl;
        if (noBrowser)
            return;
        const QString custom = qEnvironmentVariable("EDDY_BROWSER");
        QStringList command = custom.isEmpty() ? QStringList{QStringLiteral("xdg-open")}
                                               : QProcess::splitCommand(custom);
        const QString program = command.takeFirst();
        if (!QProcess::startDetached(program, command << text))
            m_err << "eddyctl: could not start " << program
                  << "; open the address above yourself." << Qt::endl;
    };
    Mcp::Client::setOAuthSettings(std::move(settings));
}

// eddyctl samples thin: the engineer's explicit choice to thin old runs' progress samples.

void Ctl::cmdSamples()
{
    static const QString usageText = QStringLiteral(
        "usage: eddyctl samples thin --older-than DAYSd --keep 1-in-N [--yes]");
    if (m_args.size() != 2 || m_args[1] != QLatin1String("thin"))
        return fail(usageText, Usage);
    static const QRegularExpression age(QStringLiteral("^([0-9]+)d$"));
    static const QRegularExpression keep(QStringLiteral("^1-in-([0-9]+)$"));
    const auto days = age.match(m_olderThan);
    const auto oneIn = keep.match(m_keep);
    if (!days.hasMatch() || days.captured(1).toLongLong() < 1)
        return fail(QStringLiteral("--older-than takes an age in days, e.g. --older-than 90d: runs that "
                                   "finished longer ago than that are thinned.\n")
                        + usageText,
                    Usage);
    const int n = oneIn.hasMatch() ? oneIn.captured(1).toInt() : 0;
    if (n < 2)
        return fail(QStringLiteral("--keep says how many samples stay, e.g. --keep 1-in-10 (every tenth sample "
                                   "of each series, and its first and last).\n")
                        + usageText,
                    Usage);
    if (!openEngine(false))
        return;
    const qint64 cutoff = QDateTime::currentMSecsSinceEpoch() - days.captured(1).toLongLong() * 86400000LL;
    const QString before = QDateTime::fromMSecsSinceEpoch(cutoff, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    const auto plan = Monitor::SampleThinner::plan(m_engine, cutoff, n);
    if (!plan)
        return fail(QStringLiteral("cannot count the progress samples: %1").arg(m_engine.storeError()));
    m_out << QStringLiteral("%1 run(s) finished before %2 hold %3 of the %4 progress samples stored. "
                            "Keeping 1 in %5 (and each series' first and last) removes %6.")
                 .arg(plan->runs)
                 .arg(before)
                 .arg(plan->samples)
                 .arg(plan->total)
                 .arg(n)
                 .arg(plan->removable)
          << Qt::endl;
    if (!m_yes) {
        m_out << "Nothing was removed. Run the same command with --yes to remove them; this cannot be "
                 "undone (results, residual histories in results, questions and answers are never touched)."
              << Qt::endl;
        return finish(Ok);
    }
    const auto removed = Monitor::SampleThinner::thin(m_engine, cutoff, n);
    if (!removed)
        return fail(QStringLiteral("nothing was removed: %1").arg(m_engine.storeError()));
    m_out << QStringLiteral("Removed %1 progress sample(s).").arg(*removed) << Qt::endl;
    finish(Ok);
}

// eddyctl report: the sweep report the window's File > Export Sweep Report... writes.

void Ctl::cmdReport()
{
    static const QString usageText = QStringLiteral("usage: eddyctl report SWEEP [-o FILE] [--pdf FILE] [--lang de|en]");
    QString html = m_output;
    QStringList rest = m_args.mid(1);
    for (qsizetype i = 0; i < rest.size(); ++i) {
        if (rest[i] == QLatin1String("-o")) {
            if (i + 1 >= rest.size())
                return fail(QStringLiteral("-o needs a file name."), Usage);
            html = rest[i + 1];
            rest.remove(i, 2);
            --i;
        }
    }
    if (rest.size() != 1)
        return fail(usageText, Usage);
    bool ok = false;
    const qint64 sweep = rest[0].toLongLong(&ok);
    if (!ok || sweep <= 0)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit (eddyctl tasks "
                                   "--json shows each task's sweep)."),
                    Usage);
    if (!m_pdf.isEmpty() && !qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return fail(QStringLiteral("--pdf needs Qt's GUI library, which did not start; write the HTML "
                                   "with -o FILE and print it from a browser."));
    if (!m_lang.isEmpty() && m_lang != QLatin1String("en")) {
        // The window's translations, built in: the report reads as the window would in LANG.
        auto *translator = new QTranslator(this);
        if (!translator->load(QStringLiteral(":/i18n/eddy_%1.qm").arg(m_lang)))
            return fail(QStringLiteral("there is no %1 translation of the report; --lang takes de or en.").arg(m_lang), Usage);
        QCoreApplication::installTranslator(translator);
    }
    if (!openEngine(false))
        return;
    const auto input = SweepReportReader::read(m_engine, sweep);
    if (!input)
        return fail(QStringLiteral("there is no sweep %1 in %2; eddyctl tasks --json shows each task's sweep.")
                        .arg(sweep)
                        .arg(m_db));
    QString error;
    if (!html.isEmpty() && !SweepReport::writeHtml(*input, html, &error))
        return fail(error + QStringLiteral("; choose another file with -o FILE."));
    if (!m_pdf.isEmpty() && !SweepReport::writePdf(*input, m_pdf, &error))
        return fail(error + QStringLiteral("; choose another file with --pdf FILE."));
    if (html.isEmpty() && m_pdf.isEmpty())
        m_out << SweepReport::html(*input);
    else
        m_err << QStringLiteral("sweep %1: %2 case(s) reported").arg(sweep).arg(input->cases.size()) << Qt::endl;
    finish(Ok);
}

// eddyctl adapter show URL / adapter set URL FILE: the job adapter stored with a server (or the
// one Eddy proposes from its tools), as JSON in the format of docs/eddyctl.md "Job adapters".

void Ctl::cmdAdapter()
{
    const QString sub = m_args.value(1);
    const bool show = sub == QLatin1String("show") && m_args.size() == 3;
    const bool set = sub == QLatin1String("set") && m_args.size() == 4;
    if (!show && !set)
        return fail(QStringLiteral("usage: eddyctl adapter show URL | eddyctl adapter set URL FILE"),
                    Usage);
    std::optional<Monitor::JobAdapter> toStore;
    if (set) {
        QFile f(m_args[3]);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the adapter file %1: %2")
                            .arg(m_args[3], f.errorString()));
        QString error;
        toStore = Monitor::JobAdapter::fromText(QString::fromUtf8(f.readAll()), &error);
        if (!toStore)
            return fail(QStringLiteral("the adapter in %1 is not valid; nothing was stored. Fix:\n%2")
                            .arg(m_args[3], error),
                        Usage);
    }
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[2]);
    if (!id)
        return;
    if (set) {
        if (!m_engine.setJobAdapter(*id, *toStore))
            return fail(QStringLiteral("cannot store the adapter: %1").arg(m_engine.storeError()));
        m_err << QStringLiteral("stored the job adapter of %1: %2 starts jobs, %3 follows them")
                     .arg(m_args[2], toStore->submitTool, toStore->statusTool)
              << Qt::endl;
        return finish(Ok);
    }
    QString error;
    if (const auto stored = m_engine.jobAdapter(*id, &error)) {
        m_out << QString::fromStdString(stored->toJson().dump(2)) << Qt::endl;
        m_err << QStringLiteral("(the adapter stored with %1)").arg(m_args[2]) << Qt::endl;
        return finish(Ok);
    }
    if (!error.isEmpty())
        m_err << QStringLiteral("the stored adapter is not valid (%1); proposing one").arg(error)
              << Qt::endl;
    m_engine.proposeJobAdapter(*id, [this](const Monitor::AdapterProposal &p, const QString &e) {
        if (m_finished)
            return;
        if (!e.isEmpty())
            return fail(e);
        if (!p.adapter)
            return fail(QStringLiteral("no adapter to propose: %1").arg(p.reason));
        m_out << QString::fromStdString(p.adapter->toJson().dump(2)) << Qt::endl;
        m_err << QStringLiteral("(proposed, not stored; confidence %1 %)\n")
                     .arg(qRound(p.confidence * 100));
        for (const QString &why : p.why)
            m_err << "  " << why << "\n";
        m_err << QStringLiteral("Save it to a file, edit it if needed, and store it with: eddyctl "
                                "adapter set %1 FILE")
                     .arg(m_args[2])
              << Qt::endl;
        finish(Ok);
    });
}

} // namespace Eddy::Cli
