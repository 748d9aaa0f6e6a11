#pragma once

#include <QSize>
#include <QString>
#include <QThread>

#include <functional>
#include <memory>

namespace Eddy {
class EngineBridge;
class MainWindow;
namespace Agent {
class Agent;
}
namespace Monitor {
class Engine;
}
} // namespace Eddy

namespace Eddy::Test {

class E2eWindow;

// How E2eWindow::open() builds and waits for the window.
struct E2eWindowOptions
{
    QSize size{1280, 800}; // empty: the window picks its own size, as for a user
    // Also wait (30 s) until the window shows a session its session list holds: on a first run
    // the one Eddy makes, and a remembered one that no longer exists is replaced first.
    bool waitForSession = false;
    // Runs before the engine moves to its thread (e.g. a quicker retry policy).
    std::function<void(Monitor::Engine &)> configureEngine;
    // Runs once the database has opened, before the window asks for its first snapshot.
    std::function<void(E2eWindow &)> beforeStart;
};

// The window as eddy's main() builds it, for scenario tests (QT_QPA_PLATFORM=offscreen): the
// engine on its own thread on a real SQLite file, the agent beside it on that thread, and the
// EngineBridge and MainWindow on the test's thread, started and shown. The destructor ends them
// in main()'s order: the window and the bridge, then the agent and the engine on their thread.
class E2eWindow final
{
    Q_DISABLE_COPY_MOVE(E2eWindow)

public:
    E2eWindow();
    ~E2eWindow();

    // Opens `dbPath` and shows the window once its first snapshot arrived (30 s for each).
    // Null on failure, with the reason as a warning in the test's log.
    static std::unique_ptr<E2eWindow> open(const QString &dbPath,
                                           const E2eWindowOptions &options = {});

    // Adds a server as the Servers dialog does and waits (30 s) until it is listed, then (60 s)
    // until `tool` is among its tools. Its id, or 0 with the reason as a warning.
    qint64 addServer(const QString &url,
                     const QString &name,
                     const QString &token = {},
                     const QString &tool = QStringLiteral("run_cfd_case"));
    // Runs `f` on the engine's thread and returns once it has.
    void onEngine(const std::function<void(Monitor::Engine &)> &f) const;

    Monitor::Engine *engine() const { return m_engine; }
    Agent::Agent *agent() const { return m_agent; }
    EngineBridge *bridge() const { return m_bridge.get(); }
    MainWindow *window() const { return m_window.get(); }

private:
    bool start(const QString &dbPath, const E2eWindowOptions &options, QString *error);
    void stop();

    QThread m_thread;
    Monitor::Engine *m_engine = nullptr;
    Agent::Agent *m_agent = nullptr;
    std::unique_ptr<EngineBridge> m_bridge;
    std::unique_ptr<MainWindow> m_window;
};

// The task number of the first row of the window's task table that belongs to a sweep, is live or
// ended as asked and whose parameters contain `parameters` (any row when empty); 0 when none.
qint64 sweepTaskIn(const MainWindow &window, bool live, const QString &parameters = {});

} // namespace Eddy::Test
