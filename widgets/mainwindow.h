#pragma once

#include "models/enginebridge.h"
#include "widgets/answerpanel.h"

#include <QHash>
#include <QMainWindow>
#include <QMap>
#include <QPointer>
#include <QSet>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

class QLabel;
class QListView;
class QSystemTrayIcon;
class QTableView;
class QTimer;
class QDockWidget;

namespace Eddy {

namespace Agent {
class Agent;
}
class AgentPanel;
class ChartSeriesSet;
class ElicitationDialog;
class InboxModel;
class ResidualChart;
class ResultView;
class SampleSeriesModel;
class ServerListModel;
class SessionListModel;
class StatusTimeline;
class SweepEditor;
class SweepResultsModel;
class SweepResultsView;
class TaskMonitor;
class TaskTableModel;

// The workbench window: servers and sessions on the left, the task monitor in the middle, the
// live chart, status timeline and result on the right, the input inbox at the bottom. Every
// panel is a dock whose layout is saved in QSettings. It talks to the engine only through the
// EngineBridge and keeps nothing the database does not also hold. GUI thread.
// The agent (built where the engine is, on its thread) feeds the Agent dock; without one (tests
// that do not need it) the window has no Agent dock.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    explicit MainWindow(EngineBridge *bridge, Agent::Agent *agent = nullptr,
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads servers, sessions and tasks (call once the engine has opened its database).
    void start();
    // The session shown; nullopt = all sessions.
    std::optional<qint64> currentSession() const { return m_session; }
    void switchSession(std::optional<qint64> sessionId);

    TaskTableModel *taskModel() const { return m_tasks; }
    InboxModel *inboxModel() const { return m_inbox; }
    ServerListModel *serverModel() const { return m_servers; }
    SessionListModel *sessionModel() const { return m_sessions; }
    TaskMonitor *monitor() const { return m_monitor; }
    ResidualChart *chart() const { return m_chart; }
    ResultView *resultView() const { return m_result; }
    StatusTimeline *timeline() const { return m_timeline; }
    SweepResultsView *sweepResults() const { return m_sweepResultsView; }
    QDockWidget *sweepResultsDock() const { return m_sweepDock; }
    AgentPanel *agentPanel() const { return m_agentPanel; }
    // Removes the Agent panel (the dock stays empty); the agent itself is its owner's to end.
    void shutdownAgent();
    SweepEditor *sweepEditor();
    // The opt-in pop-up on screen, if any.
    ElicitationDialog *currentDialog() const { return m_dialog; }
    // The non-modal answer panel beside the inbox list.
    AnswerPanel *answerPanel() const { return m_answerPanel; }
    QTableView *inboxView() const { return m_inboxView; }
    // The inbox's column widths are measured from at most this many rows (the shown ones first).
    static constexpr int s_inboxFitRows = 100;
    // The once-a-second clock repaints the inbox's waiting times; its columns are measured again
    // for them only every this many seconds (and at once when a question comes, goes or changes).
    static constexpr int s_inboxRefitSeconds = 60;
    QString statusCountsText() const;

    // Questions wait in the inbox and are answered in the answer panel (default), or each pops
    // up in a modal dialog ("Pop Up Each Question" in the Tasks menu; saved in QSettings as
    // input/popup). A pop-up never follows the previous one within AnswerPanel::GuardMs, and one
    // closed without an answer is not popped up again (it waits in the inbox).
    void setOpenDialogsAutomatically(bool on);
    bool opensDialogsAutomatically() const { return m_autoDialogs; }
    QAction *popupAction() const { return m_popupAction; }
    // "Notify About Questions After Login" (Tasks menu): the notifier's XDG autostart entry
    // (AutostartEntry), started as `program args --notify`; main() gives the database's args.
    void setNotifierCommand(const QStringList &command) { m_notifierCommand = command; }
    QAction *autostartAction() const { return m_autostartAction; }
    // Who answers from this window, stored with each answer: the login name.
    static QString localUserName();
    // Asked before the window closes; returning false keeps it open (e.g. the user cancelled).
    void setQuitGuard(std::function<bool()> guard) { m_quitGuard = std::move(guard); }
    void applyTheme(Theme theme);
    Theme theme() const { return m_theme; }

