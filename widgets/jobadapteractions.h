#pragma once

#include "models/enginebridge.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>

class QFrame;
class QLabel;
class QListView;
class QMainWindow;
class QMenu;

namespace Eddy {

class JobAdapterDialog;
class ServerListModel;

// Server > Job Adapter... and the notice that asks for one: when Eddy connects to a server that
// offers no MCP Tasks but job-shaped tools (submit/status/...) and has no adapter yet, a notice
// in the status bar says so once, with "Review Job Adapter..." (and a way to say not now, which
// is remembered for that server). Never modal, never a surprise dialog. GUI thread; a child of
// the main window.
class JobAdapterActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobAdapterActions)

public:
    JobAdapterActions(QMainWindow *window,
                      EngineBridge *bridge,
                      ServerListModel *servers,
                      QListView *serverList);
    ~JobAdapterActions() override;

    void addTo(QMenu *menu);
    // Opens the dialog for the server (window-modal, no nested event loop).
    JobAdapterDialog *review(qint64 serverId);
    QFrame *notice() const { return m_notice; }

private:
    qint64 selectedServer() const;
    void onToolsChanged(qint64 serverId);
    void onSuggested(const EngineBridge::JobAdapterView &view);
    void showNextNotice();
    void dismissNotice(bool remember);

    QMainWindow *m_window;
    EngineBridge *m_bridge;
    ServerListModel *m_servers;
    QListView *m_serverList;
    QFrame *m_notice;
    QLabel *m_noticeText;
    QSet<qint64> m_checked;             // servers checked once this run
    QList<Store::ServerRecord> m_queue; // servers waiting for their notice, the shown one first
    QPointer<JobAdapterDialog> m_dialog;
};

} // namespace Eddy
