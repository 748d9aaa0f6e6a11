#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

// The sweep editor and a sweep's spec as a new user meets them (issue 24, items 1, 8, 4 and 11):
// the real window (offscreen, 1280x800) against the real eddy-cfd-server, a real SQLite file and
// the real eddyctl.
// - Open Sweep on a file with values the tool cannot take ("grid": "64", a misspelt
//   "max_iteration", "grid": "fine", "reynold") says which key, what value and what the tool
//   expects, fills no default in their place, and keeps Submit disabled until each is fixed;
//   eddyctl refuses the same file with the same sentence.
// - The spec's parameter order and description survive: the editor's rows and preview, Save, the
//   stored sweep, the sweep plot's x axis, the CSV columns of the window and of eddyctl.
// - An unconverged case relaunched with more iterations is another attempt of its design point:
//   it joins the sweep at its case index and the sweep table, plot and exports show it.
// - The editor: Ctrl+O / Ctrl+S in its own window, a confirmation after saving, New Sweep after
//   a relaunch starts from the tool's defaults, the first varied row is a required number with
//   a placeholder of its own, and the cases stay in view while a row is being typed.
class tst_SweepSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void openSweepExplainsValuesTheToolCannotTake();
    void openSweepKeepsOrderAndDescription();
    void storedSweepKeepsTheSpecOrder();
    void relaunchWithMoreIterationsStaysInTheSweep();
    void newSweepAfterRelaunchStartsOver();
    void editorShortcutsAndSaveConfirmation();
    void firstVariedRowAndPreviewWhileTyping();
    void delOnACaseThatFinishesWhileAskingCancelsNothing();
    void cleanupTestCase();

private:
    QString specPath(const QString &name) const;
    QString writeSpec(const QString &name, const QByteArray &text);
    void chooseFile(QAction *action, const QString &path);
    QMessageBox *errorBox();
    SweepEditor *editor() const { return m_app->window()->sweepEditor(); }
    QPushButton *submitButton() const { return editor()->findChild<QPushButton *>(QStringLiteral("submit")); }
    QPushButton *runOnceButton() const { return editor()->findChild<QPushButton *>(QStringLiteral("runOnce")); }
    Test::CtlRun ctl(const QStringList &args) const;
    // Closes the editor as a person does (Escape), discarding what it holds.
    void discardEditor();
    // A File menu action by its object name ("openSweep") or its text ("New Sweep...").
    QAction *action(const char *name) const
    {
        for (QAction *a : m_app->window()->findChildren<QAction *>()) {
            if (a->objectName() == QLatin1String(name)
                || (qstrcmp(name, "newSweep") == 0 && a->text() == QLatin1String("New Sweep...")))
                return a;
        }
        return nullptr;
    }

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
    qint64 m_sweepId = 0;
};

void tst_SweepSpec::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sweepspec"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false);
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("specs")));
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
    Test::E2eWindowOptions options;
    options.size = QSize(1280, 800);
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    QVERIFY(m_app);
    QVERIFY(QTest::qWaitForWindowExposed(m_app->window()));
    m_serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(m_serverId > 0);
}

QString tst_SweepSpec::specPath(const QString &name) const
{
    // Not beside the database: the file dialog reads the files of the folder it shows (for their
    // type), and a process that opens and closes the database file drops its SQLite locks.
    return m_dir.filePath(QStringLiteral("specs/") + name);
}

QString tst_SweepSpec::writeSpec(const QString &name, const QByteArray &text)
{
    const QString path = specPath(name);
    return Test::writeFile(path, text) ? path : QString();
}

// File > Open Sweep... / Save Sweep... (or their shortcut) through the file dialog, as a person
// does: go to the folder, type the file's name, accept.
void tst_SweepSpec::chooseFile(QAction *a, const QString &path)
{
    if (a)
        a->trigger();
    Test::chooseInFileDialog(m_app->window(), QStringLiteral("sweepFileDialog"), path);
}

void tst_SweepSpec::discardEditor()
{
    QWidget *window = editor()->window();
    if (!window->isVisible())
        return;
    window->close();
    QMessageBox *box = nullptr;
    if (QTest::qWaitFor([&] { return !window->isVisible() || ((box = window->findChild<QMessageBox *>(QStringLiteral("discardSweep"))) && box->isVisible()); }, 5000)
        && window->isVisible() && box)
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("discard")), Qt::LeftButton);
    QTRY_VERIFY(!window->isVisible());
}

