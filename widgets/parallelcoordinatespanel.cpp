#include "widgets/parallelcoordinatespanel.h"

#include "models/parallelcoordinates.h"
#include "models/sweepresultsmodel.h"
#include "widgets/parallelcoordinatesview.h"

#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace Eddy {

ParallelCoordinatesPanel::ParallelCoordinatesPanel(SweepResultsModel *model, QTableView *table, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_model(model)
    , m_table(table)
    , m_view(new ParallelCoordinatesView(this))
    , m_axes(new QToolButton(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("ParallelCoordinatesPanel"));
    setWindowTitle(tr("Parallel Coordinates"));
    m_axes->setObjectName(QStringLiteral("parallelAxes"));
    m_axes->setText(tr("Axes"));
    m_axes->setToolTip(tr("Choose the results drawn as axes"));
    m_axes->setPopupMode(QToolButton::InstantPopup);
    m_axes->setMenu(new QMenu(m_axes));
    m_status->setObjectName(QStringLiteral("parallelStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    auto *tools = new QHBoxLayout;
    tools->addWidget(m_status, 1);
    tools->addWidget(m_axes);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_view, 1);

    connect(m_view, &ParallelCoordinatesView::brushed, this, &ParallelCoordinatesPanel::selectInTable);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ParallelCoordinatesPanel::tableSelectionChanged);
    connect(m_model, &SweepResultsModel::resultsChanged, this, &ParallelCoordinatesPanel::rebuild);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_userChose = false; // another sweep: its own default axes
        rebuild();
    });
    rebuild();
    resize(1100, 560);
}

void ParallelCoordinatesPanel::setChosenScalars(const QStringList &scalars)
{
    m_scalars = scalars;
    m_userChose = true;
    rebuild();
}

void ParallelCoordinatesPanel::rebuild()
{
    if (!m_userChose)
        m_scalars = ParallelCoordinates::defaultScalars(*m_model);
    m_view->setData(ParallelCoordinates::fromModel(*m_model, m_scalars));
    fillAxesMenu();
    tableSelectionChanged();
}

void ParallelCoordinatesPanel::fillAxesMenu()
{
    QMenu *menu = m_axes->menu();
    menu->clear();
    for (const QString &s : m_model->scalarNames()) {
        QAction *a = menu->addAction(s);
        a->setCheckable(true);
        a->setChecked(m_scalars.contains(s));
        connect(a, &QAction::toggled, this, [this, s](bool on) {
            QStringList chosen;
            for (const QString &name : m_model->scalarNames()) // in the table's order
                if (name == s ? on : m_scalars.contains(name))
                    chosen << name;
            setChosenScalars(chosen);
        });
    }
}

void ParallelCoordinatesPanel::selectInTable(const QSet<qint64> &taskIds)
{
    const QAbstractItemModel *proxy = m_table->model();
    // One range per run of adjacent rows: the table checks every painted cell against each
    // range, and a range per row made that, and selecting, grow with the brushed cases.
    QItemSelection selection;
    const int rows = proxy->rowCount();
    const int last = proxy->columnCount() - 1;
    for (int r = 0; r < rows;) {
        if (!taskIds.contains(proxy->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong())) {
            ++r;
            continue;
        }
        int end = r;
        while (end + 1 < rows
               && taskIds.contains(proxy->index(end + 1, 0).data(SweepResultsModel::TaskIdRole).toLongLong()))
            ++end;
        selection.append(QItemSelectionRange(proxy->index(r, 0), proxy->index(end, last)));
        r = end + 1;
    }
    m_syncing = true;
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_syncing = false;
    m_status->setText(m_view->data().hasBrush()
                          ? tr("%n case(s) inside the brushed ranges, selected in the sweep table.", nullptr,
                               int(taskIds.size()))
                          : tr("Drag along an axis to select cases; brushes on several axes select the "
                               "cases inside all of them."));
}

void ParallelCoordinatesPanel::tableSelectionChanged()
{
    if (m_syncing)
        return;
    QSet<qint64> ids;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        ids.insert(i.data(SweepResultsModel::TaskIdRole).toLongLong());
    const bool hadBrush = m_view->data().hasBrush();
    m_view->setSelected(ids);
    if (hadBrush || m_status->text().isEmpty())
        m_status->setText(tr("Drag along an axis to select cases; brushes on several axes select the "
                             "cases inside all of them."));
}

} // namespace Eddy
