#pragma once

#include "app/monitor/changeset.h"
#include "app/vocab/records.h"
#include "models/sampleseriesmodel.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace Eddy {

// The residual series of the charted tasks (at most MaxTasks of the selection), one
// SampleSeriesModel per task and series ("residual", "residual.<field>"): filled from the stored
// samples (setSamples) and extended from every change set (applyChanges). Owns the models;
// seriesChanged() hands the chart the current list, sorted by task then series. GUI thread.
class ChartSeriesSet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartSeriesSet)

public:
    static constexpr int MaxTasks = 8;

    explicit ChartSeriesSet(QObject *parent = nullptr);
    ~ChartSeriesSet() override;

    // Charts these tasks (the first MaxTasks); drops every series. Returns the charted ids.
    QList<qint64> setTasks(const QList<qint64> &taskIds);
    QList<qint64> tasks() const { return m_tasks; }
    QList<SampleSeriesModel *> series() const;

    // The stored samples of `taskIds` (ignored unless they are the charted tasks): replaces
    // every series.
    void setSamples(const QList<qint64> &taskIds, const QList<Store::ProgressSample> &samples);
    // Appends the new points of charted tasks. A charted task that ended may have brought its
    // whole residual history with its result (the store replaced what polling saw): then
    // reloadNeeded() asks for the stored samples instead.
    void applyChanges(const Monitor::ChangeSet &changes);

    // Iteration on x, never a time: samples stored before x was always the iteration put a final
    // "converged after ..." message at the Unix time in seconds. Those are left out.
    static bool isChartSample(const Store::ProgressSample &s);

Q_SIGNALS:
    void seriesChanged(const QList<Eddy::SampleSeriesModel *> &series);
    void reloadNeeded(const QList<qint64> &taskIds);

private:
    void clear();

    QList<qint64> m_tasks;
    QHash<QString, SampleSeriesModel *> m_series; // "task/series" -> model
};

} // namespace Eddy
