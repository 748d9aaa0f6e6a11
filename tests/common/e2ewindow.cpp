#include "tests/common/e2ewindow.h"

#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/elicitationdialog.h" // MainWindow::currentDialog() needs the type
#include "widgets/mainwindow.h"

#include <QSignalSpy>
#include <QTest>

namespace Eddy::Test {

E2eWindow::E2eWindow()
{
    m_thread.setObjectName(QStringLiteral("engine"));
}

E2eWindow::~E2eWindow()
{
    stop();
}

std::unique_ptr<E2eWindow> E2eWindow::open(const QString &dbPath, const E2eWindowOptions &options)
{
    auto app = std::make_unique<E2eWindow>();
    QString error;
    if (!app->start(dbPath, options, &error)) {
        qWarning("E2eWindow: %s", qPrintable(error));
        return nullptr;
    }
    return app;
}

bool E2eWindow::start(const QString &dbPath, const E2eWindowOptions &options, QString *error)
{
    m_engine = new Monitor::Engine;
    if (options.configureEngine)
        options.configureEngine(*m_engine);
    m_engine->moveToThread(&m_thread);
    m_thread.start();
    m_agent = new Agent::Agent(m_engine);
    m_agent->setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
    m_agent->moveToThread(&m_thread);
    m_bridge = std::make_unique<EngineBridge>(m_engine);
    m_window = std::make_unique<MainWindow>(m_bridge.get(), m_agent);

    QSignalSpy opened(m_engine, &Monitor::Engine::opened);
    QSignalSpy loaded(m_window.get(), &MainWindow::snapshotLoaded);
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [engine, dbPath] { engine->open(dbPath); });
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 30000)) {
        *error = QStringLiteral("the engine did not open %1 within 30 s").arg(dbPath);
        return false;
    }
    if (!opened.first().first().toBool()) {
        *error = QStringLiteral("the engine could not open %1: %2")
                     .arg(dbPath, opened.first().at(1).toString());
        return false;
    }
    if (options.beforeStart)
        options.beforeStart(*this);
    m_window->start();
    if (options.size.isValid())
        m_window->resize(options.size);
    m_window->show();
    if (!QTest::qWaitFor([&] { return !loaded.isEmpty(); }, 30000)) {
        *error = QStringLiteral("the window's first snapshot did not arrive within 30 s");
        return false;
    }
    if (options.waitForSession) {
        MainWindow *w = m_window.get();
        const bool settled = QTest::qWaitFor(
            [w] {
                return w->currentSession().has_value()
                       && w->sessionModel()->rowOf(*w->currentSession()) >= 0;
            },
            30000);
        if (!settled) {
            *error = QStringLiteral("the window showed no listed session within 30 s");
            return false;
        }
    }
    return true;
}

void E2eWindow::stop()
{
    if (m_window)
        m_window->close();
    m_window.reset();
    m_bridge.reset();
    if (m_engine) {
        Monitor::Engine *engine = m_engine;
        Agent::Agent *agent = m_agent;
        QMetaObject::invokeMethod(
            engine,
            [engine, agent] {
                delete agent; // it works the engine: it goes first
                engine->close();
                delete engine;
            },
            Qt::BlockingQueuedConnection);
        m_engine = nullptr;
        m_agent = nullptr;
    }
    m_thread.quit();
    m_thread.wait();
}

qint64 E2eWindow::addServer(const QString &url,
                            const QString &name,
                            const QString &token,
                            const QString &tool)
{
    m_bridge->addServer(url, name, token);
    const ServerListModel *servers = m_window->serverModel();
    const auto row = [servers, &url] {
        for (int r = 0; r < servers->rowCount(); ++r) {
            if (servers->index(r).data(ServerListModel::UrlRole).toString() == url)
                return r;
        }
        return -1;
    };
    if (!QTest::qWaitFor([&] { return row() >= 0; }, 30000)) {
        qWarning("E2eWindow: the server %s was not listed within 30 s", qPrintable(url));
        return 0;
    }
    const auto hasTool = [&] {
        const int r = row();
        return r >= 0
               && servers->index(r).data(ServerListModel::ToolsRole).toString().contains(tool);
    };
    if (!QTest::qWaitFor(hasTool, 60000)) {
        qWarning("E2eWindow: the server %s did not list the tool %s within 60 s",
                 qPrintable(url),
                 qPrintable(tool));
        return 0;
    }
    return servers->index(row()).data(ServerListModel::ServerIdRole).toLongLong();
}

void E2eWindow::onEngine(const std::function<void(Monitor::Engine &)> &f) const
{
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(
        engine, [engine, &f] { f(*engine); }, Qt::BlockingQueuedConnection);
}

qint64 sweepTaskIn(const MainWindow &window, bool live, const QString &parameters)
{
    const TaskTableModel *tasks = window.taskModel();
    for (int r = 0; r < tasks->rowCount(); ++r) {
        const QModelIndex i = tasks->index(r, 0);
        const qint64 id = i.data(TaskTableModel::TaskIdRole).toLongLong();
        if (i.data(TaskTableModel::SweepIdRole).isValid() && i.data(TaskTableModel::IsLiveRole).toBool() == live
            && (parameters.isEmpty() || tasks->parametersText(id).contains(parameters)))
            return id;
    }
    return 0;
}

} // namespace Eddy::Test
