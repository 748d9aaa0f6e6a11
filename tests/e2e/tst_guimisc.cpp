#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/testserver.h"
#include "tests/net/website.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/uitranslations.h"

#include <QAction>
#include <QColor>
#include <QComboBox>
#include <QDate>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <cmath>
#include <functional>
#include <memory>

using namespace Eddy;

// The last stretch of the window as a new user meets it (issue 14, defects 10-12), on the real
// MainWindow against the real eddy-cfd-server and a real SQLite file: the server square and the
// status bar after a relaunch, the sweep editor's defaults, button and Escape, English plurals
// without --lang, Help > Keyboard Shortcuts, and `eddy --help` without a display.
class tst_GuiMisc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void firstRunSessionIsNamedSession();
    void relaunchShowsServerOnlineByName();
    void webPageIsNotAnMcpServer();
    void removeServers();
    void sweepFormFitsInGerman();
    void answerRefusalReadsInGerman();
    void sweepEditorDefaultsLabelAndEscape();
    void openAndSaveSweepFiles();
    void toolErrorBannerReadableInDark();
    void shortcutsListedFromActions();
    void helpWithoutDisplay();
    void cleanupTestCase();

private:
    // The window on the test database; `beforeWindowStart` runs after the engine opened and
    // before the window asks for its first snapshot (a slow GUI start).
    std::unique_ptr<Test::E2eWindow>
    startApp(const std::function<void(Test::E2eWindow &)> &beforeWindowStart = {});
    static QString serverActivity(MainWindow &w);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0; // the reference server's id in the store
};

std::unique_ptr<Test::E2eWindow>
tst_GuiMisc::startApp(const std::function<void(Test::E2eWindow &)> &beforeWindowStart)
{
    Test::E2eWindowOptions options;
    options.beforeStart = beforeWindowStart;
    return Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
}

QString tst_GuiMisc::serverActivity(MainWindow &w)
{
    auto *label = w.findChild<QLabel *>(QStringLiteral("serverActivity"));
    return label ? label->text() : QStringLiteral("<no serverActivity label>");
}

void tst_GuiMisc::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_guimisc"));
    QSettings().clear();
    // As eddy does without --lang; ctest runs without LANG, i.e. on the C locale.
    installUiTranslations(qApp, QString());
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
}

void tst_GuiMisc::firstRunSessionIsNamedSession()
{
    m_app = startApp();
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentSession().has_value(), 30000);
    const QString expected
        = QStringLiteral("Session %1").arg(QDate::currentDate().toString(Qt::ISODate));
    auto *sessions = w.findChild<SessionListModel *>();
    QVERIFY(sessions);
    QStringList names;
    for (int r = 0; r < sessions->rowCount(); ++r)
        names << sessions->index(r).data().toString();
    QVERIFY2(names.contains(expected), qPrintable(names.join(QLatin1String(" | "))));
}

