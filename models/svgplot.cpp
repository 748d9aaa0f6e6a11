#include "models/svgplot.h"

#include "models/niceticks.h"

#include <algorithm>

#include <QRectF>
#include <QSaveFile>

#include <cmath>
#include <limits>

namespace Eddy {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString num(double v)
{
    return QString::number(v, 'f', 2);
}

QString logTickLabel(double v)
{
    return QStringLiteral("1e%1").arg(int(std::lround(std::log10(v))));
}

} // namespace

QList<double> SvgPlot::linearTicks(double from, double to, int approxCount)
{
    return NiceTicks::forRange(from, to, approxCount).values;
}

QList<double> SvgPlot::logTicks(double from, double to)
{
    QList<double> ticks;
    if (!(from > 0) || !(to > 0) || !std::isfinite(from) || !std::isfinite(to) || to < from)
        return ticks;
    for (int e = int(std::ceil(std::log10(from) - 1e-9)); e <= int(std::floor(std::log10(to) + 1e-9)); ++e)
        ticks << std::pow(10.0, e);
    return ticks;
}

std::vector<QPointF> SvgPlot::drawable(const Series &s) const
{
    std::vector<QPointF> out;
    out.reserve(s.points.size());
    for (const QPointF &p : s.points) {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || (logY && p.y() <= 0))
            continue;
        out.push_back(p);
    }
    return out;
}

QString SvgPlot::toSvg() const
{
    const int w = std::max(200, size.width());
    const int h = std::max(150, size.height());
    const double left = 80, right = 20, top = title.isEmpty() ? 20 : 40, bottom = 60;
    const double legendRow = 18;
    const auto named = std::count_if(
        series.begin(), series.end(), [](const Series &s) { return !s.name.isEmpty(); });
    const double legendHeight = named == 0 ? 0 : legendRow * double(named) + 8;
    const QRectF plot(left, top, w - left - right, std::max(40.0, h - top - bottom - legendHeight));

    // Data range over everything drawn.
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    QList<std::vector<QPointF>> drawn;
    for (const Series &s : series) {
        drawn << drawable(s);
        for (const QPointF &p : drawn.last()) {
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
    }
    if (!std::isfinite(x0)) {
        x0 = 0;
        x1 = 1;
        y0 = logY ? 1e-6 : 0;
        y1 = 1;
    }
    if (x1 <= x0) {
        x0 -= 0.5;
        x1 += 0.5;
    }
    if (logY) {
        y0 = std::pow(10.0, std::floor(std::log10(y0)));
        y1 = std::pow(10.0, std::ceil(std::log10(y1)));
        if (y1 <= y0)
            y1 = y0 * 10;
    } else if (y1 <= y0) {
        y0 -= 0.5;
        y1 += 0.5;
    } else {
        const double pad = (y1 - y0) * 0.05;
        y0 -= pad;
        y1 += pad;
    }
    const auto px = [&](double x) { return plot.left() + (x - x0) / (x1 - x0) * plot.width(); };
    const auto py = [&](double y) {
        const double f = logY ? (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0))
                              : (y - y0) / (y1 - y0);
        return plot.bottom() - f * plot.height();
    };

    QString out;
    out.reserve(4096);
    const QString fg = foreground.name();
    out += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
                          "font-family=\"sans-serif\" font-size=\"12\">\n")
               .arg(w)
               .arg(h);
    out += QStringLiteral("<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"%3\"/>\n").arg(w).arg(h).arg(background.name());
    if (!title.isEmpty())
        out += QStringLiteral("<text x=\"%1\" y=\"24\" text-anchor=\"middle\" font-size=\"14\" fill=\"%2\">%3</text>\n")
                   .arg(num(w / 2.0), fg, esc(title));

    // Axes, grid and ticks.
    out += QStringLiteral("<g class=\"axes\" stroke=\"%1\" stroke-width=\"1\" fill=\"none\">\n").arg(fg);
    out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"/>\n")
               .arg(num(plot.left()), num(plot.top()), num(plot.width()), num(plot.height()));
    out += QStringLiteral("</g>\n<g class=\"ticks\" fill=\"%1\" font-size=\"11\">\n").arg(fg);
    const NiceTicks xTicks = NiceTicks::forRange(x0, x1, 6);
    for (double t : xTicks.values) {
        const double x = px(t);
        out += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"%4\" stroke-opacity=\"0.15\"/>"
                              "<text x=\"%1\" y=\"%5\" text-anchor=\"middle\">%6</text>\n")
                   .arg(num(x), num(plot.top()), num(plot.bottom()), fg, num(plot.bottom() + 16), esc(xTicks.label(t)));
    }
    const NiceTicks yTicks = NiceTicks::forRange(y0, y1, 6);
    for (double t : logY ? logTicks(y0, y1) : yTicks.values) {
        const double y = py(t);
        out += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"%4\" stroke-opacity=\"0.15\"/>"
                              "<text x=\"%5\" y=\"%6\" text-anchor=\"end\">%7</text>\n")
                   .arg(num(plot.left()), num(y), num(plot.right()), fg, num(plot.left() - 6), num(y + 4),
                        esc(logY ? logTickLabel(t) : yTicks.label(t)));
    }
    out += QStringLiteral("</g>\n");
    out += QStringLiteral("<text class=\"xlabel\" x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"%3\">%4</text>\n")
               .arg(num(plot.center().x()), num(plot.bottom() + 36), fg, esc(xLabel));
    out += QStringLiteral("<text class=\"ylabel\" x=\"16\" y=\"%1\" text-anchor=\"middle\" fill=\"%2\" "
                          "transform=\"rotate(-90 16 %1)\">%3</text>\n")
               .arg(num(plot.center().y()), fg, esc(yLabel));

    // Series.
    for (int i = 0; i < series.size(); ++i) {
        const Series &s = series.at(i);
        QString pts;
        pts.reserve(int(drawn.at(i).size()) * 16);
        for (const QPointF &p : drawn.at(i)) {
            if (!pts.isEmpty())
                pts += QLatin1Char(' ');
            pts += num(px(p.x())) + QLatin1Char(',') + num(py(p.y()));
        }
        if (s.line)
            out += QStringLiteral("<polyline class=\"series\" data-name=\"%1\" fill=\"none\" "
                                  "stroke=\"%2\" stroke-width=\"1.5\" "
                                  "points=\"%3\"/>\n")
                       .arg(esc(s.name), s.color.name(), pts);
        if (s.markers) {
            out += QStringLiteral("<g class=\"markers\" fill=\"%1\">").arg(s.color.name());
            for (const QPointF &p : drawn.at(i))
                out += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"3\"/>").arg(num(px(p.x())), num(py(p.y())));
            out += QStringLiteral("</g>\n");
        }
    }

    // Legend under the x label.
    out += QStringLiteral("<g class=\"legend\" fill=\"%1\">\n").arg(fg);
    double ly = plot.bottom() + 50;
    for (const Series &s : series) {
        if (s.name.isEmpty())
            continue;
        out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"14\" height=\"4\" fill=\"%3\"/>"
                              "<text x=\"%4\" y=\"%5\">%6</text>\n")
                   .arg(num(plot.left()), num(ly + 6), s.color.name(), num(plot.left() + 20), num(ly + 11), esc(s.name));
        ly += legendRow;
    }
    out += QStringLiteral("</g>\n</svg>\n");
    return out;
}

bool SvgPlot::save(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(toSvg().toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace Eddy
