#include "widgets/sweepresultsview.h"
#include "widgets/plotwindow.h"

#include "models/svgplot.h"
#include "models/sweepfilterproxymodel.h"
#include "models/sweepresultsmodel.h"
#include "widgets/compareview.h"
#include "widgets/parallelcoordinatespanel.h"
#include "widgets/sweeprowactions.h"
#include "widgets/sweepscalarplot.h"
#include "widgets/filedialog.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace Eddy {

SweepResultsView::SweepResultsView(SweepResultsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new SweepFilterProxyModel(this)) // the task view's Filter narrows it too
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_sweepChooser(new QComboBox(this))
    , m_reviewLine(new QLabel(this))
    , m_plot(new SweepScalarPlot(model, this))
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
    // Columns fit their contents when the contents change, not on every layout change: with
    // ResizeToContents each sort re-measured every row (a 1,000-case sweep sorted in 80-220 ms on
    // the GUI thread, bench_sweep); fitted after the rows settle, a sort costs a few ms and the
    // widths stay put while sorting.
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *fitColumns = new QTimer(this);
    fitColumns->setSingleShot(true);
    fitColumns->setInterval(200);
    connect(fitColumns, &QTimer::timeout, m_table, &QTableView::resizeColumnsToContents);
    const auto refit = [fitColumns] { fitColumns->start(); };
    connect(m_proxy, &QAbstractItemModel::modelReset, fitColumns, refit);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, fitColumns, refit);
    connect(m_proxy, &QAbstractItemModel::columnsInserted, fitColumns, refit);
    connect(m_proxy, &QAbstractItemModel::dataChanged, fitColumns, refit);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &idx) {
        Q_EMIT taskActivated(idx.data(SweepResultsModel::TaskIdRole).toLongLong());
    });

    // The header: which sweep (any of the session's, also one with no case sent yet), how far it
    // got, and on a line of its own the engineer's note and tags on it.
    m_sweepChooser->setObjectName(QStringLiteral("sweepChooser"));
    m_sweepChooser->setToolTip(tr("The sweep shown; choose another of the session's sweeps"));
    m_sweepChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sweepChooser->hide(); // until there are sweeps to choose from
    connect(m_sweepChooser, &QComboBox::activated, this, [this](int i) {
        const qint64 id = m_sweepChooser->itemData(i).toLongLong();
        if (id > 0 && id != m_model->sweepId())
            Q_EMIT sweepChosen(id);
    });
    m_summary->setObjectName(QStringLiteral("sweepSummary"));
    // The row is full in German at 1280 px: the summary gives way (its whole text in the tooltip)
    // rather than widen the window.
    m_summary->setMinimumWidth(fontMetrics().averageCharWidth() * 8);
    m_reviewLine->setObjectName(QStringLiteral("sweepReviewLine"));
    m_reviewLine->setTextFormat(Qt::PlainText);
    m_reviewLine->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // elided, never widens the dock
    m_reviewLine->setContentsMargins(6, 0, 4, 0);
    m_reviewLine->hide();
    auto *tools = new QHBoxLayout;
    tools->setContentsMargins(4, 0, 4, 0);
    tools->addWidget(m_sweepChooser);
    tools->addWidget(m_summary, 1);
    tools->addWidget(new QLabel(tr("Plot"), this));
    tools->addWidget(m_plot->yCombo());
    tools->addWidget(new QLabel(tr("against"), this));
    tools->addWidget(m_plot->xCombo());
    // The three exports share one button (three labelled ones overflowed 1280 px in German).
    auto *exports = new QToolButton(this);
    exports->setObjectName(QStringLiteral("exportResults"));
    exports->setText(tr("Export"));
    exports->setToolTip(tr("Save the table as CSV, or the plot as a vector drawing or an image"));
    exports->setAutoRaise(true);
    exports->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exports);
    menu->setToolTipsVisible(true);
    exports->setMenu(menu);
    const auto addTool = [&](const QString &text, const QString &tip, const QString &kind) {
        QAction *a = menu->addAction(text, this, [this, kind] { exportInteractive(kind); });
        a->setToolTip(tip);
    };
    const auto toolButton = [&](const QString &name, const QString &text, const QString &tip) {
        auto *button = new QToolButton(this);
        button->setObjectName(name);
        button->setText(text);
        button->setToolTip(tip);
        button->setAutoRaise(true);
        tools->addWidget(button);
        return button;
    };
    QToolButton *compare = toolButton(
        QStringLiteral("compareCases"), tr("Compare"),
        tr("Compare the selected cases, or one case with the sweep's baseline, in a window of their own"));
    compare->setEnabled(false);
    connect(compare, &QToolButton::clicked, this, &SweepResultsView::compareSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, compare, [this, compare] {
        compare->setEnabled(!selectedTasks().isEmpty());
    });
    // Parallel coordinates and another sweep on the plot share one menu: separate buttons made
    // the row wider than a 1280 px screen in German.
    QToolButton *review = toolButton(QStringLiteral("sweepReview"), tr("Review"),
                                     tr("The sweep's parallel coordinates, another sweep of the same tool "
                                        "drawn on this plot, or the selected cases run again"));
    review->setPopupMode(QToolButton::InstantPopup);
    auto *reviewMenu = new QMenu(review);
    reviewMenu->setToolTipsVisible(true);
    review->setMenu(reviewMenu);
    QAction *parallel = reviewMenu->addAction(tr("Parallel Coordinates..."), this,
                                              &SweepResultsView::showParallelCoordinates);
    parallel->setObjectName(QStringLiteral("showParallelCoordinates"));
    parallel->setToolTip(tr("Every varied parameter and result on its own axis; drag along an axis to "
                            "select cases"));
    m_overlayMenu = reviewMenu->addMenu(tr("Overlay Sweep"));
    m_overlayMenu->setObjectName(QStringLiteral("overlaySweep"));
    m_overlayMenu->setToolTipsVisible(true);
    m_overlayMenu->menuAction()->setToolTip(tr("Draw another sweep of the same tool on this plot, for "
                                               "example the same range on another grid"));
    m_overlayMenu->setEnabled(false);
    // Mark as Baseline and the re-runs of the selected (e.g. brushed) cases.
    m_rows = new SweepRowActions(m_table, reviewMenu, this);
    connect(m_rows, &SweepRowActions::baselineRequested, this, &SweepResultsView::baselineRequested);
    connect(m_rows, &SweepRowActions::rerunRequested, this, &SweepResultsView::rerunRequested);
    connect(m_rows, &SweepRowActions::rerunFailedRequested, this, &SweepResultsView::rerunFailedRequested);
    addSweepActions(reviewMenu);
    QToolButton *enlarge = enlargeButton(this, QStringLiteral("enlargePlot"));
    connect(enlarge, &QToolButton::clicked, this, &SweepResultsView::enlargePlot);
    tools->addWidget(enlarge);
    addTool(tr("Export CSV..."), tr("Save the table: parameters, status and result scalars"), QStringLiteral("csv"));
    addTool(tr("Export SVG..."), tr("Save the plot as a vector drawing"), QStringLiteral("svg"));
    addTool(tr("Export PNG..."), tr("Save the plot as an image"), QStringLiteral("png"));
    tools->addWidget(exports);

    auto *split = new QSplitter(Qt::Horizontal, this);
    m_split = split;
    split->addWidget(m_table);
    split->addWidget(m_plot->chartView());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(tools);
    layout->addWidget(m_reviewLine);
    layout->addWidget(split, 1);

    // Last: tests and tools find the plot's chart view before the compare window's.
    m_compare = new CompareView(model, this);
    // The stored baseline is the compare window's by default; one chosen there is stored.
    connect(m_compare, &CompareView::baselineChosen, this, &SweepResultsView::baselineRequested);

    connect(m_model, &SweepResultsModel::resultsChanged, this, &SweepResultsView::refreshChoices);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SweepResultsView::refreshChoices);
    connect(m_model, &SweepResultsModel::reviewChanged, this, &SweepResultsView::refreshHeader);
    refreshChoices();
}

