#pragma once

#include "models/parallelcoordinates.h"

#include <QWidget>

namespace Eddy {

// Parallel coordinates painted with QPainter (Qt Charts has none): one vertical axis per
// varied parameter and chosen scalar, one line per case coloured by its outcome
// (OutcomePalette), log axes where ParallelCoordinates says so. Dragging along an axis brushes a
// range; a click on an axis clears its brush. Keyboard: Left/Right pick an axis, Up/Down move its
// brush, Shift+Up/Down widen or narrow it, Delete clears it. Cases selected elsewhere are drawn
// highlighted. GUI thread.
class ParallelCoordinatesView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ParallelCoordinatesView)

public:
    explicit ParallelCoordinatesView(QWidget *parent = nullptr);

    // New data; brushes on axes of the same name are kept.
    void setData(const ParallelCoordinates &data);
    const ParallelCoordinates &data() const { return m_data; }
    // Highlights these cases (the table's selection); drops every brush, which no longer
    // describes what is selected.
    void setSelected(const QSet<qint64> &taskIds);
    QSet<qint64> selected() const { return m_selected; }
    int currentAxis() const { return m_current; }
    // Where an axis is drawn: x, and the y of its top (maximum) and bottom (minimum).
    QLineF axisLine(int axis) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // The brushes changed: the cases inside all of them (none when no axis is brushed).
    void brushed(const QSet<qint64> &taskIds);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    QRectF plotArea() const;
    double yOf(int axis, double position) const;
    double positionOf(int axis, double y) const;
    int axisAt(const QPointF &point) const;
    void paintAxis(QPainter &p, int axis) const;
    void paintLegend(QPainter &p) const;
    void brushChanged();
    // The focused axis' brush as positions (low, high), or a band in the middle.
    std::pair<double, double> brushPositions(int axis) const;

    ParallelCoordinates m_data;
    QSet<qint64> m_selected;
    int m_current = 0;
    int m_dragAxis = -1;
    double m_dragFrom = 0;
    bool m_dragged = false;
};

} // namespace Eddy
