#include "widgets/mainwindow.h"
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

QString MainWindow::questionLabel(qint64 taskId) const
{
    if (!InboxModel::isCaseKey(taskId)) {
        const QString label = m_tasks->caseLabel(taskId);
        return label.isEmpty() ? tr("Task %1").arg(taskId) : label;
    }
    const Store::CaseRecord *c = m_inbox->caseOf(taskId);
    if (!c)
        return tr("Call %1").arg(-taskId);
    if (c->sweepId)
        return tr("%1 · case %2 (%3)").arg(sweepLabel(c->sweepId)).arg(c->index + 1).arg(c->tool);
    return tr("Call of %1").arg(c->tool);
}

void MainWindow::onCaseQuestion(const EngineBridge::CaseQuestion &q)
{
    Store::CaseRecord c = q.caseRecord;
    if (c.id == 0) { // the store had no record: what the engine said is enough to answer it
        c.id = q.question.caseId;
        c.tool = q.question.tool;
        c.arguments = q.question.arguments;
    }
    if (c.sweepId && !m_sweeps.contains(*c.sweepId))
        m_bridge->requestSweep(*c.sweepId);
    // The task it gets once answered is shown with this session's (after a restart the engine
    // no longer knows which session a single call was made in).
    m_tasks->acceptCase(c.id);
    const qint64 key = InboxModel::caseKey(c.id);
    if (!m_inbox->addCaseQuestion(c, q.question.key, q.question.request))
        return;                    // listed already
    if (m_deliveries.remove(c.id)) // it got through: the server is asking
        updateDeliveries();
    const Store::InputRequestRecord *r = m_inbox->request(m_inbox->rowOf(key, q.question.key));
    notify(tr("Input needed"),
           tr("%1 asks before starting: %2")
               .arg(questionLabel(key), r ? InboxModel::messageOf(*r) : QString()));
    if (m_autoDialogs)
        schedulePopup();
    else if (!m_answerPanel->hasQuestion())
        syncAnswerPanel(); // the hint counts the open questions
}

QString MainWindow::deliveryText(const Delivery &d) const
{
    const EngineBridge::CaseDelivery &x = d.delivery;
    const qint64 key = InboxModel::caseKey(x.caseId);
    const QString label = x.caseRecord.id ? [&] {
        if (x.caseRecord.sweepId)
            return tr("%1 · case %2 (%3)").arg(sweepLabel(x.caseRecord.sweepId)).arg(x.caseRecord.index + 1).arg(x.caseRecord.tool);
        return tr("Call of %1").arg(x.caseRecord.tool);
    }() : questionLabel(key);
    // The engine's account starts with why ("the server reset the connection; retry 2 of 6 ...").
    QString why = x.message.section(QStringLiteral("; retry "), 0, 0).trimmed();
    if (x.deferred) {
        QString last = x.message.section(QStringLiteral("the last error: "), 1)
                           .section(QStringLiteral(" It is kept"), 0, 0);
        if (last.isEmpty())
            last = x.message;
        return tr("%1: not sent: %2 — it will be sent again (same idempotency key) as soon as "
                  "the server answers again, when Eddy reopens or eddyctl watch runs")
            .arg(label, last.trimmed());
    }
    if (x.attempt <= 0) // a deferred case, sent again as its server answers again
        return tr("%1: sending again now: %2").arg(label, why);
    const qint64 left = std::max<qint64>(0, d.dueAtMs - QDateTime::currentMSecsSinceEpoch());
    if (left == 0)
        return tr("%1: retry %2 of %3 now: %4").arg(label).arg(x.attempt).arg(x.limit).arg(why);
    return tr("%1: retry %2 of %3 in %4 s: %5")
        .arg(label)
        .arg(x.attempt)
        .arg(x.limit)
        .arg((left + 999) / 1000)
        .arg(why);
}

void MainWindow::updateDeliveries()
{
    QStringList lines;
    for (auto it = m_deliveries.cbegin(); it != m_deliveries.cend(); ++it)
        lines << deliveryText(it.value());
    m_delivery->setVisible(!lines.isEmpty());
    if (lines.isEmpty()) {
        m_delivery->clear();
        m_delivery->setToolTip({});
        return;
    }
    m_delivery->setText(
        lines.size() == 1
            ? lines.first()
            : tr("%n call(s) not sent yet — %1", nullptr, int(lines.size())).arg(lines.first()));
    m_delivery->setToolTip(lines.join(QLatin1Char('\n')));
}

