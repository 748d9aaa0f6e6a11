// Eddy's GUI entry point: the engine on its own thread, the main window on the GUI thread, and
// the bundled eddy-cfd-server started on first run. `eddy --notify` is the background notifier
// that follows open questions while the window is closed (app/notifier.h), without a display.

#include "app/agent/agent.h"
#include "app/keychain/vault.h"
#include "app/mcp/client.h"
#include "app/mcp/oauth.h"
#include "app/monitor/engine.h"
#include "app/monitor/heaptrim.h"
#include "app/notifier.h"
#include "app/stallprobe.h"
#include "app/vocab/records.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/desktopservice.h"
#include "widgets/firstrun.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QMessageBox>
#include <QStatusBar>
#include <QThread>
#include <QTimer>

#include <cstdio>

using namespace Eddy;

namespace {

// True when the command line only asks for --help or --version: answered without a display.
bool wantsInfoOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--help" || a == "-h" || a == "-?" || a == "--help-all" || a == "--version" || a == "-v")
            return true;
    }
    return false;
}

// True for the background notifier (--notify): a core app, no display.
bool wantsNotifier(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (QByteArray(argv[i]) == "--notify")
            return true;
    }
    return false;
}

// The value of --lang (also --lang=de) before any QCoreApplication exists.
QString langArgument(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--lang" && i + 1 < argc)
            return QString::fromLocal8Bit(argv[i + 1]);
        if (a.startsWith("--lang="))
            return QString::fromLocal8Bit(a.mid(7));
    }
    return {};
}

struct Options
{
    QCommandLineOption db{QStringLiteral("db"),
                          QCoreApplication::translate("main", "Database file (default: %1).")
                              .arg(Store::defaultDatabasePath()),
                          QStringLiteral("file")};
    QCommandLineOption lang{QStringLiteral("lang"),
                            QCoreApplication::translate("main", "User interface language: de or en."),
                            QStringLiteral("lang")};
    QCommandLineOption server{QStringLiteral("server"),
                              QCoreApplication::translate("main", "Connect to this MCP server URL (added if new)."),
                              QStringLiteral("url")};
    QCommandLineOption noLocal{QStringLiteral("no-local-server"),
                               QCoreApplication::translate("main", "Never start the bundled eddy-cfd-server.")};
    QCommandLineOption serverData{QStringLiteral("server-data"),
                                  QCoreApplication::translate("main", "Data folder of the bundled server."),
                                  QStringLiteral("dir")};
    QCommandLineOption answer{QStringLiteral("answer"),
                              QCoreApplication::translate("main", "Open at this question (its number, as a "
                                                                  "desktop notification of Eddy names it)."),
                              QStringLiteral("number")};
    QCommandLineOption notify{QStringLiteral("notify"),
                              QCoreApplication::translate("main", "Without a window: show a desktop notification "
                                                                  "for each open question until the window opens "
                                                                  "or nothing is left to follow.")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Workbench for long-running MCP tasks."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({db, lang, server, noLocal, serverData, answer, notify});
    }
};

void setNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Eddy"));
    QCoreApplication::setApplicationName(QStringLiteral("Eddy"));
    QCoreApplication::setApplicationVersion(QStringLiteral(EDDY_VERSION));
}