QMessageBox *tst_SweepSpec::errorBox()
{
    for (QMessageBox *box : m_app->window()->findChildren<QMessageBox *>(QStringLiteral("sweepFileError"))) {
        if (box->isVisible())
            return box;
    }
    return nullptr;
}

Test::CtlRun tst_SweepSpec::ctl(const QStringList &args) const
{
    return Test::runCtl(QStringList{QStringLiteral("--db"), m_dir.filePath(QStringLiteral("eddy.sqlite"))} + args,
                        {30000, 120000, 10000});
}

void tst_SweepSpec::openSweepExplainsValuesTheToolCannotTake()
{
    // The review's first file: grid as a string, max_iterations misspelt.
    const QString first = writeSpec(QStringLiteral("grid-string.json"), R"({
        "tool": "run_cfd_case",
        "fixed": {"grid": "64", "max_iteration": 500, "tolerance": 1e-4},
        "vary": {"reynolds": {"list": [100, 400]}}
    })");
    chooseFile(action("openSweep"), first);
    if (QTest::currentTestFailed())
        return;
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = errorBox()) != nullptr, 10000);
    const QString text = box->text();
    const QString gridProblem = QStringLiteral(
        "fixed.grid: \"64\" is not of type integer (the tool run_cfd_case expects an integer from 8 to 1024)");
    QVERIFY2(text.contains(gridProblem), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("fixed.max_iteration")) && text.contains(QLatin1String("\"max_iterations\"")),
             qPrintable(text));
    box->accept();

    // Nothing was put in their place: grid is not set (not its minimum 8), the problems are
    // listed, and the sweep can be neither submitted nor run once.
    auto *grid = qobject_cast<QSpinBox *>(editor()->form()->editor("grid"));
    auto *iterations = qobject_cast<QSpinBox *>(editor()->form()->editor("max_iterations"));
    QVERIFY(grid && iterations);
    QVERIFY2(!editor()->form()->value().contains("grid"), editor()->form()->value().dump().c_str());
    QCOMPARE(grid->text(), grid->specialValueText());
    QVERIFY(!submitButton()->isEnabled());
    QVERIFY(!runOnceButton()->isEnabled());
    QCOMPARE(editor()->previewCount(), 0);
    QVERIFY2(editor()->problemText().contains(QLatin1String("fixed.grid"))
                 && editor()->problemText().contains(QLatin1String("max_iteration")),
             qPrintable(editor()->problemText()));
    // Waiting does not make them go away.
    QTest::qWait(400); // negative check: the problems stay, and Submit stays disabled
    QVERIFY(!submitButton()->isEnabled());

    // Fixed in the editor one by one: the grid typed, then the iterations the file meant.
    grid->setFocus();
    grid->setValue(64);
    QTRY_VERIFY(!editor()->problemText().contains(QLatin1String("fixed.grid")));
    QVERIFY(!submitButton()->isEnabled()); // max_iteration is still unresolved
    iterations->setValue(500);
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 2, 5000);
    QVERIFY(submitButton()->isEnabled());
    QVERIFY(runOnceButton()->isEnabled());

    // eddyctl refuses the same file with the same sentence: one check behind both.
    const Test::CtlRun refused = ctl({QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), first});
    QVERIFY2(refused.code != 0, refused.out.constData());
    QVERIFY2(QString::fromUtf8(refused.err).contains(gridProblem), refused.err.constData());

    // The review's second file: a word for the grid and a misspelt reynolds.
    const QString second = writeSpec(QStringLiteral("grid-word.json"), R"({
        "tool": "run_cfd_case",
        "fixed": {"grid": "fine", "reynold": 100, "max_iterations": 200}
    })");
    chooseFile(action("openSweep"), second);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT((box = errorBox()) != nullptr, 10000);
    QVERIFY2(box->text().contains(QLatin1String("fixed.grid: \"fine\" is not of type integer"))
                 && box->text().contains(QLatin1String("fixed.reynold"))
                 && box->text().contains(QLatin1String("did you mean \"reynolds\"")),
             qPrintable(box->text()));
    box->accept();
    QCOMPARE(grid->text(), grid->specialValueText());
    QCOMPARE(iterations->value(), 200);
    QVERIFY(!submitButton()->isEnabled());
    QVERIFY(!runOnceButton()->isEnabled());
    const Test::CtlRun refusedToo = ctl({QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), second});
    QVERIFY(refusedToo.code != 0);
    QVERIFY2(refusedToo.err.contains("fixed.grid: \"fine\" is not of type integer") && refusedToo.err.contains("reynold"),
             refusedToo.err.constData());
    discardEditor();
}