void tst_GuiMisc::relaunchShowsServerOnlineByName()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    const qint64 serverId = m_app->addServer(m_server.url(), QStringLiteral("Local CFD server"));
    QVERIFY(serverId);
    QCOMPARE(w.serverModel()->rowCount(), 1);
    m_serverId = serverId;
    // A case that runs for minutes, so that the relaunched engine has a task to poll.
    m_app->bridge()->callOnce(
        serverId,
        QStringLiteral("run_cfd_case"),
        R"({"case_name":"long","reynolds":100,"grid":64,"tolerance":1e-14,"max_iterations":5000000})",
        w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(
        w.taskModel()->statusCounts().value(Store::TaskStatus::Working), 1, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(
        w.serverModel()->state(serverId), ServerListModel::State::Online, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(serverActivity(w), QStringLiteral("Local CFD server online"), 30000);
    m_app.reset();

    // Relaunch where the server answers (its listen stream or a poll) before the window's first
    // snapshot has listed it. The engine may hear it as soon as it opens, on its own thread, so
    // the counting starts before the engine runs.
    int online = 0;
    QMetaObject::Connection counting;
    Test::E2eWindowOptions options;
    options.configureEngine = [&](Monitor::Engine &engine) {
        counting = connect(&engine,
                           &Monitor::Engine::serverStateChanged,
                           this,
                           [&](qint64, Monitor::Engine::ServerState state, const QString &) {
                               online += state == Monitor::Engine::ServerState::Online;
                           });
    };
    options.beforeStart = [&](Test::E2eWindow &) {
        QTRY_VERIFY_WITH_TIMEOUT(online > 0, 60000);
    };
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    disconnect(counting);
    QVERIFY(m_app);
    MainWindow &again = *m_app->window();
    QTRY_COMPARE_WITH_TIMEOUT(again.serverModel()->rowCount(), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(
        again.serverModel()->state(serverId), ServerListModel::State::Online, 10000);
    QCOMPARE(again.serverModel()->index(0).data(Qt::DecorationRole).value<QColor>(),
             QColor(0x3a, 0xa6, 0x55));
    QTRY_COMPARE_WITH_TIMEOUT(
        serverActivity(again), QStringLiteral("Local CFD server online"), 10000);
}

void tst_GuiMisc::webPageIsNotAnMcpServer()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    Test::WebSite site;
    QVERIFY(site.listen());
    m_app->bridge()->addServer(site.url(), QStringLiteral("Web Site"), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->rowCount(), 2, 30000);
    const int row
        = w.serverModel()->index(0).data(Qt::DisplayRole).toString() == QLatin1String("Web Site")
              ? 0
              : 1;
    const QModelIndex index = w.serverModel()->index(row);
    QCOMPARE(index.data().toString(), QStringLiteral("Web Site"));
    const QString expected
        = QStringLiteral(
              "http://127.0.0.1:%1 answered, but not as an MCP server (HTTP 404 on POST / for ")
              .arg(site.port());
    QTRY_VERIFY2_WITH_TIMEOUT(
        index.data(ServerListModel::MessageRole).toString().startsWith(expected),
        qPrintable(index.data(ServerListModel::MessageRole).toString()),
        60000);
    QVERIFY(index.data(ServerListModel::MessageRole)
                .toString()
                .contains(QLatin1String("check the URL's path, e.g. /mcp")));
    QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(QLatin1String("Not an MCP server")),
             qPrintable(index.data(Qt::ToolTipRole).toString()));
    QTRY_VERIFY2_WITH_TIMEOUT(
        serverActivity(w).startsWith(QLatin1String("Web Site is not an MCP server: ")),
        qPrintable(serverActivity(w)),
        10000);
}

// Server > Remove Server... on the selected server, confirmed in its box.
static void removeViaMenu(MainWindow &w, const QString &name)
{
    auto *list = w.findChild<QListView *>(QStringLiteral("servers"));
    QVERIFY(list);
    for (int r = 0; r < w.serverModel()->rowCount(); ++r) {
        if (w.serverModel()->index(r).data().toString() == name)
            list->setCurrentIndex(w.serverModel()->index(r));
    }
    w.findChild<QAction *>(QStringLiteral("removeServer"))->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (box = w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm")))
            && box->isVisible(),
        10000);
    QVERIFY2(box->text().contains(name), qPrintable(box->text()));
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmRemove")),
                      Qt::LeftButton);
}

void tst_GuiMisc::removeServers()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QCOMPARE(w.serverModel()->rowCount(), 2);
    // The web site never ran a task: it goes.
    removeViaMenu(w, QStringLiteral("Web Site"));
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(w.serverModel()->rowCount(), 1, 10000);
    QCOMPARE(w.serverModel()->index(0).data().toString(), QStringLiteral("Local CFD server"));
    // The reference server has a running task: the box asks what becomes of it (kept as history
    // or deleted too; tst_serverremove does both); keeping the server changes nothing.
    auto *list = w.findChild<QListView *>(QStringLiteral("servers"));
    list->setCurrentIndex(w.serverModel()->index(0));
    w.findChild<QAction *>(QStringLiteral("removeServer"))->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (box = w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm")))
            && box->isVisible() && box->findChild<QPushButton *>(QStringLiteral("removeKeepTasks")),
        10000);
    QVERIFY(box->findChild<QPushButton *>(QStringLiteral("removeDeleteTasks")));
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("keepServer")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QMessageBox *>(QStringLiteral("removeServerConfirm")),
                             10000);
    QCOMPARE(w.serverModel()->rowCount(), 1);
    QCOMPARE(w.taskModel()->statusCounts().value(Store::TaskStatus::Working), 1);
}

