#include "app/cli/invocation.h"

#include "app/cli/ctl_p.h"

#include "app/mcp/client.h"
#include "app/mcp/oauth.h"
#include "app/monitor/inputinbox.h"

#include <QFile>
#include <QProcess>
#include <QTimer>
#include <QUrl>

#include <memory>
#include <unistd.h>

namespace Eddy::Cli {

Invocation::Invocation(QObject *parent)
    : QObject(parent)
    , m_out(stdout)
    , m_err(stderr)
{
    m_interactive = ::isatty(STDIN_FILENO) && ::isatty(STDERR_FILENO);
}

void Invocation::finish(int code)
{
    if (m_finished)
        return;
    m_finished = true;
    m_out.flush();
    m_err.flush();
    QTimer::singleShot(0, this, [this, code] { emit done(code); });
}

void Invocation::fail(const QString &message, int code)
{
    m_err << "eddyctl: " << message << Qt::endl;
    if (code == Usage)
        m_err << "Run eddyctl --help for the commands." << Qt::endl;
    finish(code);
}

bool Invocation::openEngine(bool monitoring)
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
    if (!m_engine.open(m_options.db)) {
        fail(m_engine.storeError());
        return false;
    }
    return true;
}

std::optional<qint64> Invocation::serverFor(const QString &url)
{
    const qint64 id = m_engine.addServer(url, {}, m_options.token);
    if (id < 0) {
        finish(Failure);
        return std::nullopt;
    }
    return id;
}

bool Invocation::loadAnswers()
{
    if (m_options.answersFile.isEmpty())
        return true;
    QFile f(m_options.answersFile);
    if (!f.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read the answers file %1: %2")
                 .arg(m_options.answersFile, f.errorString()));
        return false;
    }
    const QByteArray data = f.readAll();
    const json j = json::parse(data.constBegin(), data.constEnd(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        fail(QStringLiteral(
                 "the answers file %1 must be a JSON object of form values by field name, "
                 "e.g. {\"action\": \"repair\", \"smoothing_passes\": 5}.")
                 .arg(m_options.answersFile),
             Usage);
        return false;
    }
    m_answers = j;
    m_engine.setAutoAnswers(j);
    return true;
}

void Invocation::hookInput()
{
    connect(&m_engine,
            &Monitor::Engine::inputRequested,
            this,
            [this](const Store::InputRequestRecord &r) {
                if (m_answers)
                    return; // the engine answers from the file
                if (m_interactive) {
                    askInteractively(r);
                    return;
                }
                const json req = parseJsonText(r.request);
                const QString message = QString::fromStdString(
                    req.value("params", json::object()).value("message", std::string()));
                m_err << QStringLiteral("task %1 asks (%2): %3\n  answer with: eddyctl answer %1 "
                                        "%2 '{\"action\":\"accept\",\"content\":{...}}'")
                             .arg(r.taskId)
                             .arg(r.key, message)
                      << Qt::endl;
            });
    // Questions asked before any task exists (multi round-trip tools/call): no task number yet,
    // so they name the tool and its arguments.
    connect(
        &m_engine,
        &Monitor::Engine::caseInputRequested,
        this,
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
            const QString message = QString::fromStdString(
                req.value("params", json::object()).value("message", std::string()));
            if (q.caseId != m_waitCase) {
                m_err << QStringLiteral(
                             "%1 asks before starting (question \"%2\"): %3; run eddyctl watch "
                             "in a terminal or with --answers FILE to answer it.")
                             .arg(who, q.key, message)
                      << Qt::endl;
                return;
            }
            fail(
                QStringLiteral(
                    "%1 asks before starting (question \"%2\"): %3\n  Nothing can answer it here: "
                    "run the command in a terminal, or give the form values with --answers FILE "
                    "(a JSON object by field name). The call is kept: eddyctl watch --answers FILE "
                    "sends it again with the same idempotency key.")
                    .arg(who, q.key, message));
        });
    connect(&m_engine,
            &Monitor::Engine::caseInputAnswered,
            this,
            [this](qint64 caseId, const QString &key, bool ok, const QString &message) {
                if (ok)
                    m_err << QStringLiteral("call %1: answered \"%2\"").arg(caseId).arg(key)
                          << Qt::endl;
                else
                    m_err << QStringLiteral("call %1: answer to \"%2\" failed: %3")
                                 .arg(caseId)
                                 .arg(key, message)
                          << Qt::endl;
            });
    connect(&m_engine,
            &Monitor::Engine::caseRetrying,
            this,
            [this](qint64 caseId, int, int, qint64, const QString &message) {
                m_err << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
            });
    connect(&m_engine,
            &Monitor::Engine::inputAnswered,
            this,
            [this](qint64 taskId, const QString &key, bool ok, const QString &message) {
                if (ok)
                    m_err << QStringLiteral("task %1: answered \"%2\"").arg(taskId).arg(key)
                          << Qt::endl;
                else
                    m_err << QStringLiteral("task %1: answer to \"%2\" failed: %3")
                                 .arg(taskId)
                                 .arg(key, message)
                          << Qt::endl;
            });
}

