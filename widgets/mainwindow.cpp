#include "widgets/mainwindow.h"

#include "models/inboxmodel.h"
#include "models/sampleseriesmodel.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "models/sharedwork.h"
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

constexpr int MaxChartTasks = 8;

QString seriesKey(qint64 taskId, const QString &series)
{
    return QStringLiteral("%1/%2").arg(taskId).arg(series);
}

bool isChartSeries(const QString &series)
{
    return series == QLatin1String("residual") || series.startsWith(QLatin1String("residual."));
}

// Iteration on x, never a time: samples stored before x was always the iteration put a final
// "converged after ..." message at the Unix time in seconds. Those are left out.
bool hasClockX(const Store::ProgressSample &s)
{
    return s.x > 1e8 && std::abs(s.x - double(s.atMs) / 1000.0) < 1.0;
}

} // namespace

MainWindow::MainWindow(EngineBridge *bridge, QWidget *parent)
    : QMainWindow(parent)
    , m_bridge(bridge)
    , m_tasks(new TaskTableModel(this))
    , m_inbox(new InboxModel(this))
    , m_servers(new ServerListModel(this))
    , m_sessions(new SessionListModel(this))
    , m_monitor(new TaskMonitor(m_tasks, this))
    , m_chart(new ResidualChart(this))
    , m_timeline(new StatusTimeline(this))
    , m_result(new ResultView(this))
    , m_serverList(new QListView(this))
    , m_sessionList(new QListView(this))
    , m_inboxView(new QTableView(this))
    , m_sweepResults(new SweepResultsModel(this))
    , m_sweepResultsView(new SweepResultsView(m_sweepResults, this))
    , m_clock(new QTimer(this))
    , m_activity(new QLabel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/eddy/icons/eddy.svg")));
    setDockNestingEnabled(true);
    setCentralWidget(m_monitor);
    m_inbox->setDescribe([this](qint64 taskId) {
        if (InboxModel::isCaseKey(taskId)) {
            const Store::CaseRecord *c = m_inbox->caseOf(taskId);
            return qMakePair(tr("%1 (before the task starts)").arg(questionLabel(taskId)),
                             c ? m_servers->displayName(c->serverId) : QString());
        }
        const Store::TaskRecord *t = m_tasks->task(taskId);
        return qMakePair(t ? m_tasks->caseLabel(taskId) : tr("Task %1").arg(taskId),
                         t ? m_servers->displayName(t->serverId) : QString());
    });
    buildDocks();
    buildMenus();

    // Status bar: live counts per state, and what the servers are doing.
    using Monitor::Outcome;
    const QList<QPair<QString, Outcome>> counters{{tr("Working"), Outcome::Working},
                                                  {tr("Waiting for input"), Outcome::NeedsInput},
                                                  {tr("Done"), Outcome::Converged},
                                                  {tr("Not converged"), Outcome::NotConverged},
                                                  {tr("Tool error"), Outcome::ToolError},
                                                  {tr("Failed"), Outcome::Failed}};
    for (const auto &[label, outcome] : counters) {
        auto *l = new QLabel(this);
        l->setObjectName(QStringLiteral("count_%1").arg(Monitor::OutcomeText::key(outcome)));
        l->setTextFormat(Qt::RichText);
        statusBar()->addPermanentWidget(l);
        m_counts.insert(label, l);
    }
    statusBar()->addWidget(m_activity, 1);
    // Cases whose tools/call fails before any task exists: retried, then deferred. They have no
    // row in the task table yet, so their state is shown here until they get a task.
    m_delivery = new QLabel(this);
    m_delivery->setObjectName(QStringLiteral("caseDelivery"));
    m_delivery->setTextFormat(Qt::PlainText);
    m_delivery->setVisible(false);
    statusBar()->addWidget(m_delivery, 2);
    connect(m_tasks, &TaskTableModel::countsChanged, this, &MainWindow::updateStatusBar);
    connect(m_tasks, &TaskTableModel::sweepInfoNeeded, m_bridge, &EngineBridge::requestSweep);
    connect(m_inbox, &InboxModel::countChanged, this, &MainWindow::updateStatusBar);
    updateStatusBar();

    // Time columns tick once a second; one dataChanged for all rows.
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, [this] {
        m_tasks->tick();
        m_inbox->refreshDescriptions();
        if (!m_deliveries.isEmpty())
            updateDeliveries();
        if (m_detailTask)
            if (const Store::TaskRecord *t = m_tasks->task(m_detailTask); t && t->isLive())
                m_timeline->update();
    });
    m_clock->start();

    m_popupTimer = new QTimer(this);
    m_popupTimer->setSingleShot(true);
    connect(m_popupTimer, &QTimer::timeout, this, &MainWindow::popupNext);

    connect(m_monitor, &TaskMonitor::selectionChanged, this, &MainWindow::onSelection);
    connect(m_monitor, &TaskMonitor::cancelRequested, this, [this](const QList<qint64> &ids) {
        m_bridge->cancelTasks(ids);
        statusBar()->showMessage(tr("Cancel requested for %n task(s); waiting for the server to agree.", nullptr,
                                    static_cast<int>(ids.size())), 5000);
    });
    connect(m_monitor, &TaskMonitor::rerunRequested, this, &MainWindow::rerun);
    connect(m_monitor, &TaskMonitor::relaunchRequested, this, &MainWindow::relaunch);
    connect(m_sweepResultsView, &SweepResultsView::taskActivated, m_monitor, &TaskMonitor::selectTask);

    // Engine -> GUI (queued: the engine lives on its own thread).
    Monitor::Engine *engine = m_bridge->engine();
    connect(m_bridge, &EngineBridge::snapshotReady, this, &MainWindow::onSnapshot);
    new SharedWorkFollower(m_bridge, m_tasks, [this] { return m_session; }, this);
    connect(m_bridge, &EngineBridge::samplesReady, this, &MainWindow::onSamples);
    connect(m_bridge, &EngineBridge::taskDetailReady, this, &MainWindow::onDetail);
    connect(m_bridge, &EngineBridge::sweepResultsReady, this, [this](const EngineBridge::SweepResults &r) {
        m_sweepResults->setAnswers(r.answers);
        m_sweepResults->setSweep(r.sweep.id, EngineBridge::variedNames(r.sweep.spec), r.tasks, r.caseIndex);
        m_sweepResults->setCases(r.cases);
    });
    connect(m_bridge, &EngineBridge::serversReady, this, [this](const QList<Store::ServerRecord> &servers) {
        m_servers->setServers(servers);
        QHash<qint64, QString> names;
        for (const auto &s : servers)
            names.insert(s.id, s.name.isEmpty() ? s.url : s.name);
        m_tasks->setServerNames(names);
    });
    connect(m_bridge, &EngineBridge::sweepReady, this, [this](const Store::SweepRecord &sweep, const QHash<qint64, int> &index) {
        m_sweeps.insert(sweep.id, sweep);
        for (auto it = index.begin(); it != index.end(); ++it)
            m_tasks->setCaseIndex(it.key(), it.value());
        m_tasks->setSweepInfo(sweep.id, sweepLabel(sweep.id), EngineBridge::variedNames(sweep.spec));
    });
    connect(m_bridge, &EngineBridge::sessionsChanged, this, [this](const QList<Store::SessionRecord> &sessions) {
        const std::optional<qint64> keep = m_session;
        m_sessions->setSessions(sessions);
        const int row = m_sessions->rowOf(keep.value_or(SessionListModel::AllSessions));
        m_sessionList->setCurrentIndex(m_sessions->index(std::max(0, row)));
        updateTitle();
    });
    connect(m_bridge, &EngineBridge::sessionCreated, this, [this](qint64 id, const QString &) { switchSession(id); });
    connect(m_bridge, &EngineBridge::tasksAttached, this, [this](qint64 sessionId, int n) {
        statusBar()->showMessage(tr("%n task(s) attached.", nullptr, n), 5000);
        if (m_session == sessionId)
            m_bridge->requestSnapshot(m_session);
    });
    // Before any task exists: questions, retries, deferrals.
    connect(m_bridge, &EngineBridge::caseQuestionAsked, this, &MainWindow::onCaseQuestion);
    connect(m_bridge,
            &EngineBridge::caseQuestionsReady,
            this,
            [this](const QList<EngineBridge::CaseQuestion> &qs) {
                for (const auto &q : qs)
                    onCaseQuestion(q);
            });
    connect(m_bridge,
            &EngineBridge::caseInputAnswered,
            this,
            [this](qint64 caseId, const QString &key, bool ok, const QString &message) {
                onInputAnswered(InboxModel::caseKey(caseId), key, ok, message);
            });
    connect(
        m_bridge, &EngineBridge::caseDelivery, this, [this](const EngineBridge::CaseDelivery &d) {
            m_deliveries.insert(d.caseId, {d, QDateTime::currentMSecsSinceEpoch() + d.delayMs});
            updateDeliveries();
            if (d.deferred)
                notify(tr("Call not sent"), deliveryText(m_deliveries.value(d.caseId)));
        });
    const auto caseDone = [this](qint64 caseId) {
        if (m_deliveries.remove(caseId))
            updateDeliveries();
        m_inbox->removeTask(InboxModel::caseKey(caseId)); // its open questions ended with the round
    };
    connect(m_bridge, &EngineBridge::caseSubmitted, this, [caseDone](qint64 caseId, qint64) {
        caseDone(caseId);
    });
    connect(m_bridge,
            &EngineBridge::caseRejected,
            this,
            [caseDone](qint64 caseId, const QString &) { caseDone(caseId); });
    if (engine) {
        connect(engine, &Monitor::Engine::changesReady, this, &MainWindow::onChanges);
        connect(engine, &Monitor::Engine::inputRequested, this, &MainWindow::onInputRequested);
        connect(engine, &Monitor::Engine::inputAnswered, this, &MainWindow::onInputAnswered);
        connect(engine, &Monitor::Engine::taskFinished, this, &MainWindow::onTaskFinished);
        connect(engine, &Monitor::Engine::serverStateChanged, this,
                [this](qint64 id, Monitor::Engine::ServerState state, const QString &message) {
                    m_servers->setState(id, static_cast<ServerListModel::State>(int(state)), message);
                    if (state == Monitor::Engine::ServerState::Unreachable)
                        m_activity->setText(tr("%1 is unreachable: %2").arg(m_servers->displayName(id), message));
                    else if (state == Monitor::Engine::ServerState::BackingOff)
                        m_activity->setText(tr("%1 asks Eddy to slow down; polling less often.").arg(m_servers->displayName(id)));
                    else
                        m_activity->setText(tr("%1 online").arg(m_servers->displayName(id)));
                });
        connect(engine, &Monitor::Engine::toolsChanged, m_bridge, [this](qint64) { m_bridge->requestServers(); });
        connect(engine, &Monitor::Engine::sweepSubmitted, this, [this](qint64 sweepId, int count) {
            m_tasks->acceptSweep(sweepId);
            m_bridge->requestSweep(sweepId);
            statusBar()->showMessage(tr("Sweep %1 journalled: %n case(s) are being submitted.", nullptr, count).arg(sweepId), 8000);
        });
        connect(engine, &Monitor::Engine::callJournalled, this, [this](qint64 caseId) {
            m_tasks->acceptCase(caseId);
            statusBar()->showMessage(tr("Call journalled; sending it to the server."), 5000);
        });
        connect(engine, &Monitor::Engine::submissionRejected, this, [this](const QString &message) {
            showError(tr("Not Submitted"), message);
        });
        connect(engine, &Monitor::Engine::caseRejected, this, [this](qint64, const QString &message) {
            statusBar()->showMessage(tr("A case was rejected by the server: %1").arg(message), 10000);
        });
        connect(engine, &Monitor::Engine::operationFailed, this, [this](const QString &message) {
            statusBar()->showMessage(message, 10000);
        });
        connect(engine, &Monitor::Engine::ttlWarning, this, [this](qint64 taskId, qint64 msLeft) {
            notify(tr("Task may be forgotten"),
                   tr("%1: the server may drop it in %2.").arg(m_tasks->caseLabel(taskId), TaskTableModel::durationText(msLeft)));
        });
    }

    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(windowIcon(), this);
        m_tray->setToolTip(tr("Eddy"));
        m_tray->show();
        connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
            showNormal();
            raise();
            activateWindow();
        });
    }
    restoreSettings();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::shutdownAgent()
{
    // The agent lives on the engine's thread and must go before the engine does.
    delete m_agentPanel;
    m_agentPanel = nullptr;
}

