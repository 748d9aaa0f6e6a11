// Relaunch with edits keeps lineage (the real engine and eddy-cfd-server): the relaunched case is
// journalled with parentCaseId = the original case, the task detail names the parent task and the
// parent lists its children, and the result view says "Relaunched from #N". Also the opt-in
// "pop up each question" preference: off by default, saved in QSettings, restored by the next
// window. And durations under a second read in ms, not "0 s".
#include "app/monitor/engine.h"
#include "app/net/httpclient.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/statustimeline.h"

#include <QAction>
#include <QDateTime>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;
using Store::TaskStatus;

class tst_Lineage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void relaunchKeepsLineage();
    void popupPreference();
    void subSecondDurations();

private:
    Test::TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_Lineage::initTestCase()
{
    Net::initGlobal();
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_lineage"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
}

void tst_Lineage::relaunchKeepsLineage()
{
    Monitor::Engine engine;
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("lineage.sqlite"))));
    const qint64 sid = engine.addServer(m_server.url());
    QVERIFY(sid > 0);
    EngineBridge bridge(&engine);
    QSignalSpy journalled(&engine, &Monitor::Engine::callJournalled);
    QSignalSpy submitted(&engine, &Monitor::Engine::caseSubmitted);
    QSignalSpy rejected(&engine, &Monitor::Engine::submissionRejected);
    QSignalSpy finished(&engine, &Monitor::Engine::taskFinished);

    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":100,"grid":16,"max_iterations":200})", std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size() + rejected.size(), 1, 60000);
    QCOMPARE(rejected.size(), 0);
    const qint64 parentCase = submitted.first().at(0).toLongLong();
    const qint64 parentTask = submitted.first().at(1).toLongLong();
    QCOMPARE(journalled.first().at(0).toLongLong(), parentCase);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);

    // Relaunch with an edit (another Reynolds number), naming the original case.
    engine.callOnce(sid, QStringLiteral("run_cfd_case"), R"({"reynolds":150,"grid":16,"max_iterations":200})", std::nullopt,
                    parentCase);
    QTRY_COMPARE_WITH_TIMEOUT(submitted.size() + rejected.size(), 2, 60000);
    QCOMPARE(rejected.size(), 0);
    const qint64 childCase = submitted.at(1).at(0).toLongLong();
    const qint64 childTask = submitted.at(1).at(1).toLongLong();
    QVERIFY(childTask != parentTask);
    const auto child = engine.catalogue().caseRecord(childCase);
    QVERIFY(child);
    QCOMPARE(child->parentCaseId, std::optional<qint64>(parentCase));
    QVERIFY(child->arguments.contains(QLatin1String("150")));
    QCOMPARE(engine.catalogue().caseRecord(parentCase)->parentCaseId, std::nullopt);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 120000);

    // The detail of each side names the other.
    QSignalSpy details(&bridge, &EngineBridge::taskDetailReady);
    bridge.requestTaskDetail(childTask);
    bridge.requestTaskDetail(parentTask);
    QTRY_COMPARE_WITH_TIMEOUT(details.size(), 2, 30000);
    const auto childDetail = details.at(0).at(0).value<EngineBridge::TaskDetail>();
    const auto parentDetail = details.at(1).at(0).value<EngineBridge::TaskDetail>();
    QCOMPARE(childDetail.parentTaskId, std::optional<qint64>(parentTask));
    QVERIFY(childDetail.childTaskIds.isEmpty());
    QCOMPARE(parentDetail.parentTaskId, std::nullopt);
    QCOMPARE(parentDetail.childTaskIds, QList<qint64>{childTask});

    // And the result view says so.
    ResultView view;
    view.setTask(childDetail.task);
    view.setLineage(childDetail.parentTaskId, childDetail.childTaskIds);
    QCOMPARE(view.outcome(), ResultView::Outcome::Success);
    QCOMPARE(view.lineageText(), QStringLiteral("Relaunched from #%1.").arg(parentTask));
    view.setTask(parentDetail.task);
    view.setLineage(parentDetail.parentTaskId, parentDetail.childTaskIds);
    QCOMPARE(view.lineageText(), QStringLiteral("Relaunched as #%1.").arg(childTask));
    // The result's centreline profiles are offered as plots.
    QVERIFY2(view.curveNames().contains(QStringLiteral("u_centreline")), qPrintable(view.curveNames().join(QLatin1Char(','))));
    QVERIFY(view.shownCurvePoints() >= 2);
    engine.close();
}

