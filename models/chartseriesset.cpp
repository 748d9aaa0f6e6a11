#include "models/chartseriesset.h"

#include "models/sampleseriesmodel.h"

#include <QPointF>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace Eddy {

namespace {

QString seriesKey(qint64 taskId, const QString &series)
{
    return QStringLiteral("%1/%2").arg(taskId).arg(series);
}

} // namespace

ChartSeriesSet::ChartSeriesSet(QObject *parent)
    : QObject(parent)
{}

ChartSeriesSet::~ChartSeriesSet()
{
    qDeleteAll(m_series);
}

bool ChartSeriesSet::isChartSample(const Store::ProgressSample &s)
{
    const bool residual
        = s.series == QLatin1String("residual") || s.series.startsWith(QLatin1String("residual."));
    const bool clockX = s.x > 1e8 && std::abs(s.x - double(s.atMs) / 1000.0) < 1.0;
    return residual && !clockX;
}

QList<SampleSeriesModel *> ChartSeriesSet::series() const
{
    QList<SampleSeriesModel *> list = m_series.values();
    std::sort(list.begin(), list.end(), [](auto *a, auto *b) {
        return std::pair(a->taskId(), a->series()) < std::pair(b->taskId(), b->series());
    });
    return list;
}

void ChartSeriesSet::clear()
{
    if (m_series.isEmpty())
        return;
    Q_EMIT seriesChanged({}); // the chart lets go of the models before they are deleted
    qDeleteAll(m_series);
    m_series.clear();
}

QList<qint64> ChartSeriesSet::setTasks(const QList<qint64> &taskIds)
{
    m_tasks = taskIds.mid(0, MaxTasks);
    clear();
    return m_tasks;
}

void ChartSeriesSet::setSamples(const QList<qint64> &taskIds,
                                const QList<Store::ProgressSample> &samples)
{
    if (taskIds != m_tasks)
        return;
    QHash<QString, std::vector<QPointF>> points;
    for (const auto &s : samples) {
        if (isChartSample(s))
            points[seriesKey(s.taskId, s.series)].emplace_back(s.x, s.y);
    }
    clear();
    for (auto it = points.begin(); it != points.end(); ++it) {
        const qint64 task = it.key().section(QLatin1Char('/'), 0, 0).toLongLong();
        auto *m = new SampleSeriesModel(task, it.key().section(QLatin1Char('/'), 1), this);
        m->setPoints(std::move(it.value()));
        m_series.insert(it.key(), m);
    }
    Q_EMIT seriesChanged(series());
}

void ChartSeriesSet::applyChanges(const Monitor::ChangeSet &changes)
{
    if (m_tasks.isEmpty())
        return;
    bool reload = false;
    for (const auto &t : changes.tasks)
        reload = reload || (!t.isLive() && m_tasks.contains(t.id));
    if (reload) {
        Q_EMIT reloadNeeded(m_tasks);
        return;
    }
    QHash<QString, std::vector<QPointF>> appends;
    bool newSeries = false;
    for (const auto &s : changes.samples) {
        if (!m_tasks.contains(s.taskId) || !isChartSample(s))
            continue;
        const QString key = seriesKey(s.taskId, s.series);
        if (!m_series.contains(key)) {
            m_series.insert(key, new SampleSeriesModel(s.taskId, s.series, this));
            newSeries = true;
        }
        appends[key].emplace_back(s.x, s.y);
    }
    for (auto it = appends.begin(); it != appends.end(); ++it)
        m_series.value(it.key())->appendPoints(it.value());
    if (newSeries)
        Q_EMIT seriesChanged(series());
}

} // namespace Eddy