void Invocation::askInteractively(const Store::InputRequestRecord &r)
{
    askOnTerminal(QStringLiteral("Task %1").arg(r.taskId),
                  parseJsonText(r.request),
                  [this, r](const QByteArray &answer) {
                      m_engine.answerInput(r.taskId, r.key, answer, QStringLiteral("eddyctl"));
                  });
}

void Invocation::askOnTerminal(const QString &who,
                               const json &req,
                               const std::function<void(const QByteArray &)> &send)
{
    const json params = req.value("params", json::object());
    QTextStream in(stdin);
    m_err << QStringLiteral("\n%1 asks: %2\n")
                 .arg(who, QString::fromStdString(params.value("message", std::string())));
    if (params.value("mode", std::string("form")) != "form") {
        m_err << QStringLiteral("Open this URL to continue: %1\nType 'accept' once done, anything "
                                "else declines: ")
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
                m_err << "  not a valid " << QString::fromStdString(type) << "; try again."
                      << Qt::endl;
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

json Invocation::taskJson(const Store::TaskRecord &t)
{
    const auto sessions = m_engine.catalogue().sessionNamesOfTask(t.id);
    json sessionList = json::array();
    for (const QString &s : sessions)
        sessionList.push_back(s.toStdString());
    const auto server = m_engine.catalogue().server(t.serverId);
    json j{
        {"id", t.id},
        {"status", Store::toText(t.status).toStdString()},
        {"statusMessage", t.statusMessage.toStdString()},
        {"pattern", patternName(t.pattern).toStdString()},
        {"tool", t.tool.toStdString()},
        {"arguments", parseJsonText(t.arguments)},
        {"sweep", t.sweepId ? json(*t.sweepId) : json()},
        {"session", sessions.isEmpty() ? json() : json(sessions.first().toStdString())},
        {"sessions", sessionList},
        {"server", server ? server->url.toStdString() : std::string()},
        {"createdAt",
         t.createdAt.isEmpty() ? isoMs(t.firstSeenAtMs).toStdString() : t.createdAt.toStdString()},
        {"lastUpdatedAt",
         t.lastUpdatedAt.isEmpty() ? isoMs(t.updatedAtMs).toStdString()
                                   : t.lastUpdatedAt.toStdString()},
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

void Invocation::printChange(const Store::TaskRecord &t)
{
    if (m_options.jsonOutput) {
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

// Signing in to a server that asks for MCP authorization (docs/eddyctl.md, "Signing in"):
// eddyctl prints the authorization URL and opens it in a browser, unless --no-browser; a
// loopback listener (Mcp::OAuth) takes the redirect. --client-credentials (with a secret or
// --oauth-private-key), --oauth-workload-token and --oauth-id-token sign in unattended.

void Invocation::setUpSignIn()
{
    auto settings = std::make_shared<Mcp::OAuthSettings>();
    settings->clientId = m_options.oauthClientId;
    // A secret never on the command line, where every user's ps can read it.
    // A private key signs a client assertion instead (private_key_jwt; app/mcp/oauthgrants.h).
    settings->privateKeyFile = m_options.oauthPrivateKey;
    if (m_options.oauthPrivateKey.isEmpty())
        settings->clientSecret = qEnvironmentVariable("EDDY_OAUTH_CLIENT_SECRET");
    settings->workloadTokenFile = m_options.oauthWorkloadToken;
    settings->idTokenFile = m_options.oauthIdToken;
    settings->idpTokenUrl = QUrl(m_options.oauthIdpTokenUrl);
    settings->idpClientId = m_options.oauthIdpClientId;
    settings->idpClientSecret = qEnvironmentVariable("EDDY_OAUTH_IDP_CLIENT_SECRET");
    settings->clientMetadataUrl = QUrl(m_options.oauthClientMetadataUrl.isEmpty()
                                           ? qEnvironmentVariable("EDDY_OAUTH_CLIENT_METADATA_URL")
                                           : m_options.oauthClientMetadataUrl);
    settings->clientCredentials = m_options.clientCredentials;
    bool ok = false;
    if (const int s = qEnvironmentVariableIntValue("EDDY_SIGNIN_TIMEOUT_S", &ok); ok && s > 0)
        settings->signInTimeoutMs = s * 1000;
    const bool noBrowser = m_options.noBrowser;
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
            m_err << "eddyctl: could not start " << program << "; open the address above yourself."
                  << Qt::endl;
    };
    Mcp::Client::setOAuthSettings(std::move(settings));
}

void Invocation::printChanges()
{
    connect(&m_engine, &Monitor::Engine::changesReady, this, [this](const Monitor::ChangeSet &c) {
        for (const Store::TaskRecord &t : c.tasks)
            printChange(t);
    });
}

} // namespace Eddy::Cli
