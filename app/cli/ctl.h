#pragma once

#include "app/agent/agentsettings.h"
#include "app/monitor/engine.h"

#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace Eddy::Agent {
class Agent;
}

namespace Eddy::Cli {

// One eddyctl invocation: parses the command line, runs the command on an Engine living on the
// main thread, and finishes with an exit code (0 ok, 1 failure, 2 usage) through done().
class Ctl final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Ctl)

public:
    enum ExitCode { Ok = 0, Failure = 1, Usage = 2 };

    explicit Ctl(QStringList arguments, QObject *parent = nullptr);
    // Starts the command; done() follows (possibly at once, from the event loop).
    void start();
    static QString usage();

signals:
    void done(int exitCode);

private:
    bool parse();
    bool openEngine(bool monitoring);
    // MCP authorization for servers without --token: prints the sign-in URL
    // and opens it in $EDDY_BROWSER or xdg-open unless --no-browser.
    void setUpSignIn();
    void finish(int code);
    void fail(const QString &message, int code = Failure);
    std::optional<qint64> serverFor(const QString &url);
    // TASK (the first argument) of a command that takes `argCount` words; fail() when not.
    std::optional<qint64> taskArgument(qsizetype argCount, const QString &usage);
    // A command's only argument TASK, read from the opened database; fail() when not there.
    std::optional<Store::TaskRecord> storedTaskArgument(const QString &usage);
    bool loadAnswers();
    void hookInput();
    void askInteractively(const Store::InputRequestRecord &request);
    // Prompts for a form (or URL-mode) question on the terminal; `send` gets the ElicitResult.
    void askOnTerminal(const QString &who, const nlohmann::json &request,
                       const std::function<void(const QByteArray &)> &send);
    nlohmann::json taskJson(const Store::TaskRecord &t);
    void printChange(const Store::TaskRecord &t);

    void cmdDiscover();
    void cmdTools();
    void cmdCall();
    void cmdSweepSubmit();
    void cmdTasks();
    void cmdWatch();
    void cmdAnswer();
    void cmdCancel();
    void cmdResult();
    void cmdExport();
    void cmdReport();
    void cmdSamples();
    void cmdSessions();
    void cmdAttach();
    void cmdAgent();
    void cmdHandles();
    void cmdHandlesExport();
    void cmdHandlesImport();
    void cmdAdapter();
    void cmdServers(); // ctlservers.cpp
    // ctlreview.cpp: notes, tags, baselines, pauses.
    struct ReviewTarget
    {
        std::optional<Store::SweepRecord> sweep;     // "sweep SWEEP"
        std::optional<Store::CaseRecord> caseRecord; // TASK: its case
        QString what;                                // "task 12", "sweep 3"
        QStringList words;                           // what follows the target
    };
    std::optional<ReviewTarget> reviewTarget(const QString &usage);
    void cmdNote();
    void cmdTag();
    void cmdBaseline();
    void cmdPause(bool paused);
    void tellPausedSweeps(); // watch: paused sweeps with unsent cases, and how to resume them
    void setServer(const Store::ServerRecord &server, const QList<Store::ServerRecord> &servers);

    QStringList m_args;          // positional, command first
    QString m_db;
    QString m_token;
    QString m_answersFile;
    QString m_session;
    QString m_status;
    QString m_format;
    QString m_server;            // handles import --server URL
    QString m_output;            // handles export --output FILE, report -o FILE
    QString m_pdf;               // report --pdf FILE
    QString m_lang;              // report --lang LANG
    QString m_olderThan;         // samples thin --older-than 90d
    QString m_keep;              // samples thin --keep 1-in-10
    QString m_tag;               // tasks --tag TAG
    std::optional<QString> m_newUrl;  // servers set --url URL
    std::optional<QString> m_newName; // servers set --name NAME
    QString m_oauthClientId;         // --oauth-client-id: pre-registered at the issuer
    QString m_oauthClientMetadataUrl; // --oauth-client-metadata-url: where Eddy's CIMD is hosted
    QString m_oauthPrivateKey;       // --oauth-private-key FILE: private_key_jwt instead of a secret
    QString m_oauthWorkloadToken;    // --oauth-workload-token FILE: the JWT bearer grant (SEP-1933)
    QString m_oauthIdToken;          // --oauth-id-token FILE: exchanged for an ID-JAG (SEP-990) at
    QString m_oauthIdpTokenUrl;      // --oauth-idp-token-url URL, as
    QString m_oauthIdpClientId;      // --oauth-idp-client-id ID
    bool m_noBrowser = false;        // --no-browser: print the sign-in URL only
    bool m_clientCredentials = false; // --client-credentials: unattended, no browser
    bool m_tokenGiven = false;   // --token was given (servers set: even empty, to clear it)
    bool m_toStdout = false;     // handles export --stdout
    bool m_json = false;
    bool m_wait = false;
    bool m_untilDone = false;
    bool m_finished = false;
    std::optional<nlohmann::json> m_answers;
    Monitor::Engine m_engine;
    QTextStream m_out;
    QTextStream m_err;
    QSet<qint64> m_expectCases;  // cases whose submission we wait for
    int m_rejected = 0;
    qint64 m_waitTask = -1;
    qint64 m_waitCase = -1;
    bool m_interactive = false;
    bool m_hinted = false;
    Agent::AgentSettings m_agentSettings = Agent::AgentSettings::fromEnvironment();
    QString m_agentContext;      // --agent-context as given, checked by cmdAgent
    bool m_yes = false;          // agent: allow calls that need confirmation
    bool m_keepTasks = false;    // servers remove: keep its tasks as history (the default)
    bool m_deleteTasks = false;  // servers remove: delete its tasks with it
    bool m_atLineStart = true;   // agent: streamed text ended with a newline
    Agent::Agent *m_agent = nullptr;
};

} // namespace Eddy::Cli
