#include "models/sampleseriesmodel.h"

#include <algorithm>
#include <cmath>

namespace Eddy {

SampleSeriesModel::SampleSeriesModel(qint64 taskId, const QString &series, QObject *parent)
    : QAbstractTableModel(parent)
    , m_taskId(taskId)
    , m_series(series)
{
}

SampleSeriesModel::~SampleSeriesModel() = default;

int SampleSeriesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_shown.size());
}

int SampleSeriesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SampleSeriesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const QPointF &p = m_shown[static_cast<size_t>(index.row())];
    return index.column() == XColumn ? p.x() : p.y();
}

QVariant SampleSeriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    return section == XColumn ? tr("x") : m_series;
}

bool SampleSeriesModel::visible(const QPointF &p) const
{
    if (m_positiveOnly && !(p.y() > 0))
        return false;
    if (!std::isfinite(p.y()))
        return false;
    if (!std::isnan(m_from) && p.x() < m_from)
        return false;
    if (!std::isnan(m_to) && p.x() > m_to)
        return false;
    return true;
}

void SampleSeriesModel::rebuild()
{
    beginResetModel();
    m_shown.clear();
    m_rawAtRebuild = m_raw.size();
    // Visible window [first, last) by binary search on the sorted x.
    auto first = m_raw.begin();
    auto last = m_raw.end();
    if (!std::isnan(m_from))
        first = std::lower_bound(m_raw.begin(), m_raw.end(), m_from,
                                 [](const QPointF &p, double x) { return p.x() < x; });
    if (!std::isnan(m_to))
        last = std::upper_bound(first, m_raw.end(), m_to,
                                [](double x, const QPointF &p) { return x < p.x(); });
    const size_t n = static_cast<size_t>(last - first);
    m_decimated = n > static_cast<size_t>(m_budget);
    if (!m_decimated) {
        for (auto it = first; it != last; ++it) {
            if (visible(*it))
                m_shown.push_back(*it);
        }
    } else {
        // Min/max per bucket keeps every spike a user would look for (a diverging residual),
        // which plain striding would drop.
        const size_t buckets = static_cast<size_t>(std::max(1, m_budget / 2));
        m_shown.reserve(buckets * 2);
        for (size_t b = 0; b < buckets; ++b) {
            const auto bFirst = first + static_cast<std::ptrdiff_t>(n * b / buckets);
            const auto bLast = first + static_cast<std::ptrdiff_t>(n * (b + 1) / buckets);
            const QPointF *lo = nullptr;
            const QPointF *hi = nullptr;
            for (auto it = bFirst; it != bLast; ++it) {
                if (!visible(*it))
                    continue;
                if (!lo || it->y() < lo->y())
                    lo = &*it;
                if (!hi || it->y() > hi->y())
                    hi = &*it;
            }
            if (!lo)
                continue;
            if (lo == hi) {
                m_shown.push_back(*lo);
            } else if (lo->x() <= hi->x()) {
                m_shown.push_back(*lo);
                m_shown.push_back(*hi);
            } else {
                m_shown.push_back(*hi);
                m_shown.push_back(*lo);
            }
        }
    }
    endResetModel();
}

void SampleSeriesModel::setPoints(std::vector<QPointF> points)
{
    std::stable_sort(points.begin(), points.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    m_raw = std::move(points);
    rebuild();
}

void SampleSeriesModel::appendPoints(const std::vector<QPointF> &points)
{
    if (points.empty())
        return;
    const bool inOrder = m_raw.empty() || points.front().x() >= m_raw.back().x();
    const bool sorted = std::is_sorted(points.begin(), points.end(),
                                       [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    m_raw.insert(m_raw.end(), points.begin(), points.end());
    if (!inOrder || !sorted) {
        std::stable_sort(m_raw.begin(), m_raw.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
        rebuild();
        return;
    }
    const bool grewMuch = m_raw.size() > m_rawAtRebuild + std::max<size_t>(16, m_rawAtRebuild / 50);
    std::vector<QPointF> tail;
    for (const QPointF &p : points) {
        if (visible(p))
            tail.push_back(p);
    }
    if ((m_decimated && grewMuch) || m_shown.size() + tail.size() > static_cast<size_t>(m_budget) + m_budget / 8) {
        rebuild();
        return;
    }
    if (tail.empty())
        return;
    // A live tick: new rows at the end, no reset.
    const int firstRow = static_cast<int>(m_shown.size());
    beginInsertRows({}, firstRow, firstRow + static_cast<int>(tail.size()) - 1);
    m_shown.insert(m_shown.end(), tail.begin(), tail.end());
    endInsertRows();
}

void SampleSeriesModel::setPositiveOnly(bool on)
{
    if (m_positiveOnly == on)
        return;
    m_positiveOnly = on;
    rebuild();
}

void SampleSeriesModel::setBudget(int points)
{
    points = std::max(16, points);
    if (points == m_budget)
        return;
    m_budget = points;
    rebuild();
}

void SampleSeriesModel::setXRange(double from, double to)
{
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    if (same(from, m_from) && same(to, m_to))
        return;
    m_from = from;
    m_to = to;
    rebuild();
}

double SampleSeriesModel::minX() const
{
    return m_raw.empty() ? 0.0 : m_raw.front().x();
}

double SampleSeriesModel::maxX() const
{
    return m_raw.empty() ? 0.0 : m_raw.back().x();
}

double SampleSeriesModel::minY() const
{
    double y = std::numeric_limits<double>::infinity();
    for (const QPointF &p : m_shown)
        y = std::min(y, p.y());
    return std::isfinite(y) ? y : 0.0;
}

double SampleSeriesModel::maxY() const
{
    double y = -std::numeric_limits<double>::infinity();
    for (const QPointF &p : m_shown)
        y = std::max(y, p.y());
    return std::isfinite(y) ? y : 0.0;
}

} // namespace Eddy
