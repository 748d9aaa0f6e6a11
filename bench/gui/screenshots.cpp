// Screenshot tool for docs/screenshots/: drives the real GUI against a running eddy-cfd-server
// mid-sweep and saves the main window (monitor + chart), the elicitation dialog and the sweep
// editor in the light and dark palettes. Run through bench/gui/screenshots.sh (Xvfb).

#include "app/monitor/engine.h"
#include "models/agentchatmodel.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/agentpanel.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QScreen>
#include <QSpinBox>
#include <QTableView>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <functional>

using namespace Eddy;

static bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
    return done();
}

static void settle(int ms)
{
    waitFor([] { return false; }, ms);
}

// The Agent dock with a short conversation about the running sweep. No language model runs here:
// the exchange is scripted into the chat model, its numbers read from the monitor, and the card
// is the one the agent's list_tasks tool writes.
static void saveAgentDock(MainWindow &w, const QString &path)
{
    AgentPanel *panel = w.agentPanel();
    auto *dock = panel ? qobject_cast<QDockWidget *>(panel->parentWidget()) : nullptr;
    if (!dock)
        return;
    TaskTableModel *tasks = w.taskModel();
    QList<qint64> ids;
    for (int r = 0; r < tasks->rowCount(); ++r)
        ids << tasks->taskIdAt(r);
    const auto counts = tasks->statusCounts();
    AgentChatModel *chat = panel->model();
    chat->clear();
    Store::AgentMessageRecord prompt;
    prompt.role = QStringLiteral("user");
    prompt.content = QStringLiteral("How is the cavity study doing? Anything waiting for me?");
    chat->addMessage(prompt);
    chat->addCard(QStringLiteral("list_tasks"), QStringLiteral("list_tasks: %1 tasks").arg(ids.size()), ids, true);
    chat->appendDelta(QStringLiteral("%1 of the %2 cases are iterating and %3 are waiting for your answer about "
                                     "their mesh (the Input dock has the questions). %4 finished so far.")
                          .arg(counts.value(Store::TaskStatus::Working))
                          .arg(ids.size())
                          .arg(counts.value(Store::TaskStatus::InputRequired))
                          .arg(counts.value(Store::TaskStatus::Completed)));
    chat->endTurn();
    dock->show();
    dock->raise();
    settle(800);
    dock->grab().save(path);
    for (QDockWidget *other : w.tabifiedDockWidgets(dock))
        other->raise(); // back to the result view for the shots that follow
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("EddyScreens"));
    QApplication::setApplicationName(QStringLiteral("screens"));
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_gui_screenshots SERVER_URL OUT_DIR\n");
        return 2;
    }
    QTranslator english; // plural forms ("1 case", "6 cases")
    if (english.load(QStringLiteral(":/i18n/eddy_en.qm")))
        QCoreApplication::installTranslator(&english);
    const QString url = QString::fromLocal8Bit(argv[1]);
    const QDir out(QString::fromLocal8Bit(argv[2]));
    QTemporaryDir dir;

    QThread thread;
    auto *engine = new Monitor::Engine;
    engine->moveToThread(&thread);
    thread.start();
    EngineBridge bridge(engine);
    MainWindow w(&bridge);
    bool opened = false;
    QObject::connect(engine, &Monitor::Engine::opened, &w, [&](bool ok, const QString &) { opened = ok; });
    const QString db = dir.filePath(QStringLiteral("eddy.sqlite"));
    QMetaObject::invokeMethod(engine, [engine, db] { engine->open(db); });
    if (!waitFor([&] { return opened; }, 20000))
        return 1;
    w.start();
    // EDDY_SHOT_SIZE=1280x800 checks a small screen; the pictures in docs/ use the default.
    const QStringList size = QString::fromLocal8Bit(qgetenv("EDDY_SHOT_SIZE")).split(QLatin1Char('x'));
    if (size.size() == 2 && size[0].toInt() > 0 && size[1].toInt() > 0)
        w.resize(size[0].toInt(), size[1].toInt());
    else
        w.resize(1580, 960);
    w.move(10, 10);
    w.show();
    waitFor([&] { return w.currentSession().has_value(); }, 20000);
    bridge.addServer(url, QStringLiteral("Workstation CFD"), QString());
    waitFor([&] {
        return w.serverModel()->rowCount() == 1
               && w.serverModel()->index(0).data(ServerListModel::ToolsRole).toString().contains(QLatin1String("run_cfd_case"));
    }, 30000);

    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    waitFor([&] { return editor->setCurrentTool(QStringLiteral("run_cfd_case")); }, 10000);
    qobject_cast<QSpinBox *>(editor->form()->editor("grid"))->setValue(64);
    qobject_cast<QLineEdit *>(editor->form()->editor("case_name"))->setText(QStringLiteral("cavity-study"));
    qobject_cast<QLineEdit *>(editor->form()->editor("tolerance"))->setText(QStringLiteral("1e-7"));
    editor->setVaried(QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 400, 1000"));
    editor->setVaried(QStringLiteral("force_mesh_defect"), SweepEditor::VaryKind::List, QStringLiteral("false, true"));
    editor->setConcurrency(4);
    editor->updatePreview();
    const QString theme = QString::fromLocal8Bit(qgetenv("EDDY_SHOT_THEME"));
    w.applyTheme(theme == QLatin1String("dark") ? MainWindow::Theme::Dark : MainWindow::Theme::Light);
    settle(500);
    QWidget *sweepWindow = editor->window();
    sweepWindow->grab().save(out.filePath(QStringLiteral("sweep-editor-%1.png").arg(theme)));
    editor->submit();

    // Mid-sweep: some cases running with residuals, some asking about their mesh.
    waitFor([&] { return w.taskModel()->rowCount() == 6; }, 30000);
    settle(6000);
    w.monitor()->selectTask(w.taskModel()->taskIdAt(0));
    w.monitor()->view()->selectRow(0);
    w.monitor()->view()->selectionModel()->select(w.monitor()->view()->model()->index(2, 0),
                                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
    settle(3000);
    w.grab().save(out.filePath(QStringLiteral("main-window-%1.png").arg(theme)));
    saveAgentDock(w, out.filePath(QStringLiteral("agent-dock-%1.png").arg(theme)));

    // A question in the answer panel beside the inbox, its case selected above (Ctrl+I).
    w.answerNext();
    waitFor([&] { return w.answerPanel()->hasQuestion() && !w.answerPanel()->isGuarded(); }, 20000);
    settle(500);
    w.grab().save(out.filePath(QStringLiteral("answer-panel-%1.png").arg(theme)));
    // The whole screen, as a user would see it, through ImageMagick when asked.
    std::printf("ready\n");
    std::fflush(stdout);
    settle(qEnvironmentVariableIntValue("EDDY_SHOT_HOLD_MS"));

    // The sweep's results: the table and the scalar plot once some cases have finished.
    waitFor([&] { return w.taskModel()->statusCounts().value(Store::TaskStatus::Completed) >= 3; }, 120000);
    for (int r = 0; r < w.taskModel()->rowCount(); ++r) {
        const qint64 id = w.taskModel()->taskIdAt(r);
        if (w.taskModel()->task(id)->status == Store::TaskStatus::Completed) {
            w.monitor()->selectTask(id);
            break;
        }
    }
    waitFor([&] { return w.sweepResults()->model()->withResultsCount() >= 3; }, 20000);
    w.sweepResults()->setPlot(QStringLiteral("reynolds"), QStringLiteral("iterations"));
    w.sweepResultsDock()->raise();
    w.resizeDocks({w.sweepResultsDock()}, {360}, Qt::Vertical);
    settle(1500);
    w.grab().save(out.filePath(QStringLiteral("main-window-results-%1.png").arg(theme)));
    w.sweepResultsDock()->grab().save(out.filePath(QStringLiteral("sweep-results-%1.png").arg(theme)));

    w.shutdownAgent(); // the agent lives on the engine's thread and goes first
    QMetaObject::invokeMethod(engine, [engine] {
        engine->close();
        delete engine;
    }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    return 0;
}
