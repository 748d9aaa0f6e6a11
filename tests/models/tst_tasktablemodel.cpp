#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

using Eddy::TaskFilterProxyModel;
using Eddy::TaskTableModel;
using Eddy::Store::ProgressSample;
using Eddy::Store::TaskRecord;
using Eddy::Store::TaskStatus;

// The task table: rows from change sets, fine-grained updates, progress from samples, and the
// filter proxy's status filter, search and sort.
class tst_TaskTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadAndTester();
    void changesAreFineGrained();
    void newTasksOnlyFromSession();
    void progressFromSamples();
    void timeColumns();
    void filterAndSearch();
    void sortByColumn();

private:
    static TaskRecord task(qint64 id, TaskStatus status, qint64 sweep, qint64 caseId, double re);
    static constexpr qint64 Now = 1'800'000'000'000;
};

TaskRecord tst_TaskTableModel::task(qint64 id, TaskStatus status, qint64 sweep, qint64 caseId, double re)
{
    TaskRecord t;
    t.id = id;
    t.serverId = 1;
    t.sweepId = sweep;
    t.caseId = caseId;
    t.tool = QStringLiteral("run_cfd_case");
    t.arguments = QStringLiteral(R"({"reynolds":%1,"grid":16,"idempotency_key":"k%2"})").arg(re).arg(id);
    t.serverTaskId = QStringLiteral("secret-%1").arg(id);
    t.status = status;
    t.statusMessage = QStringLiteral("iteration 10 of 100");
    t.createdAt = QStringLiteral("2027-01-15T08:00:00Z");
    t.firstSeenAtMs = Now - 60'000 * id;
    t.ttlMs = 3'600'000;
    return t;
}

void tst_TaskTableModel::loadAndTester()
{
    TaskTableModel model;
    model.setNow(Now);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy counts(&model, &TaskTableModel::countsChanged);
    model.setServerNames({{1, QStringLiteral("Local CFD")}});
    model.setSweepInfo(3, QStringLiteral("Sweep 3"), {QStringLiteral("reynolds")});
    model.setCaseIndex(31, 0);
    model.setCaseIndex(32, 1);
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Completed, 3, 32, 400)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(TaskTableModel::ColumnCount));
    QCOMPARE(counts.count(), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Working), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Completed), 1);
    const auto cell = [&](int row, int col) { return model.index(row, col).data().toString(); };
    QCOMPARE(cell(0, TaskTableModel::CaseColumn), QStringLiteral("Sweep 3 · case 1"));
    QCOMPARE(cell(1, TaskTableModel::ParametersColumn), QStringLiteral("reynolds = 400"));
    QCOMPARE(cell(0, TaskTableModel::StatusColumn), QStringLiteral("Working"));
    QCOMPARE(cell(0, TaskTableModel::ServerColumn), QStringLiteral("Local CFD"));
    QCOMPARE(cell(1, TaskTableModel::ProgressColumn), QStringLiteral("100 %"));
    // The server's task id is a secret: no cell shows it.
    for (int c = 0; c < model.columnCount(); ++c)
        QVERIFY(!cell(0, c).contains(QLatin1String("secret")));
    QVERIFY(model.index(0, TaskTableModel::StatusColumn).data(Qt::DecorationRole).canConvert<QColor>());
}

void tst_TaskTableModel::changesAreFineGrained()
{
    TaskTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<TaskRecord> tasks;
    for (int i = 1; i <= 10; ++i)
        tasks << task(i, TaskStatus::Working, 3, 30 + i, 100 * i);
    model.setTasks(tasks);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy counts(&model, &TaskTableModel::countsChanged);

    TaskRecord t5 = tasks[4];
    t5.statusMessage = QStringLiteral("iteration 50 of 100");
    model.applyTasks({t5});
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 4);
    QCOMPARE(changed.first().at(1).toModelIndex().row(), 4);
    QCOMPARE(counts.count(), 0); // status unchanged
    QCOMPARE(model.index(4, TaskTableModel::MessageColumn).data().toString(), QStringLiteral("iteration 50 of 100"));

    TaskRecord t6 = tasks[5];
    t6.status = TaskStatus::Failed;
    TaskRecord t7 = tasks[6];
    t7.cancelRequested = true;
    changed.clear();
    model.applyTasks({t7, t6});
    QCOMPARE(changed.count(), 1); // rows 5 and 6 are adjacent: one range
    QCOMPARE(counts.count(), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Failed), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Working), 9);
    QCOMPARE(model.index(6, TaskTableModel::StatusColumn).data().toString(), QStringLiteral("Working (cancel requested)"));
    QCOMPARE(reset.count(), 0);
}

void tst_TaskTableModel::newTasksOnlyFromSession()
{
    TaskTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100)});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy needInfo(&model, &TaskTableModel::sweepInfoNeeded);
    model.applyTasks({task(2, TaskStatus::Working, 3, 32, 200)}); // same sweep: belongs here
    model.applyTasks({task(3, TaskStatus::Working, 9, 90, 300)}); // another session's sweep
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(inserted.count(), 1);
    TaskRecord single = task(4, TaskStatus::Working, 0, 77, 1);
    single.sweepId.reset();
    model.acceptCase(77);
    model.applyTasks({single, single});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(2, TaskTableModel::CaseColumn).data().toString(), QStringLiteral("Task 4"));
    model.setShowAllSessions(true);
    model.applyTasks({task(3, TaskStatus::Working, 9, 90, 300)});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(needInfo.count(), 1); // sweep 9 has no label yet
    QCOMPARE(needInfo.first().first().toLongLong(), 9);
}