void MainWindow::onInputRequested(const Store::InputRequestRecord &request)
{
    // A question answered or closed elsewhere updates its row; one of a shown task not listed
    // yet is listed as the next start would list it.
    if (request.state != Store::InputState::Pending) {
        if (m_inbox->rowOf(request.taskId, request.key) >= 0)
            m_inbox->addRequests({request});
        else if (m_tasks->task(request.taskId))
            m_inbox->addRecord(request);
        return;
    }
    m_inbox->addRequests({request});
    // Announced once, when first seen open: never for a question listed already, answered or
    // closed, whatever path (a refresh, another process's write) brings its record again.
    const int row = m_inbox->rowOf(request.taskId, request.key);
    const Store::InputRequestRecord *listed = m_inbox->request(row);
    if (!listed || listed->state != Store::InputState::Pending
        || m_announced.contains({request.taskId, request.key}))
        return;
    m_announced.insert({request.taskId, request.key});
    notify(tr("Input needed"), tr("%1 asks: %2").arg(m_tasks->caseLabel(request.taskId), InboxModel::messageOf(request)));
    if (m_autoDialogs)
        schedulePopup();
    else if (!m_answerPanel->hasQuestion())
        syncAnswerPanel(); // the hint counts the open questions
}

void MainWindow::onInputAnswered(qint64 taskId, const QString &key, bool ok, const QString &message)
{
    m_inbox->setAnswerSent(taskId, key, ok);
    const QString label = questionLabel(taskId);
    if (!ok)
        showError(tr("Answer Not Sent"), tr("The answer for %1 did not arrive: %2").arg(label, message));
    else
        statusBar()->showMessage(tr("Answer sent for %1.").arg(label), 5000);
    if (taskId == m_detailTask)
        m_bridge->requestTaskDetail(taskId);
    // The sweep's export carries the answers.
    if (const Store::TaskRecord *t = m_tasks->task(taskId); ok && t && t->sweepId && *t->sweepId == m_sweepResults->sweepId())
        m_bridge->requestSweepResults(*t->sweepId);
}

void MainWindow::answerNext()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    if (const Store::InputRequestRecord *r = m_inbox->request(m_inbox->firstPendingRow()))
        answer(r->taskId, r->key);
}

void MainWindow::answer(qint64 taskId, const QString &key)
{
    if (m_autoDialogs) {
        openDialog(taskId, key); // asked for: also a question closed earlier with "Later"
        return;
    }
    showQuestion(taskId, key);
    if (m_answerPanel->hasQuestion()) {
        m_inboxDock->show();
        m_inboxDock->raise();
        m_answerPanel->setFocus();
    }
}

std::optional<ElicitationContext> MainWindow::questionContext(qint64 taskId, const QString &key, json *request)
{
    const Store::InputRequestRecord *r = m_inbox->request(m_inbox->rowOf(taskId, key));
    if (!r || r->state != Store::InputState::Pending)
        return std::nullopt;
    *request = json::parse(r->request.toStdString(), nullptr, false);
    if (!request->is_object()) {
        showError(tr("Unreadable Question"),
                  tr("The server sent a question Eddy cannot read. It was declined; check the server's logs."));
        sendAnswer(taskId, key, json{{"action", "decline"}});
        return std::nullopt;
    }
    const QString method = request->value("method", json()).is_string()
                               ? QString::fromStdString((*request)["method"].get<std::string>())
                               : QStringLiteral("elicitation/create");
    if (method != QLatin1String("elicitation/create")) {
        // Sampling and roots are deprecated and Eddy does not offer them: say no, visibly.
        sendAnswer(taskId, key, json{{"action", "decline"}});
        statusBar()->showMessage(tr("Declined a %1 request: Eddy only answers forms and links.").arg(method), 8000);
        return std::nullopt;
    }
    ElicitationContext ctx;
    if (InboxModel::isCaseKey(taskId)) {
        ctx.beforeTask = true;
        if (const Store::CaseRecord *c = m_inbox->caseOf(taskId)) {
            const Store::ServerRecord *server = m_servers->server(c->serverId);
            ctx.serverName = m_servers->displayName(c->serverId);
            ctx.serverUrl = server ? server->url : QString();
            ctx.tool = c->tool;
            ctx.arguments = c->arguments;
            if (c->sweepId) {
                const auto sw = m_sweeps.value(*c->sweepId);
                ctx.sweep
                    = sw.caseCount > 0
                          ? tr("%1 (%n case(s))", nullptr, sw.caseCount).arg(sweepLabel(c->sweepId))
                          : sweepLabel(c->sweepId);
            }
        }
        ctx.caseLabel = questionLabel(taskId);
    } else if (const Store::TaskRecord *t = m_tasks->task(taskId)) {
        const Store::ServerRecord *server = m_servers->server(t->serverId);
        ctx.serverName = m_servers->displayName(t->serverId);
        ctx.serverUrl = server ? server->url : QString();
        ctx.tool = t->tool;
        if (t->sweepId) {
            const auto sw = m_sweeps.value(*t->sweepId);
            ctx.sweep = sw.caseCount > 0 ? tr("%1 (%n case(s))", nullptr, sw.caseCount).arg(sweepLabel(t->sweepId))
                                         : sweepLabel(t->sweepId);
        }
        ctx.caseLabel = tr("%1: %2").arg(m_tasks->caseLabel(taskId), m_tasks->parametersText(taskId));
    } else {
        ctx.serverName = tr("an MCP server");
    }
    ctx.taskNumber = taskId;
    ctx.key = key;
    return ctx;
}

