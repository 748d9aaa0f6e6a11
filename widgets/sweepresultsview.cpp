#include "widgets/sweepresultsview.h"
#include "widgets/plotwindow.h"

#include "models/svgplot.h"
#include "models/outcomepalette.h"
#include "models/sweepfilterproxymodel.h"
#include "models/sweepresultsmodel.h"
#include "widgets/charttheme.h"
#include "widgets/compareview.h"
#include "widgets/parallelcoordinatespanel.h"
#include "widgets/sweeprowactions.h"
#include "widgets/filedialog.h"
#include "widgets/niceaxis.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QUrl>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <QValueAxis>

namespace Eddy {

SweepResultsView::SweepResultsView(SweepResultsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new SweepFilterProxyModel(this)) // the task view's Filter narrows it too
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_sweepChooser(new QComboBox(this))
    , m_reviewLine(new QLabel(this))
    , m_x(new QComboBox(this))
    , m_y(new QComboBox(this))
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_axisX(new QValueAxis(this))
    , m_axisY(new QValueAxis(this))
    , m_axisLogY(new QLogValueAxis(this))
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

    m_x->setObjectName(QStringLiteral("plotX"));
    m_y->setObjectName(QStringLiteral("plotY"));
    m_x->setToolTip(tr("Varied parameter on the x axis"));
    m_y->setToolTip(tr("Result scalar on the y axis"));
    m_x->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_y->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_x, &QComboBox::currentIndexChanged, this, &SweepResultsView::replot);
    connect(m_y, &QComboBox::currentIndexChanged, this, &SweepResultsView::replot);
    connect(m_y, &QComboBox::activated, this, [this] {
        m_userPickedY = true;
        rememberChoice();
    });
    connect(m_x, &QComboBox::activated, this, &SweepResultsView::rememberChoice);

    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    keepTicksNice(m_axisX);
    keepTicksNice(m_axisY);
    m_axisLogY->setBase(10);
    m_axisLogY->setLabelFormat(QStringLiteral("%.0e"));
    m_axisLogY->setMinorTickCount(0); // decade lines only: the plot is small
    // Beside the plot, not under it: the dock is short, and the y axis needs the height for its
    // title and labels.
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setChart(m_chart);
    // A taller or shorter plot labels more or fewer decades (see decadesPerLabel()), and may
    // have room for the y title upright or not.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        if (m_logY && m_logDecades > 0 && decadesPerLabel(m_logDecades) != m_logDecadesPerLabel)
            QMetaObject::invokeMethod(this, &SweepResultsView::replot, Qt::QueuedConnection);
        else
            QMetaObject::invokeMethod(this, &SweepResultsView::placeYTitle, Qt::QueuedConnection);
    });
    m_theme = ChartTheme::follow(m_view);
    connect(m_theme, &ChartTheme::applied, this, [this] {
        applyMarkerStyle();
        placeYTitle(); // Qt's theme reset the title's font
    });
    applyMarkerStyle();
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(100); // the dock may be small at 1280x800; Enlarge Plot gives room

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
    tools->addWidget(m_y);
    tools->addWidget(new QLabel(tr("against"), this));
    tools->addWidget(m_x);
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
    split->addWidget(m_view);
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
    const QString keepX = m_x->currentText();
    const QString keepY = m_y->currentText();
    const QStringList params = m_model->parameterNames();
    const QStringList scalars = m_model->scalarNames();
    // What the user chose last time for this server and tool, when this sweep has it.
    const QStringList remembered = rememberedChoice();
    const bool useRemembered = remembered.size() == 2 && params.contains(remembered[0])
                               && scalars.contains(remembered[1]);
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
            // A useful first choice: the first numeric varied parameter (not a yes/no switch).
            int pick = int(params.indexOf(useRemembered ? remembered[0] : keepX));
            for (int i = 0; pick < 0 && i < params.size(); ++i) {
                if (m_model->isNumericParameter(params[i]))
                    pick = i;
            }
            m_x->setCurrentIndex(std::max(0, pick));
        }
        if (useRemembered && m_y->currentText() != remembered[1]) {
            m_y->clear();
            m_y->addItems(scalars);
            m_y->setCurrentIndex(int(scalars.indexOf(remembered[1])));
            m_userPickedY = true;
        } else if (oldY != scalars || !m_model->scalarVaries(m_y->currentText())) {
            m_y->clear();
            m_y->addItems(scalars);
            // A useful first choice: the final residual if it varies, else the first scalar that
            // varies over the cases, else the first.
            int pick = int(scalars.indexOf(keepY));
            if (pick >= 0 && !m_model->scalarVaries(keepY) && !m_userPickedY)
                pick = -1;
            if (pick < 0 && m_model->scalarVaries(QStringLiteral("final_residual")))
                pick = int(scalars.indexOf(QStringLiteral("final_residual")));
            for (int i = 0; pick < 0 && i < scalars.size(); ++i) {
                if (m_model->scalarVaries(scalars[i]))
                    pick = i;
            }
            if (pick < 0)
                pick = int(scalars.indexOf(QStringLiteral("final_residual")));
            m_y->setCurrentIndex(std::max(0, pick));
        }
    }
    refreshHeader();
    replot();
}

