// Screenshot tool for docs/screenshots/: drives the real GUI against a running eddy-cfd-server
// and saves the main window mid-sweep (some cases finished, one aborted at its mesh question,
// questions waiting in the inbox), the compare window and the parallel coordinates for one
// theme, language and size; with EDDY_SHOT_EXTRAS=1 also
// the sweep editor, the answer panel, the sweep results plot, a server at a wrong path, and in
// dark the tool-error banner, two cases charted together, the enlarged result plot, the agent
// dock and the user guide's window.
// Run through bench/gui/screenshots.sh (Xvfb), which walks the whole matrix.

#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "models/agentchatmodel.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/agentpanel.h"
#include "widgets/compareview.h"
#include "widgets/parallelcoordinatespanel.h"
#include "widgets/parallelcoordinatesview.h"
#include "widgets/residualchart.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"
#include "widgets/uitranslations.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QScreen>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QMouseEvent>
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

// The sweep's cases compared (the highest Reynolds number against the first case: a regression
// flagged) and its parallel coordinates with a brushed axis, each a window of the screen's size.
static void saveReviewWindows(MainWindow &w, const QSize &size, const QDir &out, const QString &tag)
{
    SweepResultsView *results = w.sweepResults();
    SweepResultsModel *model = results->model();
    QList<qint64> order = model->tasksInCaseOrder();
    qint64 last = 0;
    double highest = 0;
    for (qint64 id : std::as_const(order)) {
        const int row = model->rowOfTask(id);
        const auto c = model->comparisonCase(row);
        if (!c.scalars.isEmpty() && c.arguments.value(QStringLiteral("reynolds")).toDouble() > highest
            && !c.arguments.value(QStringLiteral("force_mesh_defect")).toBool()) {
            highest = c.arguments.value(QStringLiteral("reynolds")).toDouble();
            last = id;
        }
    }
    w.sweepResultsDock()->raise();
    settle(300);
    QTableView *table = results->table();
    for (int r = 0; r < table->model()->rowCount(); ++r)
        if (table->model()->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong() == last)
            table->selectRow(r);
    results->compareSelected();
    CompareView *compare = results->compareView();
    compare->resize(size);
    compare->move(0, 0);
    waitFor([&] { return !compare->residualChart()->series().isEmpty(); }, 20000);
    settle(1500);
    compare->grab().save(out.filePath(QStringLiteral("compare-%1.png").arg(tag)));
    compare->close();

    results->showParallelCoordinates();
    ParallelCoordinatesPanel *panel = results->parallelCoordinates();
    panel->resize(size);
    panel->move(0, 0);
    settle(800);
    ParallelCoordinatesView *view = panel->view();
    const int axis = view->data().axisOf(QStringLiteral("reynolds"));
    if (axis >= 0) { // brush the lower Reynolds numbers, as an engineer would drag
        const QLineF line = view->axisLine(axis);
        const auto send = [view](QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
            QMouseEvent event(type, at, view->mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
            QCoreApplication::sendEvent(view, &event);
        };
        send(QEvent::MouseButtonPress, QPointF(line.x1(), line.y2() + 2), Qt::LeftButton);
        send(QEvent::MouseMove, QPointF(line.x1(), line.y2() - line.length() * 0.3), Qt::LeftButton);
        send(QEvent::MouseButtonRelease, QPointF(line.x1(), line.y2() - line.length() * 0.45), Qt::NoButton);
    }
    settle(800);
    panel->grab().save(out.filePath(QStringLiteral("parallel-%1.png").arg(tag)));
    panel->close();
    table->clearSelection();
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
    // EDDY_SHOT_LANG=de|en, EDDY_SHOT_THEME=light|dark, EDDY_SHOT_SIZE=WIDTHxHEIGHT.
    const QString lang = qEnvironmentVariable("EDDY_SHOT_LANG", QStringLiteral("en"));
    const QString theme = qEnvironmentVariable("EDDY_SHOT_THEME", QStringLiteral("light"));
    const bool extras = qEnvironmentVariableIntValue("EDDY_SHOT_EXTRAS") == 1;
    installUiTranslations(&app, lang);
    QSize windowSize(1600, 1000);
    const QStringList size = qEnvironmentVariable("EDDY_SHOT_SIZE").split(QLatin1Char('x'));
    if (size.size() == 2 && size[0].toInt() > 0 && size[1].toInt() > 0)
        windowSize = QSize(size[0].toInt(), size[1].toInt());
    const QString tag = QStringLiteral("%1x%2-%3-%4")
                            .arg(windowSize.width())
                            .arg(windowSize.height())
                            .arg(theme, lang);
    const QString url = QString::fromLocal8Bit(argv[1]);
    const QDir out(QString::fromLocal8Bit(argv[2]));
    QTemporaryDir dir;

    QThread thread;
    auto *engine = new Monitor::Engine;
    engine->moveToThread(&thread);
    thread.start();
    auto *agent = new Agent::Agent(engine); // as app/main.cpp: beside the engine, on its thread
    agent->setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
    agent->moveToThread(&thread);
    EngineBridge bridge(engine);
    MainWindow w(&bridge, agent);
    bool opened = false;
    QObject::connect(engine, &Monitor::Engine::opened, &w, [&](bool ok, const QString &) { opened = ok; });
    const QString db = dir.filePath(QStringLiteral("eddy.sqlite"));
    QMetaObject::invokeMethod(engine, [engine, db] { engine->open(db); });
    if (!waitFor([&] { return opened; }, 20000))
        return 1;
    w.start();
    w.resize(windowSize);
    w.move(0, 0);
    w.show();
    waitFor([&] { return w.currentSession().has_value(); }, 20000);
    bridge.addServer(url, QStringLiteral("Workstation CFD"), QString());
    waitFor([&] {
        return w.serverModel()->rowCount() == 1
               && w.serverModel()->index(0).data(ServerListModel::ToolsRole).toString().contains(QLatin1String("run_cfd_case"));
    }, 30000);
    w.applyTheme(theme == QLatin1String("dark") ? MainWindow::Theme::Dark : MainWindow::Theme::Light);

    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    waitFor([&] { return editor->setCurrentTool(QStringLiteral("run_cfd_case")); }, 10000);
    qobject_cast<QSpinBox *>(editor->form()->editor("grid"))->setValue(48);
    qobject_cast<QLineEdit *>(editor->form()->editor("case_name"))->setText(QStringLiteral("cavity-study"));
    qobject_cast<QLineEdit *>(editor->form()->editor("tolerance"))->setText(QStringLiteral("1e-6"));
    editor->setVaried(QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 400, 1000"));
    editor->setVaried(QStringLiteral("force_mesh_defect"), SweepEditor::VaryKind::List, QStringLiteral("false, true"));
    editor->setConcurrency(4);
    editor->updatePreview();
    settle(500);
    if (extras)
        editor->window()->grab().save(out.filePath(QStringLiteral("sweep-editor-%1.png").arg(lang)));
    editor->submit();

    // Mid-sweep: the cases without a defect finish, the others ask about their mesh.
    TaskTableModel *tasks = w.taskModel();
    waitFor([&] { return tasks->rowCount() == 6; }, 30000);
    waitFor([&] {
        return tasks->statusCounts().value(Store::TaskStatus::Completed) >= 3
               && tasks->statusCounts().value(Store::TaskStatus::InputRequired) >= 3;
    }, 240000);

    // The first question in the answer panel (Ctrl+I), then aborted there: a tool error.
    w.answerNext();
    waitFor([&] { return w.answerPanel()->hasQuestion() && !w.answerPanel()->isGuarded(); }, 20000);
    settle(500);
    if (extras)
        w.grab().save(out.filePath(QStringLiteral("answer-panel-%1.png").arg(lang)));
    const qint64 aborted = w.answerPanel()->taskId();
    if (auto *action = qobject_cast<QComboBox *>(w.answerPanel()->form()->editor("action")))
        action->setCurrentIndex(action->count() - 1); // "Abort this case"
    w.answerPanel()->acceptInput();
    waitFor([&] { return tasks->outcome(aborted) == Monitor::Outcome::ToolError; }, 30000);

    // The main window: a converged case selected (residuals, result, Ghia overlay), the sweep's
    // results below, two questions still waiting.
    for (int r = 0; r < tasks->rowCount(); ++r) {
        const qint64 id = tasks->taskIdAt(r);
        if (tasks->outcome(id) == Monitor::Outcome::Converged) {
            w.monitor()->selectTask(id);
            break;
        }
    }
    waitFor([&] { return w.sweepResults()->model()->withResultsCount() >= 3; }, 20000);
    // The engineer's note and tags on the sweep (above its table), its first case marked as the
    // baseline (the Case column says so; Compare measures against it).
    SweepResultsModel *results = w.sweepResults()->model();
    const qint64 sweepId = results->sweepId();
    const bool german = lang == QLatin1String("de");
    bridge.setSweepNote(sweepId, german ? QStringLiteral("Gitter 48: braucht Re 1000 ein feineres Gitter? Mit 64 vergleichen.")
                                        : QStringLiteral("Grid 48: does Re 1000 need a finer grid? Compare with 64."));
    bridge.setSweepTags(sweepId, {QStringLiteral("cavity"), QStringLiteral("mesh-study")});
    if (const Store::TaskRecord *first = tasks->task(results->tasksInCaseOrder().value(0)); first && first->caseId)
        bridge.setBaseline(sweepId, first->caseId);
    waitFor([&] { return !results->sweepNote().isEmpty() && !results->sweepTags().isEmpty() && results->baselineTask(); },
            10000);
    w.sweepResults()->setPlot(QStringLiteral("reynolds"), QStringLiteral("iterations"));
    settle(1500);
    w.grab().save(out.filePath(QStringLiteral("main-%1.png").arg(tag)));
    saveReviewWindows(w, windowSize, out, tag);
    // The window with the sweep view in front (saveReviewWindows() raised it): the sweep's note and
    // tags above its table, its baseline marked in the Case column.
    w.sweepResultsDock()->raise();
    settle(800);
    w.grab().save(out.filePath(QStringLiteral("sweep-review-%1.png").arg(tag)));

    if (extras) {
        w.sweepResultsDock()->raise();
        settle(800);
        w.sweepResultsDock()->grab().save(out.filePath(QStringLiteral("sweep-results-%1.png").arg(lang)));
        w.sweepResults()->enlargePlot();
        settle(1000);
        if (auto *plot = w.sweepResults()->findChild<QDialog *>(QStringLiteral("enlargedPlot"))) {
            plot->grab().save(out.filePath(QStringLiteral("sweep-plot-%1.png").arg(lang)));
            plot->close();
        }
        // A server added at a wrong path: answered, but not as an MCP server.
        QString wrong = url;
        wrong.replace(QLatin1String("/mcp"), QLatin1String("/wrong"));
        bridge.addServer(wrong, QStringLiteral("Wrong path"), QString());
        waitFor([&] {
            for (int r = 0; r < w.serverModel()->rowCount(); ++r)
                if (w.serverModel()->index(r).data(ServerListModel::MessageRole).toString().contains(
                        QLatin1String("/wrong")))
                    return true;
            return false;
        }, 30000);
        settle(800);
        w.grab().save(out.filePath(QStringLiteral("wrong-path-%1.png").arg(lang)));

        w.applyTheme(MainWindow::Theme::Dark);
        w.monitor()->selectTask(aborted);
        settle(1000);
        w.grab().save(out.filePath(QStringLiteral("tool-error-dark-%1.png").arg(lang)));

        // Two finished cases charted together: one colour per case, one dash per field.
        QList<qint64> converged;
        for (int r = 0; r < tasks->rowCount() && converged.size() < 2; ++r) {
            const Monitor::Outcome o = tasks->outcome(tasks->taskIdAt(r));
            if (o == Monitor::Outcome::Converged || o == Monitor::Outcome::NotConverged)
                converged << tasks->taskIdAt(r);
        }
        w.monitor()->selectTasks(converged);
        settle(1500);
        w.grab().save(out.filePath(QStringLiteral("two-cases-dark-%1.png").arg(lang)));

        // Result > Plots, enlarged: the centreline profile against Ghia's points.
        w.monitor()->selectTask(converged.value(0));
        waitFor([&] { return w.resultView()->shownCurvePoints() > 0; }, 20000);
        if (auto *tabs = w.resultView()->findChild<QTabWidget *>())
            tabs->setCurrentIndex(1); // Plots
        w.resultView()->enlargeCurve();
        settle(1200);
        if (auto *plot = w.resultView()->findChild<QDialog *>(QStringLiteral("enlargedCurve"))) {
            plot->grab().save(out.filePath(QStringLiteral("result-plot-dark-%1.png").arg(lang)));
            plot->close();
        }
        saveAgentDock(w, out.filePath(QStringLiteral("agent-dock-dark-%1.png").arg(lang)));

        // Help > User Guide, in Eddy's own window.
        if (auto *guide = w.findChild<QAction *>(QStringLiteral("userGuide"))) {
            guide->trigger();
            waitFor([&] { return w.findChild<QDialog *>(QStringLiteral("userGuideDialog")) != nullptr; }, 10000);
            if (auto *dialog = w.findChild<QDialog *>(QStringLiteral("userGuideDialog"))) {
                settle(1000);
                dialog->grab().save(out.filePath(QStringLiteral("user-guide-dark-%1.png").arg(lang)));
                dialog->close();
            }
        }
    }
    std::printf("ready\n");
    std::fflush(stdout);

    QMetaObject::invokeMethod(engine, [engine, agent] {
        delete agent; // the agent works the engine and goes first
        engine->close();
        delete engine;
    }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    return 0;
}