void MainWindow::showQuestion(qint64 taskId, const QString &key)
{
    const int row = m_inbox->rowOf(taskId, key);
    const Store::InputRequestRecord *r = m_inbox->request(row);
    if (!r)
        return;
    // The list and the monitor follow.
    const QModelIndex idx = m_inbox->index(row, InboxModel::MessageColumn);
    if (m_inboxView->currentIndex().row() != row)
        m_inboxView->setCurrentIndex(idx);
    if (!InboxModel::isCaseKey(taskId)
        && (!m_monitor->selectedTaskIds().contains(taskId)
            || m_monitor->selectedTaskIds().size() != 1))
        m_monitor->selectTask(taskId);
    if (m_chartDock->isVisible())
        m_chartDock->raise();
    if (m_answerPanel->hasQuestion() && m_answerPanel->taskId() == taskId && m_answerPanel->key() == key)
        return; // already there, perhaps half filled in
    if (r->state != Store::InputState::Pending) {
        const QString label = questionLabel(taskId);
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(
            tr("%1 asked:\n%2\n\nAnswer: %3")
                .arg(label, InboxModel::messageOf(*r), InboxModel::answerText(*r, endedAs(taskId))));
        return;
    }
    json request;
    if (const auto ctx = questionContext(taskId, key, &request)) {
        // Kept for the note that says why, should it close before it is answered: by then its
        // task (deleted with its server) may be gone.
        const Store::TaskRecord *t = m_tasks->task(taskId);
        const Store::CaseRecord *c = m_inbox->caseOf(taskId);
        m_panelQuestion = ClosedQuestion{taskId, key, t ? t->serverId : c ? c->serverId : 0,
                                         questionLabel(taskId), {}};
        m_answerPanel->setQuestion(request, *ctx);
        // Once its layout has settled at the panel's width.
        QMetaObject::invokeMethod(this, &MainWindow::fitInboxToQuestion, Qt::QueuedConnection);
    }
}

std::optional<Store::TaskStatus> MainWindow::endedAs(qint64 taskId) const
{
    const Store::TaskRecord *t = m_tasks->task(taskId);
    if (!t || t->isLive() || !m_servers->server(t->serverId))
        return std::nullopt; // running, unknown, or its server removed (which closed them)
    return t->status;
}

QString MainWindow::closedQuestionNote(const ClosedQuestion &q) const
{
    const Store::InputRequestRecord *r = m_inbox->request(m_inbox->rowOf(q.taskId, q.key));
    if (r && (r->state == Store::InputState::Answered || r->state == Store::InputState::Answering))
        return tr("This question of %1 was answered: %2").arg(q.label, InboxModel::answerText(*r));
    // Its task's end closed it (the store keeps why), or its server's removal: a removed server
    // leaves the list (its tasks kept as history, or deleted with it and their questions too).
    if (const QString why = r ? InboxModel::closedWhy(*r, endedAs(q.taskId)) : QString(); !why.isEmpty())
        return tr("This question of %1 is closed: %2.").arg(q.label, why);
    const bool closed = r && r->state == Store::InputState::Closed;
    if (closed || (q.serverId && !m_servers->server(q.serverId))) {
        return closed && !r->answer.isEmpty()
                   ? tr("This question of %1 is closed: its server was removed from Eddy before "
                        "the answer went out.").arg(q.label)
                   : tr("This question of %1 is closed: its server was removed from Eddy.").arg(q.label);
    }
    if (InboxModel::isCaseKey(q.taskId))
        return tr("This question of %1 is closed: the server no longer waits for it.").arg(q.label);
    if (const Store::TaskRecord *t = m_tasks->task(q.taskId); t && !t->isLive())
        return tr("This question of %1 is closed: its task ended (%2).")
            .arg(q.label, TaskTableModel::statusText(t->status, t->isToolError));
    return tr("This question of %1 is closed: its task ended.").arg(q.label);
}

