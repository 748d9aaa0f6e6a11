#include "widgets/mainwindow.h"
#include "models/chartseriesset.h"
#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/outcomepalette.h"
#include "models/tasktablemodel.h"
#include "widgets/agentpanel.h"
#include "widgets/answerpanel.h"
#include "widgets/attachdialog.h"
#include "widgets/elicitationdialog.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/serverdialog.h"
#include "widgets/statustimeline.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Eddy {

using json = nlohmann::json;
using Store::TaskStatus;

namespace {

} // namespace

void MainWindow::updateTitle()
{
    // Never a task id here: titles end up in screenshots, screen shares and window lists.
    const QString session = m_session ? m_sessions->name(*m_session) : tr("All sessions");
    const QString title = session.isEmpty() ? tr("Eddy") : tr("%1 — Eddy").arg(session);
    setWindowTitle(m_readOnlyBanner ? tr("%1 (read-only)").arg(title) : title);
}

QString MainWindow::statusCountsText() const
{
    using Monitor::Outcome;
    const auto c = m_monitor->shownOutcomeCounts(); // a review filter narrows the counts
    return tr("Working %1 · Waiting for input %2 · Done %3 · Not converged %4 · Tool error %5 · Failed %6 · "
              "Cancelled %7 · Expired/lost %8")
        .arg(c.value(Outcome::Working))
        .arg(c.value(Outcome::NeedsInput))
        .arg(c.value(Outcome::Converged) + c.value(Outcome::Completed))
        .arg(c.value(Outcome::NotConverged))
        .arg(c.value(Outcome::ToolError))
        .arg(c.value(Outcome::Failed))
        .arg(c.value(Outcome::Cancelled))
        .arg(c.value(Outcome::Expired) + c.value(Outcome::Lost));
}

void MainWindow::updateStatusBar()
{
    using Monitor::Outcome;
    const auto c = m_monitor->shownOutcomeCounts(); // a review filter narrows the counts
    const auto set = [&](const QString &label, Outcome outcome, int n) {
        QLabel *l = m_counts.value(label);
        if (!l)
            return;
        // Counts of nothing stay out of the way, except the first three.
        l->setVisible(n > 0 || outcome == Outcome::Working || outcome == Outcome::NeedsInput
                      || outcome == Outcome::Converged);
        l->setText(QStringLiteral("<span style='color:%1'>&#9679;</span> %2 <b>%3</b>&nbsp;&nbsp;")
                       .arg(OutcomePalette::color(outcome).name(), label.toHtmlEscaped())
                       .arg(n));
    };
    set(tr("Working"), Outcome::Working, c.value(Outcome::Working));
    set(tr("Waiting for input"), Outcome::NeedsInput, c.value(Outcome::NeedsInput));
    set(tr("Done"), Outcome::Converged, c.value(Outcome::Converged) + c.value(Outcome::Completed));
    set(tr("Not converged"), Outcome::NotConverged, c.value(Outcome::NotConverged));
    set(tr("Tool error"), Outcome::ToolError, c.value(Outcome::ToolError));
    // Every task is counted once, under its own outcome: a cancelled case or one the server
    // forgot is neither done nor failed.
    set(tr("Failed"), Outcome::Failed, c.value(Outcome::Failed));
    set(tr("Cancelled"), Outcome::Cancelled, c.value(Outcome::Cancelled));
    set(tr("Expired/lost"), Outcome::Lost, c.value(Outcome::Expired) + c.value(Outcome::Lost));
    if (m_inboxDock) {
        const int pending = m_inbox->pendingCount();
        m_inboxDock->setWindowTitle(pending ? tr("Input Inbox (%1)").arg(pending) : tr("Input Inbox"));
    }
}

void MainWindow::start()
{
    QSettings settings;
    const qint64 last = settings.value(QStringLiteral("session/last"), SessionListModel::AllSessions).toLongLong();
    m_session = last == SessionListModel::AllSessions ? std::nullopt : std::optional<qint64>(last);
    m_tasks->setShowAllSessions(!m_session);
    m_bridge->requestSnapshot(m_session);
    m_bridge->requestCaseQuestions(); // journalled before a restart: asked again
}

