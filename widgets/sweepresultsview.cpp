#include "widgets/sweepresultsview.h"

#include "models/svgplot.h"
#include "models/sweepresultsmodel.h"
#include "widgets/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMessageBox>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

namespace Eddy {

SweepResultsView::SweepResultsView(SweepResultsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_x(new QComboBox(this))
    , m_y(new QComboBox(this))
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_line(new QLineSeries)
    , m_points(new QScatterSeries)
{
    setObjectName(QStringLiteral("SweepResultsView"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SweepResultsModel::SortRole);
    m_table->setObjectName(QStringLiteral("sweepResults"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &idx) {
        Q_EMIT taskActivated(idx.data(SweepResultsModel::TaskIdRole).toLongLong());
    });

    m_x->setObjectName(QStringLiteral("plotX"));
    m_y->setObjectName(QStringLiteral("plotY"));
    m_x->setToolTip(tr("Varied parameter on the x axis"));
    m_y->setToolTip(tr("Result scalar on the y axis"));
    m_x->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_y->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_x, &QComboBox::currentIndexChanged, this, &SweepResultsView::replot);
    connect(m_y, &QComboBox::currentIndexChanged, this, &SweepResultsView::replot);

    m_chart->addSeries(m_line);
    m_chart->addSeries(m_points);
    m_chart->createDefaultAxes();
    for (QAbstractAxis *axis : m_chart->axes()) {
        if (auto *value = qobject_cast<QValueAxis *>(axis))
            keepTicksNice(value);
    }
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_points->setMarkerSize(9);
    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);

    auto *tools = new QHBoxLayout;
    tools->setContentsMargins(4, 0, 4, 0);
    tools->addWidget(m_summary, 1);
    tools->addWidget(new QLabel(tr("Plot"), this));
    tools->addWidget(m_y);
    tools->addWidget(new QLabel(tr("against"), this));
    tools->addWidget(m_x);
    const auto addTool = [&](const QString &text, const QString &tip, const QString &kind) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, [this, kind] { exportInteractive(kind); });
        tools->addWidget(b);
    };
    addTool(tr("Export CSV..."), tr("Save the table: parameters, status and result scalars"), QStringLiteral("csv"));
    addTool(tr("Export SVG..."), tr("Save the plot as a vector drawing"), QStringLiteral("svg"));
    addTool(tr("Export PNG..."), tr("Save the plot as an image"), QStringLiteral("png"));

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_view);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(tools);
    layout->addWidget(split, 1);

    connect(m_model, &SweepResultsModel::resultsChanged, this, &SweepResultsView::refreshChoices);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SweepResultsView::refreshChoices);
    refreshChoices();
}

void SweepResultsView::refreshChoices()
{
    const QString keepX = m_x->currentText();
    const QString keepY = m_y->currentText();
    const QStringList params = m_model->parameterNames();
    const QStringList scalars = m_model->scalarNames();
    QStringList oldX, oldY;
    for (int i = 0; i < m_x->count(); ++i)
        oldX << m_x->itemText(i);
    for (int i = 0; i < m_y->count(); ++i)
        oldY << m_y->itemText(i);
    {
        const QSignalBlocker bx(m_x);
        const QSignalBlocker by(m_y);
        if (oldX != params) {
            m_x->clear();
            m_x->addItems(params);
            m_x->setCurrentIndex(std::max(0, int(params.indexOf(keepX))));
        }
        if (oldY != scalars) {
            m_y->clear();
            m_y->addItems(scalars);
            // A useful first choice: the final residual, else the first scalar.
            const int keep = int(scalars.indexOf(keepY));
            const int residual = int(scalars.indexOf(QStringLiteral("final_residual")));
            m_y->setCurrentIndex(keep >= 0 ? keep : std::max(0, residual));
        }
    }
    const int done = m_model->withResultsCount();
    m_summary->setText(m_model->sweepId() == 0
                           ? tr("Select a task of a sweep to see the sweep's results.")
                           : tr("Sweep %1: %2 of %n case(s) with results", nullptr, m_model->rowCount())
                                 .arg(m_model->sweepId())
                                 .arg(done));
    replot();
}

