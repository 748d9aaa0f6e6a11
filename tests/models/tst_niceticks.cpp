// The linear-axis tick generator behind every value axis and the SVG export: steps of 1, 2 or 5
// x 10^n, values that are the exact decimals their labels show (no 0.30000000000000004), and
// labels with just the digits the step needs.
#include "models/niceticks.h"
#include "models/svgplot.h"

#include <QTest>

#include <cmath>

using namespace Eddy;

class TestNiceTicks final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ticks_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<int>("approx");
        QTest::addColumn<double>("step");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("format");

        QTest::newRow("tenths") << 0.0 << 1.0 << 5 << 0.2 << QStringList{"0", "0.2", "0.4", "0.6", "0.8", "1.0"} << "%.1f";
        QTest::newRow("padded tenths") << 0.27 << 0.93 << 7 << 0.1 << QStringList{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}
                                       << "%.1f";
        QTest::newRow("reynolds") << 95.0 << 1005.0 << 5 << 200.0 << QStringList{"200", "400", "600", "800", "1000"} << "%.0f";
        QTest::newRow("negative") << -1.3 << 1.3 << 6 << 0.5
                                  << QStringList{"-1.0", "-0.5", "0", "0.5", "1.0"} << "%.1f";
        QTest::newRow("iterations") << 1.0 << 20000.0 << 6 << 5000.0 << QStringList{"5000", "10000", "15000", "20000"} << "%.0f";
        QTest::newRow("hundredths") << 0.012 << 0.108 << 5 << 0.02
                                    << QStringList{"0.02", "0.04", "0.06", "0.08", "0.10"} << "%.2f";
        QTest::newRow("tiny") << 0.0 << 4e-6 << 4 << 1e-6 << QStringList{"0", "1e-06", "2e-06", "3e-06", "4e-06"} << "%.0e";
        QTest::newRow("large") << 1.0e6 << 2.0e6 << 5 << 2e5
                               << QStringList{"1.0e+06", "1.2e+06", "1.4e+06", "1.6e+06", "1.8e+06", "2.0e+06"} << "%.1e";
        QTest::newRow("near one") << 1.0 << 1.00001 << 5 << 2e-6
                                  << QStringList{"1.000000", "1.000002", "1.000004", "1.000006", "1.000008", "1.000010"} << "%.6f";
    }

    void ticks()
    {
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(int, approx);
        QFETCH(double, step);
        QFETCH(QStringList, labels);
        QFETCH(QString, format);
        const NiceTicks t = NiceTicks::forRange(from, to, approx);
        QVERIFY(t.isValid());
        QCOMPARE(t.step, step);
        QStringList got;
        for (double v : t.values) {
            QVERIFY2(v >= from - step * 1e-9 && v <= to + step * 1e-9, qPrintable(QString::number(v, 'g', 17)));
            got << t.label(v);
        }
        QCOMPARE(got, labels);
        QCOMPARE(t.printfFormat(), format);
        // The axis uses the same format through printf: the same text.
        for (double v : t.values) {
            if (v != 0)
                QCOMPARE(QString::asprintf(qPrintable(format), v), t.label(v));
        }
    }

    void valuesAreTheDecimalsTheyShow()
    {
        // Summing 0.1 gives 0.30000000000000004; the generator multiplies and divides once.
        const NiceTicks t = NiceTicks::forRange(0.0, 1.0, 10);
        QCOMPARE(t.values.size(), 11);
        for (int k = 0; k <= 10; ++k)
            QCOMPARE(QString::number(t.values.at(k), 'g', 17), QString::number(k / 10.0, 'g', 17));
        QCOMPARE(t.values.at(3), 0.3);
    }

    void badRanges()
    {
        QVERIFY(!NiceTicks::forRange(1, 1).isValid());
        QVERIFY(!NiceTicks::forRange(2, 1).isValid());
        QVERIFY(!NiceTicks::forRange(0, std::nan("")).isValid());
        QVERIFY(!NiceTicks::forRange(0, INFINITY).isValid());
        QVERIFY(!NiceTicks::forRange(0, 1, 0).isValid());
        QVERIFY(NiceTicks::forRange(2, 1).values.isEmpty());
    }

    void svgPlotUsesThem()
    {
        QCOMPARE(SvgPlot::linearTicks(0, 10, 5), (QList<double>{0, 2, 4, 6, 8, 10}));
        SvgPlot plot;
        plot.series << SvgPlot::Series{QStringLiteral("u"), Qt::red, {{0.27, 0.011}, {0.93, 0.118}}, true};
        const QString svg = plot.toSvg();
        // x 0.27 .. 0.93: steps of 0.2; y 0.011 .. 0.118 (padded 5 %): steps of 0.02, two decimals.
        for (const char *label : {">0.4</text>", ">0.6</text>", ">0.8</text>", ">0.02</text>", ">0.10</text>", ">0.12</text>"})
            QVERIFY2(svg.contains(QLatin1String(label)), label);
        QVERIFY(!svg.contains(QStringLiteral("0000000")));
    }
};

QTEST_GUILESS_MAIN(TestNiceTicks)
#include "tst_niceticks.moc"
