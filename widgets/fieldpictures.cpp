#include "widgets/fieldpictures.h"

#include "models/outcomepalette.h"

#include <QPainter>

#include <algorithm>

namespace Eddy {

FieldPictures::FieldPictures(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("fieldPictures"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void FieldPictures::setCases(const QList<CasePictures> &cases)
{
    m_labels.clear();
    m_pictures.clear();
    QList<FieldPicture> all;
    QStringList broken;
    for (const CasePictures &c : cases) {
        m_labels << c.label;
        m_pictures << FieldPicture::fromResult(c.result);
        all += m_pictures.last();
        for (const FieldPicture &p : std::as_const(m_pictures.last()))
            if (p.image.isNull())
                broken << (c.label.isEmpty() ? p.error : tr("%1: %2").arg(c.label, p.error));
    }
    const int shown = pictureCount();
    m_noteIsWarning = false;
    if (shown == 0) {
        m_note = broken.isEmpty() ? tr("No field pictures: the tool's results carry no image.") : QString();
    } else if (const auto scale = FieldPicture::commonScale(all)) {
        m_note = shown > 1 ? tr("One colour scale for every picture: %1.").arg(FieldPicture::scaleText(*scale))
                           : tr("Colour scale: %1.").arg(FieldPicture::scaleText(*scale));
    } else {
        m_noteIsWarning = shown > 1;
        m_note = shown > 1 ? tr("These pictures do not state one colour scale: compare their colours with care.")
                           : tr("The picture states no colour scale.");
    }
    // One case: what the picture shows, as the server puts it.
    if (cases.size() == 1 && shown > 0 && !all.first().caption.isEmpty())
        m_note += QLatin1Char(' ') + all.first().caption;
    if (!broken.isEmpty()) {
        m_noteIsWarning = true;
        m_note = (m_note.isEmpty() ? QString() : m_note + QLatin1Char(' ')) + broken.join(QLatin1Char(' '));
    }
    setToolTip(m_note);
    updateGeometry();
    update();
}

int FieldPictures::pictureCount() const
{
    int n = 0;
    for (const auto &list : m_pictures)
        n += int(std::count_if(list.begin(), list.end(), [](const FieldPicture &p) { return !p.image.isNull(); }));
    return n;
}

QSize FieldPictures::sizeHint() const
{
    const int n = std::max(1, pictureCount());
    return {n * 180, 200 + 3 * fontMetrics().height()};
}

QSize FieldPictures::minimumSizeHint() const
{
    return {120, 3 * fontMetrics().height()};
}

void FieldPictures::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const QRect area = rect().adjusted(6, 4, -6, -4);
    // The note at the bottom, wrapped.
    const QRect noteBox = fm.boundingRect(QRect(area.left(), 0, area.width(), 4 * line),
                                          Qt::TextWordWrap, m_note);
    const QRect note(area.left(), area.bottom() - noteBox.height(), area.width(), noteBox.height());
    p.setPen(m_noteIsWarning ? OutcomePalette::color(Monitor::Outcome::NotConverged)
                             : palette().color(QPalette::WindowText));
    p.drawText(note, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, m_note);
    // Every picture at one size: the largest square that fits them all in one row.
    QList<QPair<QString, QImage>> shown;
    for (int i = 0; i < m_pictures.size(); ++i)
        for (const FieldPicture &f : m_pictures.at(i))
            if (!f.image.isNull())
                shown.append({m_labels.value(i), f.image});
    if (shown.isEmpty())
        return;
    const int gap = 12;
    const int n = int(shown.size());
    const int available = note.top() - area.top() - line - 6;
    const int side = std::max(16, std::min((area.width() - gap * (n - 1)) / n, available));
    p.setPen(palette().color(QPalette::WindowText));
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    for (int i = 0; i < n; ++i) {
        const int x = area.left() + i * (side + gap);
        const QImage &image = shown.at(i).second;
        QSize fit = image.size().scaled(side, side, Qt::KeepAspectRatio);
        const QRect target(x, area.top() + line + 2, fit.width(), fit.height());
        p.drawText(QRect(x, area.top(), side, line), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(shown.at(i).first, Qt::ElideRight, side));
        p.drawImage(target, image);
    }
}

} // namespace Eddy