void tst_SweepSpec::openSweepKeepsOrderAndDescription()
{
    // reynolds first, as the file lists it; grading sorts before it.
    const QString path = writeSpec(QStringLiteral("ordered.json"), R"({
        "description": "Reynolds against grading, quick",
        "tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 30, "tolerance": 1e-4},
        "vary": {"reynolds": {"list": [100, 400]}, "grading": {"list": [1, 1.5]}},
        "concurrency": 4
    })");
    chooseFile(action("openSweep"), path);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 4, 10000);
    QVERIFY(!errorBox());
    auto *description = editor()->findChild<QLineEdit *>(QStringLiteral("sweepDescription"));
    QVERIFY(description);
    QCOMPARE(description->text(), QStringLiteral("Reynolds against grading, quick"));
    auto *rows = editor()->findChild<QTableWidget *>(QStringLiteral("varied"));
    QCOMPARE(rows->rowCount(), 2);
    QCOMPARE(static_cast<QComboBox *>(rows->cellWidget(0, 0))->currentData().toString(), QStringLiteral("reynolds"));
    QCOMPARE(static_cast<QComboBox *>(rows->cellWidget(1, 0))->currentData().toString(), QStringLiteral("grading"));
    auto *preview = editor()->findChild<QTableWidget *>(QStringLiteral("preview"));
    QCOMPARE(preview->horizontalHeaderItem(1)->text(), QStringLiteral("reynolds"));
    QCOMPARE(preview->horizontalHeaderItem(2)->text(), QStringLiteral("grading"));

    // Save keeps both, and says it saved.
    const QString saved = specPath(QStringLiteral("ordered-saved.json"));
    chooseFile(action("saveSweep"), saved);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(saved), 10000);
    QFile file(saved);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("\"description\": \"Reynolds against grading, quick\""), text.constData());
    QVERIFY2(text.indexOf("\"reynolds\"") < text.indexOf("\"grading\""), text.constData());
    auto *notice = editor()->findChild<QLabel *>(QStringLiteral("notice"));
    QVERIFY(notice);
    QTRY_VERIFY2(notice->text().contains(QLatin1String("ordered-saved.json")), qPrintable(notice->text()));
}

void tst_SweepSpec::storedSweepKeepsTheSpecOrder()
{
    // Submitted from the editor that holds the file opened above.
    MainWindow *w = m_app->window();
    QVERIFY(submitButton()->isEnabled());
    QTest::mouseClick(submitButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(w->taskModel()->rowCount(), 4, 60000);
    m_sweepId = w->taskModel()->task(w->taskModel()->taskIdAt(0))->sweepId.value_or(0);
    QVERIFY(m_sweepId > 0);
    QTRY_COMPARE_WITH_TIMEOUT(w->taskModel()->statusCounts().value(TaskStatus::Completed), 4, 120000);

    // As stored: the file's order and its description.
    QString spec;
    m_app->onEngine([this, &spec](Monitor::Engine &engine) {
        if (const auto sweep = engine.catalogue().sweep(m_sweepId))
            spec = sweep->spec;
    });
    QVERIFY2(spec.indexOf(QLatin1String("\"reynolds\"")) < spec.indexOf(QLatin1String("\"grading\"")), qPrintable(spec));
    QVERIFY2(spec.contains(QLatin1String("Reynolds against grading, quick")), qPrintable(spec));

    // The plot opens against the first-listed parameter; the table and the CSV list it first.
    w->monitor()->selectTask(w->taskModel()->taskIdAt(0));
    SweepResultsView *view = w->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->sweepId(), m_sweepId, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 4, 20000);
    QCOMPARE(view->model()->parameterNames(), (QStringList{QStringLiteral("reynolds"), QStringLiteral("grading")}));
    QTRY_COMPARE(view->xCombo()->currentText(), QStringLiteral("reynolds"));
    const QString csvPath = m_dir.filePath(QStringLiteral("ordered.csv"));
    QVERIFY(view->exportCsv(csvPath));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray gui = csv.readAll();
    const QByteArray header = gui.left(gui.indexOf('\n'));
    QVERIFY2(header.indexOf(",reynolds,") >= 0 && header.indexOf(",reynolds,") < header.indexOf(",grading,"), header.constData());
    const Test::CtlRun exported = ctl({QStringLiteral("export"), QString::number(m_sweepId), QStringLiteral("--format"), QStringLiteral("csv")});
    QVERIFY2(exported.code == 0, exported.err.constData());
    QCOMPARE(QString::fromUtf8(exported.out), QString::fromUtf8(gui));
}

