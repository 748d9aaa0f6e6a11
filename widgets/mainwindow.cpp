#include "widgets/mainwindow.h"

#include "models/chartseriesset.h"
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
#include "widgets/progressdelegate.h"
#include "widgets/residualchart.h"
#include "widgets/compareview.h"
#include "widgets/resultview.h"
#include "widgets/reviewactions.h"
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
#include <QScreen>
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

#include <pwd.h>
#include <unistd.h>

namespace Eddy {

using json = nlohmann::json;
using Store::TaskStatus;

MainWindow::MainWindow(EngineBridge *bridge, Agent::Agent *agent, QWidget *parent)
    : QMainWindow(parent)
    , m_bridge(bridge)
    , m_agent(agent)
    , m_tasks(new TaskTableModel(this))
    , m_inbox(new InboxModel(this))
    , m_servers(new ServerListModel(this))
    , m_sessions(new SessionListModel(this))
    , m_monitor(new TaskMonitor(m_tasks, this))
    , m_chart(new ResidualChart(this))
    , m_chartSeries(new ChartSeriesSet(this))
    , m_timeline(new StatusTimeline(this))
    , m_result(new ResultView(this))
    , m_serverList(new QListView(this))
    , m_sessionList(new QListView(this))
    , m_inboxView(new QTableView(this))
    , m_sweepResults(new SweepResultsModel(this))
    , m_overlayResults(new SweepResultsModel(this))
    , m_sweepResultsView(new SweepResultsView(m_sweepResults, this))
    , m_clock(new QTimer(this))
    , m_activity(new QLabel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/eddy/icons/eddy.svg")));
    setDockNestingEnabled(true);
    setCentralWidget(m_monitor);
    m_inbox->setEndedAs([this](qint64 taskId) { return endedAs(taskId); });
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
                                                  {tr("Failed"), Outcome::Failed},
                                                  {tr("Cancelled"), Outcome::Cancelled},
                                                  {tr("Expired/lost"), Outcome::Lost}};
    for (const auto &[label, outcome] : counters) {
        auto *l = new QLabel(this);
        l->setObjectName(QStringLiteral("count_%1").arg(Monitor::OutcomeText::key(outcome)));
        l->setTextFormat(Qt::RichText);
        statusBar()->addPermanentWidget(l);
        m_counts.insert(label, l);
    }
    statusBar()->addWidget(m_activity, 1);
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString &message) {
        statusBar()->setToolTip(!message.isEmpty() && message == m_statusMessage.first
                                        && message != m_statusMessage.second
                                    ? m_statusMessage.second
                                    : QString());
    });
    m_activity->setObjectName(QStringLiteral("serverActivity"));
    m_activity->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never over the counts
    connect(m_servers, &ServerListModel::stateAnnounced, this, [this](const QString &sentence) {
        m_activity->setText(sentence);
        m_activity->setToolTip(sentence);
    });
    // An unreachable server is asked again now and then, so that its error does not stay in the
    // status bar once it is back: a server without tasks to poll would otherwise never be heard
    // from again until F5. (One with tasks is heard from through its polls.)
    auto *recheck = new QTimer(this);
    recheck->setInterval(s_serverRecheckMs);
    connect(recheck, &QTimer::timeout, this, [this] {
        for (const auto &s : m_servers->servers())
            if (m_servers->state(s.id) == ServerListModel::State::Unreachable)
                m_bridge->refreshServer(s.id);
    });
    recheck->start();
    // Cases whose tools/call fails before any task exists: retried, then deferred. They have no
    // row in the task table yet, so their state is shown here until they get a task.
    m_delivery = new QLabel(this);
    m_delivery->setObjectName(QStringLiteral("caseDelivery"));
    m_delivery->setTextFormat(Qt::PlainText);
    m_delivery->setVisible(false);
    m_delivery->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(m_delivery, 2);
    connect(m_tasks, &TaskTableModel::countsChanged, this, &MainWindow::updateStatusBar);
    connect(m_tasks, &TaskTableModel::sweepInfoNeeded, m_bridge, &EngineBridge::requestSweep);
    connect(m_tasks, &TaskTableModel::storedResidualsNeeded, m_bridge, &EngineBridge::requestLatestResiduals);
    connect(m_bridge, &EngineBridge::latestResidualsReady, m_tasks,
            [this](const QList<qint64> &, const QList<Store::ProgressSample> &samples) {
                m_tasks->applyStoredResiduals(samples);
            });
    connect(m_inbox, &InboxModel::countChanged, this, &MainWindow::updateStatusBar);
    updateStatusBar();

    // Time columns tick once a second; the task table's proxy repaints its shown rows.
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, [this] {
        m_tasks->tick();
        // Measuring the inbox's columns over a full inbox took the main thread 4-5 ms; done for
        // every second's repaint it was the window's longest stall (bench/soak, docs/soak.md).
        m_inboxClockRefresh = true;
        m_inbox->refreshDescriptions();
        m_inboxClockRefresh = false;
        if (++m_clockTicks % s_inboxRefitSeconds == 0)
            m_inboxFitTimer->start();
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
    connect(m_monitor, &TaskMonitor::rerunRequested, this, [this](const QList<qint64> &ids) { rerun(ids); });
    connect(m_monitor, &TaskMonitor::rerunFailedRequested, this,
            [this](const QList<qint64> &ids) { rerun(ids, Rerun::FailedAndUnconverged); });
    // The same from the sweep table, e.g. the cases brushed on its parallel coordinates.
    connect(m_sweepResultsView, &SweepResultsView::rerunRequested, this, [this](const QList<qint64> &ids) { rerun(ids); });
    connect(m_sweepResultsView, &SweepResultsView::rerunFailedRequested, this,
            [this](const QList<qint64> &ids) { rerun(ids, Rerun::FailedAndUnconverged); });
    connect(m_monitor, &TaskMonitor::shownRowsChanged, this, &MainWindow::updateStatusBar);
    connect(m_monitor, &TaskMonitor::relaunchRequested, this, &MainWindow::relaunch);
    connect(m_sweepResultsView, &SweepResultsView::taskActivated, m_monitor, &TaskMonitor::selectTask);
    // The compare window reads the compared cases' stored residual histories.
    connect(m_sweepResultsView->compareView(), &CompareView::samplesNeeded, m_bridge, &EngineBridge::requestSamples);
    connect(m_bridge, &EngineBridge::samplesReady, m_sweepResultsView->compareView()->residualSeries(),
            &ChartSeriesSet::setSamples);

    // Engine -> GUI (queued: the engine lives on its own thread).
    connect(m_bridge, &EngineBridge::snapshotReady, this, &MainWindow::onSnapshot);
    new SharedWorkFollower(m_bridge, m_tasks, [this] { return m_session; }, this);
    connect(m_bridge, &EngineBridge::samplesReady, m_chartSeries, &ChartSeriesSet::setSamples);
    connect(m_chartSeries, &ChartSeriesSet::reloadNeeded, m_bridge, &EngineBridge::requestSamples);
    connect(m_chartSeries,
            &ChartSeriesSet::seriesChanged,
            this,
            [this](const QList<SampleSeriesModel *> &series) {
                if (series.isEmpty() && !m_chartSeries->tasks().isEmpty())
                    m_chart->setPlaceholder(tr("No residuals reported yet for the selected task(s)."));
                // Without series the chart gives its height to the result's summary.
                m_result->setSummaryWhole(series.isEmpty());
                QHash<qint64, QString> labels; // several cases are named as the table names them
                for (const SampleSeriesModel *s : series) {
                    if (!labels.contains(s->taskId()) && !m_tasks->caseLabel(s->taskId()).isEmpty())
                        labels.insert(s->taskId(), m_tasks->caseLabel(s->taskId()));
                }
                m_chart->setSeries(series, labels);
            });
    connect(m_bridge, &EngineBridge::taskDetailReady, this, &MainWindow::onDetail);
    m_sweepResultsView->setOverlayModel(m_overlayResults);
    connect(m_sweepResultsView, &SweepResultsView::overlayRequested, this, [this](qint64 sweepId) {
        m_overlayAsked = sweepId;
        if (sweepId)
            m_bridge->requestSweepResults(sweepId);
        else
            m_overlayResults->clear();
    });
    new ReviewActions(this, m_bridge); // after onDetail: the detail's note goes on the result shown
    connect(m_bridge, &EngineBridge::sweepResultsReady, this, [this](const EngineBridge::SweepResults &r) {
        if (r.sweep.id == m_overlayAsked && r.sweep.id != m_sweepResults->sweepId()) {
            m_overlayAsked = 0; // the overlay's, not the sweep shown
            m_overlayResults->setSweep(r.sweep.id, EngineBridge::variedNames(r.sweep.spec), r.tasks, r.caseIndex);
            return;
        }
        // Other sweeps of the same server and tool can be drawn on its plot.
        QList<QPair<qint64, QString>> others;
        for (const Store::SweepRecord &sw : std::as_const(m_sweeps))
            if (sw.id != r.sweep.id && sw.serverId == r.sweep.serverId && sw.tool == r.sweep.tool)
                others.append({sw.id, sweepLabel(sw.id)});
        std::sort(others.begin(), others.end());
        m_sweepResultsView->setOverlayChoices(others);
        // The plot's x/y choice is remembered per server and tool.
        m_sweepResultsView->setPlotKey(m_servers->displayName(r.sweep.serverId) + QLatin1Char('/') + r.sweep.tool);
        m_sweepResults->setAnswers(r.answers);
        m_sweepResults->setSweep(r.sweep.id, EngineBridge::variedNames(r.sweep.spec), r.tasks, r.caseIndex);
        m_sweepResults->setCases(r.cases);
        m_sweepResults->setReview(r.sweep); // its note, tags, baseline and pause
    });
    // Any of the session's sweeps can be shown, also one none of whose cases was sent yet.
    connect(m_sweepResultsView, &SweepResultsView::sweepChosen, m_bridge, &EngineBridge::requestSweepResults);
    connect(m_bridge, &EngineBridge::serversReady, this, [this](const QList<Store::ServerRecord> &servers) {
        m_servers->setServers(servers);
        m_tasks->setServerNames(ServerListModel::taskServerNames(servers));
    });
    // Removed with its tasks deleted (or kept, now lost): read the session again.
    connect(m_bridge, &EngineBridge::serverRemoved, this, [this] { m_bridge->requestSnapshot(m_session); });
    connect(m_bridge, &EngineBridge::sweepReady, this, [this](const Store::SweepRecord &sweep, const QHash<qint64, int> &index) {
        m_sweeps.insert(sweep.id, sweep);
        updateSweepChoices();
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
    // The live chart is fed by the bridge directly; the window only places it.
    connect(m_bridge, &EngineBridge::changesReady, m_chartSeries, &ChartSeriesSet::applyChanges);
    connect(m_bridge, &EngineBridge::changesReady, this, &MainWindow::onChanges);
    connect(m_bridge, &EngineBridge::inputAnswered, this, &MainWindow::onInputAnswered);
    connect(m_bridge,
            &EngineBridge::serverStateChanged,
            this,
            [this](qint64 id, ServerListModel::State state, const QString &message, bool notMcp) {
                // The model names the server in stateAnnounced(), also for a state that
                // arrives before the server list does.
                m_servers->setState(id, state, message, notMcp);
            });
    connect(m_bridge, &EngineBridge::toolsChanged, this, [this](qint64) { m_bridge->requestServers(); });
    connect(m_bridge, &EngineBridge::sweepSubmitted, this, [this](qint64 sweepId, int count) {
        m_tasks->acceptSweep(sweepId);
        m_monitor->selectSweepWhenListed(sweepId);
        m_bridge->requestSweep(sweepId);
        statusBar()->showMessage(tr("Sweep %1 journalled: %n case(s) are being submitted.", nullptr, count).arg(sweepId), 8000);
    });
    connect(m_bridge, &EngineBridge::callJournalled, this, [this](qint64 caseId) {
        m_tasks->acceptCase(caseId);
        statusBar()->showMessage(tr("Call journalled; sending it to the server."), 5000);
    });
    connect(m_bridge, &EngineBridge::submissionRejected, this, [this](const QString &message) {
        showError(tr("Not Submitted"), message);
    });
    connect(m_bridge, &EngineBridge::caseRejected, this, [this](qint64, const QString &message) {
        showStatus(tr("A case was rejected by the server: %1").arg(message), 10000);
    });
    connect(m_bridge, &EngineBridge::operationFailed, this, [this](const QString &message) {
        showStatus(message, 10000);
    });
    connect(m_bridge, &EngineBridge::ttlWarning, this, [this](qint64 taskId, qint64 msLeft) {
        notify(tr("Task may be forgotten"),
               tr("%1: the server may drop it in %2.").arg(m_tasks->caseLabel(taskId), TaskTableModel::durationText(msLeft)));
    });

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
    m_inboxView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_inboxView->horizontalHeader()->setSectionResizeMode(InboxModel::MessageColumn, QHeaderView::Stretch);
    m_inboxView->horizontalHeader()->setStretchLastSection(false);
    m_inboxView->setShowGrid(false);
    m_inboxView->setColumnHidden(InboxModel::ServerColumn, true); // in the tooltip and the panel
    m_inboxView->setItemDelegateForColumn(InboxModel::CaseColumn, new ElideLeftDelegate(m_inboxView));
    // The question's column follows the list's width: fit the others to it.
    connect(m_inboxView->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column == InboxModel::MessageColumn)
            QMetaObject::invokeMethod(this, &MainWindow::fitInboxColumns, Qt::QueuedConnection);
    });
    // Measured once per burst of changes, from at most s_inboxFitRows rows: a fit per change over
    // a thousand rows froze the window for minutes while 10,000 questions arrived (bench/soak).
    m_inboxView->horizontalHeader()->setResizeContentsPrecision(s_inboxFitRows);
    m_inboxFitTimer = new QTimer(this);
    m_inboxFitTimer->setSingleShot(true);
    m_inboxFitTimer->setInterval(0);
    connect(m_inboxFitTimer, &QTimer::timeout, this, &MainWindow::fitInboxColumns);
    const auto scheduleFit = [this] { m_inboxFitTimer->start(); };
    connect(m_inbox, &QAbstractItemModel::rowsInserted, this, scheduleFit);
    connect(m_inbox, &QAbstractItemModel::rowsRemoved, this, scheduleFit);
    connect(m_inbox, &QAbstractItemModel::modelReset, this, scheduleFit);
    connect(m_inbox, &QAbstractItemModel::dataChanged, this, [this, scheduleFit] {
        if (!m_inboxClockRefresh)
            scheduleFit();
    });
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
    inboxSplitter->setStretchFactor(0, 1); // half each: the question reads in the list
    inboxSplitter->setStretchFactor(1, 1);
    connect(m_inbox, &QAbstractItemModel::rowsInserted, this, [this] {
        // The inbox opens small while empty; a question needs room for its form.
        if (!m_inboxDock->isFloating() && m_inboxDock->height() < 200)
            resizeDocks({m_inboxDock}, {std::clamp(height() * 3 / 10, 200, 320)}, Qt::Vertical);
    });
    connect(m_inbox, &QAbstractItemModel::rowsRemoved, this, &MainWindow::syncAnswerPanel);
    connect(m_inbox, &QAbstractItemModel::modelReset, this, &MainWindow::syncAnswerPanel);
    connect(m_inbox, &QAbstractItemModel::dataChanged, this, &MainWindow::syncAnswerPanel);
    // A closed question's reason changes when its server leaves the list (removed, not ended).
    connect(m_servers, &QAbstractItemModel::modelReset, this, &MainWindow::syncAnswerPanel);
    connect(m_servers, &QAbstractItemModel::rowsRemoved, this, &MainWindow::syncAnswerPanel);
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
    connect(m_sweepDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        // The inbox opens small while empty; the sweep's plot needs room for its axes (in a
        // shorter one Qt Charts cuts every label and title to "..."): as much as a question gets.
        const int wanted = std::clamp(height() * 3 / 10, 200, 320);
        if (visible && !m_sweepDock->isFloating() && m_sweepDock->height() < wanted)
            resizeDocks({m_sweepDock}, {wanted}, Qt::Vertical);
    });
    m_inboxDock->raise();

    // Right, behind the result: the agent's chat. Its cards lead to the task in the monitor.
    if (!m_agent) {
        resultDock->raise();
        return;
    }
    m_agentPanel = new AgentPanel(m_agent, this);
    m_agentPanel->setObjectName(QStringLiteral("agentPanel"));
    connect(m_agentPanel, &AgentPanel::taskActivated, this, [this](qint64 taskId) {
        m_monitor->selectTask(taskId);
    });
    // A new conversation is a new session: show it in the list.
    connect(m_agentPanel, &AgentPanel::conversationOpened, this, [this](qint64, const QString &) {
        m_bridge->requestSnapshot(m_session);
    });
    // Tabbed behind the result, its chat's minimum height held the right column so tall that the
    // inbox could not grow for a question at 800 px: it may shrink like the result.
    m_agentPanel->setMinimumHeight(120);
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
    resizeDocks({m_sidebarDock}, {std::clamp(w / 8, 170, 260)}, Qt::Horizontal);
    // The table keeps the larger share: at 1280 px its key columns fit beside a German case label.
    resizeDocks({m_chartDock}, {std::clamp(w / 4, 300, 640)}, Qt::Horizontal);
    // Small while no question waits (it grows when one arrives, see the inbox's rowsInserted);
    // tall enough for a question and its form beside the list when one does.
    const int inbox = m_inbox->rowCount() == 0 ? std::clamp(h / 6, 130, 200) : std::clamp(h * 3 / 10, 200, 320);
    resizeDocks({m_inboxDock}, {inbox}, Qt::Vertical);
    resizeDocks({m_chartDock, m_resultDock}, {h * 11 / 20, h * 9 / 20}, Qt::Vertical);
}