void tst_Lineage::popupPreference()
{
    const auto request = [](qint64 taskId) {
        Store::InputRequestRecord r;
        r.id = taskId;
        r.taskId = taskId;
        r.key = QStringLiteral("q%1").arg(taskId);
        r.request = QStringLiteral(R"({"method":"elicitation/create","params":{"message":"Mesh?",)"
                                   R"("requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}})");
        return r;
    };
    const auto changeWith = [](const Store::InputRequestRecord &r) {
        Monitor::ChangeSet c;
        c.inputs << r;
        return c;
    };
    Monitor::Engine engine; // no server: the window only listens to its signals here
    QVERIFY(engine.open(m_dir.filePath(QStringLiteral("prefs.sqlite"))));
    EngineBridge bridge(&engine);
    {
        MainWindow w(&bridge);
        QAction *popup = w.popupAction();
        QVERIFY(popup);
        QVERIFY(popup->isCheckable());
        QVERIFY(!popup->isChecked()); // default: questions wait in the inbox, nothing pops up
        QVERIFY(!w.opensDialogsAutomatically());
        Q_EMIT engine.changesReady(changeWith(request(1))); // the one route of questions
        QCOMPARE(w.inboxModel()->pendingCount(), 1);
        QTest::qWait(200); // negative check: nothing pops up by itself
        QVERIFY(!w.currentDialog());

        popup->trigger(); // the menu item: the waiting question pops up
        QVERIFY(popup->isChecked());
        QVERIFY(w.opensDialogsAutomatically());
        QCOMPARE(QSettings().value(QStringLiteral("input/popup")).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog(), 10000);
        w.currentDialog()->reject(); // "Later": it stays in the inbox and does not pop up again
        QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog(), 10000);
        QCOMPARE(w.inboxModel()->pendingCount(), 1);
        QTest::qWait(AnswerPanel::GuardMs + 300); // negative check: it does not pop up again
        QVERIFY(!w.currentDialog());
    }
    {
        MainWindow w(&bridge); // a restart: the preference is back
        QVERIFY(w.popupAction()->isChecked());
        QVERIFY(w.opensDialogsAutomatically());
        Q_EMIT engine.changesReady(changeWith(request(2))); // the one route of questions
        QTRY_VERIFY_WITH_TIMEOUT(w.currentDialog(), 10000);
        QCOMPARE(w.currentDialog()->context().taskNumber, 2);
        w.currentDialog()->reject();
        QTRY_VERIFY_WITH_TIMEOUT(!w.currentDialog(), 10000);
        w.popupAction()->trigger(); // back to the inbox
        QVERIFY(!w.opensDialogsAutomatically());
        QCOMPARE(QSettings().value(QStringLiteral("input/popup")).toBool(), false);
    }
}

void tst_Lineage::subSecondDurations()
{
    QCOMPARE(TaskTableModel::durationText(0), QStringLiteral("0 ms"));
    QCOMPARE(TaskTableModel::durationText(350), QStringLiteral("350 ms"));
    QCOMPARE(TaskTableModel::durationText(999), QStringLiteral("999 ms"));
    QCOMPARE(TaskTableModel::durationText(1000), QStringLiteral("1 s"));
    QCOMPARE(TaskTableModel::durationText(59999), QStringLiteral("59 s"));
    QCOMPARE(TaskTableModel::durationText(61000), QStringLiteral("1 min 01 s"));
    QCOMPARE(TaskTableModel::durationText(-5), QStringLiteral("0 ms"));
    // The status timeline: 400 ms computing, 250 ms waiting for input, then done.
    StatusTimeline timeline;
    Store::TaskEventRecord a{1, 1, 1000, TaskStatus::Working, {}};
    Store::TaskEventRecord b{2, 1, 1400, TaskStatus::InputRequired, {}};
    Store::TaskEventRecord c{3, 1, 1650, TaskStatus::Working, {}};
    Store::TaskEventRecord d{4, 1, 1700, TaskStatus::Completed, {}};
    timeline.setEvents({a, b, c, d}, 1700);
    QCOMPARE(timeline.summary(), QStringLiteral("Computing 450 ms · waiting for input 250 ms"));

    // Queued 2 s, computing 3 s, ended at 5 s by the server's clock and seen ended at 60 s
    // (Eddy was closed): the 55 s are not computing; the solver's own time is the result's.
    Store::TaskRecord task;
    task.status = TaskStatus::Completed;
    task.pollIntervalMs = 500;
    task.lastUpdatedAt = QDateTime::fromMSecsSinceEpoch(1'000'000 + 5000, Qt::UTC).toString(Qt::ISODateWithMs);
    task.result = QStringLiteral(R"({"content":[],"structuredContent":{"wall_seconds":2.9}})");
    timeline.setTask(task);
    Store::TaskEventRecord queued{1, 2, 1'000'000, TaskStatus::Working, QStringLiteral("queued, position #1")};
    Store::TaskEventRecord running{2, 2, 1'002'000, TaskStatus::Working, QStringLiteral("iteration 10")};
    Store::TaskEventRecord done{3, 2, 1'060'000, TaskStatus::Completed, {}};
    timeline.setEvents({queued, running, done}, 1'060'000);
    QCOMPARE(timeline.summary(),
             QStringLiteral("Queued 2 s · computing 3 s · solver time 2.9 s · "
                            "seen 55 s after its end"));
    // Cancelled in the queue: it never computed.
    task.status = TaskStatus::Cancelled;
    task.result.clear();
    timeline.setTask(task);
    Store::TaskEventRecord cancelled{3, 2, 1'001'000, TaskStatus::Cancelled, {}};
    timeline.setEvents({queued, cancelled}, 1'001'000);
    QCOMPARE(timeline.summary(), QStringLiteral("Queued 1 s · computing 0 ms"));
}

QTEST_MAIN(tst_Lineage)
#include "tst_lineage.moc"
