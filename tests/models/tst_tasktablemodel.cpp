#include "app/monitor/progressanalyzer.h"
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
    void etaIsTheMonitorsRule();
    void timeColumns();
    void filterAndSearch();
    void sortByColumn();
    void lazyTextsSeenBySearchAndSort();
    void statusTickKeepsCaseOrder();
    void clockTickJudgesNoRow_data();
    void clockTickJudgesNoRow();
    void statusChangeStillFilters();
    void clockMovesNoSortValue();
    void longListInPages();
    void listInChunks();

private:
    static TaskRecord task(qint64 id, TaskStatus status, qint64 sweep, qint64 caseId, double re);
    static QList<qint64> shownIds(const TaskFilterProxyModel &proxy);
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

QList<qint64> tst_TaskTableModel::shownIds(const TaskFilterProxyModel &proxy)
{
    QList<qint64> ids;
    for (int r = 0; r < proxy.rowCount(); ++r)
        ids << proxy.index(r, 0).data(TaskTableModel::TaskIdRole).toLongLong();
    return ids;
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
    // Converged after 55 % of its iteration budget: a completed task is 100 % done.
    model.applyChanges({task(2, TaskStatus::Completed, 3, 32, 200)}, {});
    QCOMPARE(p.data().toString(), QStringLiteral("100 %"));
    QCOMPARE(p.data(TaskTableModel::ProgressRole).toDouble(), 1.0);
    // A failed one shows where it stopped.
    model.applyChanges({task(2, TaskStatus::Failed, 3, 32, 200)}, {});
    QCOMPARE(p.data().toString(), QStringLiteral("55 %"));
    QCOMPARE(p.data(TaskTableModel::ProgressRole).toDouble(), 600.0 / 1100.0);
}

