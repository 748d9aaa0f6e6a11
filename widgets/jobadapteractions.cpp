#include "widgets/jobadapteractions.h"

#include "models/serverlistmodel.h"
#include "widgets/jobadapterdialog.h"

#include <QAction>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>

namespace Eddy {

namespace {
const QString s_notAsked = QStringLiteral("jobAdapter/notAsked"); // server URLs
}

JobAdapterActions::JobAdapterActions(QMainWindow *window,
                                     EngineBridge *bridge,
                                     ServerListModel *servers,
                                     QListView *serverList)
    : QObject(window)
    , m_window(window)
    , m_bridge(bridge)
    , m_servers(servers)
    , m_serverList(serverList)
    , m_notice(new QFrame(window))
    , m_noticeText(new QLabel(m_notice))
{
    m_notice->setObjectName(QStringLiteral("jobAdapterNotice"));
    m_notice->setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(m_notice);
    layout->setContentsMargins(6, 0, 2, 0);
    m_noticeText->setObjectName(QStringLiteral("jobAdapterNoticeText"));
    m_noticeText->setTextFormat(Qt::PlainText);
    auto *review = new QPushButton(tr("Review Job Adapter..."), m_notice);
    review->setObjectName(QStringLiteral("reviewJobAdapter"));
    connect(review, &QPushButton::clicked, this, [this] {
        if (m_queue.isEmpty())
            return;
        const qint64 id = m_queue.first().id;
        dismissNotice(false);
        this->review(id);
    });
    auto *dismiss = new QToolButton(m_notice);
    dismiss->setObjectName(QStringLiteral("dismissJobAdapter"));
    dismiss->setText(QStringLiteral("\u00D7"));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(tr("Not now: Eddy does not ask again about this server (Server \u25B8 Job "
                           "Adapter... is always there)"));
    connect(dismiss, &QToolButton::clicked, this, [this] { dismissNotice(true); });
    layout->addWidget(m_noticeText, 1);
    layout->addWidget(review);
    layout->addWidget(dismiss);
    m_notice->setVisible(false);
    // Permanent: a passing status message must not hide the question. Added before the
    // window's counts, so it sits left of them.
    window->statusBar()->addPermanentWidget(m_notice);

    connect(m_bridge, &EngineBridge::toolsChanged, this, &JobAdapterActions::onToolsChanged);
    connect(m_bridge, &EngineBridge::jobAdapterSuggested, this, &JobAdapterActions::onSuggested);
    connect(m_bridge, &EngineBridge::jobAdapterStored, this, [this](qint64 serverId, bool ok) {
        if (!ok)
            return;
        const QString name = m_servers->displayName(serverId);
        m_window->statusBar()->showMessage(
            tr("Job adapter of %1 stored: the jobs its submit tool starts are followed as tasks.")
                .arg(name),
            8000);
        // A notice still waiting for this server has nothing left to ask.
        for (qsizetype i = 0; i < m_queue.size(); ++i) {
            if (m_queue[i].id == serverId) {
                m_queue.removeAt(i);
                showNextNotice();
                break;
            }
        }
    });
}

JobAdapterActions::~JobAdapterActions() = default;

void JobAdapterActions::addTo(QMenu *menu)
{
    QAction *a = menu->addAction(tr("Job Adapter..."), this, [this] {
        const qint64 id = selectedServer();
        if (id <= 0) {
            m_window->statusBar()->showMessage(
                tr("Select a server in the sidebar first (or add one with Server \u25B8 Add "
                   "Server...)."),
                8000);
            return;
        }
        review(id);
    });
    a->setObjectName(QStringLiteral("jobAdapter"));
    a->setToolTip(tr("How Eddy follows the selected server's job tools (submit, status, cancel, "
                     "result) as tasks"));
}

qint64 JobAdapterActions::selectedServer() const
{
    const QModelIndex current = m_serverList->currentIndex();
    if (current.isValid())
        return current.data(ServerListModel::ServerIdRole).toLongLong();
    return m_servers->rowCount() == 1
               ? m_servers->index(0).data(ServerListModel::ServerIdRole).toLongLong()
               : 0;
}

JobAdapterDialog *JobAdapterActions::review(qint64 serverId)
{
    if (m_dialog && m_dialog->serverId() == serverId) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return m_dialog;
    }
    if (m_dialog)
        m_dialog->close();
    auto *dialog
        = new JobAdapterDialog(m_bridge, serverId, m_servers->displayName(serverId), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

void JobAdapterActions::onToolsChanged(qint64 serverId)
{
    if (m_checked.contains(serverId))
        return; // asked once per run: a refresh does not ask again
    m_checked.insert(serverId);
    const Store::ServerRecord *s = m_servers->server(serverId);
    if (s && QSettings().value(s_notAsked).toStringList().contains(s->url))
        return;
    m_bridge->checkJobAdapter(serverId);
}

void JobAdapterActions::onSuggested(const EngineBridge::JobAdapterView &view)
{
    if (QSettings().value(s_notAsked).toStringList().contains(view.server.url))
        return;
    for (const Store::ServerRecord &s : std::as_const(m_queue))
        if (s.id == view.server.id)
            return;
    m_queue << view.server;
    if (m_queue.size() == 1)
        showNextNotice();
}

void JobAdapterActions::showNextNotice()
{
    if (m_queue.isEmpty()) {
        m_notice->setVisible(false);
        return;
    }
    const Store::ServerRecord &s = m_queue.first();
    const QString name = s.name.isEmpty() ? s.url : s.name;
    m_noticeText->setText(tr("%1 offers job tools but no MCP Tasks: review the job adapter so "
                             "Eddy follows its jobs as tasks.")
                              .arg(name));
    m_noticeText->setToolTip(m_noticeText->text());
    m_notice->setVisible(true);
}

void JobAdapterActions::dismissNotice(bool remember)
{
    if (m_queue.isEmpty())
        return;
    const Store::ServerRecord s = m_queue.takeFirst();
    if (remember) {
        QSettings settings;
        QStringList urls = settings.value(s_notAsked).toStringList();
        if (!urls.contains(s.url))
            urls << s.url;
        settings.setValue(s_notAsked, urls);
    }
    showNextNotice();
}

} // namespace Eddy
