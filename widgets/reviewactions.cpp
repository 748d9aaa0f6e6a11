#include "widgets/reviewactions.h"

#include "models/enginebridge.h"
#include "models/sweepfilterproxymodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/elicitationdialog.h" // complete for the window's QPointer
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/reviewfilterbutton.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QInputDialog>
#include <QRegularExpression>
#include <QMessageBox>
#include <QStatusBar>

namespace Eddy {

ReviewActions::ReviewActions(MainWindow *window, EngineBridge *bridge)
    : QObject(window)
    , m_window(window)
    , m_bridge(bridge)
{
    TaskMonitor *monitor = window->monitor();
    TaskTableModel *tasks = window->taskModel();
    connect(monitor, &TaskMonitor::noteRequested, this, &ReviewActions::editNote);
    connect(monitor, &TaskMonitor::tagsRequested, this, &ReviewActions::editTags);
    connect(monitor, &TaskMonitor::pauseRequested, this, [this](qint64 sweepId, bool paused) {
        m_bridge->setSweepPaused(sweepId, paused);
    });
    SweepResultsView *sweepView = window->sweepResults();
    connect(sweepView, &SweepResultsView::baselineRequested, this, &ReviewActions::markBaseline);
    connect(sweepView, &SweepResultsView::sweepNoteRequested, this, &ReviewActions::editSweepNote);
    connect(sweepView, &SweepResultsView::sweepTagsRequested, this, &ReviewActions::editSweepTags);
    connect(sweepView, &SweepResultsView::pauseRequested, this, [this](qint64 sweepId, bool paused) {
        if (sweepId > 0)
            m_bridge->setSweepPaused(sweepId, paused);
    });
    // The task view's filter narrows the sweep table too (its result scalars only there).
    if (auto *sweepProxy = qobject_cast<SweepFilterProxyModel *>(window->sweepResults()->proxy())) {
        sweepProxy->setRowReview([tasks](qint64 taskId) {
            const QModelIndex row = tasks->index(tasks->rowOf(taskId), 0);
            return SweepFilterProxyModel::RowReview{row.data(TaskTableModel::TagsRole).toStringList(),
                                                    row.data(TaskTableModel::SearchTextRole).toString()};
        });
        connect(monitor->filterButton(), &ReviewFilterButton::filterChanged, sweepProxy,
                [sweepProxy, monitor] { sweepProxy->setReviewFilter(monitor->filterButton()->filter()); });
        connect(bridge, &EngineBridge::caseReviewChanged, sweepProxy, [sweepProxy] { sweepProxy->invalidate(); });
        SweepResultsModel *results = window->sweepResults()->model();
        connect(results, &SweepResultsModel::resultsChanged, monitor->filterButton(),
                [results, monitor] { monitor->filterButton()->setResultNames(results->scalarNames()); });
    }

    connect(bridge, &EngineBridge::snapshotReady, this, [monitor, tasks](const EngineBridge::Snapshot &s) {
        tasks->setCaseReviews(s.annotatedCases);
        for (const Store::SweepRecord &sweep : s.sweeps)
            monitor->setSweepPaused(sweep.id, sweep.isPaused());
    });
    connect(bridge, &EngineBridge::caseReviewChanged, this, [this, tasks](const QList<Store::CaseRecord> &cases) {
        tasks->setCaseReviews(cases);
        for (const Store::CaseRecord &c : cases)
            if (m_detailCase == c.id)
                m_window->resultView()->setReview(c.note, c.tags);
    });
    connect(bridge, &EngineBridge::sweepReviewChanged, this, [this, monitor](const Store::SweepRecord &sweep) {
        m_window->sweepResults()->model()->setReview(sweep); // when it is the sweep shown
        const bool was = monitor->isSweepPaused(sweep.id);
        monitor->setSweepPaused(sweep.id, sweep.isPaused());
        if (was != sweep.isPaused())
            m_window->statusBar()->showMessage(
                sweep.isPaused() ? tr("Sweep %1 paused: its cases not sent yet are held back.").arg(sweep.id)
                                 : tr("Sweep %1 resumed: its held-back cases are being sent.").arg(sweep.id),
                8000);
    });
    connect(bridge, &EngineBridge::taskDetailReady, this, [this](const EngineBridge::TaskDetail &d) {
        m_detailCase.reset();
        if (d.caseRecord)
            m_detailCase = d.caseRecord->id;
        m_window->resultView()->setReview(d.caseRecord ? d.caseRecord->note : QString(),
                                          d.caseRecord ? d.caseRecord->tags : QStringList());
    });
    connect(bridge, &EngineBridge::reviewFailed, this, [this](const QString &message) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Not Stored"), message, QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("reviewError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

QList<qint64> ReviewActions::caseIdsOf(const QList<qint64> &taskIds) const
{
    QList<qint64> out;
    for (qint64 id : taskIds)
        if (const Store::TaskRecord *t = m_window->taskModel()->task(id); t && t->caseId)
            out << *t->caseId;
    return out;
}

QInputDialog *ReviewActions::newInputDialog(const QString &objectName, const QString &title,
                                            const QString &label) const
{
    auto *dialog = new QInputDialog(m_window);
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    dialog->setLabelText(label);
    return dialog;
}

void ReviewActions::editNote(const QList<qint64> &taskIds)
{
    const QList<qint64> cases = caseIdsOf(taskIds);
    if (cases.isEmpty())
        return;
    QInputDialog *dialog = newInputDialog(QStringLiteral("noteDialog"), tr("Edit Note"),
                                          tr("Note on %n case(s) (empty clears it):", nullptr, int(cases.size())));
    dialog->setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog->setTextValue(m_window->taskModel()->caseNote(cases.first()));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, cases](const QString &text) {
        m_bridge->setCaseNote(cases, text.trimmed());
    });
    dialog->open();
}

void ReviewActions::editTags(const QList<qint64> &taskIds)
{
    const QList<qint64> cases = caseIdsOf(taskIds);
    if (cases.isEmpty())
        return;
    QInputDialog *dialog = newInputDialog(QStringLiteral("tagsDialog"), tr("Edit Tags"),
                                          tr("Tags of %n case(s), separated by spaces (e.g. suspect mesh-study):",
                                             nullptr, int(cases.size())));
    dialog->setTextValue(m_window->taskModel()->caseTags(cases.first()).join(QLatin1Char(' ')));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, cases](const QString &text) {
        m_bridge->setCaseTags(cases, tagsOf(text));
    });
    dialog->open();
}

