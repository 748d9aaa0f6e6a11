// OpenFOAM through the whole window (issue 25, "Done when", first bullet): the real MainWindow
// (offscreen) against the real eddy-cfd-server on loopback, real OpenFOAM (Debian: openfoam,
// openfoam-examples) and a real SQLite file.
// - A 6-case sweep of run_openfoam_case, opened from a file in the sweep editor: nu x mesh, where
//   two cases move a cavity vertex to x = 5 and checkMesh fails them (max skewness 4.02). Both
//   questions reach the inbox and are answered in the answer panel with clicks: one with
//   non-orthogonal correction (with the sweep's time step that mesh runs only corrected: icoFoam
//   dies of a floating point exception on it otherwise), one aborted. The correction is in the
//   case's dictionaries and logs; the sweep's CSV, exported through the results' Export menu and
//   the save dialog, has the final residuals and the function object's scalar of every case
//   that ran (the sweep runs an engineer's own cavity, under --openfoam-cases, that carries a
//   volFieldValue; the tutorial cavity has no function object), and none for the aborted one.
// - A running case's residual chart has one series per field the solver log solves for, by
//   simulated time, and no point twice however often its row is selected again; its cancel from
//   the window leaves no OpenFOAM process behind. A steady pitzDaily's chart has each of its
//   fields (k and epsilon too) by iteration.
// - kill -9 of the server mid-run, restart on the same port and data folder: the case resumes
//   from its latest time folder (the solver log starts there), completes once, and the window
//   that followed it all along shows it completed.
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

