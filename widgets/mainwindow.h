#pragma once

#include "app/monitor/changeset.h"
#include "app/monitor/engine.h"
#include "models/enginebridge.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <functional>
#include <optional>

class QLabel;
class QListView;
class QSystemTrayIcon;
class QTableView;
class QTimer;
class QDockWidget;

namespace Eddy {

class AgentPanel;
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
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    explicit MainWindow(EngineBridge *bridge, QWidget *parent = nullptr);
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
    // Ends the agent (on the engine thread) before the engine is deleted; the dock stays empty.
    void shutdownAgent();
    SweepEditor *sweepEditor();
    // The elicitation dialog on screen, if any.
    ElicitationDialog *currentDialog() const { return m_dialog; }
    QString statusCountsText() const;

    // Questions open a dialog at once (default) or wait in the inbox ("Inbox Only" in the Tasks
    // menu); the choice is saved in QSettings (input/openDialogs).
    void setOpenDialogsAutomatically(bool on);
    bool opensDialogsAutomatically() const { return m_autoDialogs; }
    QAction *inboxOnlyAction() const { return m_inboxOnly; }
    // Asked before the window closes; returning false keeps it open (e.g. the user cancelled).
    void setQuitGuard(std::function<bool()> guard) { m_quitGuard = std::move(guard); }
    void applyTheme(Theme theme);
    Theme theme() const { return m_theme; }

    void showSweepEditor();
    void answerNext();           // opens the dialog for the oldest question in the inbox
    void answer(qint64 taskId, const QString &key);
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
    void saveSettings() const;
    void updateTitle();
    void updateStatusBar();
    void onSnapshot(const EngineBridge::Snapshot &snapshot);
    void onChanges(const Monitor::ChangeSet &changes);
    void onInputRequested(const Store::InputRequestRecord &request);
    void onTaskFinished(const Store::TaskRecord &task);
    void onSelection(const QList<qint64> &taskIds);
    void onSamples(const QList<qint64> &taskIds, const QList<Store::ProgressSample> &samples);
    void onDetail(const EngineBridge::TaskDetail &detail);
    void showError(const QString &title, const QString &message);
    void notify(const QString &title, const QString &message);
    void rerun(const QList<qint64> &taskIds);
    void relaunch(qint64 taskId);
    QString sweepLabel(std::optional<qint64> sweepId) const;

    EngineBridge *m_bridge;
    TaskTableModel *m_tasks;
    InboxModel *m_inbox;
    ServerListModel *m_servers;
    SessionListModel *m_sessions;
    TaskMonitor *m_monitor;
    ResidualChart *m_chart;
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
    SweepResultsView *m_sweepResultsView;
    QAction *m_inboxOnly = nullptr;
    std::optional<qint64> m_relaunchParent; // case id the sweep editor is relaunching
    SweepEditor *m_sweepEditor = nullptr;
    QWidget *m_sweepWindow = nullptr;
    QPointer<ElicitationDialog> m_dialog;
    QSystemTrayIcon *m_tray = nullptr;
    QTimer *m_clock;
    QHash<QString, QLabel *> m_counts;
    QLabel *m_activity;
    std::optional<qint64> m_session;
    bool m_sessionKnown = false;
    QList<qint64> m_chartTasks;
    QHash<QString, SampleSeriesModel *> m_series; // "task/series" -> model shown in the chart
    qint64 m_detailTask = 0;
    QHash<qint64, Store::SweepRecord> m_sweeps;
    bool m_autoDialogs = true;
    bool m_defaultDockSizesPending = false;
    Theme m_theme = Theme::System;
    std::function<bool()> m_quitGuard;
};

} // namespace Eddy