void MainWindow::buildDocks()
{
    // Left: servers and sessions.
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(4, 4, 4, 4);
    auto *serversLabel = new QLabel(tr("<b>Servers</b>"), left);
    m_serverList->setObjectName(QStringLiteral("servers"));
    m_serverList->setModel(m_servers);
    m_serverList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_serverList, &QListView::activated, this, [this](const QModelIndex &idx) {
        showServer(idx.data(ServerListModel::ServerIdRole).toLongLong());
    });
    auto *addServerButton = new QPushButton(tr("Add Server..."), left);
    connect(addServerButton, &QPushButton::clicked, this, &MainWindow::addServer);
    auto *sessionsLabel = new QLabel(tr("<b>Sessions</b>"), left);
    m_sessionList->setObjectName(QStringLiteral("sessions"));
    m_sessionList->setModel(m_sessions);
    m_sessionList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_sessionList, &QListView::clicked, this, [this](const QModelIndex &idx) {
        const qint64 id = idx.data(SessionListModel::SessionIdRole).toLongLong();
        switchSession(id == SessionListModel::AllSessions ? std::nullopt : std::optional<qint64>(id));
        // An agent conversation is a session too: picking it opens the chat where it left off.
        if (m_agentPanel && idx.data(SessionListModel::KindRole).toString() == QLatin1String("agent")) {
            m_agentPanel->openConversation(idx.data(Qt::DisplayRole).toString());
            m_agentDock->show();
            m_agentDock->raise();
        }
    });
    auto *sessionButtons = new QHBoxLayout;
    auto *newSessionButton = new QPushButton(tr("New..."), left);
    connect(newSessionButton, &QPushButton::clicked, this, &MainWindow::newSession);
    auto *attachButton = new QPushButton(tr("Attach..."), left);
    attachButton->setToolTip(tr("Attach earlier tasks to this session"));
    connect(attachButton, &QPushButton::clicked, this, &MainWindow::attachEarlierTasks);
    sessionButtons->addWidget(newSessionButton);
    sessionButtons->addWidget(attachButton);
    leftLayout->addWidget(serversLabel);
    leftLayout->addWidget(m_serverList, 1);
    leftLayout->addWidget(addServerButton);
    leftLayout->addSpacing(8);
    leftLayout->addWidget(sessionsLabel);
    leftLayout->addWidget(m_sessionList, 2);
    leftLayout->addLayout(sessionButtons);
    auto *leftDock = new QDockWidget(tr("Servers and Sessions"), this);
    leftDock->setObjectName(QStringLiteral("sidebarDock"));
    leftDock->setWidget(left);
    addDockWidget(Qt::LeftDockWidgetArea, leftDock);
    m_sidebarDock = leftDock;

    // Right: chart over timeline, result below.
    auto *chartPanel = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartPanel);
    chartLayout->setContentsMargins(4, 0, 4, 4);
    chartLayout->setSpacing(2);
    chartLayout->addWidget(m_chart, 1);
    chartLayout->addWidget(m_timeline);
    auto *chartDock = new QDockWidget(tr("Residuals"), this);
    chartDock->setObjectName(QStringLiteral("chartDock"));
    chartDock->setWidget(chartPanel);
    addDockWidget(Qt::RightDockWidgetArea, chartDock);
    auto *resultDock = new QDockWidget(tr("Result"), this);
    resultDock->setObjectName(QStringLiteral("resultDock"));
    resultDock->setWidget(m_result);
    addDockWidget(Qt::RightDockWidgetArea, resultDock);
    splitDockWidget(chartDock, resultDock, Qt::Vertical);
    m_chartDock = chartDock;
    m_resultDock = resultDock;

    // Bottom: the inbox.
    auto *inboxPanel = new QWidget(this);
    auto *inboxLayout = new QVBoxLayout(inboxPanel);
    inboxLayout->setContentsMargins(4, 4, 4, 4);
    m_inboxView->setObjectName(QStringLiteral("inbox"));
    m_inboxView->setModel(m_inbox);
    m_inboxView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_inboxView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_inboxView->verticalHeader()->hide();
    // One line per question: long text is elided (the tooltip has it whole), never clipped.
    m_inboxView->setWordWrap(false);
    m_inboxView->setTextElideMode(Qt::ElideRight);
    m_inboxView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_inboxView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    m_inboxView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_inboxView->horizontalHeader()->setSectionResizeMode(InboxModel::MessageColumn, QHeaderView::Stretch);
    m_inboxView->setShowGrid(false);
    m_inboxView->setColumnHidden(InboxModel::ServerColumn, true); // in the tooltip and the panel
    m_inboxView->horizontalHeader()->setSectionResizeMode(InboxModel::AnswerColumn, QHeaderView::Interactive);
    m_inboxView->horizontalHeader()->resizeSection(InboxModel::AnswerColumn, 110);
    // Picking a question (a click, or Enter on a row) shows it beside the list, its case selected
    // in the monitor. Only the user's pick counts: the view moving its current row by itself
    // (after a reset, on focus) must never put a question under the pointer.
    connect(m_inboxView, &QTableView::pressed, this, [this](const QModelIndex &idx) {
        showQuestion(idx.data(InboxModel::TaskIdRole).toLongLong(), idx.data(InboxModel::KeyRole).toString());
    });
    connect(m_inboxView, &QTableView::activated, this, [this](const QModelIndex &idx) {
        answer(idx.data(InboxModel::TaskIdRole).toLongLong(), idx.data(InboxModel::KeyRole).toString());
    });
    auto *answerButton = new QPushButton(tr("Next Open Question"), inboxPanel);
    answerButton->setObjectName(QStringLiteral("answer"));
    answerButton->setToolTip(tr("Show the oldest open question (Ctrl+I)"));
    connect(answerButton, &QPushButton::clicked, this, &MainWindow::answerNext);
    auto *inboxButtons = new QHBoxLayout;
    inboxButtons->addStretch(1);
    inboxButtons->addWidget(answerButton);
    inboxLayout->addWidget(m_inboxView, 1);
    inboxLayout->addLayout(inboxButtons);
    // Beside the list: the question being answered. Nothing pops up over the monitor, and the
    // asking case's chart stays in view while the engineer decides.
    m_answerPanel = new AnswerPanel(this);
    m_answerPanel->setProperty("defaultNote", true);
    connect(m_answerPanel, &AnswerPanel::answered, this, [this](const json &result) {
        sendAnswer(m_answerPanel->taskId(), m_answerPanel->key(), result);
    });
    connect(m_answerPanel, &AnswerPanel::abortRequested, this,
            [this] { confirmAbort(m_answerPanel->taskId(), this); });
    auto *inboxSplitter = new QSplitter(Qt::Horizontal, this);
    inboxSplitter->setObjectName(QStringLiteral("inboxSplitter"));
    inboxSplitter->setChildrenCollapsible(false);
    inboxSplitter->addWidget(inboxPanel);
    inboxSplitter->addWidget(m_answerPanel);
    inboxSplitter->setStretchFactor(0, 4);
    inboxSplitter->setStretchFactor(1, 5);
    connect(m_inbox, &QAbstractItemModel::rowsRemoved, this, &MainWindow::syncAnswerPanel);
    connect(m_inbox, &QAbstractItemModel::modelReset, this, &MainWindow::syncAnswerPanel);
    connect(m_inbox, &QAbstractItemModel::dataChanged, this, &MainWindow::syncAnswerPanel);
    m_inboxDock = new QDockWidget(tr("Input Inbox"), this);
    m_inboxDock->setObjectName(QStringLiteral("inboxDock"));
    m_inboxDock->setWidget(inboxSplitter);
    addDockWidget(Qt::BottomDockWidgetArea, m_inboxDock);

    // Bottom, behind the inbox: the selected task's sweep as a table and a plot.
    m_sweepDock = new QDockWidget(tr("Sweep Results"), this);
    m_sweepDock->setObjectName(QStringLiteral("sweepResultsDock"));
    m_sweepDock->setWidget(m_sweepResultsView);
    addDockWidget(Qt::BottomDockWidgetArea, m_sweepDock);
    tabifyDockWidget(m_inboxDock, m_sweepDock);
    m_inboxDock->raise();

    // Right, behind the result: the agent's chat. Its cards lead to the task in the monitor.
    m_agentPanel = new AgentPanel(m_bridge, this);
    m_agentPanel->setObjectName(QStringLiteral("agentPanel"));
    connect(m_agentPanel, &AgentPanel::taskActivated, this, [this](qint64 taskId) {
        m_monitor->selectTask(taskId);
    });
    // A new conversation is a new session: show it in the list.
    connect(m_agentPanel, &AgentPanel::conversationOpened, this, [this](qint64, const QString &) {
        m_bridge->requestSnapshot(m_session);
    });
    m_agentDock = new QDockWidget(tr("Agent"), this);
    m_agentDock->setObjectName(QStringLiteral("agentDock"));
    m_agentDock->setWidget(m_agentPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_agentDock);
    tabifyDockWidget(resultDock, m_agentDock);
    resultDock->raise();

}