namespace {

const QString kTool = QStringLiteral("run_openfoam_case");
// The cavity's vertex (1 1 0)/(1 1 0.1) moved to x = 5: checkMesh fails it on skewness (4.02).
const QString kSkewedVertices
    = QStringLiteral("((0 0 0) (1 0 0) (5 1 0) (0 1 0) (0 0 0.1) (1 0 0.1) (5 1 0.1) (0 1 0.1))");

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString foamPrefix()
{
    const QString bin = QFileInfo(QStandardPaths::findExecutable(QStringLiteral("foamDictionary")))
                            .canonicalFilePath();
    return QFileInfo(bin).dir().filePath(QStringLiteral(".."));
}

// foamDictionary FILE -entry ENTRY -value, as an engineer reads a case back.
QString foamValue(const QString &caseDir, const QString &file, const QString &entry)
{
    QProcess p;
    p.setWorkingDirectory(caseDir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains(QStringLiteral("WM_PROJECT_DIR")))
        env.insert(QStringLiteral("WM_PROJECT_DIR"), foamPrefix() + QStringLiteral("/share/openfoam"));
    env.insert(QStringLiteral("PWD"), QFileInfo(caseDir).canonicalFilePath());
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("foamDictionary"), {file, QStringLiteral("-entry"), entry, QStringLiteral("-value")});
    if (!p.waitForFinished(30000))
        return QStringLiteral("<foamDictionary hung>");
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// The fields a solver log solves for ("Solving for Ux, ..."), in the order it first names them.
QStringList fieldsOfLog(const QString &log)
{
    QStringList fields;
    static const QRegularExpression solving(QStringLiteral("Solving for (\\w+),"));
    for (auto it = solving.globalMatch(log); it.hasNext();) {
        const QString f = it.next().captured(1);
        if (!fields.contains(f))
            fields << f;
    }
    return fields;
}

// The first "Time = " of a solver log.
double firstTime(const QString &log)
{
    const auto m = QRegularExpression(QStringLiteral("^Time = (\\S+)$"), QRegularExpression::MultilineOption).match(log);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

struct Proc
{
    qint64 pid = 0;
    qint64 ppid = 0;
    QString comm;
    QByteArray environ;
    QString cwd;
};

QList<Proc> processes()
{
    QList<Proc> out;
    for (const QString &name : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = name.toLongLong(&number);
        if (!number)
            continue;
        Proc p;
        p.pid = pid;
        const QString stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
        const qsizetype close = stat.lastIndexOf(QLatin1Char(')'));
        if (close < 0)
            continue; // gone meanwhile
        p.comm = stat.mid(stat.indexOf(QLatin1Char('(')) + 1, close - stat.indexOf(QLatin1Char('(')) - 1);
        p.ppid = stat.mid(close + 2).split(QLatin1Char(' ')).value(1).toLongLong();
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        if (env.open(QIODevice::ReadOnly))
            p.environ = '\0' + env.readAll();
        p.cwd = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
        out << p;
    }
    return out;
}

// Processes carrying the case's marker, and OpenFOAM processes under the server's process tree.
QStringList foamProcesses(qint64 serverPid, const QString &marker)
{
    const QList<Proc> all = processes();
    QSet<qint64> tree;
    if (serverPid > 0)
        tree.insert(serverPid);
    for (bool grew = !tree.isEmpty(); grew;) {
        grew = false;
        for (const Proc &p : all) {
            if (tree.contains(p.ppid) && !tree.contains(p.pid)) {
                tree.insert(p.pid);
                grew = true;
            }
        }
    }
    QStringList found;
    const QByteArray mark = '\0' + QByteArray("EDDY_FOAM_RUN=") + marker.toUtf8() + '\0';
    for (const Proc &p : all) {
        const bool marked = !marker.isEmpty() && p.environ.contains(mark);
        const bool underServer = p.pid != serverPid && tree.contains(p.pid)
                                 && (p.comm.endsWith(QLatin1String("Foam")) || p.comm.startsWith(QLatin1String("blockMesh"))
                                     || p.comm.startsWith(QLatin1String("checkMesh")) || p.comm == QLatin1String("mpirun"));
        if (marked || underServer)
            found << QStringLiteral("%1 %2").arg(p.pid).arg(p.comm);
    }
    return found;
}

// The icoFoam the server runs in a case folder not in `known`: its case marker and folder.
bool runningSolver(qint64 serverPid, const QStringList &known, QString *marker, QString *folder)
{
    const QList<Proc> all = processes();
    for (const Proc &p : all) {
        if (p.comm != QLatin1String("icoFoam"))
            continue;
        qint64 up = p.ppid;
        for (int depth = 0; depth < 8 && up > 1 && up != serverPid; ++depth) {
            const auto parent = std::find_if(all.begin(), all.end(), [up](const Proc &q) { return q.pid == up; });
            up = parent == all.end() ? 0 : parent->ppid;
        }
        if (up != serverPid || known.contains(QFileInfo(p.cwd).fileName()))
            continue;
        const QByteArray key("\0EDDY_FOAM_RUN=", 15);
        const qsizetype at = p.environ.indexOf(key);
        if (at < 0)
            return false;
        const qsizetype end = p.environ.indexOf('\0', at + key.size());
        *marker = QString::fromUtf8(p.environ.mid(at + key.size(), end - at - key.size()));
        *folder = p.cwd;
        return true;
    }
    return false;
}

} // namespace

class tst_FoamGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sweepWithTwoMeshQuestions();
    void exportHasResidualsAndFunctionObjects();
    void chartFollowsTheLogThenCancelLeavesNothing();
    void steadyChartByIteration();
    void killNineResumesFromLatestTime();
    void cleanup();
    void cleanupTestCase();

private:
    QStringList serverArgs() const;
    QList<qint64> tasksOfTool() const;
    std::optional<qint64> taskNamed(const QString &caseName) const;
    json resultOf(qint64 task) const;
    QStringList caseFolders() const
    {
        return QDir(m_server.dataDir() + QStringLiteral("/openfoam")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }
    // Clicks the task's question in the inbox list, as a person would.
    void pickQuestion(qint64 taskId);
    // Picks `choice` in the panel's action list and clicks Accept, once the guard lets it.
    void answerInPanel(qint64 taskId, const QString &choice, int correctors = 0);
    // Starts one case from the window and waits until the window shows its solver running.
    qint64 startLongCase(const QString &caseName, double endTime, double writeInterval, double untilTime);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
    QHash<QString, qint64> m_sweepTask; // "nu/mesh" -> task
};

QStringList tst_FoamGui::serverArgs() const
{
    return {QStringLiteral("--workers"), QStringLiteral("3"), QStringLiteral("--poll-interval-ms"),
            QStringLiteral("200"), QStringLiteral("--openfoam-cases"), m_dir.filePath(QStringLiteral("cases"))};
}

void tst_FoamGui::initTestCase()
{
    // Not a skip: without OpenFOAM the feature cannot be shown to work.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty()
                 && !QStandardPaths::findExecutable(QStringLiteral("foamDictionary")).isEmpty(),
             "OpenFOAM is not installed; this test needs it: apt-get install openfoam openfoam-examples");
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_foamgui"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false); // questions go to the inbox
    QVERIFY(m_dir.isValid());

    // The engineer's own case: the tutorial cavity with a function object, the volume average of
    // p every step (the cavity tutorial has none).
    const QString tutorial = foamPrefix()
                             + QStringLiteral("/share/doc/openfoam-examples/examples/incompressible/icoFoam/cavity/cavity");
    QVERIFY2(QFileInfo(tutorial).isDir(), "openfoam-examples is not installed");
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("cases"))));
    QProcess cp;
    cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), tutorial, m_dir.filePath(QStringLiteral("cases/cavity-pavg"))});
    QVERIFY(cp.waitForFinished(30000) && cp.exitCode() == 0);
    QFile control(m_dir.filePath(QStringLiteral("cases/cavity-pavg/system/controlDict")));
    QVERIFY(control.open(QIODevice::Append));
    control.write(R"(
functions
{
    pAverage
    {
        type            volFieldValue;
        libs            ("libfieldFunctionObjects.so");
        writeControl    timeStep;
        writeInterval   1;
        writeFields     false;
        regionType      all;
        operation       volAverage;
        fields          (p);
    }
}
)");
    control.close();

    QVERIFY2(m_server.start(serverArgs()), qPrintable(m_server.errorString()));
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    QVERIFY(QTest::qWaitForWindowExposed(m_app->window()));
    m_serverId = m_app->addServer(m_server.url(), QStringLiteral("OpenFOAM"), {}, kTool);
    QVERIFY(m_serverId > 0);
}