    void showSweepEditor();
    // Shows the oldest open question (in the answer panel, or the pop-up when that is on).
    void answerNext();
    void answer(qint64 taskId, const QString &key);
    // Selects the question in the inbox, its case in the monitor (so its chart and detail show)
    // and, when it is open, puts it in the answer panel.
    void showQuestion(qint64 taskId, const QString &key);
    void addServer();
    void showServer(qint64 serverId);
    void newSession();
    void renameSession();
    void attachEarlierTasks();

Q_SIGNALS:
    void snapshotLoaded();
    void dialogOpened(Eddy::ElicitationDialog *dialog);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildDocks();
    void buildMenus();
    void restoreSettings();
    // Dock sizes for a first start (no saved layout), from the window's real size once shown.
    void applyDefaultDockSizes();
    // Keeps the window (saved or default size) inside the screen's available geometry.
    void fitToScreen();
    void saveSettings() const;
    void updateTitle();
    // The database is write-protected: a banner, and nothing offered that would write.
    void setReadOnlyReview();
    void updateStatusBar();
    void onSnapshot(const EngineBridge::Snapshot &snapshot);
    void onChanges(const Monitor::ChangeSet &changes);
    void onInputRequested(const Store::InputRequestRecord &request);
    void announceFinished(const Store::TaskRecord &task); // the notification of a finish
    void onSelection(const QList<qint64> &taskIds);
    void onDetail(const EngineBridge::TaskDetail &detail);
    void showError(const QString &title, const QString &message);
    // A status-bar message shortened ("...") to the room left of the counts.
    void showStatus(const QString &message, int timeoutMs);
    void notify(const QString &title, const QString &message);
    // Rerunnable: failed, cancelled, expired, lost or aborted; FailedAndUnconverged adds the
    // completed cases that did not converge. Each joins its sweep at its case index.
    enum class Rerun { Rerunnable, FailedAndUnconverged };
    void rerun(const QList<qint64> &taskIds, Rerun which = Rerun::Rerunnable);
    std::optional<ElicitationContext> questionContext(qint64 taskId, const QString &key, nlohmann::json *request);
    void openDialog(qint64 taskId, const QString &key);
    void schedulePopup();
    void popupNext();
    void sendAnswer(qint64 taskId, const QString &key, const nlohmann::json &result);
    // Asks once ("Abort Case" / "Keep Asking"), then asks the server to cancel the task.
    void confirmAbort(qint64 taskId, QWidget *parent);
    void abortCase(qint64 taskId);
    void onInputAnswered(qint64 taskId, const QString &key, bool ok, const QString &message);
    // Before any task exists: a question of a case, and a call that fails and is retried.
    void onCaseQuestion(const EngineBridge::CaseQuestion &question);
    struct Delivery
    {
        EngineBridge::CaseDelivery delivery;
        qint64 dueAtMs = 0; // when the retry goes out
    };
    QString deliveryText(const Delivery &delivery) const;
    void updateDeliveries();
    // "Sweep 1 · case 3" / "Task 7" for a task, or the case of a question before its task.
    QString questionLabel(qint64 taskId) const;
    // The panel's question left the inbox or was answered elsewhere: say so.
    void syncAnswerPanel();
    // How a shown task ended, when that closed its questions (InboxModel::EndedAs).
    std::optional<Store::TaskStatus> endedAs(qint64 taskId) const;
    // A question the panel shows, and once it can no longer be answered the note saying why.
    struct ClosedQuestion
    {
        qint64 taskId = 0;
        QString key;
        qint64 serverId = 0;
        QString label;
        QString note;
    };
    // Why: answered, its server removed, its task ended (and how), or (before a task) the server
    // no longer waits for it.
    QString closedQuestionNote(const ClosedQuestion &question) const;
    // The inbox's columns at the list's width: the question takes the room, the case, waiting
    // time and answer take at most their share (elided, whole in the tooltip).
    void fitInboxColumns();
    // Grows the inbox dock (up to under half the window) until the question shows unscrolled.
    void fitInboxToQuestion();
    void relaunch(qint64 taskId);
    QString sweepLabel(std::optional<qint64> sweepId) const;
    // The sweep view's chooser: the shown session's sweeps.
    void updateSweepChoices();

