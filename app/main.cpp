// Eddy's GUI entry point: the engine on its own thread, the main window on the GUI thread, and
// the bundled eddy-cfd-server started on first run.

#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/firstrun.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QMessageBox>
#include <QStatusBar>
#include <QThread>

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
                              .arg(Store::TaskStore::defaultPath()),
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

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Workbench for long-running MCP tasks."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({db, lang, server, noLocal, serverData});
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
    const QCommandLineOption &dbOption = options.db;
    const QCommandLineOption &serverOption = options.server;
    const QCommandLineOption &noLocalOption = options.noLocal;
    const QCommandLineOption &serverDataOption = options.serverData;

    const QString dbPath = parser.isSet(dbOption) ? parser.value(dbOption) : Store::TaskStore::defaultPath();
    QDir().mkpath(QFileInfo(dbPath).absolutePath());

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

    const int code = app.exec();
    // The agent goes first (it works the engine), on the engine thread as the engine does.
    QMetaObject::invokeMethod(engine, [engine, agent] {
        delete agent;
        engine->close();
        delete engine;
    }, Qt::BlockingQueuedConnection);
    engineThread.quit();
    engineThread.wait();
    return code;
}
