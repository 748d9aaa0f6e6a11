#pragma once

#include "models/parallelcoordinates.h"

#include <QFont>
#include <QImage>
#include <QWidget>

namespace Eddy {

// Parallel coordinates painted with QPainter (Qt Charts has none): one vertical axis per
// varied parameter and chosen scalar, one line per case coloured by its outcome
// (OutcomePalette), log axes where ParallelCoordinates says so. Dragging along an axis brushes a
// range; a click on an axis clears its brush. Keyboard: Left/Right pick an axis, Up/Down move its
// brush, Shift+Up/Down widen or narrow it, Delete clears it. Cases selected elsewhere are drawn
// highlighted. Every line is drawn once into a cached picture (plain, and faint for when some
// cases stand out), rebuilt only when the data, the size, the palette or the font change; each
// paint copies it and draws just the cases that stand out over it, so a brush move costs the
// brushed lines, not all of them. GUI thread.
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

    // How many times the cached pictures of all lines and of the axes were drawn (tests: a
    // brush move must not redraw them; a palette change must).
    int layerBuilds() const { return m_layerBuilds; }

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
    // The pictures' key: what they were drawn for.
    struct LayerKey
    {
        QSize size;
        qreal dpr = 0;
        qint64 palette = 0;
        QFont font;
        quint64 generation = 0;
        bool operator==(const LayerKey &) const = default;
    };
    LayerKey layerKey() const;
    QImage newLayer(QColor fill) const;
    void buildLayers();
    // Draws `lines` (one line per case; `faint` in the colours they take when others stand out,
    // `wide` the width of the ones that stand out), their dots on top. A segment or dot in
    // `drawn` is drawn already; the ones drawn are added.
    void paintLines(QPainter &p, const QList<const ParallelCoordinates::Line *> &lines, bool faint, bool wide,
                    QSet<quint64> &drawn);
    void paintAxis(QPainter &p, int axis) const;
    void paintBrush(QPainter &p, int axis);
    void paintFocus(QPainter &p, int axis) const;
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
    quint64 m_generation = 0; // bumped by setData
    LayerKey m_layerKey;
    QImage m_plain;  // every line in its own colour, on the base colour
    QImage m_faint;  // every line faint (some stand out), on the base colour
    QImage m_axes;   // axes, names, ticks and the legend, on transparent
    // m_faint with the cases that stand out drawn over it. A brush that takes in more cases
    // draws only those; one that lets cases go starts again from m_faint.
    QImage m_shown;
    QList<bool> m_shownLines; // by line: drawn in m_shown (empty: m_shown is to be made)
    QSet<quint64> m_shownDrawn;
    QImage m_band; // a brush's translucent fill, as tall as the widget
    qint64 m_bandPalette = 0;
    int m_layerBuilds = 0;
    QHash<quint64, QImage> m_dots; // a dot of each colour and size, drawn once per key
};

} // namespace Eddy
