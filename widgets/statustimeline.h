#pragma once

#include "app/vocab/outcome.h"
#include "app/vocab/records.h"

#include <QList>
#include <QWidget>

#include <optional>

namespace Eddy {

// A strip under the chart showing when a task was working, waiting for input (human time) and
// finished, from its task_events, with totals. Painted; GUI thread.
class StatusTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusTimeline)

public:
    explicit StatusTimeline(QWidget *parent = nullptr);

    // What the task's record adds to its events: when the server last changed it (its
    // lastUpdatedAt: a task seen ended later than that ended while nobody looked), how often it
    // is polled, and the solver's own time from its result (structuredContent.wall_seconds, as
    // eddy-cfd-server reports it). Before setEvents().
    void setTask(const Store::TaskRecord &task);
    // Events in time order; `endMs` = now for a live task or its finish time.
    void setEvents(const QList<Store::TaskEventRecord> &events, qint64 endMs);
    // The task's outcome: colours its final (terminal) stretch, e.g. amber for "not converged".
    void setOutcome(std::optional<Monitor::Outcome> outcome);
    void clear();
    // Milliseconds spent in each status as Eddy saw it, for the summary line (and tests).
    qint64 timeIn(Store::TaskStatus status) const;
    // Of the working time: in the server's queue ("queued, ..." status messages), and after
    // the task had ended before Eddy saw it end (it was closed, or polled rarely).
    struct Split
    {
        qint64 queuedMs = 0;
        qint64 computingMs = 0;
        qint64 waitingMs = 0;
        qint64 unwatchedMs = 0;
    };
    Split split() const;
    QString summary() const;
    // Where the summary is drawn under the bar, wrapped at spaces.
    QRect summaryRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Store::TaskEventRecord> m_events;
    qint64 m_endMs = 0;
    std::optional<qint64> m_serverEndMs;   // the server's lastUpdatedAt of an ended task
    qint64 m_pollIntervalMs = 1000;
    std::optional<double> m_solverSeconds; // from the result
    std::optional<Monitor::Outcome> m_outcome;
};

} // namespace Eddy