void tst_GuiMisc::sweepFormFitsInGerman()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/eddy_de.qm")));
    QCoreApplication::installTranslator(&german);
    {
        // The editor as the sweep window shows it, at its size on a 1280x800 screen.
        SweepEditor editor;
        editor.setServerModel(w.serverModel());
        editor.setCurrentServer(m_serverId);
        QVERIFY(editor.setCurrentTool(QStringLiteral("run_cfd_case")));
        editor.setVaried(
            QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 400"));
        editor.resize(1100, 680);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        auto *scroll = editor.findChild<QScrollArea *>();
        QVERIFY(scroll);
        QCoreApplication::processEvents();
        // Nothing needs sideways scrolling: the form fits its viewport, help texts wrapped.
        QVERIFY2(editor.form()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("form needs %1 px, has %2")
                                .arg(editor.form()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        // The Remove button of a varied parameter is as wide as it asks to be.
        auto *varied = editor.findChild<QTableWidget *>(QStringLiteral("varied"));
        QWidget *remove = varied->cellWidget(0, 3);
        QVERIFY(remove);
        QVERIFY2(
            remove->width() >= remove->sizeHint().width(),
            qPrintable(
                QStringLiteral("%1 < %2").arg(remove->width()).arg(remove->sizeHint().width())));
    }
    QCoreApplication::removeTranslator(&german);
}

// The engine's own refusals reach a German window in German, not as English inside a German
// sentence: here an answer sent (from a panel left open) after its case ended.
void tst_GuiMisc::answerRefusalReadsInGerman()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    m_app->bridge()->submitSweep(
        m_serverId,
        R"({"tool": "run_cfd_case", "fixed": {"grid": 16, "max_iterations": 200}, "vary": {"reynolds": {"list": [250]}}})",
        w.currentSession());
    // Its case ended (cancelled here: the server may still be busy with earlier cases).
    const QString reynolds = QStringLiteral("250");
    QTRY_VERIFY_WITH_TIMEOUT(Test::sweepTaskIn(w, true, reynolds) || Test::sweepTaskIn(w, false, reynolds), 60000);
    if (const qint64 live = Test::sweepTaskIn(w, true, reynolds))
        m_app->bridge()->cancelTasks({live});
    QTRY_VERIFY_WITH_TIMEOUT(Test::sweepTaskIn(w, false, reynolds) != 0, 60000);
    const qint64 taskId = Test::sweepTaskIn(w, false, reynolds);
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/eddy_de.qm")));
    QCoreApplication::installTranslator(&german);
    const auto boxText = [&w]() -> QString {
        for (const QMessageBox *box : w.findChildren<QMessageBox *>())
            if (box->isVisible() && box->text().contains(QStringLiteral("ist nicht angekommen")))
                return box->text();
        return {};
    };
    m_app->bridge()->answerInput(taskId, QStringLiteral("mesh_defect"), R"({"action": "decline"})");
    QTRY_VERIFY_WITH_TIMEOUT(!boxText().isEmpty(), 30000);
    const QString text = boxText();
    QCoreApplication::removeTranslator(&german);
    for (QMessageBox *box : w.findChildren<QMessageBox *>())
        box->close();
    QVERIFY2(text.endsWith(QStringLiteral(": Die zugehörige Aufgabe ist bereits beendet.")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("task"), Qt::CaseInsensitive), qPrintable(text));
}

void tst_GuiMisc::sweepEditorDefaultsLabelAndEscape()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    auto *window = qobject_cast<QDialog *>(editor->window());
    QVERIFY(window);
    QTRY_VERIFY(window->isVisible());
    editor->setCurrentServer(m_serverId);
    QTRY_VERIFY_WITH_TIMEOUT(editor->setCurrentTool(QStringLiteral("run_cfd_case")), 10000);
    QVERIFY(!editor->isFilled()); // the tool's defaults are nothing to lose

    // "Vary a Parameter" proposes a number, not case_name.
    auto *addVary = editor->findChild<QPushButton *>(QStringLiteral("addVaried"));
    QVERIFY(addVary);
    QTest::mouseClick(addVary, Qt::LeftButton);
    auto *varied = editor->findChild<QTableWidget *>(QStringLiteral("varied"));
    QVERIFY(varied);
    QCOMPARE(varied->rowCount(), 1);
    auto *field = qobject_cast<QComboBox *>(varied->cellWidget(0, 0));
    QVERIFY(field);
    const QString first = field->currentData().toString();
    QVERIFY2(first != QLatin1String("case_name") && first != QLatin1String("force_mesh_defect"),
             qPrintable(first));
    const SchemaField *f = nullptr;
    for (const SchemaField &c : editor->form()->field().children) {
        if (QString::fromStdString(c.name) == first)
            f = &c;
    }
    QVERIFY(f);
    QVERIFY(f->kind == SchemaField::Kind::Number || f->kind == SchemaField::Kind::Integer);

    // The button says what it would submit, in correct English plurals, or why it cannot.
    editor->clearVaried(); // the proposed row has no values yet
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    QVERIFY(submit);
    // The required grid has no default: it reads "not set" and must be given (it used to start
    // at its minimum, 8, and sweeps ran at that resolution unasked).
    auto *grid = qobject_cast<QSpinBox *>(editor->form()->editor("grid"));
    QVERIFY(grid);
    QCOMPARE(grid->text(), grid->specialValueText());
    grid->setValue(16);
    editor->setVaried(
        QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, 400, 1000"));
    QTRY_COMPARE(submit->text(), QStringLiteral("Submit 3 Cases"));
    QVERIFY(submit->isEnabled());
    editor->setVaried(
        QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("100, lots, -5"));
    QTRY_VERIFY(!submit->isEnabled());
    QVERIFY2(!submit->text().contains(QLatin1Char('3')), qPrintable(submit->text()));
    QVERIFY(!submit->toolTip().isEmpty());
    editor->setVaried(
        QStringLiteral("reynolds"), SweepEditor::VaryKind::List, QStringLiteral("400"));
    QTRY_COMPARE(submit->text(), QStringLiteral("Submit 1 Case"));
    QVERIFY(submit->isEnabled());

    // Escape asks before discarding; "Keep Editing" keeps everything.
    QVERIFY(editor->isFilled());
    QTest::keyClick(window, Qt::Key_Escape);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window->findChild<QMessageBox *>(QStringLiteral("discardSweep")))
                && box->isVisible());
    QVERIFY(window->isVisible());
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("keepEditing")), Qt::LeftButton);
    QTRY_VERIFY(!window->findChild<QMessageBox *>(QStringLiteral("discardSweep")));
    QVERIFY(window->isVisible());
    QCOMPARE(varied->rowCount(), 1);
    // Closing the window asks too; Discard closes it.
    window->close();
    QTRY_VERIFY((box = window->findChild<QMessageBox *>(QStringLiteral("discardSweep")))
                && box->isVisible());
    QVERIFY(window->isVisible());
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("discard")), Qt::LeftButton);
    QTRY_VERIFY(!window->isVisible());
}