void MainWindow::applyDefaultDockSizes()
{
    // Before the first show the docks have no real geometry and resizeDocks() keeps only rough
    // proportions: the chart came out at a third of the right column, too short to read its axis.
    const int w = width();
    const int h = height();
    resizeDocks({m_sidebarDock}, {std::clamp(w / 7, 180, 260)}, Qt::Horizontal);
    resizeDocks({m_chartDock}, {std::clamp(w / 3, 420, 640)}, Qt::Horizontal);
    // Tall enough for a question and its form beside the list.
    resizeDocks({m_inboxDock}, {std::clamp(h * 3 / 10, 200, 320)}, Qt::Vertical);
    resizeDocks({m_chartDock, m_resultDock}, {h * 11 / 20, h * 9 / 20}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_defaultDockSizesPending) {
        m_defaultDockSizesPending = false;
        // After this event the window has its final size.
        QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
    }
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newSweep = file->addAction(tr("New Sweep..."), this, &MainWindow::showSweepEditor);
    newSweep->setShortcut(QKeySequence::New);
    file->addAction(tr("New Session..."), this, &MainWindow::newSession);
    file->addAction(tr("Rename Session..."), this, &MainWindow::renameSession);
    file->addAction(tr("Attach Earlier Tasks..."), this, &MainWindow::attachEarlierTasks);
    file->addSeparator();
    QAction *quit = file->addAction(tr("Quit"), this, &MainWindow::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *server = menuBar()->addMenu(tr("&Server"));
    server->addAction(tr("Add Server..."), this, &MainWindow::addServer);
    QAction *refresh = server->addAction(tr("Refresh Servers"), this, [this] {
        m_bridge->checkSharedChanges(); // and what other processes wrote to the database
        for (const auto &s : m_servers->servers())
            m_bridge->refreshServer(s.id);
    });
    refresh->setShortcut(QKeySequence::Refresh);

    QMenu *tasks = menuBar()->addMenu(tr("&Tasks"));
    QAction *answerAction = tasks->addAction(tr("Answer Next Question"), this, &MainWindow::answerNext);
    answerAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction *cancel = tasks->addAction(tr("Cancel Selected"), m_monitor, &TaskMonitor::cancelSelected);
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_popupAction = tasks->addAction(tr("Pop Up Each Question"));
    m_popupAction->setObjectName(QStringLiteral("popupQuestions"));
    m_popupAction->setCheckable(true);
    m_popupAction->setToolTip(tr("Open each question in a dialog of its own instead of the answer panel "
                                 "beside the inbox"));
    connect(m_popupAction, &QAction::toggled, this, &MainWindow::setOpenDialogsAutomatically);
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

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 900);
    m_defaultDockSizesPending = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_monitor->restoreState(settings.value(QStringLiteral("monitor/header")).toByteArray());
    m_autoDialogs = settings.value(QStringLiteral("input/popup"), false).toBool();
    {
        const QSignalBlocker block(m_popupAction);
        m_popupAction->setChecked(m_autoDialogs);
    }
    applyTheme(static_cast<Theme>(settings.value(QStringLiteral("view/theme"), int(Theme::System)).toInt()));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("monitor/header"), m_monitor->saveState());
    settings.setValue(QStringLiteral("view/theme"), int(m_theme));
    settings.setValue(QStringLiteral("session/last"), m_session.value_or(SessionListModel::AllSessions));
}