QStringList ReviewActions::tagsOf(const QString &text)
{
    return text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
}

void ReviewActions::editSweepNote(qint64 sweepId)
{
    SweepResultsModel *shown = m_window->sweepResults()->model();
    if (sweepId <= 0 || shown->sweepId() != sweepId)
        return;
    QInputDialog *dialog = newInputDialog(QStringLiteral("sweepNoteDialog"), tr("Edit Sweep Note"),
                                          tr("Note on sweep %1 (empty clears it):").arg(sweepId));
    dialog->setOption(QInputDialog::UsePlainTextEditForTextInput);
    dialog->setTextValue(shown->sweepNote());
    connect(dialog, &QInputDialog::textValueSelected, this, [this, sweepId](const QString &text) {
        m_bridge->setSweepNote(sweepId, text.trimmed());
    });
    dialog->open();
}

void ReviewActions::editSweepTags(qint64 sweepId)
{
    SweepResultsModel *shown = m_window->sweepResults()->model();
    if (sweepId <= 0 || shown->sweepId() != sweepId)
        return;
    QInputDialog *dialog = newInputDialog(QStringLiteral("sweepTagsDialog"), tr("Edit Sweep Tags"),
                                          tr("Tags of sweep %1, separated by spaces (e.g. mesh-study "
                                             "validated):").arg(sweepId));
    dialog->setTextValue(shown->sweepTags().join(QLatin1Char(' ')));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, sweepId](const QString &text) {
        m_bridge->setSweepTags(sweepId, tagsOf(text));
    });
    dialog->open();
}

void ReviewActions::markBaseline(qint64 taskId)
{
    const Store::TaskRecord *t = m_window->taskModel()->task(taskId);
    if (!t || !t->sweepId || !t->caseId)
        return;
    m_bridge->setBaseline(*t->sweepId, t->caseId);
    m_window->statusBar()->showMessage(tr("%1 is now its sweep's baseline.").arg(m_window->taskModel()->caseLabel(taskId)),
                                       8000);
}

} // namespace Eddy