void MainWindow::syncAnswerPanel()
{
    if (m_answerPanel->hasQuestion()) {
        const Store::InputRequestRecord *r =
            m_inbox->request(m_inbox->rowOf(m_answerPanel->taskId(), m_answerPanel->key()));
        if (r && r->state == Store::InputState::Pending)
            return;
        m_closedQuestion = m_panelQuestion;
        if (m_closedQuestion->taskId != m_answerPanel->taskId() || m_closedQuestion->key != m_answerPanel->key())
            m_closedQuestion = ClosedQuestion{m_answerPanel->taskId(), m_answerPanel->key(), 0,
                                              questionLabel(m_answerPanel->taskId()), {}};
        m_closedQuestion->note = closedQuestionNote(*m_closedQuestion);
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(m_closedQuestion->note);
        return;
    }
    // Why it closed may be known only later: a server removed by another process (or here) is
    // delisted after its tasks ended. The note is kept up to date while it is shown.
    if (m_closedQuestion && m_answerPanel->noteText() == m_closedQuestion->note) {
        const Store::InputRequestRecord *r =
            m_inbox->request(m_inbox->rowOf(m_closedQuestion->taskId, m_closedQuestion->key));
        if (!r || r->state != Store::InputState::Pending) {
            m_closedQuestion->note = closedQuestionNote(*m_closedQuestion);
            m_answerPanel->clearQuestion(m_closedQuestion->note);
        }
        return; // still open: an abort on its way, the note changes once it has ended
    }
    m_closedQuestion.reset();
    if (m_answerPanel->noteText().isEmpty() || m_answerPanel->property("defaultNote").toBool()) {
        const int open = m_inbox->pendingCount();
        m_answerPanel->clearQuestion(open ? tr("%n open question(s). Select one in the list to answer it here while its "
                                               "case stays in view.", nullptr, open)
                                          : QString());
        m_answerPanel->setProperty("defaultNote", true);
    }
}

void MainWindow::sendAnswer(qint64 taskId, const QString &key, const json &result)
{
    const Store::InputRequestRecord *r = m_inbox->request(m_inbox->rowOf(taskId, key));
    if (taskId == 0 || !r || r->state != Store::InputState::Pending)
        return; // answered once, never twice
    const QByteArray text = QByteArray::fromStdString(result.dump());
    const QString by = localUserName();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Store::InputRequestRecord sent = *r;
    sent.state = Store::InputState::Answering;
    sent.answer = QString::fromUtf8(text);
    const QString label = questionLabel(taskId);
    if (m_answerPanel->taskId() == taskId && m_answerPanel->key() == key) {
        // The next question is not put here by itself: a second click must find nothing to answer.
        const int open = m_inbox->pendingCount() - 1;
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(open > 0 ? tr("Answer sent for %1: %2.\n\n%n more open question(s): select the next one "
                                                   "in the list.", nullptr, open).arg(label, InboxModel::answerSummary(sent))
                                              : tr("Answer sent for %1: %2.").arg(label, InboxModel::answerSummary(sent)));
    }
    if (InboxModel::isCaseKey(taskId))
        m_bridge->answerCaseInput(
            -taskId, key, text); // no task yet: the call is sent again with it
    else
        m_bridge->answerInput(taskId, key, text, by);
    m_inbox->setAnswering(taskId, key, sent.answer, by, now);
    statusBar()->showMessage(tr("Answer sent for %1.").arg(label), 5000);
}

