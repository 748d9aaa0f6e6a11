#include "app/cli/options.h"

#include "app/vocab/records.h"

namespace Eddy::Cli {

QString Options::usage()
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
        "                                        with its answer, who gave it and when) to FILE "
        "or\n"
        "                                        standard output; --pdf FILE writes it as a PDF;\n"
        "                                        its language is English unless --lang says\n"
        "  samples thin --older-than DAYSd --keep 1-in-N [--yes]\n"
        "                                        thin the progress samples of runs finished "
        "longer\n"
        "                                        ago: each series keeps every N-th sample, its "
        "first\n"
        "                                        and last. Without --yes only counts what would "
        "go\n"
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
        "                                        --agent-url URL (or EDDY_AGENT_URL), "
        "--agent-model M,\n"
        "                                        --agent-key KEY, --agent-context TOKENS, "
        "--no-stream\n"
        "  handles export [QUERY] (-o FILE | --stdout)\n"
        "                                        write task references other MCP clients resume\n"
        "                                        (QUERY: task numbers, session=NAME, sweep=N,\n"
        "                                        status=S). They hold task ids, which are "
        "secrets:\n"
        "                                        -o FILE is created mode 0600; standard output "
        "only\n"
        "                                        when it is not a terminal, or with --stdout\n"
        "  handles import FILE [--server URL] [--session NAME] [--wait]\n"
        "                                        take over tasks another client handed off\n"
        "Signing in (a server without --token that asks for it): the sign-in address is printed\n"
        "and opened in $EDDY_BROWSER or xdg-open; --no-browser only prints it.\n"
        "  --oauth-client-id ID (secret in EDDY_OAUTH_CLIENT_SECRET), --oauth-client-metadata-url "
        "URL,\n"
        "  --client-credentials (unattended, needs the client id and its secret or key)\n"
        "  --oauth-private-key FILE (PEM or JWK: private_key_jwt instead of the secret)\n"
        "  --oauth-workload-token FILE (unattended: the JWT bearer grant of a workload token)\n"
        "  --oauth-id-token FILE --oauth-idp-token-url URL --oauth-idp-client-id ID (secret in\n"
        "  EDDY_OAUTH_IDP_CLIENT_SECRET) (unattended: the ID token exchanged for an ID-JAG)\n"
        "Exit codes: 0 ok, 1 failure, 2 usage. Docs: docs/eddyctl.md\n");
}