QIcon appIcon()
{
    QIcon icon;
    for (int s : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/eddy/icons/eddy-%1.png").arg(s), QSize(s, s));
    return icon;
}

// --lang as given, for the processes this one starts (the notifier, the window it opens).
QStringList langArgs(const QString &lang)
{
    return lang.isEmpty() ? QStringList() : QStringList{QStringLiteral("--lang"), lang};
}

QString dbPathOf(const QCommandLineParser &parser, const Options &options)
{
    const QString dbPath = parser.isSet(options.db) ? parser.value(options.db) : Store::defaultDatabasePath();
    QDir().mkpath(QFileInfo(dbPath).absolutePath());
    return dbPath;
}

bool hasLiveTasks(Monitor::Engine &engine)
{
    for (const Store::TaskStatus status : {Store::TaskStatus::Working, Store::TaskStatus::InputRequired}) {
        Store::TaskQuery query;
        query.status = status;
        query.limit = 1;
        if (!engine.catalogue().tasks(query).isEmpty())
            return true;
    }
    return false;
}

int runNotifier(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    setNames();
    const QString lang = langArgument(argc, argv);
    installUiTranslations(&app, lang);
    QCommandLineParser parser;
    const Options options;
    options.addTo(parser);
    parser.process(app);
    // The notifier follows tasks too: the servers' tokens come from the same vault as the window's.
    Keychain::Vault vault(Keychain::Vault::defaultFile(),
                          [](const QString &message) { qWarning("%s", qPrintable(message)); });
    setSecretVault(&vault);
    struct Unset { ~Unset() { setSecretVault(nullptr); } } unsetVault;
    Notifier notifier(dbPathOf(parser, options), langArgs(lang));
    QObject::connect(&notifier, &Notifier::finished, &app, &QCoreApplication::exit);
    QTimer::singleShot(0, &notifier, &Notifier::start);
    return app.exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // --help and --version need no display (and no xcb plugin): answer them from a core app.
    if (wantsInfoOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        setNames();
        installUiTranslations(&core, langArgument(argc, argv));
        QCommandLineParser parser;
        const Options options;
        options.addTo(parser);
        parser.process(core); // prints and exits
        return 0;
    }
    if (wantsNotifier(argc, argv))
        return runNotifier(argc, argv);

    QApplication app(argc, argv);
    setNames();
    QApplication::setWindowIcon(appIcon());

    const QString earlyLang = langArgument(argc, argv);
    if (!earlyLang.isEmpty() && earlyLang != QLatin1String("de") && earlyLang != QLatin1String("en")) {
        std::fprintf(stderr, "eddy: --lang must be de or en (got %s)\n", qPrintable(earlyLang));
        return 2;
    }
    installUiTranslations(&app, earlyLang); // before the options, so that their texts translate

    QCommandLineParser parser;
    const Options options;
    options.addTo(parser);
    parser.process(app);
    const QCommandLineOption &serverOption = options.server;
    const QCommandLineOption &noLocalOption = options.noLocal;
    const QCommandLineOption &serverDataOption = options.serverData;

    // Server tokens and OAuth tokens: in the Secret Service, else the owner-only token file;
    // the database keeps only their references (docs/user-guide.md, "Where secrets live").
    Keychain::Vault vault(Keychain::Vault::defaultFile(),
                          [](const QString &message) { qWarning("%s", qPrintable(message)); });
    setSecretVault(&vault);
    struct Unset { ~Unset() { setSecretVault(nullptr); } } unsetVault;

    const QString dbPath = dbPathOf(parser, options);
    qint64 answerNumber = 0;
    if (parser.isSet(options.answer)) {
        bool ok = false;
        answerNumber = parser.value(options.answer).toLongLong(&ok);
        if (!ok || answerNumber <= 0) {
            std::fprintf(stderr, "eddy: --answer takes a question's number, as a notification of Eddy "
                                 "names it (got %s)\n", qPrintable(parser.value(options.answer)));
            return 2;
        }
        // A window already open shows it: no second window on the same questions.
        if (DesktopService::forwardQuestion(answerNumber))
            return 0;
    }

    // A server without a token that asks to sign in (MCP authorization) gets the system
    // browser, opened on the GUI thread; the engine's client waits for the browser's redirect
    // (docs/interop.md, "Authorization (client side)").
    auto signIn = std::make_shared<Mcp::OAuthSettings>();
    signIn->clientMetadataUrl = QUrl(qEnvironmentVariable("EDDY_OAUTH_CLIENT_METADATA_URL"));
    signIn->openAuthorizationUrl = [](const QUrl &url) {
        QMetaObject::invokeMethod(qApp, [url] { QDesktopServices::openUrl(url); });
    };
    Mcp::Client::setOAuthSettings(std::move(signIn));

    // The engine owns curl, SQLite and every MCP connection; it never runs on the GUI thread.
    QThread engineThread;
    engineThread.setObjectName(QStringLiteral("engine"));
    auto *engine = new Monitor::Engine;
    engine->moveToThread(&engineThread);
    engineThread.start();

    // The agent works the engine directly, so it is built here beside it and lives on its thread;
    // the window gets it only to show its chat (widgets never reach the engine).
    auto *agent = new Agent::Agent(engine);
    agent->setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
    agent->moveToThread(&engineThread);

    EngineBridge bridge(engine);
    MainWindow window(&bridge, agent);
    DesktopService desktop(&window);
    window.setNotifierCommand(QStringList{QCoreApplication::applicationFilePath(), QStringLiteral("--db"), dbPath}
                              + langArgs(earlyLang));
    FirstRun firstRun(&bridge);
    if (parser.isSet(serverDataOption))
        firstRun.setDataDir(parser.value(serverDataOption));
    const QString explicitServer = parser.value(serverOption);
    const bool allowLocal = !parser.isSet(noLocalOption);

    bool firstSnapshot = true;
    QObject::connect(&window, &MainWindow::snapshotLoaded, &window, [&] {
        if (!firstSnapshot)
            return;
        firstSnapshot = false;
        EngineBridge::Snapshot s;
        s.servers = window.serverModel()->servers();
        if (!explicitServer.isEmpty())
            bridge.addServer(explicitServer, QString(), QString());
        if (allowLocal && firstRun.begin(s, !explicitServer.isEmpty()))
            window.statusBar()->showMessage(QCoreApplication::translate("main", "Starting the bundled CFD server..."));
        // The questions are listed now: a notifier still running hands them to this window.
        desktop.registerOnBus();
        if (answerNumber > 0)
            desktop.showQuestion(answerNumber);
    });
    QObject::connect(&firstRun, &FirstRun::serverReady, &window, [&](const QString &url) {
        window.statusBar()->showMessage(QCoreApplication::translate("main", "Local CFD server running at %1").arg(url), 8000);
    });
    QObject::connect(&firstRun, &FirstRun::serverFailed, &window, [&](const QString &message) {
        QMessageBox::warning(&window, QCoreApplication::translate("main", "Local Server"), message);
    });
    QObject::connect(engine, &Monitor::Engine::opened, &window, [&](bool ok, const QString &error) {
        if (!ok) {
            QMessageBox::critical(&window, QCoreApplication::translate("main", "Cannot Open the Database"),
                                  QCoreApplication::translate("main", "Eddy could not open %1:\n%2\n\nStart Eddy with "
                                                                      "--db and another file, or restore a backup.")
                                      .arg(dbPath, error));
            QApplication::exit(1);
            return;
        }
        window.start();
    });
    QMetaObject::invokeMethod(engine, [engine, dbPath] { engine->open(dbPath); });

    // Quit: ask about the local server while tasks run there, then stop the engine on its thread.
    window.setQuitGuard([&] {
        const auto counts = window.taskModel()->statusCounts();
        const int live = counts.value(Store::TaskStatus::Working) + counts.value(Store::TaskStatus::InputRequired);
        return firstRun.prepareQuit(&window, live);
    });
    window.show();
    const StallProbe stallProbe; // EDDY_STALL_PROBE only (bench/soak)
    const Monitor::HeapTrim heapTrim; // free heap pages go back to the system once a minute

    const int code = app.exec();
    // The agent goes first (it works the engine), on the engine thread as the engine does.
    bool workLeft = false; // any live task in the database, not only the shown session's
    QMetaObject::invokeMethod(engine, [engine, agent, &workLeft] {
        delete agent;
        workLeft = hasLiveTasks(*engine);
        engine->close();
        delete engine;
    }, Qt::BlockingQueuedConnection);
    engineThread.quit();
    engineThread.wait();
    // Work still running: its questions reach the desktop while no window is open. The name goes
    // first, or the notifier would see this window still there and end.
    desktop.unregisterFromBus();
    if (workLeft && code == 0
        && !DesktopService::startNotifier(QCoreApplication::applicationFilePath(), dbPath, langArgs(earlyLang)))
        std::fprintf(stderr, "eddy: could not start the notifier (eddy --notify); questions wait until "
                             "Eddy opens again\n");
    return code;
}
