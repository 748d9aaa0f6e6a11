#pragma once

#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QStringList>

namespace Eddy::Test {

// Every text a chart view draws (axis labels and titles, legend entries, the chart's title)
// that is shown.
inline QStringList drawnTexts(QChartView *view)
{
    QStringList texts;
    for (QGraphicsItem *item : view->scene()->items()) {
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            texts << text->toPlainText();
    }
    return texts;
}

// Qt Charts cuts a text that does not fit to "..." (or an ellipsis).
inline bool isCut(const QString &drawn)
{
    return drawn.contains(QLatin1String("...")) || drawn.contains(QChar(0x2026));
}

} // namespace Eddy::Test