QList<QPointF> SweepResultsView::unconvergedPoints() const
{
    const int i = int(m_seriesOutcome.indexOf(int(Monitor::Outcome::NotConverged)));
    return i < 0 ? QList<QPointF>() : m_outcomeSeries.at(i)->points();
}

QString SweepResultsView::plotTitle() const
{
    return m_chart->title();
}

bool SweepResultsView::setPlot(const QString &parameter, const QString &scalar)
{
    const int x = m_x->findText(parameter);
    const int y = m_y->findText(scalar);
    if (x < 0 || y < 0)
        return false;
    m_x->setCurrentIndex(x);
    m_y->setCurrentIndex(y);
    m_userPickedY = true;
    replot();
    return true;
}

namespace {

using Monitor::Outcome;

// The legend's order: success first, then what an engineer must look at.
constexpr Outcome s_outcomeOrder[] = {Outcome::Converged,
                                      Outcome::Completed,
                                      Outcome::NotConverged,
                                      Outcome::ToolError,
                                      Outcome::Failed,
                                      Outcome::Cancelled,
                                      Outcome::Expired,
                                      Outcome::Lost,
                                      Outcome::Working,
                                      Outcome::NeedsInput};

bool joinable(Outcome o)
{
    return o == Outcome::Converged || o == Outcome::Completed;
}

} // namespace

QString SweepResultsView::outcomeName(int outcome)
{
    switch (Outcome(outcome)) {
    case Outcome::Converged:
        return tr("Converged");
    case Outcome::NotConverged:
        return tr("Not converged");
    default:
        return OutcomePalette::label(Outcome(outcome));
    }
}

void SweepResultsView::applyMarkerStyle()
{
    const QColor background = m_view->palette().color(QPalette::Base);
    for (int i = 0; i < m_outcomeSeries.size(); ++i) {
        QScatterSeries *series = m_outcomeSeries.at(i);
        const auto outcome = Outcome(m_seriesOutcome.at(i));
        const QColor color = OutcomePalette::color(outcome, m_theme->isDark());
        series->setMarkerSize(9);
        series->setPen(QPen(color, 1));
        series->setBrush(color);
        switch (OutcomePalette::marker(outcome)) {
        case OutcomePalette::Marker::Dot:
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            break;
        case OutcomePalette::Marker::Ring: // hollow: not a result to trust
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            series->setMarkerSize(11);
            series->setBrush(background);
            series->setPen(QPen(color, 2.5));
            break;
        case OutcomePalette::Marker::Diamond:
            series->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
            break;
        case OutcomePalette::Marker::Cross:
            series->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
            series->setMarkerSize(11);
            break;
        case OutcomePalette::Marker::Square:
            series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            break;
        }
        // The legend draws the series' own look unless told (a hollow ring stays hollow).
        for (QLegendMarker *marker : m_chart->legend()->markers(series)) {
            marker->setPen(series->pen());
            marker->setBrush(series->brush());
        }
    }
    for (QLineSeries *line : std::as_const(m_lines))
        line->setPen(QPen(OutcomePalette::color(Outcome::Converged, m_theme->isDark()), 1.5));
    // The other sweep in the palette's link colour (blue in light and dark), dashed, squares.
    const QColor overlay = m_view->palette().color(QPalette::Link);
    for (QXYSeries *series : std::as_const(m_overlaySeries)) {
        if (auto *marks = qobject_cast<QScatterSeries *>(series)) {
            marks->setColor(overlay);
            marks->setBorderColor(overlay);
        } else {
            series->setPen(QPen(overlay, 1.5, Qt::DashLine));
        }
    }
}