void MainWindow::setOpenDialogsAutomatically(bool on)
{
    m_autoDialogs = on;
    if (m_popupAction && m_popupAction->isChecked() != on) {
        const QSignalBlocker block(m_popupAction);
        m_popupAction->setChecked(on);
    }
    QSettings().setValue(QStringLiteral("input/popup"), on);
    if (on)
        schedulePopup();
}

QString MainWindow::localUserName()
{
    for (const char *name : {"USER", "USERNAME", "LOGNAME"}) {
        const QString user = qEnvironmentVariable(name).trimmed();
        if (!user.isEmpty())
            return user;
    }
    return QStringLiteral("eddy");
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_quitGuard && !m_quitGuard()) {
        event->ignore();
        return;
    }
    saveSettings();
    if (m_sweepWindow)
        m_sweepWindow->close();
    QMainWindow::closeEvent(event);
}

void MainWindow::applyTheme(Theme theme)
{
    m_theme = theme;
    // Fusion draws the same on every desktop, so both palettes look as designed.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p = QApplication::style()->standardPalette();
    bool dark = false;
    if (theme == Theme::Dark) {
        dark = true;
        const QColor window(0x2b, 0x2d, 0x30), base(0x1f, 0x21, 0x24), text(0xdf, 0xe1, 0xe5);
        p.setColor(QPalette::Window, window);
        p.setColor(QPalette::WindowText, text);
        p.setColor(QPalette::Base, base);
        p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
        p.setColor(QPalette::ToolTipBase, window);
        p.setColor(QPalette::ToolTipText, text);
        p.setColor(QPalette::Text, text);
        p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
        p.setColor(QPalette::ButtonText, text);
        p.setColor(QPalette::BrightText, Qt::white);
        p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Link, QColor(0x58, 0x9d, 0xf6));
        p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x90, 0x96));
        p.setColor(QPalette::Mid, QColor(0x45, 0x47, 0x4b));
        p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x70, 0x73, 0x78));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x70, 0x73, 0x78));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x70, 0x73, 0x78));
    } else if (theme == Theme::Light) {
        p.setColor(QPalette::Window, QColor(0xf3, 0xf4, 0xf6));
        p.setColor(QPalette::Base, Qt::white);
        p.setColor(QPalette::AlternateBase, QColor(0xf6, 0xf8, 0xfa));
        p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
        p.setColor(QPalette::PlaceholderText, QColor(0x6e, 0x73, 0x7a));
    } else {
        dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
        p = QApplication::style()->standardPalette();
    }
    QApplication::setPalette(p);
    m_chart->setDark(dark);
    m_sweepResultsView->setDark(dark);
    updateStatusBar(); // the counts' dots take the theme's outcome colours
}

