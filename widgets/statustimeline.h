#pragma once

#include "app/monitor/outcome.h"
#include "app/store/records.h"

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

    // Events in time order; `endMs` = now for a live task or its finish time.
    void setEvents(const QList<Store::TaskEventRecord> &events, qint64 endMs);
    // The task's outcome: colours its final (terminal) stretch, e.g. amber for "not converged".
    void setOutcome(std::optional<Monitor::Outcome> outcome);
    void clear();
    // Milliseconds spent in each status, for the summary line (and tests).
    qint64 timeIn(Store::TaskStatus status) const;
    QString summary() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Store::TaskEventRecord> m_events;
    qint64 m_endMs = 0;
    std::optional<Monitor::Outcome> m_outcome;
};

} // namespace Eddy