void tst_FoamGui::cleanup()
{
    // A test that failed half way leaves no case running into the next one.
    QList<qint64> live;
    for (qint64 id : tasksOfTool())
        if (m_app->window()->taskModel()->task(id)->isLive())
            live << id;
    if (live.isEmpty() || !m_server.isRunning())
        return;
    m_app->bridge()->cancelTasks(live);
    QTRY_VERIFY_WITH_TIMEOUT(std::none_of(live.cbegin(), live.cend(),
                                          [this](qint64 id) { return m_app->window()->taskModel()->task(id)->isLive(); }),
                             30000);
}

void tst_FoamGui::cleanupTestCase()
{
    m_app.reset();
}

QList<qint64> tst_FoamGui::tasksOfTool() const
{
    QList<qint64> ids;
    TaskTableModel *m = m_app->window()->taskModel();
    for (int r = 0; r < m->rowCount(); ++r)
        if (const Store::TaskRecord *t = m->task(m->taskIdAt(r)); t && t->tool == kTool)
            ids << t->id;
    return ids;
}

std::optional<qint64> tst_FoamGui::taskNamed(const QString &caseName) const
{
    for (qint64 id : tasksOfTool()) {
        const json args = json::parse(m_app->window()->taskModel()->task(id)->arguments.toStdString(), nullptr, false);
        if (args.is_object() && args.value("case_name", "") == caseName.toStdString())
            return id;
    }
    return std::nullopt;
}

json tst_FoamGui::resultOf(qint64 task) const
{
    const QString text = Test::query(m_db, QStringLiteral("SELECT result FROM tasks WHERE id = %1").arg(task), 10000)
                             .value(0)
                             .value(0);
    return json::parse(text.toStdString(), nullptr, false);
}