void MainWindow::updateTitle()
{
    // Never a task id here: titles end up in screenshots, screen shares and window lists.
    const QString session = m_session ? m_sessions->name(*m_session) : tr("All sessions");
    setWindowTitle(session.isEmpty() ? tr("Eddy") : tr("%1 — Eddy").arg(session));
}

QString MainWindow::statusCountsText() const
{
    using Monitor::Outcome;
    const auto c = m_tasks->outcomeCounts();
    return tr("Working %1 · Waiting for input %2 · Done %3 · Not converged %4 · Tool error %5 · Failed %6")
        .arg(c.value(Outcome::Working))
        .arg(c.value(Outcome::NeedsInput))
        .arg(c.value(Outcome::Converged) + c.value(Outcome::Completed))
        .arg(c.value(Outcome::NotConverged))
        .arg(c.value(Outcome::ToolError))
        .arg(c.value(Outcome::Failed) + c.value(Outcome::Expired) + c.value(Outcome::Lost));
}

void MainWindow::updateStatusBar()
{
    using Monitor::Outcome;
    const auto c = m_tasks->outcomeCounts();
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
    set(tr("Failed"), Outcome::Failed,
        c.value(Outcome::Failed) + c.value(Outcome::Expired) + c.value(Outcome::Lost));
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
    m_servers->setServers(s.servers);
    QHash<qint64, QString> names;
    for (const auto &srv : s.servers)
        names.insert(srv.id, srv.name.isEmpty() ? srv.url : srv.name);
    m_tasks->setServerNames(names);
    m_sessions->setSessions(s.sessions);
    // A remembered session that no longer exists: show everything instead of nothing.
    if (m_session && m_sessions->rowOf(*m_session) < 0) {
        switchSession(std::nullopt);
        return;
    }
    if (s.sessions.isEmpty() && !m_sessionKnown) {
        m_sessionKnown = true;
        m_bridge->createSession(tr("Study %1").arg(QDate::currentDate().toString(Qt::ISODate)));
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
    m_tasks->setTasks(s.tasks);
    m_sessionList->setCurrentIndex(m_sessions->index(std::max(0, m_sessions->rowOf(m_session.value_or(SessionListModel::AllSessions)))));
    // Open questions, and the answered ones of the shown tasks as their record.
    QList<Store::InputRequestRecord> questions = s.pendingInputs;
    for (const auto &r : s.answeredInputs) {
        if (m_tasks->task(r.taskId))
            questions << r;
    }
    m_inbox->setRequests(questions);
    updateTitle();
    updateStatusBar();
    onSelection(m_monitor->selectedTaskIds());
    Q_EMIT snapshotLoaded();
    if (m_autoDialogs)
        schedulePopup();
}

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
        return tr("%1: not sent: %2 — it will be sent again (same idempotency key) when Eddy "
                  "reopens or "
                  "eddyctl watch runs")
            .arg(label, last.trimmed());
    }
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
    // Live chart: append to the shown series; a new series means rebuilding the chart's list.
    QHash<QString, std::vector<QPointF>> appends;
    bool newSeries = false;
    // A charted task that just ended may bring its whole residual history with its result: the
    // store has replaced what polling saw, so the chart reloads from there.
    bool reload = false;
    for (const auto &t : changes.tasks)
        reload = reload || (!t.isLive() && m_chartTasks.contains(t.id));
    for (const auto &s : changes.samples) {
        if (reload || !m_chartTasks.contains(s.taskId) || !isChartSeries(s.series) || hasClockX(s))
            continue;
        const QString key = seriesKey(s.taskId, s.series);
        if (!m_series.contains(key)) {
            auto *m = new SampleSeriesModel(s.taskId, s.series, this);
            m_series.insert(key, m);
            newSeries = true;
        }
        appends[key].emplace_back(s.x, s.y);
    }
    for (auto it = appends.begin(); it != appends.end(); ++it)
        m_series.value(it.key())->appendPoints(it.value());
    if (newSeries) {
        QList<SampleSeriesModel *> list = m_series.values();
        std::sort(list.begin(), list.end(), [](auto *a, auto *b) {
            return std::pair(a->taskId(), a->series()) < std::pair(b->taskId(), b->series());
        });
        m_chart->setSeries(list);
    }
    if (reload)
        m_bridge->requestSamples(m_chartTasks);
    for (const auto &t : changes.tasks) {
        if (!t.isLive())
            m_inbox->removeTask(t.id);
        if (t.id == m_detailTask)
            m_bridge->requestTaskDetail(t.id);
    }
    m_inbox->addRequests(changes.inputs);
}