void tst_TaskTableModel::progressFromSamples()
{
    TaskTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNow(Now);
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Working, 3, 32, 200)});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const auto sample = [](qint64 taskId, qint64 at, const char *series, double y) {
        ProgressSample s;
        s.taskId = taskId;
        s.atMs = at;
        s.series = QString::fromLatin1(series);
        s.x = 0;
        s.y = y;
        return s;
    };
    model.applySamples({sample(2, Now - 10'000, "iteration", 100), sample(2, Now - 10'000, "max_iterations", 1100),
                        sample(2, Now, "iteration", 600), sample(2, Now, "residual", 3.1e-4),
                        sample(2, Now, "residual.u", 2e-4), sample(99, Now, "iteration", 5)});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(TaskTableModel::ProgressColumn));
    const QModelIndex p = model.index(1, TaskTableModel::ProgressColumn);
    QCOMPARE(p.data(TaskTableModel::ProgressRole).toDouble(), 600.0 / 1100.0);
    QCOMPARE(p.data().toString(), QStringLiteral("55 %"));
    QCOMPARE(model.index(1, TaskTableModel::ResidualColumn).data().toString(), QStringLiteral("3.10e-04"));
    // 500 iterations in 10 s, 500 left: 10 s.
    QCOMPARE(model.index(1, TaskTableModel::EtaColumn).data(TaskTableModel::EtaMsRole).toLongLong(), 10'000);
    QCOMPARE(model.index(1, TaskTableModel::EtaColumn).data().toString(), QStringLiteral("10 s"));
    QCOMPARE(model.index(0, TaskTableModel::ProgressColumn).data(TaskTableModel::ProgressRole).toDouble(), -1.0);
}

void tst_TaskTableModel::timeColumns()
{
    TaskTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    TaskRecord t = task(1, TaskStatus::Working, 3, 31, 100);
    t.firstSeenAtMs = Now - 3'725'000;
    t.createdAt = QDateTime::fromMSecsSinceEpoch(Now - 3000000, Qt::UTC).toString(Qt::ISODate);
    t.ttlMs = 3'600'000;
    model.setNow(Now);
    model.setTasks({t});
    QCOMPARE(model.index(0, TaskTableModel::AgeColumn).data().toString(), QStringLiteral("1 h 02 min"));
    QCOMPARE(model.index(0, TaskTableModel::ExpiresColumn).data().toString(), QStringLiteral("10 min 00 s"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setNow(Now + 1000);
    model.tick();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(model.index(0, TaskTableModel::ExpiresColumn).data().toString(), QStringLiteral("9 min 59 s"));
}

void tst_TaskTableModel::filterAndSearch()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSweepInfo(3, QStringLiteral("Sweep 3"), {QStringLiteral("reynolds")});
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Completed, 3, 32, 400),
                    task(3, TaskStatus::Failed, 3, 33, 1000), task(4, TaskStatus::InputRequired, 3, 34, 400)});
    QCOMPARE(proxy.rowCount(), 4);
    proxy.setStatusFilter({TaskStatus::Working, TaskStatus::InputRequired});
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setSearchText(QStringLiteral("  Reynolds = 400 "));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 4);
    // A task that stops working leaves a "working" filter at once.
    TaskRecord t4 = task(4, TaskStatus::Completed, 3, 34, 400);
    model.applyTasks({t4});
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setStatusFilter({});
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setSearchText(QStringLiteral("failed"));
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setSearchText(QString());
    QCOMPARE(proxy.rowCount(), 4);
}

void tst_TaskTableModel::sortByColumn()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNow(Now);
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Completed, 3, 32, 400),
                    task(3, TaskStatus::Failed, 3, 33, 1000)});
    ProgressSample a{1, Now, QStringLiteral("residual"), 0, 1e-3};
    ProgressSample b{3, Now, QStringLiteral("residual"), 0, 1e-6};
    model.applySamples({a, b});
    proxy.sort(TaskTableModel::ResidualColumn, Qt::AscendingOrder);
    const auto order = [&] {
        QList<qint64> ids;
        for (int r = 0; r < proxy.rowCount(); ++r)
            ids << proxy.index(r, 0).data(TaskTableModel::TaskIdRole).toLongLong();
        return ids;
    };
    QCOMPARE(order(), (QList<qint64>{3, 1, 2})); // no residual sorts last
    proxy.sort(TaskTableModel::AgeColumn, Qt::AscendingOrder);
    QCOMPARE(order(), (QList<qint64>{3, 2, 1})); // oldest first (seen earliest)
    proxy.sort(TaskTableModel::StatusColumn, Qt::DescendingOrder);
    QCOMPARE(order().first(), 3);
}

QTEST_GUILESS_MAIN(tst_TaskTableModel)
#include "tst_tasktablemodel.moc"
