#include "models/parallelcoordinates.h"

#include <QTest>

using namespace Eddy;
using Line = ParallelCoordinates::Line;

// The parallel-coordinates logic apart from its painting: axes, log scaling, brushing (AND).
class tst_ParallelCoordinates : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void logAxisOnlyWhenPositiveOverDecades_data();
    void logAxisOnlyWhenPositiveOverDecades();
    void positionsRoundTrip();
    void brushesCombineWithAnd();
    void missingValueIsOutsideABrush();
    void oneValueSitsMidAxis();

private:
    static ParallelCoordinates sample();
};

ParallelCoordinates tst_ParallelCoordinates::sample()
{
    // reynolds, iterations, final_residual
    ParallelCoordinates pc;
    pc.setData({QStringLiteral("reynolds")}, {QStringLiteral("iterations"), QStringLiteral("final_residual")},
               {Line{1, "Case 1", Monitor::Outcome::Converged, {100.0, 500.0, 1e-7}},
                Line{2, "Case 2", Monitor::Outcome::Converged, {400.0, 1500.0, 1e-6}},
                Line{3, "Case 3", Monitor::Outcome::NotConverged, {1000.0, 3000.0, 1e-3}},
                Line{4, "Case 4", Monitor::Outcome::Converged, {1000.0, 2500.0, 5e-7}}});
    return pc;
}

void tst_ParallelCoordinates::logAxisOnlyWhenPositiveOverDecades_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<bool>("log");
    QTest::newRow("residuals") << QList<double>{1e-7, 1e-3} << true;
    QTest::newRow("two decades exactly") << QList<double>{1.0, 100.0} << false;
    QTest::newRow("just over") << QList<double>{1.0, 101.0} << true;
    QTest::newRow("with zero") << QList<double>{0.0, 1e6} << false;
    QTest::newRow("negative") << QList<double>{-1e-7, -1e-2} << false;
    QTest::newRow("empty") << QList<double>{} << false;
}

void tst_ParallelCoordinates::logAxisOnlyWhenPositiveOverDecades()
{
    QFETCH(QList<double>, values);
    QFETCH(bool, log);
    QCOMPARE(ParallelCoordinates::spansDecades(values), log);
}

void tst_ParallelCoordinates::positionsRoundTrip()
{
    const ParallelCoordinates pc = sample();
    QCOMPARE(pc.axes().size(), 3);
    QVERIFY(pc.axes().at(0).parameter);
    QVERIFY(!pc.axes().at(1).parameter);
    QVERIFY(!pc.axes().at(0).log);
    QVERIFY(pc.axes().at(2).log);
    QCOMPARE(pc.axes().at(2).min, 1e-7);
    QCOMPARE(pc.axes().at(2).max, 1e-3);
    QCOMPARE(pc.position(0, 100), 0.0);
    QCOMPARE(pc.position(0, 1000), 1.0);
    QCOMPARE(pc.position(2, 1e-5), 0.5); // log: the middle decade
    QVERIFY(qFuzzyCompare(pc.valueAt(2, 0.5), 1e-5));
    QVERIFY(qFuzzyCompare(pc.valueAt(0, pc.position(0, 400)), 400.0));
}

void tst_ParallelCoordinates::brushesCombineWithAnd()
{
    ParallelCoordinates pc = sample();
    QVERIFY(!pc.hasBrush());
    QCOMPARE(pc.brushed(), (QSet<qint64>{1, 2, 3, 4}));
    pc.setBrushValues(0, 1000, 1000); // reynolds 1000
    QCOMPARE(pc.brushed(), (QSet<qint64>{3, 4}));
    pc.setBrush(2, 0.0, 0.25); // residual up to 1e-6 (log axis, positions in either order)
    QCOMPARE(pc.brushed(), QSet<qint64>{4});
    pc.clearBrush(0);
    QCOMPARE(pc.brushed(), (QSet<qint64>{1, 2, 4}));
    pc.setBrush(2, 0.25, 0.0);
    QCOMPARE(pc.brushed(), (QSet<qint64>{1, 2, 4}));
    pc.clearBrushes();
    QVERIFY(!pc.hasBrush());
    QCOMPARE(pc.brushed().size(), 4);
}

void tst_ParallelCoordinates::missingValueIsOutsideABrush()
{
    ParallelCoordinates pc;
    pc.setData({QStringLiteral("x")}, {QStringLiteral("y")},
               {Line{1, {}, Monitor::Outcome::Converged, {1.0, 2.0}},
                Line{2, {}, Monitor::Outcome::Failed, {2.0, std::nullopt}}});
    pc.setBrush(1, 0, 1);
    QCOMPARE(pc.brushed(), QSet<qint64>{1});
}

void tst_ParallelCoordinates::oneValueSitsMidAxis()
{
    ParallelCoordinates pc;
    pc.setData({QStringLiteral("x")}, {}, {Line{1, {}, Monitor::Outcome::Converged, {5.0}}});
    QCOMPARE(pc.position(0, 5.0), 0.5);
}

QTEST_GUILESS_MAIN(tst_ParallelCoordinates)
#include "tst_parallelcoordinates.moc"