void SweepResultsView::addSweepActions(QMenu *reviewMenu)
{
    reviewMenu->addSeparator();
    QAction *note = reviewMenu->addAction(tr("Edit Sweep Note..."));
    note->setObjectName(QStringLiteral("editSweepNote"));
    note->setToolTip(tr("A note on the whole sweep, shown above its table and in its report"));
    connect(note, &QAction::triggered, this, [this] { Q_EMIT sweepNoteRequested(m_model->sweepId()); });
    QAction *tags = reviewMenu->addAction(tr("Edit Sweep Tags..."));
    tags->setObjectName(QStringLiteral("editSweepTags"));
    tags->setToolTip(tr("Tags on the whole sweep, shown above its table and in its report"));
    connect(tags, &QAction::triggered, this, [this] { Q_EMIT sweepTagsRequested(m_model->sweepId()); });
    QAction *pause = reviewMenu->addAction(tr("Pause Sweep Submission"));
    pause->setObjectName(QStringLiteral("pauseSweepSubmission"));
    connect(pause, &QAction::triggered, this, [this] {
        Q_EMIT pauseRequested(m_model->sweepId(), !m_model->isPaused());
    });
    // For the sweep shown when the menu opens; also one none of whose cases was sent yet.
    const auto update = [this, note, tags, pause] {
        const bool shown = m_model->sweepId() > 0;
        note->setEnabled(shown);
        tags->setEnabled(shown);
        pause->setEnabled(shown);
        pause->setText(m_model->isPaused() ? tr("Resume Sweep Submission") : tr("Pause Sweep Submission"));
        pause->setToolTip(m_model->isPaused()
                              ? tr("Send the sweep's cases that were held back, each once")
                              : tr("Hold back the sweep's cases that have not been sent yet, also after a restart"));
    };
    update();
    connect(reviewMenu, &QMenu::aboutToShow, this, update);
    connect(m_model, &SweepResultsModel::reviewChanged, this, update);
    connect(m_model, &QAbstractItemModel::modelReset, this, update);
}

