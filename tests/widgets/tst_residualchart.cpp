// The residual chart's log axis keeps its decade labels readable: on a short plot it labels
// every 2nd (3rd, ...) decade instead of letting Qt Charts elide crowded labels to "...".

#include "models/sampleseriesmodel.h"
#include "widgets/residualchart.h"

#include <QChart>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <QTest>

#include <cmath>

using namespace Eddy;

class tst_ResidualChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decadeLabelsFitThePlotHeight();
};

namespace {

QLogValueAxis *yAxis(const ResidualChart &chart)
{
    const auto axes = chart.chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QLogValueAxis *>(axes.first());
}

// Waits until the chart has laid out for its size and spaced its labels (debounced 100 ms).
bool settle(ResidualChart &chart, int height)
{
    chart.resize(520, height);
    return QTest::qWaitFor(
        [&] {
            QLogValueAxis *y = yAxis(chart);
            if (!y || chart.chart()->plotArea().height() <= 0)
                return false;
            const double decades = std::log10(y->max() / y->min());
            const double perLabel = chart.chart()->plotArea().height() / (decades / std::log10(y->base()));
            return perLabel >= QFontMetricsF(y->labelsFont()).height();
        },
        5000);
}

} // namespace

void tst_ResidualChart::decadeLabelsFitThePlotHeight()
{
    ResidualChart chart;
    SampleSeriesModel model(1, QStringLiteral("residual"));
    std::vector<QPointF> points;
    for (int i = 0; i <= 120; ++i) // 1e0 down to 1e-12 over 12,000 iterations
        points.emplace_back(i * 100.0, std::pow(10.0, -i / 10.0));
    model.setPoints(points);
    chart.setSeries({&model});
    chart.show();

    QVERIFY(settle(chart, 220));
    QLogValueAxis *y = yAxis(chart);
    QVERIFY(y);
    // 12 decades in ~130 px cannot each carry a label.
    QVERIFY2(y->base() > 10.0, qPrintable(QString::number(y->base())));
    QVERIFY(y->min() <= 1e-12 && y->max() >= 1.0);
    // Whole steps: the range is a power of the base at both ends.
    const double steps = std::log10(y->max() / y->min()) / std::log10(y->base());
    QCOMPARE(std::round(steps), steps);

    // Tall enough for every decade: back to one label per decade.
    QVERIFY(settle(chart, 900));
    QVERIFY(QTest::qWaitFor([&] { return yAxis(chart)->base() == 10.0; }, 5000));
}

QTEST_MAIN(tst_ResidualChart)
#include "tst_residualchart.moc"