void MainWindow::openDialog(qint64 taskId, const QString &key)
{
    if (m_dialog)
        return;
    json request;
    const auto ctx = questionContext(taskId, key, &request);
    if (!ctx)
        return;
    showQuestion(taskId, key); // the case selected behind the dialog
    auto *dialog = new ElicitationDialog(request, *ctx, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &ElicitationDialog::answered, this,
            [this, taskId, key](const json &result) { sendAnswer(taskId, key, result); });
    connect(dialog, &ElicitationDialog::abortRequested, this,
            [this, taskId, dialog] { confirmAbort(taskId, dialog); });
    connect(dialog, &QDialog::finished, this, [this, taskId, key, dialog] {
        // Closed now, deleted later: forget it at once.
        if (m_dialog == dialog)
            m_dialog.clear();
        m_lastDialogClosedMs = QDateTime::currentMSecsSinceEpoch();
        const Store::InputRequestRecord *r = m_inbox->request(m_inbox->rowOf(taskId, key));
        if (r && r->state == Store::InputState::Pending)
            m_dismissed.insert({taskId, key}); // "Later": it waits in the inbox, no new pop-up
        schedulePopup();
    });
    dialog->open();
    Q_EMIT dialogOpened(dialog);
}

void MainWindow::schedulePopup()
{
    if (!m_autoDialogs || m_dialog || m_popupTimer->isActive())
        return;
    // Never the next pop-up under the pointer that closed the last one.
    const qint64 since = QDateTime::currentMSecsSinceEpoch() - m_lastDialogClosedMs;
    m_popupTimer->start(int(std::clamp<qint64>(AnswerPanel::GuardMs - since, 0, AnswerPanel::GuardMs)));
}

void MainWindow::popupNext()
{
    if (!m_autoDialogs || m_dialog)
        return;
    for (int row = 0; row < m_inbox->rowCount(); ++row) {
        const Store::InputRequestRecord *r = m_inbox->request(row);
        if (r->state == Store::InputState::Pending && !m_dismissed.contains({r->taskId, r->key})) {
            openDialog(r->taskId, r->key);
            if (m_dialog)
                return;
            row = -1; // declined at once (not a form): the list changed, look again
        }
    }
}

void MainWindow::fitInboxColumns()
{
    // The question is what the list is for: the case, waiting time and answer take what they
    // need up to their share of the width, elided beyond it (each row's tooltip has it all).
    QHeaderView *header = m_inboxView->horizontalHeader();
    const int width = m_inboxView->viewport()->width();
    const auto fit = [&](int column, int percent) {
        const int wanted = std::max(static_cast<QAbstractItemView *>(m_inboxView)->sizeHintForColumn(column),
                                    header->sectionSizeHint(column));
        const int size = std::max(header->sectionSizeHint(column), std::min(wanted, width * percent / 100));
        if (header->sectionSize(column) != size)
            header->resizeSection(column, size);
    };
    fit(InboxModel::CaseColumn, 26);
    fit(InboxModel::WaitingColumn, 16);
    fit(InboxModel::AnswerColumn, 16);
}

void MainWindow::fitInboxToQuestion()
{
    if (!m_answerPanel->hasQuestion() || !m_answerPanel->isVisible() || m_inboxDock->isFloating())
        return;
    const auto missing = [this] {
        return m_answerPanel->heightWithoutScrolling() - m_answerPanel->height();
    };
    // A few steps: each lets the layouts settle at the new height before measuring again.
    for (int step = 0; step < 4 && missing() > 0; ++step) {
        const int target = std::min(m_inboxDock->height() + missing(), height() * 45 / 100);
        if (target <= m_inboxDock->height())
            break;
        const int before = m_inboxDock->height();
        resizeDocks({m_inboxDock}, {target}, Qt::Vertical);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (m_inboxDock->height() == before)
            break; // the docks above are at their minimum (the chart keeps its 180 px)
    }
    // Still short (1280x800: the chart and the result above hold their height): the list gives
    // the panel width, so that the message and who is asking wrap into fewer lines. The list
    // keeps 40 % of the inbox; its questions are elided there, whole in the tooltip and here.
    auto *splitter = qobject_cast<QSplitter *>(m_answerPanel->parentWidget());
    if (!splitter || splitter->indexOf(m_answerPanel) != 1)
        return;
    QList<int> sizes = splitter->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    const int listMinimum = std::max(total * 2 / 5, splitter->widget(0)->minimumSizeHint().width());
    for (int step = 0; step < 12 && missing() > 0 && sizes[0] > listMinimum; ++step) {
        const int give = std::min(sizes[0] - listMinimum, std::max(24, total / 40));
        sizes = {sizes[0] - give, sizes[1] + give};
        splitter->setSizes(sizes);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        sizes = splitter->sizes();
    }
}

} // namespace Eddy
