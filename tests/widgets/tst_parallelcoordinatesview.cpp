#include "models/outcomepalette.h"
#include "models/parallelcoordinates.h"
#include "widgets/parallelcoordinatesview.h"

#include <QPalette>
#include <QTest>

using namespace Eddy;

// ParallelCoordinatesView keeps pictures of all its lines and of its axes: what a paint shows
// must follow the data, the palette and the brushes as if everything were drawn anew, while a
// brush move leaves the pictures alone.
class tst_ParallelCoordinatesView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void brushMoveKeepsThePictures();
    void brushedLinesStandOutAndGoBack();
    void paletteChangeRedrawsInItsColours();
    void newDataRedrawsTheLines();

private:
    static ParallelCoordinates data(double secondValue);
    QPointF dotOf(int line, int axis) const;
    QColor shown(QPointF at) const;
    ParallelCoordinatesView *m_view = nullptr;
};

// Three cases on two axes: on the first (a parameter) 0, 5, 10; on the second `secondValue`,
// 0, 10. Case 1 converged, 2 failed, 3 converged.
ParallelCoordinates tst_ParallelCoordinatesView::data(double secondValue)
{
    QList<ParallelCoordinates::Line> lines;
    const QList<Monitor::Outcome> outcomes{Monitor::Outcome::Converged, Monitor::Outcome::Failed,
                                           Monitor::Outcome::Converged};
    for (int i = 0; i < 3; ++i) {
        ParallelCoordinates::Line line;
        line.taskId = i + 1;
        line.outcome = outcomes.at(i);
        line.values = {5.0 * i, QList<double>{secondValue, 0, 10}.at(i)};
        lines << line;
    }
    ParallelCoordinates pc;
    pc.setData({QStringLiteral("reynolds")}, {QStringLiteral("drag")}, lines);
    return pc;
}

void tst_ParallelCoordinatesView::init()
{
    m_view = new ParallelCoordinatesView;
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    m_view->setPalette(light);
    m_view->setData(data(5));
    m_view->resize(600, 400);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void tst_ParallelCoordinatesView::cleanup()
{
    delete m_view;
}

// Inside the dot of a line on an axis, beside the axis line that crosses its middle.
QPointF tst_ParallelCoordinatesView::dotOf(int line, int axis) const
{
    const auto &d = m_view->data();
    const double v = *d.lines().at(line).values.at(axis);
    const QLineF a = m_view->axisLine(axis);
    return {a.x1() + 2, a.y2() - d.position(axis, v) * (a.y2() - a.y1())};
}

// The colour on screen at a point.
QColor tst_ParallelCoordinatesView::shown(QPointF at) const
{
    return m_view->grab().toImage().pixelColor(at.toPoint());
}

// The lines' pictures are drawn once; a brush dragged along an axis draws over them.
void tst_ParallelCoordinatesView::brushMoveKeepsThePictures()
{
    m_view->repaint();
    const int builds = m_view->layerBuilds();
    QVERIFY(builds >= 1);
    const QLineF axis = m_view->axisLine(0);
    QTest::mousePress(m_view, Qt::LeftButton, {}, QPointF(axis.x1(), axis.y2()).toPoint());
    QTest::mouseMove(m_view, QPointF(axis.x1(), axis.y2() - 40).toPoint());
    QTest::mouseMove(m_view, QPointF(axis.x1(), axis.y2() - axis.length() * 0.6).toPoint());
    m_view->repaint();
    QTest::mouseRelease(m_view, Qt::LeftButton, {}, QPointF(axis.x1(), axis.y2() - axis.length() * 0.6).toPoint());
    m_view->repaint();
    QVERIFY(m_view->data().hasBrush());
    QCOMPARE(m_view->layerBuilds(), builds);
}

// A line inside the brush in its own colour, one outside it faint; widening the brush brings
// the second in, narrowing it again sends it back.
void tst_ParallelCoordinatesView::brushedLinesStandOutAndGoBack()
{
    const QColor converged = OutcomePalette::color(Monitor::Outcome::Converged, false);
    const QColor failed = OutcomePalette::color(Monitor::Outcome::Failed, false);
    const QPointF first = dotOf(0, 1), second = dotOf(1, 1); // where they end, left of no brush
    QCOMPARE(shown(first), converged); // nothing brushed: every line in its colour
    QCOMPARE(shown(second), failed);

    const QLineF axis = m_view->axisLine(0);
    const auto at = [&](double f) { return QPointF(axis.x1(), axis.y2() - f * axis.length()).toPoint(); };
    QTest::mousePress(m_view, Qt::LeftButton, {}, at(0));
    QTest::mouseMove(m_view, at(0.25)); // 0 only
    QCOMPARE(m_view->data().brushed(), QSet<qint64>{1});
    QCOMPARE(shown(first), converged);
    const QColor faint = shown(second);
    QVERIFY2(faint != failed && faint.lightness() > failed.lightness(), qPrintable(faint.name()));
    QTest::mouseMove(m_view, at(0.6)); // 0 and 5
    QCOMPARE(m_view->data().brushed(), (QSet<qint64>{1, 2}));
    QCOMPARE(shown(second), failed);
    QTest::mouseMove(m_view, at(0.25)); // 0 again
    QCOMPARE(m_view->data().brushed(), QSet<qint64>{1});
    QCOMPARE(shown(second), faint);
    QTest::mouseRelease(m_view, Qt::LeftButton, {}, at(0.25));
    QTest::keyClick(m_view, Qt::Key_Escape);
    QCOMPARE(shown(second), failed);
}

// A dark palette (the window's theme changed): the lines and the background take its colours.
void tst_ParallelCoordinatesView::paletteChangeRedrawsInItsColours()
{
    const QPointF first = dotOf(0, 1);
    QCOMPARE(shown(first), OutcomePalette::color(Monitor::Outcome::Converged, false));
    const int builds = m_view->layerBuilds();
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, Qt::white);
    m_view->setPalette(dark);
    QCOMPARE(shown(first), OutcomePalette::color(Monitor::Outcome::Converged, true));
    QCOMPARE(shown(QPointF(5, m_view->height() / 2.0)), QColor(30, 30, 30));
    QCOMPARE(m_view->layerBuilds(), builds + 1);
}

// New data (a case's value changed): its line is drawn where the value now is.
void tst_ParallelCoordinatesView::newDataRedrawsTheLines()
{
    const QColor converged = OutcomePalette::color(Monitor::Outcome::Converged, false);
    const QPointF before = dotOf(0, 1);
    QCOMPARE(shown(before), converged);
    m_view->setData(data(7.5)); // case 1 now three quarters up the second axis
    const QPointF after = dotOf(0, 1);
    QVERIFY(std::abs(after.y() - before.y()) > 50);
    QCOMPARE(shown(after), converged);
    QCOMPARE(shown(before), QColor(Qt::white));
}

QTEST_MAIN(tst_ParallelCoordinatesView)
#include "tst_parallelcoordinatesview.moc"