// Drives File > Open Sweep... / Save Sweep... through their file dialog.
static void chooseFile(MainWindow &w, const QString &action, const QString &path)
{
    QAction *a = w.findChild<QAction *>(action);
    QVERIFY(a);
    a->trigger();
    Test::chooseInFileDialog(&w, QStringLiteral("sweepFileDialog"), path);
}

void tst_GuiMisc::openAndSaveSweepFiles()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    SweepEditor *editor = w.sweepEditor();
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    const QString example = qEnvironmentVariable("EDDY_SOURCE_DIR")
                            + QStringLiteral("/resources/examples/cavity-grid.json");
    QVERIFY(QFile::exists(example));

    // The example spec eddyctl submits: 2 Reynolds numbers x 3 gradings.
    chooseFile(w, QStringLiteral("openSweep"), example);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(editor->previewCount(), 6, 10000);
    QCOMPARE(submit->text(), QStringLiteral("Submit 6 Cases"));
    QVERIFY(!w.findChild<QMessageBox *>(QStringLiteral("sweepFileError")));

    // Save writes the same sweep back in the same format.
    const QString saved = m_dir.filePath(QStringLiteral("saved-sweep.json"));
    chooseFile(w, QStringLiteral("saveSweep"), saved);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY2(QFile::exists(saved),
                 w.findChild<QMessageBox *>(QStringLiteral("sweepFileError")) ? qPrintable(
                     w.findChild<QMessageBox *>(QStringLiteral("sweepFileError"))->text())
                                                                              : "no error box");
    QFile file(saved);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject spec = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(spec.value(QLatin1String("tool")).toString(), QStringLiteral("run_cfd_case"));
    QCOMPARE(spec.value(QLatin1String("mode")).toString(), QStringLiteral("grid"));
    QCOMPARE(spec.value(QLatin1String("concurrency")).toInt(), 4);
    const QJsonObject vary = spec.value(QLatin1String("vary")).toObject();
    QCOMPARE(
        vary.value(QLatin1String("reynolds")).toObject().value(QLatin1String("list")).toArray(),
        QJsonArray({100, 400}));
    const QJsonObject range
        = vary.value(QLatin1String("grading")).toObject().value(QLatin1String("range")).toObject();
    QCOMPARE(range.value(QLatin1String("from")).toDouble(), 1.0);
    QCOMPARE(range.value(QLatin1String("to")).toDouble(), 2.0);
    QCOMPARE(range.value(QLatin1String("step")).toDouble(), 0.5);
    const QJsonObject fixed = spec.value(QLatin1String("fixed")).toObject();
    QCOMPARE(fixed.value(QLatin1String("grid")).toInt(), 64);
    QCOMPARE(fixed.value(QLatin1String("max_iterations")).toInt(), 20000);
    QCOMPARE(fixed.value(QLatin1String("tolerance")).toDouble(), 1e-6);

    // Round trip: the saved file opens to the same six cases.
    editor->clearVaried();
    QTRY_VERIFY(editor->previewCount() != 6);
    chooseFile(w, QStringLiteral("openSweep"), saved);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(editor->previewCount(), 6, 10000);

    // A broken spec is explained, naming what to fix.
    const QString broken = m_dir.filePath(QStringLiteral("broken-sweep.json"));
    QFile out(broken);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(
        R"({"tool": "run_cfd_case", "fixed": {"grid": 16}, "vary": {"reynolds": {"lst": [100]}}})");
    out.close();
    chooseFile(w, QStringLiteral("openSweep"), broken);
    if (QTest::currentTestFailed())
        return;
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("sweepFileError")))
                                 && box->isVisible(),
                             10000);
    QVERIFY2(box->text().contains(QLatin1String("broken-sweep.json"))
                 && box->text().contains(QLatin1String("reynolds")),
             qPrintable(box->text()));
    box->accept();
    // A value the tool's schema refuses is explained too.
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(
        R"({"tool": "run_cfd_case", "fixed": {"grid": 16}, "vary": {"reynolds": {"list": [-5, 100]}}})");
    out.close();
    QTRY_VERIFY(!w.findChild<QMessageBox *>(QStringLiteral("sweepFileError")));
    chooseFile(w, QStringLiteral("openSweep"), broken);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("sweepFileError")))
                                 && box->isVisible(),
                             10000);
    QVERIFY2(box->text().contains(QLatin1String("reynolds")), qPrintable(box->text()));
    box->accept();
    editor->markClean();
    editor->window()->hide();
}