QList<QPointF> SweepResultsView::plottedPoints() const
{
    return m_points->points();
}

bool SweepResultsView::setPlot(const QString &parameter, const QString &scalar)
{
    const int x = m_x->findText(parameter);
    const int y = m_y->findText(scalar);
    if (x < 0 || y < 0)
        return false;
    m_x->setCurrentIndex(x);
    m_y->setCurrentIndex(y);
    replot();
    return true;
}

void SweepResultsView::replot()
{
    const QList<QPointF> pts = m_model->points(m_x->currentText(), m_y->currentText());
    m_line->replace(pts);
    m_points->replace(pts);
    const auto hAxes = m_chart->axes(Qt::Horizontal);
    const auto vAxes = m_chart->axes(Qt::Vertical);
    auto *ax = hAxes.isEmpty() ? nullptr : qobject_cast<QValueAxis *>(hAxes.first());
    auto *ay = vAxes.isEmpty() ? nullptr : qobject_cast<QValueAxis *>(vAxes.first());
    if (!ax || !ay)
        return;
    ax->setTitleText(m_x->currentText());
    ay->setTitleText(m_y->currentText());
    if (pts.isEmpty()) {
        setNiceRange(ax, 0, 1);
        setNiceRange(ay, 0, 1);
        m_chart->setTitle(m_model->sweepId() ? tr("No completed case yet.") : QString());
        return;
    }
    m_chart->setTitle(QString());
    double x0 = pts.first().x(), x1 = x0, y0 = pts.first().y(), y1 = y0;
    for (const QPointF &p : pts) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    const double padX = x1 > x0 ? (x1 - x0) * 0.05 : std::max(1.0, std::abs(x0) * 0.1);
    const double padY = y1 > y0 ? (y1 - y0) * 0.08 : std::max(1e-12, std::abs(y0) * 0.1);
    setNiceRange(ax, x0 - padX, x1 + padX);
    setNiceRange(ay, y0 - padY, y1 + padY);
}

bool SweepResultsView::exportCsv(const QString &path) const
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(m_model->toCsv().toUtf8()) >= 0 && file.commit();
}

SvgPlot SweepResultsView::plot() const
{
    SvgPlot plot;
    plot.title = m_model->sweepId() ? tr("Sweep %1").arg(m_model->sweepId()) : QString();
    plot.xLabel = m_x->currentText();
    plot.yLabel = m_y->currentText();
    if (m_dark) {
        plot.background = QColor(0x1f, 0x21, 0x24);
        plot.foreground = QColor(0xdf, 0xe1, 0xe5);
    }
    const QList<QPointF> pts = m_points->points();
    plot.series << SvgPlot::Series{m_y->currentText(), m_points->color(), {pts.begin(), pts.end()}, true};
    return plot;
}

bool SweepResultsView::exportSvg(const QString &path) const
{
    return plot().save(path);
}

bool SweepResultsView::exportPng(const QString &path)
{
    return m_view->grab().save(path, "PNG");
}

void SweepResultsView::exportInteractive(const QString &kind)
{
    const QString base = m_model->sweepId() ? QStringLiteral("sweep-%1").arg(m_model->sweepId()) : QStringLiteral("sweep");
    QString filter;
    if (kind == QLatin1String("csv"))
        filter = tr("CSV files (*.csv)");
    else if (kind == QLatin1String("svg"))
        filter = tr("SVG drawings (*.svg)");
    else
        filter = tr("PNG images (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Sweep Results"), base + QLatin1Char('.') + kind, filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == QLatin1String("csv") ? exportCsv(path)
                    : kind == QLatin1String("svg") ? exportSvg(path)
                                                   : exportPng(path);
    if (!ok)
        QMessageBox::warning(this, tr("Export Sweep Results"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

void SweepResultsView::setDark(bool dark)
{
    m_dark = dark;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(dark ? QColor(0x1f, 0x21, 0x24) : QColor(Qt::white));
    m_chart->setBackgroundRoundness(0);
    m_points->setMarkerSize(9);
}

} // namespace Eddy