void MainWindow::onInputRequested(const Store::InputRequestRecord &request)
{
    if (m_inbox->addRequests({request}) == 0 && m_inbox->rowOf(request.taskId, request.key) < 0)
        return;
    notify(tr("Input needed"), tr("%1 asks: %2").arg(m_tasks->caseLabel(request.taskId), InboxModel::messageOf(request)));
    if (m_autoDialogs)
        schedulePopup();
    else if (!m_answerPanel->hasQuestion())
        syncAnswerPanel(); // the hint counts the open questions
}

void MainWindow::onTaskFinished(const Store::TaskRecord &task)
{
    m_tasks->applyTasks({task});
    m_sweepResults->updateTasks({task});
    m_inbox->removeTask(task.id);
    const QString label = m_tasks->caseLabel(task.id).isEmpty() ? tr("Task %1").arg(task.id) : m_tasks->caseLabel(task.id);
    if (task.status == TaskStatus::Completed && !task.isToolError)
        notify(tr("Task finished"), tr("%1 completed.").arg(label));
    else if (task.status == TaskStatus::Completed)
        notify(tr("Tool error"), tr("%1 completed with a tool error.").arg(label));
    else if (task.status == TaskStatus::Failed)
        notify(tr("Task failed"), tr("%1 failed.").arg(label));
    if (task.id == m_detailTask)
        m_bridge->requestTaskDetail(task.id);
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

void MainWindow::onSelection(const QList<qint64> &taskIds)
{
    m_chartTasks = taskIds.mid(0, MaxChartTasks);
    m_chart->setSeries({});
    qDeleteAll(m_series);
    m_series.clear();
    if (m_chartTasks.isEmpty()) {
        m_detailTask = 0;
        m_result->clear();
        m_timeline->clear();
        m_chart->setPlaceholder(tr("Select a task to see its residuals.\nSelect several to compare them."));
        return;
    }
    m_chart->setPlaceholder(tr("Waiting for the first residuals..."));
    m_bridge->requestSamples(m_chartTasks);
    m_detailTask = m_chartTasks.first();
    m_bridge->requestTaskDetail(m_detailTask);
    if (const Store::TaskRecord *t = m_tasks->task(m_detailTask); t && t->sweepId && *t->sweepId != m_sweepResults->sweepId())
        m_bridge->requestSweepResults(*t->sweepId);
}

void MainWindow::onSamples(const QList<qint64> &taskIds, const QList<Store::ProgressSample> &samples)
{
    if (taskIds != m_chartTasks)
        return;
    QHash<QString, std::vector<QPointF>> points;
    for (const auto &s : samples) {
        if (isChartSeries(s.series) && !hasClockX(s))
            points[seriesKey(s.taskId, s.series)].emplace_back(s.x, s.y);
    }
    m_chart->setSeries({});
    qDeleteAll(m_series);
    m_series.clear();
    for (auto it = points.begin(); it != points.end(); ++it) {
        const qint64 task = it.key().section(QLatin1Char('/'), 0, 0).toLongLong();
        auto *m = new SampleSeriesModel(task, it.key().section(QLatin1Char('/'), 1), this);
        m->setPoints(std::move(it.value()));
        m_series.insert(it.key(), m);
    }
    QList<SampleSeriesModel *> list = m_series.values();
    std::sort(list.begin(), list.end(), [](auto *a, auto *b) {
        return std::pair(a->taskId(), a->series()) < std::pair(b->taskId(), b->series());
    });
    if (list.isEmpty())
        m_chart->setPlaceholder(tr("No residuals reported yet for the selected task(s)."));
    m_chart->setSeries(list);
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
        answers << tr("Asked: %1\nAnswer: %2").arg(asked, InboxModel::answerText(r));
    }
    m_result->setAnswers(answers);
    const qint64 end = detail.task.finishedAtMs.value_or(QDateTime::currentMSecsSinceEpoch());
    m_timeline->setEvents(detail.events, end);
    m_timeline->setOutcome(detail.task.isLive() ? std::nullopt
                                                : std::optional<Monitor::Outcome>(Monitor::outcomeOf(detail.task)));
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
                .arg(label, InboxModel::messageOf(*r), InboxModel::answerText(*r)));
        return;
    }
    json request;
    if (const auto ctx = questionContext(taskId, key, &request))
        m_answerPanel->setQuestion(request, *ctx);
}