void tst_SweepSpec::relaunchWithMoreIterationsStaysInTheSweep()
{
    // Every case stopped at 30 iterations; the first one is relaunched with more, from the
    // task table's "Relaunch with Edits...", and run once.
    MainWindow *w = m_app->window();
    TaskTableModel *tasks = w->taskModel();
    qint64 unconverged = 0;
    for (int r = 0; r < tasks->rowCount(); ++r) {
        const qint64 id = tasks->taskIdAt(r);
        if (tasks->outcome(id) == Monitor::Outcome::NotConverged) {
            const json args = json::parse(tasks->task(id)->arguments.toStdString(), nullptr, false);
            if (args.value("reynolds", 0.0) == 100.0 && args.value("grading", 0.0) == 1.0)
                unconverged = id;
        }
    }
    QVERIFY(unconverged > 0);
    const Store::TaskRecord before = *tasks->task(unconverged);
    const QString label = tasks->caseLabel(unconverged);
    QVERIFY(!label.isEmpty());
    Q_EMIT w->monitor()->relaunchRequested(unconverged);
    QTRY_VERIFY(editor()->window()->isVisible());
    QVERIFY2(editor()->window()->windowTitle().contains(label), qPrintable(editor()->window()->windowTitle()));
    auto *iterations = qobject_cast<QSpinBox *>(editor()->form()->editor("max_iterations"));
    QVERIFY(iterations);
    QCOMPARE(iterations->value(), 30);
    iterations->setValue(20000);
    QTRY_VERIFY(runOnceButton()->isEnabled());
    QTest::mouseClick(runOnceButton(), Qt::LeftButton);

    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), 5, 60000);
    qint64 attempt = 0;
    for (int r = 0; r < tasks->rowCount(); ++r)
        attempt = std::max(attempt, tasks->taskIdAt(r));
    QVERIFY(attempt != unconverged);
    // Another attempt of the same design point: the sweep, the case index, the lineage.
    const Store::TaskRecord *t = tasks->task(attempt);
    QCOMPARE(t->sweepId.value_or(0), m_sweepId);
    std::optional<Store::CaseRecord> mine, parent;
    m_app->onEngine([&](Monitor::Engine &engine) {
        mine = engine.catalogue().caseRecord(t->caseId.value_or(0));
        parent = engine.catalogue().caseRecord(before.caseId.value_or(0));
    });
    QVERIFY(mine && parent);
    QCOMPARE(mine->sweepId.value_or(0), m_sweepId);
    QCOMPARE(mine->index, parent->index);
    QCOMPARE(mine->parentCaseId.value_or(0), parent->id);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->caseLabel(attempt), label, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->outcome(attempt), Monitor::Outcome::Converged, 120000);

    // The sweep shows the new attempt in its row, its point and both exports; the old one stays
    // in the record.
    w->monitor()->selectTask(attempt);
    SweepResultsView *view = w->sweepResults();
    const SweepResultsModel *results = view->model();
    QTRY_COMPARE_WITH_TIMEOUT(results->sweepId(), m_sweepId, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(results->rowCount(), 4, 20000);
    bool shown = false, oldShown = false;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            shown = oldShown = false;
            for (int r = 0; r < results->rowCount(); ++r) {
                const qint64 id = results->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong();
                shown = shown || id == attempt;
                oldShown = oldShown || id == unconverged;
            }
            return shown && !oldShown;
        }(),
        20000);
    bool plotted = false;
    for (const SweepResultsModel::Point &p : results->outcomePoints(QStringLiteral("reynolds"), QStringLiteral("iterations")))
        plotted = plotted || p.taskId == attempt;
    QVERIFY(plotted);
    const QString csvPath = m_dir.filePath(QStringLiteral("relaunched.csv"));
    QVERIFY(view->exportCsv(csvPath));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray gui = csv.readAll();
    const QList<QByteArray> lines = gui.trimmed().split('\n');
    QCOMPARE(lines.size(), 5);
    const int taskColumn = int(lines.first().split(',').indexOf("task"));
    QCOMPARE(lines.at(parent->index + 1).split(',').value(taskColumn), QByteArray::number(attempt));
    const Test::CtlRun exported = ctl({QStringLiteral("export"), QString::number(m_sweepId), QStringLiteral("--format"), QStringLiteral("csv")});
    QVERIFY2(exported.code == 0, exported.err.constData());
    QVERIFY2(exported.out == gui, (exported.out.left(exported.out.indexOf("\n2,")).mid(exported.out.indexOf("\n1,")) + "\n--- the window's:\n" + gui.left(gui.indexOf("\n2,")).mid(gui.indexOf("\n1,"))).constData());
    const Test::CtlRun asJson = ctl({QStringLiteral("export"), QString::number(m_sweepId), QStringLiteral("--format"), QStringLiteral("json")});
    QVERIFY2(asJson.code == 0, asJson.err.constData());
    const json cases = json::parse(asJson.out.toStdString(), nullptr, false);
    QVERIFY(cases.is_array());
    QCOMPARE(int(cases.size()), 4);
    QCOMPARE(cases[size_t(parent->index)].value("task", qint64(0)), attempt);
    QVERIFY(tasks->task(unconverged)); // the earlier attempt stays in the record
}

