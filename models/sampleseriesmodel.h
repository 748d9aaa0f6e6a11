#pragma once

#include <QAbstractTableModel>
#include <QPointF>
#include <QString>

#include <limits>
#include <vector>

namespace Eddy {

// One progress series of one task (e.g. task 12's "residual.u") as an (x, y) table for a chart's
// QVXYModelMapper. It keeps every sample but exposes at most budget() points: min/max decimation
// over the visible x range, so a million samples draw as fast as two thousand. Appends are
// inserted rows; a re-decimation (after ~2 % growth or a zoom) is one reset. GUI thread.
class SampleSeriesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SampleSeriesModel)

public:
    enum Column { XColumn, YColumn, ColumnCount };
    Q_ENUM(Column)

    SampleSeriesModel(qint64 taskId, const QString &series, QObject *parent = nullptr);
    ~SampleSeriesModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    qint64 taskId() const { return m_taskId; }
    QString series() const { return m_series; }

    // Samples must come in increasing x (iterations do); out-of-order ones are sorted in.
    void setPoints(std::vector<QPointF> points);
    void appendPoints(const std::vector<QPointF> &points);
    const std::vector<QPointF> &points() const { return m_raw; }
    const std::vector<QPointF> &shownPoints() const { return m_shown; }

    // Log axes cannot show y <= 0: such samples are kept but not shown.
    void setPositiveOnly(bool on);
    void setBudget(int points);
    int budget() const { return m_budget; }
    // Zoom: decimate only what lies in [from, to]; NaN = everything.
    void setXRange(double from, double to);
    bool isDecimated() const { return m_decimated; }

    double minX() const;
    double maxX() const;
    double minY() const; // of the shown points (positive ones when positive-only)
    double maxY() const;

private:
    bool visible(const QPointF &p) const;
    void rebuild();

    qint64 m_taskId;
    QString m_series;
    std::vector<QPointF> m_raw;
    std::vector<QPointF> m_shown;
    int m_budget = 2000;
    bool m_positiveOnly = false;
    bool m_decimated = false;
    size_t m_rawAtRebuild = 0;
    double m_from = std::numeric_limits<double>::quiet_NaN();
    double m_to = std::numeric_limits<double>::quiet_NaN();
};

} // namespace Eddy