void MainWindow::switchSession(std::optional<qint64> sessionId)
{
    m_session = sessionId;
    m_tasks->clearAccepted();
    m_tasks->setShowAllSessions(!sessionId);
    m_bridge->requestSnapshot(sessionId);
    QSettings().setValue(QStringLiteral("session/last"), sessionId.value_or(SessionListModel::AllSessions));
}

void MainWindow::onSnapshot(const EngineBridge::Snapshot &s)
{
    if (s.sessionId != m_session)
        return; // an older request answered after a switch
    if (s.readOnly)
        setReadOnlyReview();
    m_servers->setServers(s.servers);
    m_tasks->setServerNames(ServerListModel::taskServerNames(s.servers));
    if (!m_serversContacted) {
        // A server without a task to poll would stay "not heard from" until F5: ask each one
        // who it is, so the list shows its real state from the start.
        m_serversContacted = true;
        for (const auto &server : m_servers->servers())
            if (m_servers->state(server.id) == ServerListModel::State::Unknown)
                m_bridge->refreshServer(server.id);
    }
    m_sessions->setSessions(s.sessions);
    // A remembered session that no longer exists: show everything instead of nothing.
    if (m_session && m_sessions->rowOf(*m_session) < 0) {
        switchSession(std::nullopt);
        return;
    }
    if (s.sessions.isEmpty() && !m_sessionKnown && !s.readOnly) {
        m_sessionKnown = true;
        m_bridge->createSession(tr("Session %1").arg(QDate::currentDate().toString(Qt::ISODate)));
    }
    m_sessionKnown = true;
    for (const auto &sw : s.sweeps) {
        m_sweeps.insert(sw.id, sw);
        m_tasks->acceptSweep(sw.id);
    }
    for (auto it = s.caseIndex.begin(); it != s.caseIndex.end(); ++it)
        m_tasks->setCaseIndex(it.key(), it.value());
    for (const auto &sw : s.sweeps)
        m_tasks->setSweepInfo(sw.id, sweepLabel(sw.id), EngineBridge::variedNames(sw.spec));
    updateSweepChoices();
    // A reload (F5 after missed changes, another program's work) keeps what is selected: the
    // tasks in the monitor and the question in the inbox.
    const QList<qint64> selected = m_monitor->selectedTaskIds();
    const Store::InputRequestRecord *picked = m_inbox->request(m_inboxView->currentIndex().row());
    const auto question = picked ? std::optional(qMakePair(picked->taskId, picked->key)) : std::nullopt;
    m_tasks->setTasks(s.tasks);
    m_monitor->selectTasks(selected);
    m_sessionList->setCurrentIndex(m_sessions->index(std::max(0, m_sessions->rowOf(m_session.value_or(SessionListModel::AllSessions)))));
    // Open questions, and the answered ones of the shown tasks as their record.
    QList<Store::InputRequestRecord> questions = s.pendingInputs;
    for (const auto &r : s.answeredInputs) {
        if (m_tasks->task(r.taskId))
            questions << r;
    }
    m_inbox->setRequests(questions);
    if (const int row = question ? m_inbox->rowOf(question->first, question->second) : -1; row >= 0)
        m_inboxView->selectionModel()->setCurrentIndex(m_inbox->index(row, InboxModel::MessageColumn),
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    updateTitle();
    updateStatusBar();
    onSelection(m_monitor->selectedTaskIds());
    Q_EMIT snapshotLoaded();
    if (m_autoDialogs)
        schedulePopup();
}

void MainWindow::updateSweepChoices()
{
    // The shown session's sweeps (all of them for all sessions), newest first.
    QList<QPair<qint64, QString>> choices;
    for (const Store::SweepRecord &sw : std::as_const(m_sweeps))
        if (!m_session || sw.sessionId == m_session)
            choices.append({sw.id, sweepLabel(sw.id)});
    std::sort(choices.begin(), choices.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    m_sweepResultsView->setSweepChoices(choices);
}

QString MainWindow::sweepLabel(std::optional<qint64> sweepId) const
{
    if (!sweepId)
        return {};
    return tr("Sweep %1").arg(*sweepId);
}

void MainWindow::onChanges(const Monitor::ChangeSet &changes)
{
    m_tasks->applyChanges(changes.tasks, changes.samples);
    m_sweepResults->updateTasks(changes.tasks);
    // A case new to a known sweep (a re-run is another attempt of its design point): its case
    // index, and the sweep view's row when that sweep is shown, come from the store.
    QSet<qint64> indexesAsked;
    bool resultsAsked = false;
    for (const auto &t : changes.tasks) {
        if (!t.sweepId || !t.caseId)
            continue;
        if (!m_tasks->hasCaseIndex(*t.caseId) && !indexesAsked.contains(*t.sweepId)) {
            indexesAsked.insert(*t.sweepId);
            m_bridge->requestSweep(*t.sweepId);
        }
        if (!resultsAsked && *t.sweepId == m_sweepResults->sweepId()
            && !m_sweepResults->knowsCase(*t.caseId)) {
            resultsAsked = true;
            m_bridge->requestSweepResults(*t.sweepId);
        }
    }
    for (const auto &t : changes.tasks)
        if (t.id == m_detailTask)
            m_bridge->requestTaskDetail(t.id);
    // Finishes and new questions arrive here only (the engine's taskFinished/inputRequested are
    // for its other consumers): each is announced once.
    for (const auto &t : changes.tasks)
        if (changes.finished.contains(t.id))
            announceFinished(t);
    // An ended task's questions come as stored (closed with it, or answered elsewhere); one
    // still open here was closed by the end all the same.
    for (const auto &r : changes.inputs)
        onInputRequested(r);
    for (const auto &t : changes.tasks)
        if (!t.isLive())
            m_inbox->closeTask(t.id, t.finishedAtMs.value_or(QDateTime::currentMSecsSinceEpoch()));
}

void MainWindow::announceFinished(const Store::TaskRecord &task)
{
    const QString label = m_tasks->caseLabel(task.id).isEmpty() ? tr("Task %1").arg(task.id) : m_tasks->caseLabel(task.id);
    if (task.status == TaskStatus::Completed && !task.isToolError)
        notify(tr("Task finished"), tr("%1 completed.").arg(label));
    else if (task.status == TaskStatus::Completed)
        notify(tr("Tool error"), tr("%1 completed with a tool error.").arg(label));
    else if (task.status == TaskStatus::Failed)
        notify(tr("Task failed"), tr("%1 failed.").arg(label));
}

void MainWindow::onSelection(const QList<qint64> &taskIds)
{
    const QList<qint64> charted = m_chartSeries->setTasks(taskIds);
    if (charted.isEmpty()) {
        m_detailTask = 0;
        m_result->clear();
        m_timeline->clear();
        m_chart->setPlaceholder(tr("Select a task to see its residuals.\nSelect several to compare them."));
        return;
    }
    m_chart->setPlaceholder(tr("Waiting for the first residuals..."));
    m_bridge->requestSamples(charted);
    m_detailTask = charted.first();
    m_bridge->requestTaskDetail(m_detailTask);
    if (const Store::TaskRecord *t = m_tasks->task(m_detailTask); t && t->sweepId && *t->sweepId != m_sweepResults->sweepId())
        m_bridge->requestSweepResults(*t->sweepId);
}

void MainWindow::onDetail(const EngineBridge::TaskDetail &detail)
{
    if (detail.task.id != m_detailTask)
        return;
    m_result->setTask(detail.task);
    m_result->setLineage(detail.parentTaskId, detail.childTaskIds);
    QStringList answers;
    for (const auto &r : detail.inputs) {
        QString asked = InboxModel::messageOf(r);
        if (asked.size() > 160)
            asked = asked.left(159) + QChar(0x2026);
        const bool serverKept = m_servers->server(detail.task.serverId);
        answers << tr("Asked: %1\nAnswer: %2")
                       .arg(asked, InboxModel::answerText(r, serverKept ? std::optional(detail.task.status) : std::nullopt));
    }
    m_result->setAnswers(answers);
    const qint64 end = detail.task.finishedAtMs.value_or(QDateTime::currentMSecsSinceEpoch());
    m_timeline->setTask(detail.task);
    m_timeline->setEvents(detail.events, end);
    m_timeline->setOutcome(detail.task.isLive() ? std::nullopt
                                                : std::optional<Monitor::Outcome>(Monitor::outcomeOf(detail.task)));
}

} // namespace Eddy