static double luminance(const QColor &c)
{
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

void tst_GuiMisc::toolErrorBannerReadableInDark()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    w.applyTheme(MainWindow::Theme::Dark);
    auto *view = w.findChild<ResultView *>();
    QVERIFY(view);
    QTRY_VERIFY(view->palette().color(QPalette::Window).lightnessF() < 0.5);
    Store::TaskRecord task;
    task.id = 4242;
    task.status = Store::TaskStatus::Completed;
    task.isToolError = true;
    task.result
        = QStringLiteral(R"({"content":[{"type":"text","text":"mesh rejected"}],"isError":true})");
    for (const bool toolError : {true, false}) {
        task.isToolError = toolError;
        task.result
            = toolError
                  ? task.result
                  : QStringLiteral(R"({"content":[],"structuredContent":{"converged":false}})");
        view->setTask(task);
        auto *banner = view->findChild<QLabel *>(QStringLiteral("banner"));
        QVERIFY(banner);
        const QRegularExpressionMatch m
            = QRegularExpression(
                  QStringLiteral("background:(#[0-9a-fA-F]{6});color:(#[0-9a-fA-F]{6})"))
                  .match(banner->styleSheet());
        QVERIFY2(m.hasMatch(), qPrintable(banner->styleSheet()));
        const QColor bg(m.captured(1));
        const QColor fg(m.captured(2));
        // A dark banner in a dark window, its text at least WCAG AA (4.5:1) against it.
        QVERIFY2(bg.lightnessF() < 0.5, qPrintable(banner->styleSheet()));
        const double l1 = luminance(fg), l2 = luminance(bg);
        const double contrast = (std::max(l1, l2) + 0.05) / (std::min(l1, l2) + 0.05);
        QVERIFY2(contrast >= 4.5,
                 qPrintable(QStringLiteral("%1 -> %2").arg(banner->styleSheet()).arg(contrast)));
    }
    w.applyTheme(MainWindow::Theme::Light);
}