void tst_FoamGui::pickQuestion(qint64 taskId)
{
    MainWindow &w = *m_app->window();
    QTableView *inbox = w.inboxView();
    int row = -1;
    for (int r = 0; r < w.inboxModel()->rowCount(); ++r)
        if (w.inboxModel()->request(r)->taskId == taskId)
            row = r;
    QVERIFY(row >= 0);
    const QRect cell = inbox->visualRect(w.inboxModel()->index(row, InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(w.answerPanel()->hasQuestion() && w.answerPanel()->taskId() == taskId, 10000);
}

void tst_FoamGui::answerInPanel(qint64 taskId, const QString &choice, int correctors)
{
    AnswerPanel *panel = m_app->window()->answerPanel();
    pickQuestion(taskId);
    if (QTest::currentTestFailed())
        return;
    // The question as the server put it, with checkMesh's own numbers.
    QString shown;
    for (QLabel *label : panel->findChildren<QLabel *>())
        shown += label->text() + QLatin1Char('\n');
    for (const char *finding : {"checkMesh failed 1 check (Max skewness) on 400 cells", "max skewness 4.02"})
        QVERIFY2(shown.contains(QLatin1String(finding)), qPrintable(shown));
    auto *accept = panel->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isGuarded() && accept->isEnabled(), 5000);
    auto *action = qobject_cast<QComboBox *>(panel->form()->editor("action"));
    QVERIFY(action);
    const int index = action->findText(choice);
    QVERIFY2(index >= 0, qPrintable(choice));
    action->setCurrentIndex(index);
    if (correctors > 0) {
        auto *n = qobject_cast<QSpinBox *>(panel->form()->editor("non_orthogonal_correctors"));
        QVERIFY(n);
        n->setValue(correctors);
    }
    QTest::mouseClick(accept, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->hasQuestion() || panel->taskId() != taskId, 10000);
}

void tst_FoamGui::sweepWithTwoMeshQuestions()
{
    MainWindow &w = *m_app->window();
    // nu x mesh: the tutorial's 20x20, a finer 30x30, and the skewed one. With a step of
    // 0.0005 s (200 steps to 0.1 s) icoFoam runs on the skewed mesh once it is corrected; run as
    // it is, it dies of a floating point exception within ten steps (tried by hand).
    const QString nu = QStringLiteral("constant/transportProperties:nu");
    const QString dt = QStringLiteral("system/controlDict:deltaT");
    const QJsonObject fine{{QStringLiteral("system/blockMeshDict:blocks"),
                            QStringLiteral("(hex (0 1 2 3 4 5 6 7) (30 30 1) simpleGrading (1 1 1))")}};
    const QJsonObject skewed{{QStringLiteral("system/blockMeshDict:vertices"), kSkewedVertices}};
    QJsonArray sets;
    for (const QJsonObject &mesh : {QJsonObject{}, fine, skewed}) {
        for (double v : {0.01, 0.02}) {
            QJsonObject set = mesh;
            set.insert(nu, v);
            set.insert(dt, 0.0005);
            sets << set;
        }
    }
    const QJsonObject spec{
        {QStringLiteral("description"), QStringLiteral("cavity: nu against the mesh")},
        {QStringLiteral("tool"), kTool},
        {QStringLiteral("fixed"), QJsonObject{{QStringLiteral("case"), QStringLiteral("cavity-pavg")},
                                              {QStringLiteral("end_time"), 0.1}}},
        {QStringLiteral("vary"), QJsonObject{{QStringLiteral("set"), QJsonObject{{QStringLiteral("list"), sets}}}}},
        {QStringLiteral("concurrency"), 3}};
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("specs")));
    const QString specPath = m_dir.filePath(QStringLiteral("specs/cavity-mesh.json"));
    QVERIFY(Test::writeFile(specPath, QJsonDocument(spec).toJson()));

    // File > Open Sweep..., then Submit in the editor.
    QAction *open = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->objectName() == QLatin1String("openSweep"))
            open = a;
    QVERIFY(open);
    open->trigger();
    Test::chooseInFileDialog(&w, QStringLiteral("sweepFileDialog"), specPath);
    if (QTest::currentTestFailed())
        return;
    SweepEditor *editor = w.sweepEditor();
    const auto problems = [&] {
        QString said;
        if (auto *label = editor->findChild<QWidget *>(QStringLiteral("problems")))
            said += label->property("text").toString() + label->property("plainText").toString();
        for (QMessageBox *box : w.findChildren<QMessageBox *>(QStringLiteral("sweepFileError")))
            if (box->isVisible())
                said += QLatin1Char('\n') + box->text() + QLatin1Char(' ') + box->informativeText() + box->detailedText();
        return said;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(editor->previewCount() == 6, qPrintable(problems()), 10000);
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    QVERIFY(submit);
    QTRY_VERIFY_WITH_TIMEOUT(submit->isEnabled(), 10000);
    QTest::mouseClick(submit, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(tasksOfTool().size(), 6, 60000);

    // Name each case by what it varies.
    for (qint64 id : tasksOfTool()) {
        const json args = json::parse(w.taskModel()->task(id)->arguments.toStdString(), nullptr, false);
        QVERIFY2(args.is_object() && args["set"].is_object(), qPrintable(w.taskModel()->task(id)->arguments));
        const json &set = args["set"];
        const QString mesh = set.contains("system/blockMeshDict:vertices") ? QStringLiteral("skewed")
                             : set.contains("system/blockMeshDict:blocks") ? QStringLiteral("fine")
                                                                           : QStringLiteral("tutorial");
        const auto nuValue = set.find("constant/transportProperties:nu");
        QVERIFY2(nuValue != set.end() && nuValue->is_number(), args.dump().c_str());
        m_sweepTask.insert(QString::number(nuValue->get<double>()) + QLatin1Char('/') + mesh, id);
    }
    QCOMPARE(m_sweepTask.size(), 6);

    // Both skewed cases ask, and only they.
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 2, 90000);
    const qint64 repaired = m_sweepTask.value(QStringLiteral("0.01/skewed"));
    const qint64 aborted = m_sweepTask.value(QStringLiteral("0.02/skewed"));
    QSet<qint64> asking;
    for (int r = 0; r < w.inboxModel()->rowCount(); ++r)
        asking.insert(w.inboxModel()->request(r)->taskId);
    QCOMPARE(asking, (QSet<qint64>{repaired, aborted}));
    QCOMPARE(w.taskModel()->task(repaired)->status, TaskStatus::InputRequired);

    answerInPanel(repaired, QStringLiteral("Continue with non-orthogonal correction"), 3);
    if (QTest::currentTestFailed())
        return;
    answerInPanel(aborted, QStringLiteral("Abort this case"));
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(std::none_of(m_sweepTask.cbegin(), m_sweepTask.cend(),
                                          [&w](qint64 id) { return w.taskModel()->task(id)->isLive(); }),
                             120000);
    QCOMPARE(w.inboxModel()->pendingCount(), 0);

    // Five ran to their end time, the aborted one is a tool error, never a success.
    for (auto it = m_sweepTask.cbegin(); it != m_sweepTask.cend(); ++it) {
        const Store::TaskRecord *t = w.taskModel()->task(it.value());
        QCOMPARE(t->status, TaskStatus::Completed);
        if (it.value() == aborted) {
            QVERIFY(t->isToolError);
            QCOMPARE(t->statusMessage, QStringLiteral("aborted at the mesh check"));
        } else {
            QVERIFY2(!t->isToolError, qPrintable(it.key() + QLatin1String(": ") + t->statusMessage));
            QVERIFY2(t->statusMessage.startsWith(QLatin1String("reached the end time: time = 0.1 of 0.1 (100%)")),
                     qPrintable(it.key() + QLatin1String(": ") + t->statusMessage));
        }
    }

    // The correction is in the repaired case's dictionaries and logs; its result names the folder.
    const json result = resultOf(repaired);
    const json &s = result["structuredContent"];
    const QString caseDir = QString::fromStdString(s.value("case_folder", ""));
    QVERIFY2(caseDir.startsWith(m_server.dataDir() + QStringLiteral("/openfoam/")), qPrintable(caseDir));
    QVERIFY2(QString::fromStdString(result["content"][0].value("text", "")).contains(caseDir), result.dump().c_str());
    QCOMPARE(s.value("outcome", ""), std::string("end time reached"));
    QCOMPARE(s["mesh"].value("ok", true), false);
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSolution"), QStringLiteral("PISO/nNonOrthogonalCorrectors")),
             QStringLiteral("3"));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSchemes"), QStringLiteral("laplacianSchemes/default")),
             QStringLiteral("Gauss linear limited corrected 0.33"));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/fvSchemes"), QStringLiteral("snGradSchemes/default")),
             QStringLiteral("limited corrected 0.33"));
    QVERIFY(readFile(caseDir + QStringLiteral("/log.checkMesh")).contains(QLatin1String("Failed 1 mesh checks.")));
    QVERIFY2(readFile(caseDir + QStringLiteral("/log.answer")).contains(QLatin1String("answer 1: correct")),
             qPrintable(readFile(caseDir + QStringLiteral("/log.answer"))));
    const QString solverLog = readFile(caseDir + QStringLiteral("/log.icoFoam"));
    QVERIFY2(solverLog.contains(QLatin1String("\nEnd\n")), qPrintable(solverLog.right(2000)));
    QCOMPARE(firstTime(solverLog), 0.0005);
    // The answer is shown on the task in the window.
    w.monitor()->selectTask(repaired);
    QTRY_VERIFY_WITH_TIMEOUT(w.resultView()->answersText().contains(QLatin1String("Continue with non-orthogonal correction")),
                             20000);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);

    // The aborted one says so, and its solver never ran: of the sweep's case folders, the two
    // checkMesh failed are the repaired one and one without a solver log.
    const json abortedResult = resultOf(aborted);
    QVERIFY2(abortedResult.value("isError", false), abortedResult.dump().c_str());
    QVERIFY2(abortedResult.dump().find("chose to abort") != std::string::npos, abortedResult.dump().c_str());
    QStringList failedMeshes;
    const QDir openfoam(m_server.dataDir() + QStringLiteral("/openfoam"));
    for (const QString &folder : openfoam.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString dir = openfoam.filePath(folder);
        if (readFile(dir + QStringLiteral("/log.checkMesh")).contains(QLatin1String("Failed 1 mesh checks.")))
            failedMeshes << (dir == caseDir ? QStringLiteral("repaired")
                                            : QFileInfo::exists(dir + QStringLiteral("/log.icoFoam")) ? QStringLiteral("ran")
                                                                                                   : QStringLiteral("not run"));
    }
    failedMeshes.sort();
    QCOMPARE(failedMeshes, (QStringList{QStringLiteral("not run"), QStringLiteral("repaired")}));
}

