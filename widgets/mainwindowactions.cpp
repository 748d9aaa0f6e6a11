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
#include "widgets/autostartentry.h"
#include "widgets/elicitationdialog.h"
#include "widgets/handlesactions.h"
#include "widgets/helpmenu.h"
#include "widgets/sweepreportactions.h"
#include "widgets/jobadapteractions.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/serverdialog.h"
#include "widgets/serverremoval.h"
#include "widgets/statustimeline.h"
#include "widgets/sweepeditor.h"
#include "widgets/sweepfile.h"
#include "widgets/sweepwindow.h"
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
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSignalBlocker>
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

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newSweep = file->addAction(tr("New Sweep..."), this, &MainWindow::showSweepEditor);
    newSweep->setObjectName(QStringLiteral("newSweep"));
    newSweep->setShortcut(QKeySequence::New);
    QAction *openSweep = file->addAction(tr("Open Sweep..."), this, [this] {
        showSweepEditor();
        SweepFile::askToOpen(sweepEditor(), m_sweepWindow);
    });
    openSweep->setObjectName(QStringLiteral("openSweep"));
    openSweep->setShortcut(QKeySequence::Open);
    QAction *saveSweep = file->addAction(tr("Save Sweep..."), this, [this] {
        if (m_servers->rowCount() == 0)
            return showSweepEditor(); // says what to do first
        sweepEditor();
        m_sweepWindow->show(); // what is saved is what the editor holds, a relaunch's too
        m_sweepWindow->raise();
        SweepFile::askToSave(sweepEditor(), m_sweepWindow);
    });
    saveSweep->setObjectName(QStringLiteral("saveSweep"));
    saveSweep->setShortcut(QKeySequence::Save);
    file->addSeparator();
    m_writeActions << newSweep << openSweep << file->addAction(tr("New Session..."), this, &MainWindow::newSession)
                   << file->addAction(tr("Rename Session..."), this, &MainWindow::renameSession)
                   << file->addAction(tr("Attach Earlier Tasks..."), this, &MainWindow::attachEarlierTasks);
    file->addSeparator();
    (new HandlesActions(this, m_bridge))->addTo(file);
    (new SweepReportActions(this, m_bridge))->addTo(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("Quit"), this, &MainWindow::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *server = menuBar()->addMenu(tr("&Server"));
    m_writeActions << server->addAction(tr("Add Server..."), this, &MainWindow::addServer);
    QAction *removeServer = server->addAction(tr("Remove Server..."), this, [this] {
        const QModelIndex current = m_serverList->currentIndex();
        const qint64 id = current.isValid() ? current.data(ServerListModel::ServerIdRole).toLongLong()
                          : m_servers->rowCount() == 1 ? m_servers->index(0).data(ServerListModel::ServerIdRole).toLongLong()
                                                       : 0;
        ServerRemoval::ask(this, m_bridge, m_servers, id);
    });
    removeServer->setObjectName(QStringLiteral("removeServer"));
    (new JobAdapterActions(this, m_bridge, m_servers, m_serverList))->addTo(server);
    QAction *refresh = server->addAction(tr("Refresh Servers"), this, [this] {
        m_bridge->checkSharedChanges(); // and what other processes wrote to the database
        for (const auto &s : m_servers->servers())
            m_bridge->refreshServer(s.id);
    });
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setObjectName(QStringLiteral("refreshServers"));

    QMenu *tasks = menuBar()->addMenu(tr("&Tasks"));
    QAction *answerAction = tasks->addAction(tr("Answer Next Question"), this, &MainWindow::answerNext);
    answerAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction *cancel = tasks->addAction(tr("Cancel Selected"), m_monitor, &TaskMonitor::cancelSelected);
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_writeActions << removeServer << answerAction << cancel;
    m_popupAction = tasks->addAction(tr("Pop Up Each Question"));
    m_popupAction->setObjectName(QStringLiteral("popupQuestions"));
    m_popupAction->setCheckable(true);
    m_popupAction->setToolTip(tr("Open each question in a dialog of its own instead of the answer panel "
                                 "beside the inbox"));
    connect(m_popupAction, &QAction::toggled, this, &MainWindow::setOpenDialogsAutomatically);
    m_autostartAction = tasks->addAction(tr("Notify About Questions After Login"));
    m_autostartAction->setObjectName(QStringLiteral("notifyAfterLogin"));
    m_autostartAction->setCheckable(true);
    m_autostartAction->setChecked(QFileInfo::exists(AutostartEntry::path()));
    m_autostartAction->setToolTip(tr("Start Eddy's notifier when you log in, so that questions of tasks left "
                                     "running show as desktop notifications before you open Eddy"));
    connect(m_autostartAction, &QAction::toggled, this, [this](bool on) {
        const QStringList command = m_notifierCommand.isEmpty()
                                        ? QStringList{QCoreApplication::applicationFilePath()}
                                        : m_notifierCommand;
        QString error;
        if (AutostartEntry(command).setEnabled(on, &error))
            return;
        const QSignalBlocker block(m_autostartAction);
        m_autostartAction->setChecked(!on);
        showError(tr("Notifications After Login"), error);
    });
    tasks->addSeparator();
    const QList<QPair<QString, TaskMonitor::StatusFilter>> filters{
        {tr("Show All"), TaskMonitor::StatusFilter::All},
        {tr("Show Running"), TaskMonitor::StatusFilter::Live},
        {tr("Show Needs Input"), TaskMonitor::StatusFilter::NeedsInput},
        {tr("Show Completed"), TaskMonitor::StatusFilter::Completed},
        {tr("Show Failed"), TaskMonitor::StatusFilter::Failed}};
    int n = 1;
    for (const auto &[label, filter] : filters) {
        QAction *a = tasks->addAction(label, this, [this, f = filter] { m_monitor->setStatusFilter(f); });
        a->setShortcut(QKeySequence(Qt::ALT | (Qt::Key_0 + n++)));
    }

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    auto *themes = new QActionGroup(this);
    const QList<QPair<QString, Theme>> list{{tr("System Theme"), Theme::System},
                                            {tr("Light Theme"), Theme::Light},
                                            {tr("Dark Theme"), Theme::Dark}};
    for (const auto &[label, theme] : list) {
        QAction *a = view->addAction(label, this, [this, t = theme] { applyTheme(t); });
        a->setCheckable(true);
        a->setData(int(theme));
        themes->addAction(a);
    }
    connect(view, &QMenu::aboutToShow, this, [this, themes] {
        for (QAction *a : themes->actions())
            a->setChecked(a->data().toInt() == int(m_theme));
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    HelpMenu::populate(help, this);
    help->addSeparator();
    help->addAction(tr("About Eddy"), this, [this] {
        QMessageBox::about(this, tr("About Eddy"),
                           tr("<h3>Eddy %1</h3><p>A workbench for long-running MCP tasks: sweeps, live "
                              "residuals, questions from the solver, and every result kept.</p>")
                               .arg(QStringLiteral(EDDY_VERSION)));
    });

    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    newSweep->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
    toolbar->addAction(newSweep);
    answerAction->setIcon(style()->standardIcon(QStyle::SP_MessageBoxQuestion));
    toolbar->addAction(answerAction);
    refresh->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    toolbar->addAction(refresh);
}

void MainWindow::setReadOnlyReview()
{
    if (m_readOnlyBanner)
        return;
    // An archived sweep opened to look at: everything readable, nothing that would write
    // offered (the engine refuses such requests all the same), and a banner that says why.
    for (QAction *a : std::as_const(m_writeActions))
        a->setEnabled(false);
    m_answerPanel->setEnabled(false);
    m_readOnlyBanner = new QLabel(tr("Read-only review: this database is write-protected. Nothing can be "
                                     "submitted, answered or cancelled; copy it to a writable folder to "
                                     "work with it."),
                                  this);
    m_readOnlyBanner->setObjectName(QStringLiteral("readOnlyBanner"));
    m_readOnlyBanner->setWordWrap(true);
    m_readOnlyBanner->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #664d03; "
                                                   "border: 1px solid #e0c36a; padding: 4px; }"));
    auto *bar = addToolBar(tr("Read-Only Review"));
    bar->setObjectName(QStringLiteral("readOnlyBar"));
    bar->setMovable(false);
    bar->addWidget(m_readOnlyBanner);
    insertToolBarBreak(bar);
    bar->show(); // added to a window already shown
    updateTitle();
}

