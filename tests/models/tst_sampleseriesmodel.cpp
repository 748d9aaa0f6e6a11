#include "models/sampleseriesmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using Eddy::SampleSeriesModel;

// The chart's series model: appends are row inserts, big series are decimated to the budget
// without losing spikes, zoom re-decimates the visible window, log mode hides y <= 0.
class tst_SampleSeriesModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appendsAreInserts();
    void decimationKeepsExtremes();
    void zoomRefines();
    void positiveOnly();
    void outOfOrderSorted();
};

static std::vector<QPointF> decay(int n, int from = 0)
{
    std::vector<QPointF> pts;
    for (int i = from; i < from + n; ++i)
        pts.emplace_back(i, std::exp(-i / 1000.0));
    return pts;
}

void tst_SampleSeriesModel::appendsAreInserts()
{
    SampleSeriesModel model(7, QStringLiteral("residual"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.taskId(), 7);
    model.setPoints(decay(100));
    QCOMPARE(model.rowCount(), 100);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.appendPoints(decay(5, 100));
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(model.rowCount(), 105);
    QCOMPARE(model.index(104, SampleSeriesModel::XColumn).data().toDouble(), 104.0);
    QCOMPARE(model.index(104, SampleSeriesModel::YColumn).data().toDouble(), std::exp(-0.104));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("residual"));
}

void tst_SampleSeriesModel::decimationKeepsExtremes()
{
    SampleSeriesModel model(1, QStringLiteral("residual"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<QPointF> pts = decay(1'000'000);
    pts[654'321].setY(1e6); // one spike in a million samples
    model.setPoints(pts);
    QVERIFY(model.isDecimated());
    QVERIFY(model.rowCount() <= model.budget());
    QVERIFY(model.rowCount() >= model.budget() / 2);
    bool spike = false;
    for (const QPointF &p : model.shownPoints())
        spike = spike || p.y() == 1e6;
    QVERIFY(spike);
    QCOMPARE(model.shownPoints().front().x(), 0.0);
    QCOMPARE(model.minX(), 0.0);
    QCOMPARE(model.maxX(), 999'999.0);
    // A few live appends do not re-decimate (no reset) ...
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.appendPoints(decay(10, 1'000'000));
    QCOMPARE(reset.count(), 0);
    // ... but sustained growth does, and the budget holds.
    model.appendPoints(decay(50'000, 1'000'010));
    QCOMPARE(reset.count(), 1);
    QVERIFY(model.rowCount() <= model.budget());
    QCOMPARE(model.points().size(), size_t(1'050'010));
}

void tst_SampleSeriesModel::zoomRefines()
{
    SampleSeriesModel model(1, QStringLiteral("residual"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setBudget(100);
    model.setPoints(decay(10'000));
    QVERIFY(model.isDecimated());
    model.setXRange(5000, 5049);
    QVERIFY(!model.isDecimated());
    QCOMPARE(model.rowCount(), 50); // every sample of the zoomed window
    QCOMPARE(model.index(0, 0).data().toDouble(), 5000.0);
    model.setXRange(std::nan(""), std::nan(""));
    QVERIFY(model.isDecimated());
}

void tst_SampleSeriesModel::positiveOnly()
{
    SampleSeriesModel model(1, QStringLiteral("residual.u"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPoints({{0, 1.0}, {1, 0.0}, {2, -1.0}, {3, 0.5}, {4, std::nan("")}});
    QCOMPARE(model.rowCount(), 4); // NaN never shown
    model.setPositiveOnly(true);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.minY(), 0.5);
    QCOMPARE(model.maxY(), 1.0);
}

void tst_SampleSeriesModel::outOfOrderSorted()
{
    SampleSeriesModel model(1, QStringLiteral("residual"));
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPoints({{2, 1}, {0, 3}, {1, 2}});
    QCOMPARE(model.index(0, 0).data().toDouble(), 0.0);
    model.appendPoints({{1.5, 9}});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(2, 1).data().toDouble(), 9.0);
}

QTEST_GUILESS_MAIN(tst_SampleSeriesModel)
#include "tst_sampleseriesmodel.moc"
