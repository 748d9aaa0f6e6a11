#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QSize>
#include <QString>

#include <vector>

namespace Eddy {

// A small SVG writer for Eddy's plots (Qt Svg is not part of the stack): axes with ticks (decades
// on a log axis), one <polyline> per series with exactly the points given (the caller hands in
// what the chart shows, i.e. after downsampling), optional point markers, and a legend. Points a
// log axis cannot show (y <= 0) and non-finite points are left out. Plain data; any thread.
struct SvgPlot
{
    struct Series
    {
        QString name;
        QColor color;
        std::vector<QPointF> points;
        bool markers = false; // a circle per point (scatter plots)
        bool line = true;     // a polyline through the points; false: markers only
        // A series without a name has no legend entry (e.g. a segment of a named one).
    };

    QString title;
    QString xLabel;
    QString yLabel;
    bool logY = false;
    QSize size{800, 500};
    QColor background = Qt::white;
    QColor foreground = QColor(0x30, 0x30, 0x30);
    QList<Series> series;

    // The document as text.
    QString toSvg() const;
    // Writes toSvg() to path; false (and *error when given) when the file cannot be written.
    bool save(const QString &path, QString *error = nullptr) const;

    // The points of a series that the plot draws (finite, and y > 0 on a log axis).
    std::vector<QPointF> drawable(const Series &s) const;
    // Tick positions: decades for a log axis, 1/2/5 steps for a linear one.
    static QList<double> linearTicks(double from, double to, int approxCount = 6);
    static QList<double> logTicks(double from, double to);
};

} // namespace Eddy