void tst_FoamGui::exportHasResidualsAndFunctionObjects()
{
    QVERIFY(m_sweepTask.size() == 6);
    MainWindow &w = *m_app->window();
    const qint64 first = m_sweepTask.value(QStringLiteral("0.01/tutorial"));
    w.monitor()->selectTask(first);
    SweepResultsView *view = w.sweepResults();
    QTRY_VERIFY_WITH_TIMEOUT(view->model()->sweepId() > 0 && view->model()->sweepId() == w.taskModel()->task(first)->sweepId,
                             20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 5, 20000);

    // Export > Export CSV... and the save dialog, as a person does. The dialog is modal: it is
    // answered from the event loop it runs.
    auto *button = view->findChild<QToolButton *>(QStringLiteral("exportResults"));
    QVERIFY(button && button->menu());
    QAction *csvAction = nullptr;
    for (QAction *a : button->menu()->actions())
        if (a->text() == QLatin1String("Export CSV..."))
            csvAction = a;
    QVERIFY(csvAction);
    const QString path = m_dir.filePath(QStringLiteral("exports/cavity-mesh.csv"));
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    bool chose = false;
    QTimer::singleShot(0, this, [&] {
        Test::chooseInFileDialog(&w, QStringLiteral("saveFileDialog"), path);
        chose = !QTest::currentTestFailed();
        if (auto *dialog = w.findChild<QDialog *>(QStringLiteral("saveFileDialog")); dialog && dialog->isVisible())
            dialog->reject(); // the choice failed: the modal dialog must not hold the test
    });
    csvAction->trigger();
    QVERIFY(chose);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(path).isFile(), 10000);
    const QString csv = readFile(path);
    QCOMPARE(csv, view->model()->toCsv());

    const QStringList lines = csv.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 7);
    // The `set` column is quoted JSON with commas of its own: fields are split as CSV is quoted.
    const auto fieldsOf = [](const QString &line) {
        QStringList out;
        QString cur;
        bool quoted = false;
        for (qsizetype i = 0; i < line.size(); ++i) {
            const QChar c = line.at(i);
            if (quoted) {
                if (c == QLatin1Char('"') && i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"'))
                    cur += c, ++i;
                else if (c == QLatin1Char('"'))
                    quoted = false;
                else
                    cur += c;
            } else if (c == QLatin1Char('"')) {
                quoted = true;
            } else if (c == QLatin1Char(',')) {
                out << cur;
                cur.clear();
            } else {
                cur += c;
            }
        }
        out << cur;
        return out;
    };
    const QStringList header = fieldsOf(lines.first());
    // A column per field of the solver's log, read from one case's log.icoFoam.
    const json anyResult = resultOf(first);
    const QString caseDir = QString::fromStdString(anyResult["structuredContent"].value("case_folder", ""));
    const QStringList fields = fieldsOfLog(readFile(caseDir + QStringLiteral("/log.icoFoam")));
    QVERIFY2(fields.size() >= 3, qPrintable(fields.join(',')));
    QStringList wanted;
    for (const QString &f : fields)
        wanted << QStringLiteral("final_residuals.") + f;
    wanted << QStringLiteral("function_objects.pAverage/volAverage(p)");
    for (const QString &column : wanted)
        QVERIFY2(header.contains(column), qPrintable(column + QLatin1String(" not in ") + lines.first()));
    const qsizetype taskColumn = header.indexOf(QStringLiteral("task"));
    const qsizetype pColumn = header.indexOf(QStringLiteral("function_objects.pAverage/volAverage(p)"));
    const qint64 aborted = m_sweepTask.value(QStringLiteral("0.02/skewed"));
    QSet<QString> pAverages;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = fieldsOf(lines[i]);
        QCOMPARE(f.size(), header.size());
        const qint64 task = f.value(taskColumn).toLongLong();
        QVERIFY(std::find(m_sweepTask.cbegin(), m_sweepTask.cend(), task) != m_sweepTask.cend());
        for (const QString &column : wanted) {
            const QString v = f.value(header.indexOf(column));
            if (task == aborted) {
                // It never ran: nothing to report, and nothing made up.
                QVERIFY2(v.isEmpty(), qPrintable(lines[i]));
                continue;
            }
            bool number = false;
            v.toDouble(&number);
            QVERIFY2(number, qPrintable(column + QLatin1String(" of task ") + QString::number(task) + QLatin1String(": ") + lines[i]));
        }
        if (task != aborted)
            pAverages.insert(f.value(pColumn));
    }
    // The scalar is each case's own: nu and the mesh change it.
    QVERIFY2(pAverages.size() >= 3, qPrintable(QStringList(pAverages.begin(), pAverages.end()).join(',')));
}