void SweepResultsView::rebuildSeries(const QList<QPointF> &points, const QList<int> &outcomes)
{
    for (QAbstractSeries *series : m_chart->series()) {
        m_chart->removeSeries(series);
        delete series;
    }
    m_outcomeSeries.clear();
    m_seriesOutcome.clear();
    m_lines.clear();
    m_overlaySeries.clear(); // deleted with the others; addOverlay() draws them again
    QAbstractAxis *axisY = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    const auto add = [&](QXYSeries *series) {
        m_chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(axisY);
    };
    // Lines first, under the points. Only consecutive points (along the sorted x) of one
    // successful outcome are joined: a line through an unconverged or failed point, or from a
    // converged to an unconverged one, would read as one curve of trustworthy results. When an x
    // value repeats (another varied parameter), points of several curves interleave: no lines.
    bool distinctX = true;
    for (int i = 1; i < points.size(); ++i)
        distinctX = distinctX && points.at(i).x() != points.at(i - 1).x();
    for (int i = 0; distinctX && i < points.size();) {
        int j = i + 1;
        while (j < points.size() && outcomes.at(j) == outcomes.at(i))
            ++j;
        if (j - i >= 2 && joinable(Outcome(outcomes.at(i)))) {
            auto *line = new QLineSeries;
            line->replace(points.mid(i, j - i));
            add(line);
            m_chart->legend()->markers(line).first()->setVisible(false);
            m_lines << line;
        }
        i = j;
    }
    for (Outcome outcome : s_outcomeOrder) {
        QList<QPointF> mine;
        for (int i = 0; i < points.size(); ++i) {
            if (outcomes.at(i) == int(outcome))
                mine << points.at(i);
        }
        if (mine.isEmpty())
            continue;
        auto *series = new QScatterSeries;
        series->setName(outcomeName(int(outcome)));
        series->replace(mine);
        add(series);
        m_outcomeSeries << series;
        m_seriesOutcome << int(outcome);
    }
    applyMarkerStyle();
}

