// The review filter: its JSON file (round trip, and a clear error for every kind of bad file),
// and the task table's proxy narrowed by tags, outcomes, ranges of varied parameters and words
// over the note (never the server's task id), checked by QAbstractItemModelTester.
#include "models/reviewfilter.h"
#include "models/sweepfilterproxymodel.h"
#include "models/sweepresultsmodel.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Eddy;
using Store::TaskStatus;

namespace {

Store::TaskRecord task(qint64 id, TaskStatus status, qint64 caseId, int reynolds)
{
    Store::TaskRecord t;
    t.id = id;
    t.serverId = 1;
    t.sweepId = 3;
    t.caseId = caseId;
    t.status = status;
    t.tool = QStringLiteral("run_cfd_case");
    t.arguments = QStringLiteral(R"({"reynolds": %1, "grid": 16})").arg(reynolds);
    t.serverTaskId = QStringLiteral("secret-server-id-%1").arg(id);
    return t;
}

Store::CaseRecord review(qint64 caseId, const QString &note, const QStringList &tags)
{
    Store::CaseRecord c;
    c.id = caseId;
    c.note = note;
    c.tags = tags;
    return c;
}

} // namespace

class tst_ReviewFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonRoundTrip();
    void badFiles_data();
    void badFiles();
    void proxyFollowsTheFilter();
    void sweepProxyFiltersResultScalars();
};

void tst_ReviewFilter::jsonRoundTrip()
{
    ReviewFilter f;
    f.ranges.insert(QStringLiteral("reynolds"), {100.0, 400.0});
    f.ranges.insert(QStringLiteral("final_residual"), {std::nullopt, 1e-6});
    f.outcomes = {Monitor::Outcome::Failed, Monitor::Outcome::NotConverged};
    f.tags = {QStringLiteral("suspect")};
    f.text = QStringLiteral("lid corner");
    QString error;
    const auto back = ReviewFilter::fromJson(f.toJson(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, f);
    QVERIFY(f.toJson().contains("\"not_converged\""));
    QVERIFY(ReviewFilter().isEmpty());
}

void tst_ReviewFilter::badFiles_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("says");
    QTest::newRow("not json") << QByteArray("reynolds=100") << QStringLiteral("not JSON");
    QTest::newRow("other json") << QByteArray(R"({"tool": "x"})") << QStringLiteral("not an Eddy filter");
    QTest::newRow("newer") << QByteArray(R"({"eddyFilter": 2})") << QStringLiteral("another version");
    QTest::newRow("bad bound") << QByteArray(R"({"eddyFilter": 1, "ranges": {"re": {"min": "a"}}})")
                               << QStringLiteral("must be a number");
    QTest::newRow("upside down") << QByteArray(R"({"eddyFilter": 1, "ranges": {"re": {"min": 5, "max": 1}}})")
                                 << QStringLiteral("min above its max");
    QTest::newRow("outcome") << QByteArray(R"({"eddyFilter": 1, "outcomes": ["fine"]})")
                             << QStringLiteral("Unknown outcome");
    QTest::newRow("tags") << QByteArray(R"({"eddyFilter": 1, "tags": [1]})") << QStringLiteral("list of words");
}

void tst_ReviewFilter::badFiles()
{
    QFETCH(QByteArray, file);
    QFETCH(QString, says);
    QString error;
    QVERIFY(!ReviewFilter::fromJson(file, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
}

void tst_ReviewFilter::proxyFollowsTheFilter()
{
    TaskTableModel model;
    TaskFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSweepInfo(3, QStringLiteral("Sweep 3"), {QStringLiteral("reynolds")});
    model.setTasks({task(1, TaskStatus::Failed, 31, 100), task(2, TaskStatus::Completed, 32, 200),
                    task(3, TaskStatus::Failed, 33, 400)});
    model.setCaseIndexes({{31, 0}, {32, 1}, {33, 2}});
    model.setCaseReviews({review(31, QStringLiteral("lid corner looks odd"), {QStringLiteral("suspect")}),
                          review(33, QString(), {QStringLiteral("suspect"), QStringLiteral("mesh")})});
    QCOMPARE(model.allTags(), QStringList({QStringLiteral("mesh"), QStringLiteral("suspect")}));
    QCOMPARE(model.index(0, TaskTableModel::NotesColumn).data().toString(),
             QStringLiteral("[suspect] lid corner looks odd"));

    ReviewFilter f;
    f.tags = {QStringLiteral("suspect")};
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 2);
    QCOMPARE(proxy.shownOutcomeCounts().value(Monitor::Outcome::Failed), 2);
    f.ranges.insert(QStringLiteral("reynolds"), {300.0, std::nullopt});
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong(), 3);
    // A range on a result scalar (not in the task table) is left to the sweep view.
    f.ranges.insert(QStringLiteral("final_residual"), {0.0, 1e-9});
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
    // Words over the note; a note edited later moves the row in or out.
    f = {};
    f.text = QStringLiteral("LID corner");
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
    model.setCaseReviews({review(32, QStringLiteral("lid corner fine"), {})});
    QCOMPARE(proxy.rowCount(), 2);
    // Outcomes; and the server's task id (a secret) is never searched.
    f = {};
    f.outcomes = {Monitor::Outcome::Failed};
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 2);
    f = {};
    f.text = QStringLiteral("secret-server-id");
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 0);
    proxy.setSearchText(QStringLiteral("secret-server-id"));
    proxy.setReviewFilter({});
    QCOMPARE(proxy.rowCount(), 0);
}

void tst_ReviewFilter::sweepProxyFiltersResultScalars()
{
    SweepResultsModel model;
    SweepFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<Store::TaskRecord> tasks;
    QHash<qint64, int> index;
    const double residuals[] = {1e-7, 1e-3, 5e-7};
    for (int i = 0; i < 3; ++i) {
        Store::TaskRecord t = task(i + 1, TaskStatus::Completed, 31 + i, 100 * (i + 1));
        t.result = QStringLiteral(R"({"content":[],"structuredContent":{"converged":%1,"final_residual":%2}})")
                       .arg(residuals[i] < 1e-6 ? QStringLiteral("true") : QStringLiteral("false"))
                       .arg(residuals[i]);
        tasks << t;
        index.insert(31 + i, i);
    }
    model.setSweep(3, {QStringLiteral("reynolds")}, tasks, index);
    QCOMPARE(proxy.rowCount(), 3);
    ReviewFilter f;
    f.ranges.insert(QStringLiteral("final_residual"), {std::nullopt, 1e-6});
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 2);
    f.ranges.insert(QStringLiteral("reynolds"), {250.0, std::nullopt});
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), 3);
    // Tags come from the task table's reviews.
    f = {};
    f.tags = {QStringLiteral("suspect")};
    proxy.setRowReview([](qint64 taskId) {
        return SweepFilterProxyModel::RowReview{taskId == 2 ? QStringList{QStringLiteral("suspect")} : QStringList(),
                                                QString()};
    });
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(SweepResultsModel::TaskIdRole).toLongLong(), 2);
    f = {};
    f.outcomes = {Monitor::Outcome::NotConverged};
    proxy.setReviewFilter(f);
    QCOMPARE(proxy.rowCount(), 1);
}

QTEST_GUILESS_MAIN(tst_ReviewFilter)
#include "tst_reviewfilter.moc"