qint64 tst_FoamGui::startLongCase(const QString &caseName, double endTime, double writeInterval, double untilTime)
{
    MainWindow &w = *m_app->window();
    const json args{{"template", "cavity"}, {"case_name", caseName.toStdString()}, {"end_time", endTime},
                    {"write_interval", writeInterval}};
    m_app->bridge()->callOnce(m_serverId, kTool, QByteArray::fromStdString(args.dump()), w.currentSession());
    qint64 task = 0;
    if (!QTest::qWaitFor([&] { return (task = taskNamed(caseName).value_or(0)) > 0; }, 30000))
        return 0;
    static const QRegularExpression at(QStringLiteral("^icoFoam: time = ([0-9.e+-]+) of "));
    const auto reached = [&] {
        const Store::TaskRecord *t = w.taskModel()->task(task);
        const auto m = at.match(t ? t->statusMessage : QString());
        return (m.hasMatch() && m.captured(1).toDouble() >= untilTime) || (t && !t->isLive());
    };
    if (!QTest::qWaitFor(reached, 60000) || !w.taskModel()->task(task)->isLive()) {
        qWarning("the case did not run to time %g while the window watched: %s", untilTime,
                 qPrintable(w.taskModel()->task(task)->statusMessage));
        return 0;
    }
    return task;
}