void SweepResultsView::replot()
{
    const auto all = m_model->outcomePoints(m_x->currentText(), m_y->currentText());
    QList<QPointF> pts;
    QList<int> outcomes;
    bool onlySuccess = true;
    for (const auto &p : all) {
        pts << p.at;
        outcomes << int(p.outcome);
        onlySuccess = onlySuccess && joinable(p.outcome);
    }
    const bool logY = m_model->isLogScalar(m_y->currentText()) && !pts.isEmpty();
    if (logY != m_logY) {
        // Swap the vertical axis: log for residual-like scalars (positive, > 2 decades).
        QAbstractAxis *from = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
        QAbstractAxis *to = logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
        for (QAbstractSeries *series : m_chart->series())
            series->detachAxis(from);
        from->setVisible(false); // else its title and labels linger in the chart's corner
        m_chart->removeAxis(from);
        from->setParent(this); // removeAxis hands ownership back; keep it for a later swap
        m_chart->addAxis(to, Qt::AlignLeft);
        to->setVisible(true);
        m_theme->apply(); // the axis kept the look of the theme it last had
        m_logY = logY;
    }
    // Nothing to plot: no axes either. An empty 0..1 frame says nothing, and in the short dock
    // Qt Charts cut its labels to "...", which looked broken.
    m_axisX->setVisible(!pts.isEmpty());
    if (!m_logY)
        m_axisY->setVisible(!pts.isEmpty());
    m_plotted = pts;
    rebuildSeries(pts, outcomes);
    addOverlay();
    // The key matters once anything but a good result is drawn, or another sweep.
    m_chart->legend()->setVisible(!onlySuccess || !m_overlaySeries.isEmpty());
    m_axisX->setTitleText(m_yTitleOnTop ? QString() : m_x->currentText());
    m_axisY->setTitleText(m_yTitleOnTop ? QString() : m_y->currentText());
    m_axisLogY->setTitleText(m_yTitleOnTop ? QString() : m_y->currentText());
    if (pts.isEmpty()) {
        setNiceRange(m_axisX, 0, 1);
        setNiceRange(m_axisY, 0, 1);
        QString title;
        if (m_model->sweepId()) {
            title = m_model->withResultsCount() == 0
                        ? tr("No completed case yet.")
                        : tr("No numeric values of %1 against %2: choose other columns.")
                              .arg(m_y->currentText(), m_x->currentText());
        }
        m_yTitleOnTop = false;
        m_chart->setTitle(title);
        return;
    }
    if (!m_yTitleOnTop)
        m_chart->setTitle(QString());
    double x0 = pts.first().x(), x1 = x0, y0 = pts.first().y(), y1 = y0;
    for (const QPointF &p : pts + m_overlayPoints) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    const double padX = x1 > x0 ? (x1 - x0) * 0.05 : std::max(1.0, std::abs(x0) * 0.1);
    setNiceRange(m_axisX, x0 - padX, x1 + padX);
    if (m_logY) {
        // A label every k decades, as many as the plot's height can hold: Qt Charts cuts labels
        // closer than their own height to "...", and in the dock a residual spanning ten
        // decades would leave none legible.
        const double lo = std::floor(std::log10(y0));
        const double hi = std::ceil(std::log10(y1));
        m_logDecades = hi - lo;
        const int k = decadesPerLabel(m_logDecades);
        m_logDecadesPerLabel = k;
        m_axisLogY->setBase(std::pow(10.0, k));
        const double from = std::floor(lo / k) * k;
        const double to = std::max(std::ceil(hi / k) * k, from + k);
        m_axisLogY->setRange(std::pow(10.0, from), std::pow(10.0, to));
    } else {
        const double padY = y1 > y0 ? (y1 - y0) * 0.08 : std::max(1e-12, std::abs(y0) * 0.1);
        setNiceRange(m_axisY, y0 - padY, y1 + padY);
    }
    placeYTitle();
}

void SweepResultsView::placeYTitle()
{
    if (m_plotted.isEmpty())
        return;
    const QString x = m_x->currentText();
    const QString y = m_y->currentText();
    QAbstractAxis *axis = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    // Above the plot the names take the x title's row: the plot keeps its height either way, so
    // its height says whether the y name fits upright (a few pixels' slack against flip-flop).
    const double length = m_chart->plotArea().height();
    const double needed = QFontMetricsF(axis->titleFont()).horizontalAdvance(y) + (m_yTitleOnTop ? 14 : 8);
    // (Before the first layout there is no plot yet: keep the names on the axes.)
    const bool onTop = length > 0 && needed > length;
    m_yTitleOnTop = onTop;
    m_chart->setTitleFont(axis->titleFont()); // names, not a headline: no more height than needed
    m_axisX->setTitleText(onTop ? QString() : x);
    m_axisY->setTitleText(onTop ? QString() : y);
    m_axisLogY->setTitleText(onTop ? QString() : y);
    m_chart->setTitle(onTop ? tr("%1 vs %2").arg(y, x) : QString());
}

