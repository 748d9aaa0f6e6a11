// The pieces the GUI benchmarks share: the window as app/main.cpp builds it (the engine and the
// agent on their thread, the bridge and the window on this one), waiting while the event loop
// runs, percentiles, and main()'s preamble (setUp()). The process's memory and the machine's
// load for the record are bench/common/procstats.h's.
#pragma once

#include "app/agent/agent.h"
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include "procstats.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QSettings>
#include <QStringList>
#include <QThread>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

namespace BenchGui {

using namespace Eddy;

using Bench::loadAverage;
using Bench::rssMiB;

// What every GUI benchmark's main() does first, around its QApplication:
//     BenchGui::offscreenUnlessSet();
//     QApplication app(argc, argv);
//     const QString part = BenchGui::setUp("bench_x");
// The offscreen platform unless one is set; the application under its own settings name with
// its settings cleared; Eddy's debug and info logging off. setUp() returns the first argument
// unless it is an option: the part to run ("all" without one).
inline void offscreenUnlessSet()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

inline QString setUp(const char *name)
{
    QCoreApplication::setOrganizationName(QStringLiteral("EddyBench"));
    QCoreApplication::setApplicationName(QString::fromLatin1(name));
    QSettings().clear();
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.debug=false\neddy.*.info=false\nqt.qpa.*=false"));
    const QStringList args = QCoreApplication::arguments();
    return args.size() > 1 && !args[1].startsWith(QLatin1String("--")) ? args[1] : QStringLiteral("all");
}

inline bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

struct App
{
    QThread thread;
    Monitor::Engine *engine = nullptr;
    Agent::Agent *agent = nullptr; // as app/main.cpp: beside the engine, on its thread
    std::unique_ptr<EngineBridge> bridge;
    std::unique_ptr<MainWindow> window;

    // The engine thread, the bridge and the window, before any database is open.
    void create()
    {
        engine = new Monitor::Engine;
        engine->setMonitoring(false); // no server here: nothing to poll
        engine->moveToThread(&thread);
        thread.start();
        agent = new Agent::Agent(engine);
        agent->setConfirmationPolicy(Agent::Agent::ConfirmationPolicy::Ask);
        agent->moveToThread(&thread);
        bridge = std::make_unique<EngineBridge>(engine);
        window = std::make_unique<MainWindow>(bridge.get(), agent);
    }
    bool start(const QString &db)
    {
        create();
        bool opened = false;
        bool done = false;
        QObject::connect(engine, &Monitor::Engine::opened, window.get(), [&](bool ok) {
            opened = ok;
            done = true;
        });
        Monitor::Engine *e = engine;
        QMetaObject::invokeMethod(e, [e, db] { e->open(db); });
        waitFor([&] { return done; }, 60000);
        return opened;
    }
    ~App()
    {
        window.reset();
        bridge.reset();
        Monitor::Engine *e = engine;
        if (e)
            QMetaObject::invokeMethod(e, [e, a = agent] {
                delete a;
                e->close();
                delete e;
            }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
};

} // namespace BenchGui
