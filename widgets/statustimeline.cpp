#include "widgets/statustimeline.h"

#include "models/outcomepalette.h"
#include "models/tasktablemodel.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <nlohmann/json.hpp>

namespace Eddy {

using Store::TaskStatus;

StatusTimeline::StatusTimeline(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("StatusTimeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StatusTimeline::setTask(const Store::TaskRecord &task)
{
    m_serverEndMs.reset();
    m_solverSeconds.reset();
    m_pollIntervalMs = task.pollIntervalMs.value_or(1000);
    if (task.isLive())
        return;
    const QDateTime end = QDateTime::fromString(task.lastUpdatedAt, Qt::ISODateWithMs);
    if (end.isValid())
        m_serverEndMs = end.toMSecsSinceEpoch();
    const auto result = nlohmann::json::parse(task.result.toStdString(), nullptr, false);
    const nlohmann::json content = result.is_object() ? result.value("structuredContent", nlohmann::json()) : nlohmann::json();
    if (content.is_object() && content.value("wall_seconds", nlohmann::json()).is_number())
        m_solverSeconds = content["wall_seconds"].get<double>();
}

void StatusTimeline::setEvents(const QList<Store::TaskEventRecord> &events, qint64 endMs)
{
    m_events = events;
    std::stable_sort(m_events.begin(), m_events.end(), [](const auto &a, const auto &b) { return a.atMs < b.atMs; });
    m_endMs = endMs;
    setToolTip(split().unwatchedMs > 0
                   ? tr("%1\n(Eddy was closed or not looking when it ended.)").arg(summary())
                   : summary());
    update();
}

void StatusTimeline::clear()
{
    m_events.clear();
    setToolTip({});
    update();
}

qint64 StatusTimeline::timeIn(TaskStatus status) const
{
    qint64 total = 0;
    for (int i = 0; i < m_events.size(); ++i) {
        if (m_events[i].status != status)
            continue;
        const qint64 end = i + 1 < m_events.size() ? m_events[i + 1].atMs : m_endMs;
        if (isTerminal(status))
            continue;
        total += std::max<qint64>(0, end - m_events[i].atMs);
    }
    return total;
}

StatusTimeline::Split StatusTimeline::split() const
{
    Split out;
    for (int i = 0; i < m_events.size(); ++i) {
        const Store::TaskEventRecord &e = m_events[i];
        if (isTerminal(e.status))
            continue;
        const qint64 from = e.atMs;
        qint64 to = i + 1 < m_events.size() ? m_events[i + 1].atMs : m_endMs;
        // Seen ending later than it ended, by more than polling explains: the rest was not
        // watched (a server clock far off only moves the end within this stretch).
        if (i + 1 < m_events.size() && isTerminal(m_events[i + 1].status) && m_serverEndMs
            && *m_serverEndMs < to && to - std::max(*m_serverEndMs, from) > m_pollIntervalMs) {
            out.unwatchedMs += to - std::max(*m_serverEndMs, from);
            to = std::max(*m_serverEndMs, from);
        }
        const qint64 span = std::max<qint64>(0, to - from);
        if (e.status == TaskStatus::InputRequired)
            out.waitingMs += span;
        else if (e.statusMessage.startsWith(QLatin1String("queued"), Qt::CaseInsensitive))
            out.queuedMs += span;
        else
            out.computingMs += span;
    }
    return out;
}

QString StatusTimeline::summary() const
{
    if (m_events.isEmpty())
        return tr("No status history yet.");
    const Split t = split();
    const QString queued = TaskTableModel::durationText(t.queuedMs);
    const QString computing = TaskTableModel::durationText(t.computingMs);
    const QString waiting = TaskTableModel::durationText(t.waitingMs);
    // Only the stretches the task had: a case that never asked says nothing about waiting.
    QString text;
    if (t.queuedMs > 0 && t.waitingMs > 0)
        text = tr("Queued %1 · computing %2 · waiting for input %3").arg(queued, computing, waiting);
    else if (t.queuedMs > 0)
        text = tr("Queued %1 · computing %2").arg(queued, computing);
    else if (t.waitingMs > 0)
        text = tr("Computing %1 · waiting for input %2").arg(computing, waiting);
    else
        text = tr("Computing %1").arg(computing);
    if (m_solverSeconds)
        text = tr("%1 · solver time %2 s")
                   .arg(text, QLocale().toString(*m_solverSeconds, 'f', *m_solverSeconds < 1 ? 2 : 1));
    if (t.unwatchedMs > 0)
        text = tr("%1 · seen %2 after its end")
                   .arg(text, TaskTableModel::durationText(t.unwatchedMs));
    return text;
}

QSize StatusTimeline::sizeHint() const
{
    // The bar and two lines of summary: wrapped, the longest reads whole in a 1280x800 dock.
    return {400, fontMetrics().height() * 2 + 14};
}

QSize StatusTimeline::minimumSizeHint() const
{
    // As it always was (a window on a small screen must not grow); what a narrower dock cannot
    // hold is elided at the end, and the tooltip holds it all.
    return {100, fontMetrics().height() * 2 + 14};
}

QRect StatusTimeline::summaryRect() const
{
    return QRect(4, 14, width() - 8, height() - 14);
}

void StatusTimeline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int barHeight = 10;
    const QRect bar(4, 4, width() - 8, barHeight);
    QPainterPath clip;
    clip.addRoundedRect(bar, 4, 4);
    p.fillPath(clip, palette().alternateBase());
    if (!m_events.isEmpty()) {
        const qint64 start = m_events.first().atMs;
        const qint64 span = std::max<qint64>(1, m_endMs - start);
        p.save();
        p.setClipPath(clip);
        for (int i = 0; i < m_events.size(); ++i) {
            const qint64 from = m_events[i].atMs;
            const qint64 to = i + 1 < m_events.size() ? m_events[i + 1].atMs : m_endMs;
            const double x0 = bar.left() + double(from - start) / span * bar.width();
            double x1 = bar.left() + double(to - start) / span * bar.width();
            if (isTerminal(m_events[i].status))
                x1 = std::max(x1, x0 + 4); // a finished task shows its end marker
            const bool last = i + 1 == m_events.size() && isTerminal(m_events[i].status) && m_outcome;
            p.fillRect(QRectF(x0, bar.top(), std::max(1.0, x1 - x0), bar.height()),
                       last ? OutcomePalette::color(*m_outcome) : TaskTableModel::statusColor(m_events[i].status));
        }
        p.restore();
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRect area = summaryRect();
    const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    QString text = summary();
    const int lines = std::max(1, area.height() / fontMetrics().height());
    // Cut at the end, not mid-line at the bottom, when the dock leaves too few lines.
    for (int budget = area.width() * lines;
         fontMetrics().boundingRect(area, flags, text).height() > area.height() && budget > 0;
         budget -= area.width() / 4)
        text = fontMetrics().elidedText(summary(), Qt::ElideRight, budget);
    p.drawText(area, flags, text);
}

void StatusTimeline::setOutcome(std::optional<Monitor::Outcome> outcome)
{
    m_outcome = outcome;
    update();
}

} // namespace Eddy