int SweepResultsView::decadesPerLabel(double decades) const
{
    const double height = m_chart->plotArea().height();
    // Qt Charts gives each label the axis height over the number of labels, less a padding
    // of a few pixels above and below.
    const double perLabel = QFontMetricsF(m_axisLogY->labelsFont()).height() + 8;
    int k = 1;
    while (height > 0 && (decades / k + 1) * perLabel > height && k < decades)
        ++k;
    return k;
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
    if (m_theme->isDark()) {
        plot.background = m_view->palette().color(QPalette::Base);
        plot.foreground = m_view->palette().color(QPalette::Text);
    }
    plot.logY = m_logY;
    // As on screen: the joined runs (no legend entry of their own), then a marker series per
    // outcome with no line.
    for (QLineSeries *line : m_lines) {
        const QList<QPointF> pts = line->points();
        plot.series << SvgPlot::Series{QString(), line->pen().color(), {pts.begin(), pts.end()}};
    }
    for (int i = 0; i < m_outcomeSeries.size(); ++i) {
        const QList<QPointF> pts = m_outcomeSeries.at(i)->points();
        SvgPlot::Series s{m_outcomeSeries.at(i)->name(),
                          OutcomePalette::color(Outcome(m_seriesOutcome.at(i)), m_theme->isDark()),
                          {pts.begin(), pts.end()},
                          true};
        s.line = false;
        plot.series << s;
    }
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
    const QString path = saveFileName(this, tr("Export Sweep Results"), base + QLatin1Char('.') + kind, filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == QLatin1String("csv") ? exportCsv(path)
                    : kind == QLatin1String("svg") ? exportSvg(path)
                                                   : exportPng(path);
    if (!ok)
        QMessageBox::warning(this, tr("Export Sweep Results"), tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

QStringList SweepResultsView::rememberedChoice() const
{
    if (m_plotKey.isEmpty())
        return {};
    return QSettings()
        .value(QStringLiteral("sweepPlot/") + QString::fromLatin1(QUrl::toPercentEncoding(m_plotKey)))
        .toStringList();
}

void SweepResultsView::rememberChoice() const
{
    if (m_plotKey.isEmpty() || m_x->currentText().isEmpty() || m_y->currentText().isEmpty())
        return;
    QSettings().setValue(QStringLiteral("sweepPlot/") + QString::fromLatin1(QUrl::toPercentEncoding(m_plotKey)),
                         QStringList{m_x->currentText(), m_y->currentText()});
}

void SweepResultsView::enlargePlot()
{
    // Taking the plot out and putting it back lays the splitter out afresh (the table squeezed
    // to a third of its width, or the plot to nothing): it comes back at the widths it had.
    const QList<int> sizes = m_split->sizes();
    enlargeIntoWindow(m_view, m_split, tr("Sweep Results Plot"), QStringLiteral("enlargedPlot"),
                      [this, sizes] {
                          m_split->insertWidget(1, m_view); // back beside the table
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
    m_overlay = overlay;
    connect(m_overlay, &SweepResultsModel::resultsChanged, this, &SweepResultsView::replot);
    connect(m_overlay, &QAbstractItemModel::modelReset, this, &SweepResultsView::replot);
}

void SweepResultsView::setOverlayChoices(const QList<QPair<qint64, QString>> &sweeps)
{
    m_overlayChoices = sweeps;
    bool kept = false;
    for (const auto &c : sweeps)
        kept = kept || c.first == m_overlaySweep;
    if (!kept && m_overlaySweep)
        chooseOverlay(0); // not a sweep of this tool
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
    replot();
}

QString SweepResultsView::overlayName() const
{
    for (const auto &c : m_overlayChoices)
        if (c.first == m_overlaySweep)
            return c.second;
    return {};
}

void SweepResultsView::addOverlay()
{
    m_overlayPoints.clear();
    m_overlaySeries.clear();
    if (!m_overlay || !m_overlaySweep || m_overlay->sweepId() != m_overlaySweep)
        return;
    QList<QPointF> joined; // the converged and completed ones make the curve
    for (const auto &p : m_overlay->outcomePoints(m_x->currentText(), m_y->currentText())) {
        if (m_logY && p.at.y() <= 0)
            continue; // nothing of it fits a log axis
        m_overlayPoints << p.at;
        if (joinable(p.outcome))
            joined << p.at;
    }
    if (m_overlayPoints.isEmpty())
        return;
    QAbstractAxis *axisY = m_logY ? static_cast<QAbstractAxis *>(m_axisLogY) : m_axisY;
    auto *line = new QLineSeries;
    line->replace(joined);
    auto *marks = new QScatterSeries;
    marks->replace(m_overlayPoints);
    marks->setName(overlayName());
    marks->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    marks->setMarkerSize(8);
    for (QXYSeries *series : {static_cast<QXYSeries *>(line), static_cast<QXYSeries *>(marks)}) {
        m_chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(axisY);
        m_overlaySeries << series;
    }
    m_chart->legend()->markers(line).first()->setVisible(false);
    applyMarkerStyle();
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