void tst_FoamGui::chartFollowsTheLogThenCancelLeavesNothing()
{
    MainWindow &w = *m_app->window();
    const QStringList known = caseFolders();
    const qint64 task = startLongCase(QStringLiteral("cancelled"), 100000, 1000000, 0.5);
    QVERIFY(task > 0);
    QString marker, caseDir;
    QVERIFY2(runningSolver(m_server.pid(), known, &marker, &caseDir), "no icoFoam under the server");
    QVERIFY(!marker.isEmpty());
    QVERIFY2(caseDir.startsWith(m_server.dataDir() + QStringLiteral("/openfoam/")), qPrintable(caseDir));

    // The chart: one series per field the log solves for, on the simulated time, while it runs.
    w.monitor()->selectTask(task);
    ResidualChart *chart = w.chart();
    const auto residualSeries = [&] {
        QHash<QString, SampleSeriesModel *> out;
        for (SampleSeriesModel *s : chart->series())
            if (s->taskId() == task && s->series().startsWith(QLatin1String("residual.")))
                out.insert(s->series().mid(9), s);
        return out;
    };
    const QStringList fields = fieldsOfLog(readFile(caseDir + QStringLiteral("/log.icoFoam")));
    QVERIFY2(fields.size() >= 3, qPrintable(fields.join(',')));
    QTRY_VERIFY_WITH_TIMEOUT(residualSeries().size() >= fields.size()
                                 && std::all_of(fields.begin(), fields.end(),
                                                [&](const QString &f) {
                                                    SampleSeriesModel *s = residualSeries().value(f);
                                                    return s && s->points().size() >= 3;
                                                }),
                             30000);
    QVERIFY(w.taskModel()->task(task)->isLive());
    const QHash<QString, SampleSeriesModel *> series = residualSeries();
    QStringList names = series.keys();
    names.sort();
    QStringList logFields = fieldsOfLog(readFile(caseDir + QStringLiteral("/log.icoFoam")));
    logFields.sort();
    QCOMPARE(names, logFields);
    const double deltaT = 0.005;
    for (auto it = series.cbegin(); it != series.cend(); ++it) {
        double last = 0;
        bool fractional = false;
        for (const QPointF &pt : it.value()->points()) {
            QVERIFY2(pt.x() > last && pt.x() <= 100000 && pt.y() >= 0, // Uy's first residual is 0
                     qPrintable(QStringLiteral("%1: (%2, %3)").arg(it.key()).arg(pt.x()).arg(pt.y())));
            // On whole time steps of the simulated time, not iteration counts.
            QVERIFY2(std::abs(pt.x() / deltaT - std::round(pt.x() / deltaT)) < 1e-6,
                     qPrintable(QStringLiteral("%1: x = %2").arg(it.key()).arg(pt.x())));
            fractional = fractional || pt.x() != std::floor(pt.x());
            last = pt.x();
        }
        QVERIFY2(fractional, qPrintable(it.key()));
    }

    // A person clicks between rows while the case runs: each time the chart reads the case's
    // samples again, and the samples that arrive next are appended once, never twice.
    const qint64 other = m_sweepTask.value(QStringLiteral("0.01/tutorial"), 0);
    QVERIFY(other > 0);
    const auto firstRepeat = [&]() -> QString {
        for (SampleSeriesModel *s : chart->series()) {
            const auto &pts = s->points();
            for (size_t i = 1; i < pts.size(); ++i)
                if (s->taskId() == task && pts[i].x() <= pts[i - 1].x())
                    return QStringLiteral("%1 at x = %2 (point %3 of %4)").arg(s->series()).arg(pts[i].x()).arg(i).arg(pts.size());
        }
        return {};
    };
    for (int click = 0; click < 40; ++click) {
        w.monitor()->selectTask(other);
        w.monitor()->selectTask(task);
        QTRY_VERIFY_WITH_TIMEOUT(residualSeries().size() == fields.size(), 10000);
        const size_t read = residualSeries().value(fields.first())->points().size();
        QTRY_VERIFY_WITH_TIMEOUT(residualSeries().value(fields.first())
                                     && residualSeries().value(fields.first())->points().size() > read,
                                 10000);
        QVERIFY2(firstRepeat().isEmpty(), qPrintable(QStringLiteral("after %1 clicks: %2").arg(click + 1).arg(firstRepeat())));
    }

    // Cancel Tasks, confirmed in its box.
    QVERIFY(!foamProcesses(m_server.pid(), marker).isEmpty());
    w.monitor()->selectTask(task);
    auto *cancel = w.monitor()->findChild<QToolButton *>(QStringLiteral("cancelTasks"));
    QVERIFY(cancel);
    bool confirmed = false;
    QTimer timer;
    timer.setInterval(50);
    connect(&timer, &QTimer::timeout, this, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || !box->isVisible() || box->objectName() != QLatin1String("cancelConfirm"))
            return;
        timer.stop();
        confirmed = true;
        QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    });
    timer.start();
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(confirmed, 10000);
    timer.stop();
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->task(task)->status, TaskStatus::Cancelled, 30000);
    QTRY_VERIFY2_WITH_TIMEOUT(foamProcesses(m_server.pid(), marker).isEmpty(),
                              qPrintable(foamProcesses(m_server.pid(), marker).join(',')), 15000);
    QVERIFY(m_server.isRunning());
}

void tst_FoamGui::steadyChartByIteration()
{
    // simpleFoam's pitzDaily solves for more fields than the cavity (k, epsilon): the chart has
    // each, by iteration, with nothing in the client naming them.
    MainWindow &w = *m_app->window();
    const json args{{"template", "pitzDaily"}, {"case_name", "steady"}, {"end_time", 40}};
    m_app->bridge()->callOnce(m_serverId, kTool, QByteArray::fromStdString(args.dump()), w.currentSession());
    qint64 task = 0;
    QTRY_VERIFY_WITH_TIMEOUT((task = taskNamed(QStringLiteral("steady")).value_or(0)) > 0, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.taskModel()->task(task)->isLive(), 120000);
    QCOMPARE(w.taskModel()->task(task)->status, TaskStatus::Completed);
    QVERIFY2(!w.taskModel()->task(task)->isToolError, qPrintable(w.taskModel()->task(task)->statusMessage));
    const QString caseDir = QString::fromStdString(resultOf(task)["structuredContent"].value("case_folder", ""));
    QStringList fields = fieldsOfLog(readFile(caseDir + QStringLiteral("/log.simpleFoam")));
    QVERIFY2(fields.contains(QStringLiteral("k")) && fields.contains(QStringLiteral("epsilon")), qPrintable(fields.join(',')));

    w.monitor()->selectTask(task);
    ResidualChart *chart = w.chart();
    QStringList names;
    const auto charted = [&] {
        names.clear();
        for (SampleSeriesModel *s : chart->series())
            if (s->taskId() == task && s->series().startsWith(QLatin1String("residual.")))
                names << s->series().mid(9);
        names.sort();
        return names;
    };
    fields.sort();
    QTRY_COMPARE_WITH_TIMEOUT(charted(), fields, 20000);
    for (SampleSeriesModel *s : chart->series()) {
        if (s->taskId() != task || !s->series().startsWith(QLatin1String("residual.")))
            continue;
        // Every iteration 1 to 40, once each.
        QCOMPARE(s->points().size(), size_t(40));
        for (size_t i = 0; i < s->points().size(); ++i)
            QVERIFY2(s->points()[i].x() == double(i + 1),
                     qPrintable(QStringLiteral("%1: x = %2 at %3").arg(s->series()).arg(s->points()[i].x()).arg(i)));
    }
}