void MainWindow::syncAnswerPanel()
{
    if (m_answerPanel->hasQuestion()) {
        const Store::InputRequestRecord *r =
            m_inbox->request(m_inbox->rowOf(m_answerPanel->taskId(), m_answerPanel->key()));
        if (r && r->state == Store::InputState::Pending)
            return;
        const QString label = questionLabel(m_answerPanel->taskId());
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(
            r ? tr("This question of %1 was answered: %2").arg(label, InboxModel::answerText(*r))
            : InboxModel::isCaseKey(m_answerPanel->taskId())
                ? tr("This question of %1 is closed: the server no longer waits for it.").arg(label)
                : tr("This question of %1 is closed: its task ended.").arg(label));
        return;
    }
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
        m_answerPanel->setProperty("defaultNote", false);
        m_answerPanel->clearQuestion(tr("Abort requested for %1; waiting for the server to cancel it.").arg(label));
    }
    statusBar()->showMessage(tr("Abort requested for %1.").arg(label), 8000);
}

SweepEditor *MainWindow::sweepEditor()
{
    if (!m_sweepEditor) {
        m_sweepWindow = new QDialog(this);
        m_sweepWindow->setObjectName(QStringLiteral("SweepWindow"));
        m_sweepWindow->setWindowTitle(tr("New Sweep"));
        auto *layout = new QVBoxLayout(m_sweepWindow);
        layout->setContentsMargins(0, 0, 0, 0);
        m_sweepEditor = new SweepEditor(m_sweepWindow);
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
    }
    return m_sweepEditor;
}