void MainWindow::fitToScreen()
{
    const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // Room for a window manager's frame and title bar, which are not known before the first show.
    const QSize frame(16, 48);
    const QSize size = this->size().boundedTo(available.size() - frame);
    if (size != this->size())
        resize(size);
    QRect g(pos(), size + frame);
    if (!available.contains(g)) {
        g.moveRight(std::min(g.right(), available.right()));
        g.moveBottom(std::min(g.bottom(), available.bottom()));
        g.moveLeft(std::max(g.left(), available.left()));
        g.moveTop(std::max(g.top(), available.top()));
        move(g.topLeft());
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!event->spontaneous()) {
        // The list and the answer panel share the inbox evenly (their size hints would not).
        QTimer::singleShot(0, this, [this] {
            if (auto *splitter = findChild<QSplitter *>(QStringLiteral("inboxSplitter")))
                splitter->setSizes({splitter->width() / 2, splitter->width() - splitter->width() / 2});
        });
    }
    if (m_defaultDockSizesPending) {
        m_defaultDockSizesPending = false;
        // After this event the window has its final size.
        QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
    }
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 900);
    fitToScreen();
    m_defaultDockSizesPending = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_monitor->restoreState(settings.value(QStringLiteral("monitor/columns")).toByteArray());
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
    settings.setValue(QStringLiteral("monitor/columns"), m_monitor->saveState());
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
    // Without them (a service, a bare container): the account's name, never a made-up one that
    // reads like a program ("eddy" passed for eddyctl).
    if (const passwd *pw = ::getpwuid(::geteuid()); pw && pw->pw_name && *pw->pw_name)
        return QString::fromLocal8Bit(pw->pw_name);
    return tr("user %1").arg(::geteuid());
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
    if (theme == Theme::Dark) {
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
        p = QApplication::style()->standardPalette();
    }
    // Every chart follows the palette (ChartTheme).
    QApplication::setPalette(p);
    updateStatusBar(); // the counts' dots take the theme's outcome colours
}

} // namespace Eddy