void MainWindow::confirmAbort(qint64 taskId, QWidget *parent)
{
    const Store::TaskRecord *t = m_tasks->task(taskId);
    if (!t || !t->isLive())
        return;
    const QString label = m_tasks->caseLabel(taskId).isEmpty() ? tr("Task %1").arg(taskId) : m_tasks->caseLabel(taskId);
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Abort This Case?"),
                                tr("Abort %1?\n\nEddy asks the server to cancel the case. Its question is not "
                                   "answered and the case produces no result. You can run it again later "
                                   "with Re-run.").arg(label),
                                QMessageBox::NoButton, parent ? parent : this);
    box->setObjectName(QStringLiteral("abortConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *abort = box->addButton(tr("Abort Case"), QMessageBox::DestructiveRole);
    abort->setObjectName(QStringLiteral("confirmAbort"));
    QPushButton *keep = box->addButton(tr("Keep Asking"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepAsking"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    // The same guard as the questions: the click that opened this box cannot confirm it.
    abort->setEnabled(false);
    QTimer::singleShot(AnswerPanel::GuardMs, abort, [abort] { abort->setEnabled(true); });
    connect(box, &QMessageBox::buttonClicked, this, [this, abort, taskId](QAbstractButton *button) {
        if (button == abort)
            abortCase(taskId);
    });
    box->open();
}

void MainWindow::abortCase(qint64 taskId)
{
    m_bridge->cancelTasks({taskId});
    const QString label = m_tasks->caseLabel(taskId).isEmpty() ? tr("Task %1").arg(taskId) : m_tasks->caseLabel(taskId);
    for (const Store::InputRequestRecord *r : m_inbox->pendingOf(taskId))
        m_dismissed.insert({r->taskId, r->key});
    if (m_dialog && m_dialog->context().taskNumber == taskId)
        m_dialog->reject();
    if (m_answerPanel->taskId() == taskId) {
        // Until the case has ended: then the note says how (syncAnswerPanel).
        m_closedQuestion = m_panelQuestion;
        if (m_closedQuestion->taskId != taskId || m_closedQuestion->key != m_answerPanel->key())
            m_closedQuestion = ClosedQuestion{taskId, m_answerPanel->key(), 0, label, {}};
        m_closedQuestion->note = tr("Abort requested for %1; waiting for the server to cancel it.").arg(label);
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(m_closedQuestion->note);
    }
    statusBar()->showMessage(tr("Abort requested for %1.").arg(label), 8000);
}

SweepEditor *MainWindow::sweepEditor()
{
    if (!m_sweepEditor) {
        auto *sweepWindow = new SweepWindow(this);
        m_sweepWindow = sweepWindow;
        m_sweepWindow->setObjectName(QStringLiteral("SweepWindow"));
        m_sweepWindow->setWindowTitle(tr("New Sweep"));
        auto *layout = new QVBoxLayout(m_sweepWindow);
        layout->setContentsMargins(0, 0, 0, 0);
        m_sweepEditor = new SweepEditor(m_sweepWindow);
        sweepWindow->setEditor(m_sweepEditor);
        layout->addWidget(m_sweepEditor);
        m_sweepEditor->setServerModel(m_servers);
        connect(m_sweepEditor, &SweepEditor::submitRequested, this, [this](qint64 serverId, const QByteArray &spec) {
            m_relaunchParent.reset();
            m_bridge->submitSweep(serverId, spec, m_session);
            m_sweepWindow->hide();
        });
        connect(m_sweepEditor, &SweepEditor::runOnceRequested, this,
                [this](qint64 serverId, const QString &tool, const QByteArray &args) {
                    m_bridge->callOnce(serverId, tool, args, m_session, std::exchange(m_relaunchParent, std::nullopt));
                    m_sweepWindow->hide();
                });
        m_sweepWindow->resize(1100, 680);
        // Ctrl+O and Ctrl+S work in the editor's own window too, not only in the main one.
        for (const char *name : {"openSweep", "saveSweep"}) {
            if (auto *a = findChild<QAction *>(QLatin1String(name)))
                m_sweepWindow->addAction(a);
        }
    }
    return m_sweepEditor;
}

void MainWindow::showSweepEditor()
{
    if (m_servers->rowCount() == 0) {
        showError(tr("No Server"), tr("Add a server first (Server > Add Server...)."));
        return;
    }
    SweepEditor *editor = sweepEditor();
    m_relaunchParent.reset();
    // A relaunch's arguments are that task's, not a new sweep's starting point.
    if (m_sweepWindow->property("holdsRelaunch").toBool()) {
        m_sweepWindow->setProperty("holdsRelaunch", false);
        editor->startOver();
    }
    m_sweepWindow->setWindowTitle(tr("New Sweep"));
    m_sweepWindow->show();
    m_sweepWindow->raise();
    m_sweepWindow->activateWindow();
}

void MainWindow::rerun(const QList<qint64> &taskIds, Rerun which)
{
    int n = 0;
    for (qint64 id : taskIds) {
        const Store::TaskRecord *t = m_tasks->task(id);
        const bool wanted = t
                            && (TaskMonitor::isRerunnable(*t)
                                || (which == Rerun::FailedAndUnconverged
                                    && m_tasks->outcome(id) == Monitor::Outcome::NotConverged));
        if (!wanted)
            continue;
        json args = json::parse(t->arguments.toStdString(), nullptr, false);
        if (!args.is_object())
            continue;
        args.erase("idempotency_key"); // a new attempt needs a new key, or the server returns the old task
        // A new attempt of the same case: lineage names the one it re-runs.
        m_bridge->callOnce(t->serverId, t->tool, QByteArray::fromStdString(args.dump()), m_session, t->caseId);
        ++n;
    }
    statusBar()->showMessage(tr("Re-running %n case(s).", nullptr, n), 5000);
}

void MainWindow::relaunch(qint64 taskId)
{
    const Store::TaskRecord *t = m_tasks->task(taskId);
    if (!t)
        return;
    SweepEditor *editor = sweepEditor();
    editor->setCurrentServer(t->serverId);
    if (!editor->setCurrentTool(t->tool)) {
        showError(tr("Tool Unavailable"), tr("The server no longer lists the tool %1.").arg(t->tool));
        return;
    }
    editor->startOver(); // nothing of an earlier sweep or file stays
    json args = json::parse(t->arguments.toStdString(), nullptr, false);
    if (args.is_object())
        args.erase("idempotency_key");
    editor->form()->setValue(args.is_object() ? args : json::object());
    editor->updatePreview();
    m_relaunchParent = t->caseId; // "Run Once" journals the new case with this lineage
    m_sweepWindow->setProperty("holdsRelaunch", true);
    const QString label = m_tasks->caseLabel(taskId).isEmpty() ? tr("Task %1").arg(taskId) : m_tasks->caseLabel(taskId);
    m_sweepWindow->setWindowTitle(tr("Relaunch %1 with Edits").arg(label));
    if (t->sweepId)
        editor->showNotice(tr("Run Once with the varied values unchanged runs %1 again in its sweep, "
                              "e.g. with more iterations.").arg(label));
    m_sweepWindow->show();
    m_sweepWindow->raise();
}

void MainWindow::addServer()
{
    ServerDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_bridge->addServer(dialog.url(), dialog.name(), dialog.token());
}

void MainWindow::showServer(qint64 serverId)
{
    const Store::ServerRecord *s = m_servers->server(serverId);
    if (!s)
        return;
    ServerDialog dialog(this);
    const int row = m_servers->rowOf(serverId);
    dialog.setServer(*s, ServerListModel::stateText(m_servers->state(serverId)),
                     m_servers->index(row).data(ServerListModel::MessageRole).toString());
    if (dialog.exec() != QDialog::Accepted)
        return;
    Store::ServerRecord updated = *s;
    updated.url = dialog.url();
    updated.name = dialog.name();
    updated.token = dialog.token(); // null = keep the stored one
    m_bridge->updateServer(updated);
}

void MainWindow::newSession()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New Session"), tr("Name of the session:"), QLineEdit::Normal,
                                               tr("Session %1").arg(QDate::currentDate().toString(Qt::ISODate)), &ok);
    if (ok && !name.trimmed().isEmpty())
        m_bridge->createSession(name.trimmed());
}

void MainWindow::renameSession()
{
    if (!m_session) {
        showError(tr("Rename Session"), tr("Choose a session in the sidebar first."));
        return;
    }
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename Session"), tr("New name:"), QLineEdit::Normal,
                                               m_sessions->name(*m_session), &ok);
    if (ok && !name.trimmed().isEmpty())
        m_bridge->renameSession(*m_session, name.trimmed());
}