Options::Parsed Options::parse(const QStringList &arguments, Options &options, QString &error)
{
    QStringList positional;
    static const QStringList valued{QStringLiteral("--db"),
                                    QStringLiteral("--token"),
                                    QStringLiteral("--answers"),
                                    QStringLiteral("--session"),
                                    QStringLiteral("--status"),
                                    QStringLiteral("--format"),
                                    QStringLiteral("--agent-url"),
                                    QStringLiteral("--agent-model"),
                                    QStringLiteral("--agent-key"),
                                    QStringLiteral("--agent-context"),
                                    QStringLiteral("--server"),
                                    QStringLiteral("--output"),
                                    QStringLiteral("--url"),
                                    QStringLiteral("--name"),
                                    QStringLiteral("--pdf"),
                                    QStringLiteral("--older-than"),
                                    QStringLiteral("--keep"),
                                    QStringLiteral("--lang"),
                                    QStringLiteral("--tag"),
                                    QStringLiteral("--oauth-client-id"),
                                    QStringLiteral("--oauth-client-metadata-url"),
                                    QStringLiteral("--oauth-private-key"),
                                    QStringLiteral("--oauth-workload-token"),
                                    QStringLiteral("--oauth-id-token"),
                                    QStringLiteral("--oauth-idp-token-url"),
                                    QStringLiteral("--oauth-idp-client-id")};
    for (int i = 0; i < arguments.size(); ++i) {
        QString a = arguments[i];
        QString value;
        bool hasValue = false;
        if (a.startsWith(QLatin1String("--")) && a.contains(QLatin1Char('='))) {
            value = a.mid(a.indexOf(QLatin1Char('=')) + 1);
            a = a.left(a.indexOf(QLatin1Char('=')));
            hasValue = true;
        }
        if (valued.contains(a)) {
            if (!hasValue) {
                if (i + 1 >= arguments.size()) {
                    error = QStringLiteral("%1 needs a value.").arg(a);
                    return Parsed::Wrong;
                }
                value = arguments[++i];
            }
            if (a == QLatin1String("--db"))
                options.db = value;
            else if (a == QLatin1String("--token"))
                options.token = value;
            else if (a == QLatin1String("--url"))
                options.newUrl = value;
            else if (a == QLatin1String("--name"))
                options.newName = value;
            else if (a == QLatin1String("--answers"))
                options.answersFile = value;
            else if (a == QLatin1String("--session"))
                options.session = value;
            else if (a == QLatin1String("--status"))
                options.status = value;
            else if (a == QLatin1String("--format"))
                options.format = value;
            else if (a == QLatin1String("--agent-url"))
                options.agentSettings.baseUrl = value;
            else if (a == QLatin1String("--agent-model"))
                options.agentSettings.model = value;
            else if (a == QLatin1String("--agent-key"))
                options.agentSettings.apiKey = value;
            else if (a == QLatin1String("--agent-context"))
                options.agentContext = value;
            else if (a == QLatin1String("--server"))
                options.server = value;
            else if (a == QLatin1String("--output"))
                options.output = value;
            else if (a == QLatin1String("--pdf"))
                options.pdf = value;
            else if (a == QLatin1String("--lang"))
                options.lang = value;
            else if (a == QLatin1String("--older-than"))
                options.olderThan = value;
            else if (a == QLatin1String("--keep"))
                options.keep = value;
            else if (a == QLatin1String("--tag"))
                options.tag = value;
            else if (a == QLatin1String("--oauth-client-id"))
                options.oauthClientId = value;
            else if (a == QLatin1String("--oauth-client-metadata-url"))
                options.oauthClientMetadataUrl = value;
            else if (a == QLatin1String("--oauth-private-key"))
                options.oauthPrivateKey = value;
            else if (a == QLatin1String("--oauth-workload-token"))
                options.oauthWorkloadToken = value;
            else if (a == QLatin1String("--oauth-id-token"))
                options.oauthIdToken = value;
            else if (a == QLatin1String("--oauth-idp-token-url"))
                options.oauthIdpTokenUrl = value;
            else if (a == QLatin1String("--oauth-idp-client-id"))
                options.oauthIdpClientId = value;
            options.tokenGiven
                = options.tokenGiven || a == QLatin1String("--token"); // servers set: even ""
        } else if (a == QLatin1String("--json")) {
            options.jsonOutput = true;
        } else if (a == QLatin1String("--wait")) {
            options.wait = true;
        } else if (a == QLatin1String("--until-done")) {
            options.untilDone = true;
        } else if (a == QLatin1String("--keep-tasks")) {
            options.keepTasks = true;
        } else if (a == QLatin1String("--delete-tasks")) {
            options.deleteTasks = true;
        } else if (a == QLatin1String("--stdout")) {
            options.toStdout = true;
        } else if (a == QLatin1String("--no-browser")) {
            options.noBrowser = true;
        } else if (a == QLatin1String("--client-credentials")) {
            options.clientCredentials = true;
        } else if (a == QLatin1String("--yes")) {
            options.yes = true;
        } else if (a == QLatin1String("--no-stream")) {
            options.agentSettings.stream = false;
        } else if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            return Parsed::Help;
        } else if (a.startsWith(QLatin1String("--")) && a.size() > 2) {
            error = QStringLiteral("unknown option %1.").arg(a);
            return Parsed::Wrong;
        } else {
            positional << arguments[i];
        }
    }
    options.words = positional;
    if (options.db.isEmpty())
        options.db = Store::defaultDatabasePath();
    return Parsed::Run;
}

} // namespace Eddy::Cli
