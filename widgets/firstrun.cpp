#include "widgets/firstrun.h"

#include "widgets/localserver.h"

#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTcpSocket>
#include <QUrl>

namespace Eddy {

namespace {
const QString s_urlKey = QStringLiteral("localServer/url");
}

FirstRun::FirstRun(EngineBridge *bridge, QObject *parent)
    : QObject(parent)
    , m_bridge(bridge)
    , m_server(new LocalServer(this))
{
    connect(m_server, &LocalServer::ready, this, &FirstRun::onReady);
    connect(m_server, &LocalServer::failed, this, [this](const QString &message) {
        const QString saved = QSettings().value(s_urlKey).toString();
        // The remembered port may be taken by now: try any free port once, then move the URL.
        if (!saved.isEmpty() && !m_retriedAnyPort) {
            m_retriedAnyPort = true;
            m_server->start({}, m_dataDir, 0);
            return;
        }
        Q_EMIT serverFailed(message);
    });
}

FirstRun::~FirstRun() = default;

bool FirstRun::isBundledServer(const QString &url)
{
    return !url.isEmpty() && QSettings().value(s_urlKey).toString() == url;
}

QString FirstRun::url() const
{
    return m_server->url();
}

bool FirstRun::begin(const EngineBridge::Snapshot &snapshot, bool explicitServer)
{
    m_known = snapshot.servers;
    const QString saved = QSettings().value(s_urlKey).toString();
    const bool savedKnown = std::any_of(m_known.begin(), m_known.end(), [&](const auto &s) { return s.url == saved; });
    if (!saved.isEmpty() && savedKnown) {
        // Ours from an earlier run: bring it back on the same port so its tasks resume, unless
        // it is still up (the user kept it running when Eddy quit).
        const int port = QUrl(saved).port(0);
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), static_cast<quint16>(port));
        if (port > 0 && probe.waitForConnected(500)) {
            probe.abort();
            Q_EMIT serverReady(saved);
            return false;
        }
        return m_server->start({}, m_dataDir, static_cast<quint16>(port));
    }
    if (!m_known.isEmpty() || explicitServer)
        return false;
    return m_server->start({}, m_dataDir, 0);
}

void FirstRun::onReady(const QString &url)
{
    QSettings settings;
    const QString saved = settings.value(s_urlKey).toString();
    settings.setValue(s_urlKey, url);
    for (const auto &s : m_known) {
        if (s.url == url) {
            m_bridge->refreshServer(s.id);
            Q_EMIT serverReady(url);
            return;
        }
        if (!saved.isEmpty() && s.url == saved) {
            // Same server, new port: move the record so its tasks follow.
            Store::ServerRecord moved = s;
            moved.url = url;
            moved.token = QString(); // keep the stored token
            m_bridge->updateServer(moved);
            Q_EMIT serverReady(url);
            return;
        }
    }
    m_bridge->addServer(url, tr("Local CFD server"), QString());
    Q_EMIT serverReady(url);
}

bool FirstRun::prepareQuit(QWidget *parent, int liveTasks)
{
    if (!m_server->isRunning())
        return true;
    if (liveTasks <= 0) {
        m_server->stop();
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Tasks Still Running"),
                    tr("%n task(s) are still running on the local server.", nullptr, liveTasks), QMessageBox::NoButton,
                    parent);
    box.setInformativeText(tr("Keep the server running in the background so they finish? Eddy picks "
                              "them up again when it starts. Stopping pauses them until the next start."));
    QPushButton *keep = box.addButton(tr("Keep Running"), QMessageBox::AcceptRole);
    QPushButton *stop = box.addButton(tr("Stop Server"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(keep);
    box.exec();
    if (box.clickedButton() == keep) {
        m_server->detach();
        return true;
    }
    if (box.clickedButton() == stop) {
        m_server->stop();
        return true;
    }
    return false;
}

} // namespace Eddy