void MainWindow::attachEarlierTasks()
{
    if (!m_session) {
        showError(tr("Attach Earlier Tasks"), tr("Choose (or create) a session first; \"All sessions\" already shows every task."));
        return;
    }
    AttachDialog dialog(m_bridge, m_servers, this);
    dialog.search();
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QList<qint64> ids = dialog.selectedTaskIds();
    if (!ids.isEmpty())
        m_bridge->attachTasks(*m_session, ids);
}

void MainWindow::showStatus(const QString &message, int timeoutMs)
{
    // QStatusBar cuts a message that runs into its permanent widgets (the counts) mid-word and
    // without "...": a question read "... at cell ● Working 0". Shortened to the room left of
    // them (QStatusBar's own margins: 6 px left, 2 px before the first permanent widget); the
    // whole text is the status bar's tooltip while the message shows.
    QStatusBar *bar = statusBar();
    int right = bar->width() - 12;
    for (const QLabel *count : std::as_const(m_counts)) {
        if (count->isVisible())
            right = std::min(right, count->x() - 2);
    }
    const QString shown = bar->fontMetrics().elidedText(message, Qt::ElideRight, std::max(0, right - 6));
    m_statusMessage = {shown, message};
    bar->showMessage(shown, timeoutMs);
}

void MainWindow::showError(const QString &title, const QString &message)
{
    showStatus(message, 10000);
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // never a nested event loop inside an engine callback
}

void MainWindow::notify(const QString &title, const QString &message)
{
    if (m_tray && m_tray->isVisible())
        m_tray->showMessage(title, message, QSystemTrayIcon::Information, 8000);
    showStatus(message, 8000);
}

} // namespace Eddy