// The table shows the ETA the monitor computes (ProgressAnalyzer, which the agent reports), for
// every kind of progress a solver reports: here a percentage without an iteration count.
void tst_TaskTableModel::etaIsTheMonitorsRule()
{
    TaskTableModel model;
    model.setNow(Now);
    model.setTasks({task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Working, 3, 32, 200)});
    const auto sample = [](qint64 taskId, qint64 at, const char *series, double y) {
        ProgressSample s;
        s.taskId = taskId;
        s.atMs = at;
        s.series = QString::fromLatin1(series);
        s.y = y;
        return s;
    };
    const QList<ProgressSample> percent{sample(1, Now - 20'000, "percent", 10),
                                        sample(1, Now - 10'000, "percent", 30),
                                        sample(1, Now, "percent", 50)};
    const QList<ProgressSample> iterations{sample(2, Now - 9'000, "max_iterations", 400),
                                           sample(2, Now - 9'000, "iteration", 40),
                                           sample(2, Now - 3'000, "iteration", 100),
                                           sample(2, Now, "iteration", 160)};
    model.applySamples(percent);
    model.applySamples(iterations);
    const auto monitor1 = Eddy::Monitor::ProgressAnalyzer::analyse(percent);
    const auto monitor2 = Eddy::Monitor::ProgressAnalyzer::analyse(iterations);
    QVERIFY(monitor1.etaMs && monitor2.etaMs);
    // 40 % in 20 s, 50 % left: 25 s; 120 iterations in 9 s, 240 left: 18 s.
    QCOMPARE(*monitor1.etaMs, 25'000);
    QCOMPARE(*monitor2.etaMs, 18'000);
    const QVariant eta1 = model.index(0, TaskTableModel::EtaColumn).data(TaskTableModel::EtaMsRole);
    QVERIFY2(eta1.isValid(), "the table shows no ETA where the monitor has one");
    QCOMPARE(eta1.toLongLong(), *monitor1.etaMs);
    QCOMPARE(model.index(1, TaskTableModel::EtaColumn).data(TaskTableModel::EtaMsRole).toLongLong(),
             *monitor2.etaMs);
    QCOMPARE(model.index(0, TaskTableModel::ProgressColumn).data(TaskTableModel::ProgressRole).toDouble(),
             *monitor1.fraction);
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
    QSignalSpy ticked(&model, &TaskTableModel::clockTicked);
    model.setNow(Now + 1000);
    model.tick();
    // The clock is no change of a row's data: views repaint on clockTicked (a proxy would re-judge
    // every row a dataChanged names).
    QCOMPARE(ticked.count(), 1);
    QCOMPARE(changed.count(), 0);
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

// Parameters and search texts are derived on first use, not in setTasks: a filter, a search and
// a sort over every row must still see every row's texts, and a change must drop a stale text.
void tst_TaskTableModel::lazyTextsSeenBySearchAndSort()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setServerNames({{1, QStringLiteral("Local CFD")}});
    model.setSweepInfo(3, QStringLiteral("Sweep 3"), {QStringLiteral("reynolds")});
    const int n = 2000;
    QList<TaskRecord> tasks;
    for (int i = 1; i <= n; ++i)
        tasks << task(i, i % 7 == 0 ? TaskStatus::Failed : TaskStatus::Completed, 3, 10'000 + i, 100'000 - i);
    model.setTasks(tasks);
    QCOMPARE(proxy.rowCount(), n);

    // A search over rows no view has shown yet.
    proxy.setSearchText(QStringLiteral("reynolds = 98765"));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 1235);
    proxy.setSearchText(QStringLiteral("failed local cfd"));
    QCOMPARE(proxy.rowCount(), n / 7);
    proxy.setSearchText(QString());

    // Sorting by the parameters text orders every row by its derived text.
    proxy.sort(TaskTableModel::ParametersColumn, Qt::AscendingOrder);
    QString previous;
    for (int r = 0; r < proxy.rowCount(); ++r) {
        const QString text = proxy.index(r, TaskTableModel::ParametersColumn).data().toString();
        QVERIFY2(text.startsWith(QLatin1String("reynolds = ")), qPrintable(text));
        QVERIFY2(previous <= text, qPrintable(previous + QLatin1String(" > ") + text));
        previous = text;
    }
    QCOMPARE(proxy.index(0, TaskTableModel::ParametersColumn).data().toString(), QStringLiteral("reynolds = 98000"));

    // New arguments, a new status message and a renamed server: the cached texts are dropped.
    TaskRecord t = tasks[9];
    t.arguments = QStringLiteral(R"({"reynolds":7,"grid":16})");
    t.statusMessage = QStringLiteral("mesh refined twice");
    model.applyTasks({t});
    QCOMPARE(model.parametersText(10), QStringLiteral("reynolds = 7"));
    proxy.setSearchText(QStringLiteral("refined"));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, TaskTableModel::ParametersColumn).data().toString(), QStringLiteral("reynolds = 7"));
    proxy.setSearchText(QStringLiteral("workstation"));
    QCOMPARE(proxy.rowCount(), 0);
    model.setServerNames({{1, QStringLiteral("Workstation")}});
    QCOMPARE(proxy.rowCount(), n);
    proxy.setSearchText(QString());
    QCOMPARE(proxy.index(0, TaskTableModel::ParametersColumn).data().toString(), QStringLiteral("reynolds = 7"));
    QCOMPARE(proxy.index(proxy.rowCount() - 1, TaskTableModel::ParametersColumn).data().toString(),
             QStringLiteral("reynolds = 99999"));
    QCOMPARE(proxy.index(proxy.rowCount() - 1, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 1);
}

// A status tick names only the status-side columns: a view sorted by case (the monitor's default)
// keeps its layout, while a view sorted by status still moves the row.
void tst_TaskTableModel::statusTickKeepsCaseOrder()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSweepInfo(3, QStringLiteral("Sweep 3"), {QStringLiteral("reynolds")});
    QList<TaskRecord> tasks;
    for (int i = 1; i <= 5; ++i) {
        model.setCaseIndex(30 + i, i - 1);
        tasks << task(i, TaskStatus::Working, 3, 30 + i, 100 * i);
    }
    model.setTasks(tasks);
    proxy.sort(TaskTableModel::CaseColumn, Qt::AscendingOrder);
    QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    TaskRecord t3 = tasks[2];
    t3.status = TaskStatus::Completed;
    t3.statusMessage = QStringLiteral("converged");
    model.applyTasks({t3});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(TaskTableModel::StatusColumn));
    QCOMPARE(changed.first().at(1).toModelIndex().column(), int(TaskTableModel::ColumnCount) - 1);
    QCOMPARE(layout.count(), 0);
    QCOMPARE(proxy.index(2, TaskTableModel::MessageColumn).data().toString(), QStringLiteral("converged"));

    // New arguments change the case side: the whole row is named.
    changed.clear();
    t3.arguments = QStringLiteral(R"({"reynolds":5})");
    model.applyTasks({t3});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(TaskTableModel::CaseColumn));

    proxy.sort(TaskTableModel::StatusColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(4, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 3); // completed after working
    TaskRecord t1 = tasks[0];
    t1.status = TaskStatus::Failed;
    model.applyTasks({t1});
    QCOMPARE(proxy.index(4, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 1); // re-sorted by status

    // One change set (tasks 4 and 5 ticking, samples for both): one range, not one per kind.
    changed.clear();
    TaskRecord t4 = tasks[3];
    TaskRecord t5 = tasks[4];
    t4.statusMessage = t5.statusMessage = QStringLiteral("iteration 20 of 100");
    model.applyChanges({t4, t5}, {ProgressSample{4, Now, QStringLiteral("iteration"), 20, 20},
                                  ProgressSample{5, Now, QStringLiteral("residual"), 20, 1e-4}});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 3);
    QCOMPARE(changed.first().at(1).toModelIndex().row(), 4);
    QCOMPARE(changed.first().at(0).toModelIndex().column(), int(TaskTableModel::StatusColumn));
    QCOMPARE(model.index(4, TaskTableModel::ResidualColumn).data().toString(), QStringLiteral("1.00e-04"));
    QCOMPARE(model.index(3, TaskTableModel::MessageColumn).data().toString(), QStringLiteral("iteration 20 of 100"));
}

void tst_TaskTableModel::clockTickJudgesNoRow_data()
{
    QTest::addColumn<bool>("statusFilter");
    QTest::addColumn<int>("sortColumn"); // -1: unsorted
    QTest::newRow("unsorted") << false << -1;
    QTest::newRow("status filter") << true << -1;
    QTest::newRow("sorted by case") << false << int(TaskTableModel::CaseColumn);
    QTest::newRow("status filter, sorted by age") << true << int(TaskTableModel::AgeColumn);
    QTest::newRow("sorted by ETA") << false << int(TaskTableModel::EtaColumn);
    QTest::newRow("status filter, sorted by expiry") << true << int(TaskTableModel::ExpiresColumn);
}

// The once-a-second clock repaints the time columns of the rows shown, and only that: the proxy
// judges no row again (Qt 6.4 re-judges every row a dataChanged names, whatever its roles) and
// moves none, sorted by a time column too: every row's time moves by the same second.
void tst_TaskTableModel::clockTickJudgesNoRow()
{
    QFETCH(bool, statusFilter);
    QFETCH(int, sortColumn);
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNow(Now);
    const int rows = 20;
    QList<TaskRecord> tasks;
    for (int i = 1; i <= rows; ++i)
        tasks << task(
            i, i % 4 == 0 ? TaskStatus::Completed : TaskStatus::Working, 3, 30 + i, 100 * i);
    model.setTasks(tasks);
    // Running rows with an ETA, finished ones without: a time column mixes both.
    QList<ProgressSample> samples;
    for (int i = 1; i <= rows; i += 4) {
        samples << ProgressSample{i, Now - 20'000, QStringLiteral("percent"), 0, 10.0}
                << ProgressSample{i, Now, QStringLiteral("percent"), 0, 10.0 + i};
    }
    model.applySamples(samples);
    if (statusFilter)
        proxy.setStatusFilter({TaskStatus::Working, TaskStatus::InputRequired});
    if (sortColumn >= 0)
        proxy.sort(sortColumn, Qt::AscendingOrder);
    const int shown = proxy.rowCount();
    QCOMPARE(shown, statusFilter ? rows - rows / 4 : rows);
    const QList<qint64> order = shownIds(proxy);
    const QString ageBefore = proxy.index(shown - 1, TaskTableModel::AgeColumn).data().toString();

    QSignalSpy changed(&proxy, &QAbstractItemModel::dataChanged);
    QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
    const qint64 checks = proxy.filterChecks();
    const int ticks = 5;
    for (int i = 1; i <= ticks; ++i) {
        model.setNow(Now + 1000 * i);
        model.tick();
    }
    QCOMPARE(proxy.filterChecks() - checks, qint64(0));
    QCOMPARE(layout.count(), 0);
    QCOMPARE(shownIds(proxy), order);
    // Each tick names the shown rows' time columns for the views, and they read the new time.
    QCOMPARE(changed.count(), ticks);
    for (const QList<QVariant> &args : std::as_const(changed)) {
        QCOMPARE(args.at(0).toModelIndex(), proxy.index(0, TaskTableModel::EtaColumn));
        QCOMPARE(args.at(1).toModelIndex(), proxy.index(shown - 1, TaskTableModel::ExpiresColumn));
        QVERIFY(args.at(2).value<QList<int>>().contains(Qt::DisplayRole));
    }
    QCOMPARE_NE(proxy.index(shown - 1, TaskTableModel::AgeColumn).data().toString(), ageBefore);
}

// Between ticks, a real change still goes through the filter: a task that finishes leaves a
// "running" view at once, and only its own row is judged.
void tst_TaskTableModel::statusChangeStillFilters()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNow(Now);
    const int rows = 20;
    QList<TaskRecord> tasks;
    for (int i = 1; i <= rows; ++i)
        tasks << task(i, TaskStatus::Working, 3, 30 + i, 100 * i);
    model.setTasks(tasks);
    proxy.setStatusFilter({TaskStatus::Working, TaskStatus::InputRequired});
    proxy.sort(TaskTableModel::AgeColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.rowCount(), rows);
    const qint64 checks = proxy.filterChecks();
    model.setNow(Now + 1000);
    model.tick();

    TaskRecord t7 = tasks[6];
    t7.status = TaskStatus::Completed;
    t7.statusMessage = QStringLiteral("converged");
    model.applyTasks({t7});
    QCOMPARE(proxy.rowCount(), rows - 1);
    QVERIFY(!shownIds(proxy).contains(7));
    model.setNow(Now + 2000);
    model.tick();
    QCOMPARE(proxy.filterChecks() - checks, qint64(1));
    QCOMPARE(proxy.rowCount(), rows - 1);
    // Newest first (Age descending sorts by first seen): the others keep their order.
    QList<qint64> expected;
    for (qint64 id = 1; id <= rows; ++id) {
        if (id != 7)
            expected << id;
    }
    QCOMPARE(shownIds(proxy), expected);
}

// Why a tick need not re-sort: no time column's sort value reads the clock. Should one ever do
// (a duration that stops for finished tasks, say), the clock could reorder rows, and the proxy
// would have to re-sort on clockTicked when sorted by that column.
void tst_TaskTableModel::clockMovesNoSortValue()
{
    TaskTableModel model;
    model.setNow(Now);
    model.setTasks(
        {task(1, TaskStatus::Working, 3, 31, 100), task(2, TaskStatus::Completed, 3, 32, 200)});
    model.applySamples({ProgressSample{1, Now - 20'000, QStringLiteral("percent"), 0, 10.0},
                        ProgressSample{1, Now - 10'000, QStringLiteral("percent"), 0, 30.0}});
    for (int row = 0; row < model.rowCount(); ++row) {
        for (int column = TaskTableModel::EtaColumn; column <= TaskTableModel::ExpiresColumn;
             ++column) {
            const QModelIndex idx = model.index(row, column);
            model.setNow(Now);
            const QVariant sortBefore = idx.data(TaskTableModel::SortRole);
            const QString textBefore = idx.data().toString();
            model.setNow(Now + 90'000);
            QCOMPARE(idx.data(TaskTableModel::SortRole), sortBefore);
            if (column == TaskTableModel::AgeColumn
                || (row == 0 && column != TaskTableModel::ServerColumn))
                QCOMPARE_NE(idx.data().toString(),
                            textBefore); // while the text moves with the clock
        }
    }
}

// A long snapshot is listed in pages, newest first, one page per event-loop turn; a change set
// during listing wins over the older snapshot copy, and a new setTasks drops the stale pages.
void tst_TaskTableModel::longListInPages()
{
    TaskTableModel model;
    model.setPageSize(100);
    model.setShowAllSessions(true);
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(TaskTableModel::CaseColumn, Qt::AscendingOrder);
    QSignalSpy listed(&model, &TaskTableModel::allTasksListed);
    QList<TaskRecord> tasks;
    for (int i = 1; i <= 1000; ++i)
        tasks << task(i, TaskStatus::Completed, 3, 100 + i, i);
    model.setTasks(tasks);
    QCOMPARE(model.rowCount(), 100);
    QVERIFY(model.isListing());
    QCOMPARE(listed.count(), 0);
    // Newest first: task(i) was first seen i minutes before Now, so task 1 is the newest.
    QCOMPARE(model.taskIdAt(0), 1);
    QCOMPARE(model.taskIdAt(99), 100);
    QVERIFY(model.rowOf(500) < 0);

    // A change set names a task that is not listed yet: it is listed now, and only once.
    TaskRecord t500 = tasks[499];
    t500.status = TaskStatus::Failed;
    t500.statusMessage = QStringLiteral("diverged at iteration 12");
    model.applyTasks({t500});
    QVERIFY(model.rowOf(500) >= 0);

    QTRY_COMPARE_WITH_TIMEOUT(listed.count(), 1, 60000);
    QVERIFY(!model.isListing());
    QCOMPARE(model.rowCount(), 1000);
    QCOMPARE(proxy.rowCount(), 1000);
    QCOMPARE(model.statusCounts().value(TaskStatus::Completed), 999);
    QCOMPARE(model.statusCounts().value(TaskStatus::Failed), 1);
    QCOMPARE(model.task(500)->statusMessage, QStringLiteral("diverged at iteration 12"));
    const QList<qint64> listedIds = model.taskIds();
    const QSet<qint64> ids(listedIds.begin(), listedIds.end());
    QCOMPARE(ids.size(), 1000);
    // Every row is searchable and sorted once listed.
    proxy.setSearchText(QStringLiteral("diverged"));
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setSearchText(QString());
    for (int r = 0; r < proxy.rowCount(); ++r)
        QCOMPARE(proxy.index(r, 0).data(TaskTableModel::TaskIdRole).toLongLong(), qint64(r + 1));

    // A second list while the first is still paging: nothing of the first survives.
    model.setTasks(tasks);
    QList<TaskRecord> other;
    for (int i = 2001; i <= 2150; ++i)
        other << task(i, TaskStatus::Working, 3, 100 + i, i);
    model.setTasks(other);
    QCOMPARE(listed.count(), 2); // 150 rows, under two pages: listed at once
    QCoreApplication::processEvents(); // the first list's queued page runs here, and must do nothing
    QCOMPARE(model.rowCount(), 150);
    QCOMPARE(model.statusCounts().value(TaskStatus::Working), 150);
    QCOMPARE(model.statusCounts().value(TaskStatus::Completed), 0);
    QCOMPARE(listed.count(), 2);
}

// A list that arrives in chunks (the engine's snapshot): the old rows go at beginListing, each
// chunk is appended as one insert, a task a change set already listed keeps its newer row, the
// chunks' sweeps and cases belong to the session afterwards, and endListing ends the listing.
void tst_TaskTableModel::listInChunks()
{
    TaskTableModel model;
    model.setNow(Now);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTasks({task(900, TaskStatus::Working, 9, 900, 1)});
    QSignalSpy listed(&model, &TaskTableModel::allTasksListed);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy sweepAsked(&model, &TaskTableModel::sweepInfoNeeded);
    model.setCaseIndexes({{101, 0}, {102, 1}, {103, 2}, {104, 3}});

    model.beginListing();
    QVERIFY(model.isListing());
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.statusCounts().value(TaskStatus::Working), 0);
    model.addListed({task(1, TaskStatus::Completed, 3, 101, 100), task(2, TaskStatus::Working, 3, 102, 400)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(sweepAsked.count(), 1); // sweep 3 has no label yet
    // A change set during the listing: task 3 is newer than its copy in the next chunk.
    TaskRecord t3 = task(3, TaskStatus::Failed, 3, 103, 1000);
    t3.statusMessage = QStringLiteral("diverged");
    model.applyTasks({t3});
    QCOMPARE(model.rowCount(), 3);
    model.addListed({task(3, TaskStatus::Working, 3, 103, 1000), task(4, TaskStatus::Working, 3, 104, 2000),
                     task(4, TaskStatus::Working, 3, 104, 2000)});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.task(3)->statusMessage, QStringLiteral("diverged"));
    QCOMPARE(listed.count(), 0);
    model.endListing();
    QCOMPARE(listed.count(), 1);
    QVERIFY(!model.isListing());
    model.endListing(); // once only
    QCOMPARE(listed.count(), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Working), 2);
    QCOMPARE(model.statusCounts().value(TaskStatus::Failed), 1);
    QCOMPARE(model.statusCounts().value(TaskStatus::Completed), 1);
    QCOMPARE(model.rowOf(900), -1);
    // The case column reads the bulk index: task 4 is case 4 of its sweep.
    QCOMPARE(model.caseLabel(4), QStringLiteral("Case 4"));
    // A new task of a listed sweep belongs to the session; one of another sweep does not.
    model.applyTasks({task(5, TaskStatus::Working, 3, 105, 3000), task(6, TaskStatus::Working, 8, 106, 1)});
    QVERIFY(model.rowOf(5) >= 0);
    QCOMPARE(model.rowOf(6), -1);
}

QTEST_GUILESS_MAIN(tst_TaskTableModel)
#include "tst_tasktablemodel.moc"