void SweepResultsView::setSweepChoices(const QList<QPair<qint64, QString>> &sweeps)
{
    {
        const QSignalBlocker block(m_sweepChooser);
        m_sweepChooser->clear();
        for (const auto &s : sweeps)
            m_sweepChooser->addItem(s.second, s.first);
    }
    m_sweepChooser->setVisible(!sweeps.isEmpty());
    refreshHeader();
}

void SweepResultsView::refreshHeader()
{
    const qint64 id = m_model->sweepId();
    {
        const QSignalBlocker block(m_sweepChooser);
        m_sweepChooser->setCurrentIndex(id > 0 ? m_sweepChooser->findData(id) : -1);
    }
    if (id == 0) {
        m_summary->setText(m_sweepChooser->count() > 0
                               ? tr("Select a task of a sweep, or choose a sweep, to see its results.")
                               : tr("Select a task of a sweep to see the sweep's results."));
    } else {
        // Named by the chooser when it lists the sweep, else here.
        QString text = m_sweepChooser->currentIndex() >= 0 ? QString() : tr("Sweep %1: ").arg(id);
        text += tr("%1 of %n case(s) with results", nullptr, m_model->designPointCount())
                    .arg(m_model->withResultsCount());
        if (const int unsent = m_model->unsentCount(); unsent > 0)
            text += tr(", %n not sent yet", nullptr, unsent);
        if (m_model->isPaused())
            text += tr(" \u2014 submission paused");
        m_summary->setText(text);
    }
    m_summary->setToolTip(m_summary->text());
    QStringList review;
    if (!m_model->sweepTags().isEmpty())
        review << tr("Tags: %1").arg(m_model->sweepTags().join(QStringLiteral(", ")));
    if (!m_model->sweepNote().isEmpty())
        review << tr("Note: %1").arg(m_model->sweepNote().simplified());
    const QString full = review.join(QStringLiteral("  \u00b7  "));
    m_reviewLine->setToolTip(m_model->sweepNote().isEmpty() ? full
                                                            : full + QStringLiteral("\n\n") + m_model->sweepNote());
    m_reviewLine->setProperty("fullText", full);
    m_reviewLine->setText(m_reviewLine->fontMetrics().elidedText(full, Qt::ElideRight,
                                                                 std::max(40, width() - 12)));
    m_reviewLine->setVisible(!full.isEmpty());
    m_compare->setMarkedBaseline(m_model->baselineTask());
}

void SweepResultsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const QString full = m_reviewLine->property("fullText").toString();
    if (!full.isEmpty())
        m_reviewLine->setText(m_reviewLine->fontMetrics().elidedText(full, Qt::ElideRight, std::max(40, width() - 12)));
}

void SweepResultsView::refreshChoices()
{
    m_plot->refreshChoices();
    refreshHeader();
    m_plot->replot();
}

QList<QPointF> SweepResultsView::plottedPoints() const
{
    return m_plot->plottedPoints();
}

QList<QPointF> SweepResultsView::unconvergedPoints() const
{
    return m_plot->unconvergedPoints();
}

QList<QScatterSeries *> SweepResultsView::outcomeSeries() const
{
    return m_plot->outcomeSeries();
}

QList<QLineSeries *> SweepResultsView::lineSeries() const
{
    return m_plot->lineSeries();
}

bool SweepResultsView::isLogY() const
{
    return m_plot->isLogY();
}

QString SweepResultsView::plotTitle() const
{
    return m_plot->title();
}

bool SweepResultsView::setPlot(const QString &parameter, const QString &scalar)
{
    return m_plot->setPlot(parameter, scalar);
}