void tst_SweepSpec::newSweepAfterRelaunchStartsOver()
{
    // The editor last held the relaunch (max_iterations 20000, grid 16, reynolds 100, ...).
    Q_EMIT m_app->window()->monitor()->relaunchRequested(m_app->window()->taskModel()->taskIdAt(0));
    QTRY_VERIFY(editor()->window()->isVisible());
    discardEditor();
    QVERIFY(action("newSweep")); // File > New Sweep... (Ctrl+N)
    action("newSweep")->trigger();
    QTRY_VERIFY(editor()->window()->isVisible());
    QCOMPARE(editor()->window()->windowTitle(), QStringLiteral("New Sweep"));
    const json value = editor()->form()->value();
    QVERIFY2(!value.contains("grid") && !value.contains("reynolds") && !value.contains("case_name"),
             value.dump().c_str());
    QCOMPARE(value.value("max_iterations", 0), 20000); // the tool's default
    discardEditor();
}

void tst_SweepSpec::editorShortcutsAndSaveConfirmation()
{
    MainWindow *w = m_app->window();
    QVERIFY(action("newSweep")); // File > New Sweep... (Ctrl+N)
    action("newSweep")->trigger();
    QWidget *window = editor()->window();
    QTRY_VERIFY(window->isVisible());
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    auto *grid = qobject_cast<QSpinBox *>(editor()->form()->editor("grid"));
    auto *reynolds = editor()->form()->editor("reynolds");
    QVERIFY(grid && reynolds);
    grid->setValue(16);
    QTest::keyClicks(reynolds, QStringLiteral("250"));
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 1, 5000);

    // Ctrl+S with the cursor in a field of the editor: the save dialog, then a confirmation.
    reynolds->setFocus();
    QTest::keyClick(reynolds, Qt::Key_S, Qt::ControlModifier);
    const QString saved = specPath(QStringLiteral("by-shortcut.json"));
    chooseFile(nullptr, saved);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(saved), 10000);
    auto *notice = editor()->findChild<QLabel *>(QStringLiteral("notice"));
    QVERIFY(notice);
    QTRY_VERIFY2(notice->text().contains(QLatin1String("by-shortcut.json")), qPrintable(notice->text()));

    // Ctrl+O there: the open dialog.
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    reynolds->setFocus();
    QTest::keyClick(reynolds, Qt::Key_O, Qt::ControlModifier);
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = w->findChild<QFileDialog *>(QStringLiteral("sweepFileDialog"))) && dialog->isVisible()
            && dialog->acceptMode() == QFileDialog::AcceptOpen,
        10000);
    dialog->reject();
    discardEditor();
}

