#pragma once

#include "app/agent/agentsettings.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy::Cli {

// The command line of one eddyctl run: the command with its words, and every option, as given.
// Plain data; parse() reads a command line without running anything.
struct Options
{
    enum class Parsed { Run, Help, Wrong };
    // Fills `options` from `arguments` (the program name left out); Wrong leaves in `error` what
    // is wrong. Without --db, the database is the user's default one.
    static Parsed parse(const QStringList &arguments, Options &options, QString &error);
    static QString usage();

    QStringList words; // positional, command first
    QString db;
    QString token;
    QString answersFile;
    QString session;
    QString status;
    QString format;
    QString server;                 // handles import --server URL
    QString output;                 // handles export --output FILE, report -o FILE
    QString pdf;                    // report --pdf FILE
    QString lang;                   // report --lang LANG
    QString olderThan;              // samples thin --older-than 90d
    QString keep;                   // samples thin --keep 1-in-10
    QString tag;                    // tasks --tag TAG
    std::optional<QString> newUrl;  // servers set --url URL
    std::optional<QString> newName; // servers set --name NAME
    QString oauthClientId;          // --oauth-client-id: pre-registered at the issuer
    QString oauthClientMetadataUrl; // --oauth-client-metadata-url: where Eddy's CIMD is hosted
    QString oauthPrivateKey;        // --oauth-private-key FILE: private_key_jwt instead of a secret
    QString oauthWorkloadToken;     // --oauth-workload-token FILE: the JWT bearer grant (SEP-1933)
    QString oauthIdToken;           // --oauth-id-token FILE: exchanged for an ID-JAG (SEP-990) at
    QString oauthIdpTokenUrl;       // --oauth-idp-token-url URL, as
    QString oauthIdpClientId;       // --oauth-idp-client-id ID
    Agent::AgentSettings agentSettings = Agent::AgentSettings::fromEnvironment();
    QString agentContext;           // --agent-context as given, checked by eddyctl agent
    bool noBrowser = false;         // --no-browser: print the sign-in URL only
    bool clientCredentials = false; // --client-credentials: unattended, no browser
    bool tokenGiven = false;        // --token was given (servers set: even empty, to clear it)
    bool toStdout = false;          // handles export --stdout
    bool jsonOutput = false;        // --json
    bool wait = false;
    bool untilDone = false;
    bool yes = false;         // agent: allow calls that need confirmation; samples thin: remove
    bool keepTasks = false;   // servers remove: keep its tasks as history (the default)
    bool deleteTasks = false; // servers remove: delete its tasks with it
};

} // namespace Eddy::Cli