    EngineBridge *m_bridge;
    Agent::Agent *m_agent; // may be null; lives on the engine thread
    TaskTableModel *m_tasks;
    InboxModel *m_inbox;
    ServerListModel *m_servers;
    SessionListModel *m_sessions;
    TaskMonitor *m_monitor;
    ResidualChart *m_chart;
    ChartSeriesSet *m_chartSeries; // the charted tasks' residual series
    StatusTimeline *m_timeline;
    ResultView *m_result;
    QListView *m_serverList;
    QListView *m_sessionList;
    QTableView *m_inboxView;
    QDockWidget *m_sidebarDock = nullptr;
    QDockWidget *m_chartDock = nullptr;
    QDockWidget *m_resultDock = nullptr;
    QDockWidget *m_inboxDock = nullptr;
    QDockWidget *m_sweepDock = nullptr;
    QDockWidget *m_agentDock = nullptr;
    AgentPanel *m_agentPanel = nullptr;
    SweepResultsModel *m_sweepResults;
    SweepResultsModel *m_overlayResults; // another sweep drawn on the sweep plot
    qint64 m_overlayAsked = 0;           // its results were asked for
    SweepResultsView *m_sweepResultsView;
    static constexpr int s_serverRecheckMs = 15000; // how often an unreachable server is asked again
    QAction *m_popupAction = nullptr;
    QList<QAction *> m_writeActions; // disabled in a read-only review
    QLabel *m_readOnlyBanner = nullptr; // shown in a read-only review
    QAction *m_autostartAction = nullptr;
    QStringList m_notifierCommand;
    AnswerPanel *m_answerPanel = nullptr;
    QTimer *m_popupTimer = nullptr;
    QTimer *m_inboxFitTimer = nullptr; // one fitInboxColumns() per burst of inbox changes
    bool m_inboxClockRefresh = false;  // the clock's repaint of the inbox: not a change to fit
    qint64 m_clockTicks = 0;
    qint64 m_lastDialogClosedMs = 0;
    QSet<QPair<qint64, QString>> m_dismissed; // closed without an answer: not popped up again
    QSet<QPair<qint64, QString>> m_announced; // questions announced once, when first seen open
    ClosedQuestion m_panelQuestion; // the one last put in the panel
    std::optional<ClosedQuestion> m_closedQuestion; // while the panel says why it closed
    std::optional<qint64> m_relaunchParent; // case id the sweep editor is relaunching
    SweepEditor *m_sweepEditor = nullptr;
    QWidget *m_sweepWindow = nullptr;
    QPointer<ElicitationDialog> m_dialog;
    QSystemTrayIcon *m_tray = nullptr;
    QTimer *m_clock;
    QHash<QString, QLabel *> m_counts;
    QLabel *m_activity;
    QPair<QString, QString> m_statusMessage; // the status bar's message as shown, and whole
    QLabel *m_delivery = nullptr;
    QMap<qint64, Delivery> m_deliveries; // case id -> its latest retry or deferral
    std::optional<qint64> m_session;
    bool m_sessionKnown = false;
    bool m_serversContacted = false; // asked each listed server who it is, once per run
    qint64 m_detailTask = 0;
    QHash<qint64, Store::SweepRecord> m_sweeps;
    bool m_autoDialogs = false;
    bool m_defaultDockSizesPending = false;
    Theme m_theme = Theme::System;
    std::function<bool()> m_quitGuard;
};

} // namespace Eddy
