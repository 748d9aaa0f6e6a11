#pragma once

// Where cases run. Without a backend (--backend local, the default) TaskManager runs each case on
// its own solver threads. A backend (--backend slurm) takes over the run: TaskManager keeps every
// task's state, store and protocol answers, and the backend takes queued tasks with
// TaskManager::nextQueued(), reports through TaskManager::report()/askAboutMesh()/finish(), and
// hears of cancels here. tasks/get never reaches a backend: it answers from TaskManager's cache.

#include <string>

namespace Eddy::Server {

class Backend
{
public:
    virtual ~Backend() = default;
    // Starts the backend's threads, once TaskManager has loaded the stored tasks.
    virtual bool start(std::string &error) = 0;
    // Called after TaskManager::shutdown() woke nextQueued(); joins the threads.
    virtual void stop() = 0;
    // Before a cancel is applied: a backend that already has the case's result may finish the
    // task with it (the cancel then finds the task terminal and changes nothing).
    virtual void beforeCancel(const std::string &id) = 0;
    // After the task became cancelled: stop the work (scancel).
    virtual void cancelled(const std::string &id) = 0;
};

} // namespace Eddy::Server