void tst_SweepSpec::firstVariedRowAndPreviewWhileTyping()
{
    QVERIFY(action("newSweep")); // File > New Sweep... (Ctrl+N)
    action("newSweep")->trigger();
    QTRY_VERIFY(editor()->window()->isVisible());
    auto *grid = qobject_cast<QSpinBox *>(editor()->form()->editor("grid"));
    QVERIFY(grid);
    QCOMPARE(grid->text(), grid->specialValueText()); // a new sweep's grid is not 8 by default
    grid->setValue(16);
    auto *add = editor()->findChild<QPushButton *>(QStringLiteral("addVaried"));
    auto *rows = editor()->findChild<QTableWidget *>(QStringLiteral("varied"));
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(rows->rowCount(), 1);
    // The first parameter offered is the required Reynolds number, with a hint of its own range.
    QCOMPARE(static_cast<QComboBox *>(rows->cellWidget(0, 0))->currentData().toString(), QStringLiteral("reynolds"));
    auto *values = static_cast<QLineEdit *>(rows->cellWidget(0, 2));
    QVERIFY2(!values->placeholderText().contains(QLatin1String("100, 400, 1000")), qPrintable(values->placeholderText()));
    QVERIFY2(values->placeholderText().contains(QLatin1String("1000000")), qPrintable(values->placeholderText()));
    QTest::keyClicks(values, QStringLiteral("100, 400"));
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 2, 5000);

    // A second row, its values not typed yet: the two cases stay in view (greyed) and Submit
    // says why it is disabled.
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(rows->rowCount(), 2);
    QCOMPARE(static_cast<QComboBox *>(rows->cellWidget(1, 0))->currentData().toString(), QStringLiteral("grid"));
    auto *preview = editor()->findChild<QTableWidget *>(QStringLiteral("preview"));
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 0, 5000);
    QCOMPARE(preview->rowCount(), 2);
    QVERIFY(!preview->isEnabled());
    QVERIFY(!submitButton()->isEnabled());
    QTest::keyClicks(static_cast<QLineEdit *>(rows->cellWidget(1, 2)), QStringLiteral("16, 32"));
    QTRY_COMPARE_WITH_TIMEOUT(editor()->previewCount(), 4, 5000);
    QVERIFY(preview->isEnabled());
    QCOMPARE(preview->rowCount(), 4);
    discardEditor();
}

void tst_SweepSpec::delOnACaseThatFinishesWhileAskingCancelsNothing()
{
    // A case that waits for its mesh question: it finishes when the question is answered, which
    // happens (from eddyctl, say, or a colleague) while the Del confirmation is open.
    MainWindow *w = m_app->window();
    TaskTableModel *tasks = w->taskModel();
    const int before = tasks->rowCount();
    m_app->bridge()->callOnce(m_serverId, QStringLiteral("run_cfd_case"),
                              R"({"case_name": "finishes", "reynolds": 100, "grid": 16, "max_iterations": 200, "force_mesh_defect": true})",
                              w->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), before + 1, 30000);
    qint64 id = 0;
    for (int r = 0; r < tasks->rowCount(); ++r)
        id = std::max(id, tasks->taskIdAt(r));
    QString key;
    const InboxModel *inbox = w->inboxModel();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < inbox->rowCount(); ++r) {
                if (inbox->index(r, 0).data(InboxModel::TaskIdRole).toLongLong() == id)
                    key = inbox->index(r, 0).data(InboxModel::KeyRole).toString();
            }
            return !key.isEmpty();
        }(),
        30000);
    QVERIFY(tasks->task(id)->isLive());

    w->monitor()->selectTask(id);
    QTableView *view = w->monitor()->view();
    w->activateWindow();
    view->setFocus();
    QVERIFY(QTest::qWaitForWindowActive(w));
    bool shown = false;
    bool answered = false;
    bool stillAsking = false; // the box was still there well after the case had finished
    QElapsedTimer finished;
    QElapsedTimer asking;
    asking.start();
    QTimer timer;
    timer.setInterval(50);
    connect(&timer, &QTimer::timeout, this, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        const bool open = box && box->isVisible() && box->objectName() == QLatin1String("cancelConfirm");
        if (open && !answered) {
            shown = true;
            answered = true;
            m_app->bridge()->answerInput(id, key, R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})");
        }
        if (!tasks->task(id)->isLive() && !finished.isValid())
            finished.start();
        if (open && asking.elapsed() > 120000) {
            box->button(QMessageBox::No)->click(); // the case never finished: answer, fail below
            return;
        }
        if (open && finished.isValid() && finished.elapsed() > 2000) {
            // As a person who looked away would: Yes, to a question about a finished case.
            stillAsking = true;
            box->button(QMessageBox::Yes)->click();
        }
    });
    timer.start();
    QTest::keyClick(view, Qt::Key_Delete);
    timer.stop();
    QVERIFY(shown);
    QVERIFY2(!stillAsking, "the cancel question stayed open after its case had finished");
    QTRY_COMPARE_WITH_TIMEOUT(int(tasks->task(id)->status), int(TaskStatus::Completed), 30000);
    QTest::qWait(500); // negative check: no late cancel follows
    QVERIFY(!tasks->task(id)->cancelRequested);
    QVERIFY(!tasks->task(id)->isToolError);
}

void tst_SweepSpec::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_SweepSpec)
#include "tst_sweepspec.moc"