void SweepResultsView::setPlotKey(const QString &key)
{
    m_plot->setPlotKey(key);
}

QComboBox *SweepResultsView::xCombo() const
{
    return m_plot->xCombo();
}

QComboBox *SweepResultsView::yCombo() const
{
    return m_plot->yCombo();
}

QChartView *SweepResultsView::chartView() const
{
    return m_plot->chartView();
}

bool SweepResultsView::exportCsv(const QString &path) const
{
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(m_model->toCsv().toUtf8()) >= 0 && file.commit();
}

SvgPlot SweepResultsView::plot() const
{
    return m_plot->plot();
}

bool SweepResultsView::exportSvg(const QString &path) const
{
    return m_plot->exportSvg(path);
}

bool SweepResultsView::exportPng(const QString &path)
{
    return m_plot->exportPng(path);
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
    const QString path = saveFileName(this, tr("Export Sweep Results"), base + QLatin1Char('.') + kind, filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == QLatin1String("csv") ? exportCsv(path)
                    : kind == QLatin1String("svg") ? exportSvg(path)
                                                   : exportPng(path);
    if (!ok)
        QMessageBox::warning(this, tr("Export Sweep Results"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

void SweepResultsView::enlargePlot()
{
    // Taking the plot out and putting it back lays the splitter out afresh (the table squeezed
    // to a third of its width, or the plot to nothing): it comes back at the widths it had.
    const QList<int> sizes = m_split->sizes();
    QChartView *view = m_plot->chartView();
    enlargeIntoWindow(view, m_split, tr("Sweep Results Plot"), QStringLiteral("enlargedPlot"),
                      [this, sizes, view] {
                          m_split->insertWidget(1, view); // back beside the table
                          m_split->setSizes(sizes);
                      });
}

QList<qint64> SweepResultsView::selectedTasks() const
{
    return m_rows->selectedTasks();
}

void SweepResultsView::compareSelected()
{
    m_compare->setCases(selectedTasks());
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
}

void SweepResultsView::setOverlayModel(SweepResultsModel *overlay)
{
    m_plot->setOverlayModel(overlay);
}

void SweepResultsView::setOverlayChoices(const QList<QPair<qint64, QString>> &sweeps)
{
    m_overlayChoices = sweeps;
    bool kept = false;
    for (const auto &c : sweeps)
        kept = kept || c.first == m_overlaySweep;
    if (!kept && m_overlaySweep)
        chooseOverlay(0); // not a sweep of this tool
    m_plot->setOverlay(m_overlaySweep, overlayName());
    fillOverlayMenu();
}

void SweepResultsView::fillOverlayMenu()
{
    QMenu *menu = m_overlayMenu;
    menu->clear();
    const auto add = [&](qint64 id, const QString &text) {
        QAction *a = menu->addAction(text, this, [this, id] { chooseOverlay(id); });
        a->setCheckable(true);
        a->setChecked(id == m_overlaySweep);
        a->setData(id);
    };
    add(0, tr("No other sweep"));
    for (const auto &c : std::as_const(m_overlayChoices))
        add(c.first, c.second);
    m_overlayMenu->setEnabled(!m_overlayChoices.isEmpty());
}

void SweepResultsView::chooseOverlay(qint64 sweepId)
{
    m_overlaySweep = sweepId;
    fillOverlayMenu();
    Q_EMIT overlayRequested(sweepId);
    m_plot->setOverlay(sweepId, overlayName());
    m_plot->replot();
}

QList<QPointF> SweepResultsView::overlayPoints() const
{
    return m_plot->overlayPoints();
}

QString SweepResultsView::overlayName() const
{
    for (const auto &c : m_overlayChoices)
        if (c.first == m_overlaySweep)
            return c.second;
    return {};
}

void SweepResultsView::showParallelCoordinates()
{
    if (!m_parallel)
        m_parallel = new ParallelCoordinatesPanel(m_model, m_table, this);
    m_parallel->show();
    m_parallel->raise();
    m_parallel->activateWindow();
}

void SweepResultsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_splitShared)
        return;
    // The splitter would size the table by its many columns and leave the plot a strip too
    // narrow for its axis labels (Qt Charts cuts them to "..."): three fifths and two fifths,
    // once the dock has its width.
    QTimer::singleShot(0, this, [this] {
        const int width = m_split->width() - m_split->handleWidth();
        if (m_splitShared || width <= 0)
            return;
        m_splitShared = true;
        m_split->setSizes({width * 3 / 5, width - width * 3 / 5});
    });
}

} // namespace Eddy