void tst_FoamGui::killNineResumesFromLatestTime()
{
    MainWindow &w = *m_app->window();
    // 12,000 steps, a time folder every 2 s of simulated time (400 steps).
    const QStringList known = caseFolders();
    const qint64 task = startLongCase(QStringLiteral("resumed"), 60, 400, 5);
    QVERIFY(task > 0);
    QString marker, caseDir;
    QVERIFY2(runningSolver(m_server.pid(), known, &marker, &caseDir), "no icoFoam under the server");
    const QStringList foldersBefore = caseFolders();
    QCOMPARE(foldersBefore.size(), known.size() + 1);

    const quint16 port = m_server.port();
    const QString url = m_server.url();
    m_server.kill();
    // The solver dies with the server.
    QTRY_VERIFY2_WITH_TIMEOUT(foamProcesses(0, marker).isEmpty(), qPrintable(foamProcesses(0, marker).join(',')), 15000);
    QVERIFY(QFileInfo(caseDir + QStringLiteral("/4/U")).isFile());
    QVERIFY(!QFileInfo::exists(caseDir + QStringLiteral("/60")));
    QVERIFY(w.taskModel()->task(task)->isLive());

    QVERIFY2(m_server.start(serverArgs() << QStringLiteral("--port") << QString::number(port), m_server.dataDir()),
             qPrintable(m_server.errorString()));
    QCOMPARE(m_server.url(), url);

    // The window, which never stopped following the task, sees it complete.
    QTRY_VERIFY_WITH_TIMEOUT(!w.taskModel()->task(task)->isLive(), 120000);
    const Store::TaskRecord *t = w.taskModel()->task(task);
    QCOMPARE(t->status, TaskStatus::Completed);
    QVERIFY2(!t->isToolError, qPrintable(t->statusMessage));
    QVERIFY2(t->statusMessage.startsWith(QLatin1String("reached the end time: time = 60 of 60 (100%)")),
             qPrintable(t->statusMessage));
    w.monitor()->selectTask(task);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 20000);

    // Resumed from its latest complete time folder, not from zero, and run to the end once.
    const QString restart = readFile(caseDir + QStringLiteral("/log.restart"));
    const auto from = QRegularExpression(QStringLiteral("restarting from time (\\S+)")).match(restart);
    QVERIFY2(from.hasMatch(), qPrintable(restart));
    const double latest = from.captured(1).toDouble();
    QVERIFY2(latest >= 4, qPrintable(restart));
    const QString resumedLog = readFile(caseDir + QStringLiteral("/log.icoFoam"));
    const double resumedAt = firstTime(resumedLog);
    QVERIFY2(resumedAt > latest && resumedAt < latest + 0.01, qPrintable(QString::number(resumedAt)));
    QCOMPARE(foamValue(caseDir, QStringLiteral("system/controlDict"), QStringLiteral("startFrom")),
             QStringLiteral("latestTime"));
    const QString firstLog = readFile(caseDir + QStringLiteral("/log.icoFoam.1"));
    QCOMPARE(firstTime(firstLog), 0.005);
    QVERIFY(!firstLog.contains(QLatin1String("\nEnd\n")));
    QCOMPARE(resumedLog.count(QLatin1String("\nEnd\n")), 1);
    QVERIFY(!QFileInfo::exists(caseDir + QStringLiteral("/log.icoFoam.2")));
    const json result = resultOf(task);
    QCOMPARE(result["structuredContent"].value("last_time", 0.0), 60.0);
    QCOMPARE(QString::fromStdString(result["structuredContent"].value("case_folder", "")), caseDir);
    QVERIFY2(result["structuredContent"].value("start_time", 0.0) > latest, result.dump().c_str());

    // One task, one case folder, one result: nothing was submitted again.
    QCOMPARE(Test::scalar(m_db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE arguments LIKE '%\"resumed\"%'"), 10000), 1);
    QCOMPARE(caseFolders(), foldersBefore);
    QVERIFY(foamProcesses(m_server.pid(), marker).isEmpty());
}

QTEST_MAIN(tst_FoamGui)
#include "tst_foamgui.moc"