void MainWindow::showSweepEditor()
{
    if (m_servers->rowCount() == 0) {
        showError(tr("No Server"), tr("Add a server first (Server > Add Server...)."));
        return;
    }
    sweepEditor();
    m_relaunchParent.reset();
    m_sweepWindow->setWindowTitle(tr("New Sweep"));
    m_sweepWindow->show();
    m_sweepWindow->raise();
    m_sweepWindow->activateWindow();
}

void MainWindow::rerun(const QList<qint64> &taskIds)
{
    int n = 0;
    for (qint64 id : taskIds) {
        const Store::TaskRecord *t = m_tasks->task(id);
        if (!t || !TaskMonitor::isRerunnable(*t))
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
    editor->clearVaried();
    json args = json::parse(t->arguments.toStdString(), nullptr, false);
    if (args.is_object())
        args.erase("idempotency_key");
    editor->form()->setValue(args.is_object() ? args : json::object());
    m_relaunchParent = t->caseId; // "Run Once" journals the new case with this lineage
    m_sweepWindow->setWindowTitle(tr("Relaunch %1 with Edits").arg(m_tasks->caseLabel(taskId)));
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
    const QString name = QInputDialog::getText(this, tr("New Session"), tr("Name of the study:"), QLineEdit::Normal,
                                               tr("Study %1").arg(QDate::currentDate().toString(Qt::ISODate)), &ok);
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

void MainWindow::showError(const QString &title, const QString &message)
{
    statusBar()->showMessage(message, 10000);
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // never a nested event loop inside an engine callback
}

void MainWindow::notify(const QString &title, const QString &message)
{
    if (m_tray && m_tray->isVisible())
        m_tray->showMessage(title, message, QSystemTrayIcon::Information, 8000);
    statusBar()->showMessage(message, 8000);
}

} // namespace Eddy