void tst_GuiMisc::shortcutsListedFromActions()
{
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QAction *keys = w.findChild<QAction *>(QStringLiteral("keyboardShortcuts"));
    QVERIFY(keys);
    keys->trigger();
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w.findChild<QDialog *>(QStringLiteral("shortcutsDialog")))
                && dialog->isVisible());
    auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("shortcutTable"));
    QVERIFY(table);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + QLatin1String(" = ") + table->item(r, 1)->text();
    QVERIFY2(rows.contains(QStringLiteral("New Sweep = Ctrl+N")),
             qPrintable(rows.join(QLatin1String(" | "))));
    QVERIFY2(rows.contains(QStringLiteral("Answer Next Question = Ctrl+I")),
             qPrintable(rows.join(QLatin1String(" | "))));
    dialog->close();
    QVERIFY(w.findChild<QAction *>(QStringLiteral("userGuide")));
}

void tst_GuiMisc::helpWithoutDisplay()
{
    const QString eddy = qEnvironmentVariable("EDDY_GUI_BIN");
    QVERIFY2(!eddy.isEmpty(), "EDDY_GUI_BIN is not set (ctest sets it)");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    const auto run = [&](const QStringList &args, QByteArray *out) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(eddy, args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    };
    QByteArray out;
    QCOMPARE(run({QStringLiteral("--help")}, &out), 0);
    QVERIFY2(out.contains("--db") && out.contains("Database file"), out.constData());
    QCOMPARE(run({QStringLiteral("--version")}, &out), 0);
    QVERIFY2(out.contains(EDDY_VERSION), out.constData());
    QCOMPARE(run({QStringLiteral("--lang"), QStringLiteral("de"), QStringLiteral("--help")}, &out),
             0);
    QVERIFY2(out.contains("Datenbankdatei"), out.constData());
}

void tst_GuiMisc::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_GuiMisc)
#include "tst_guimisc.moc"
