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
    // After a working task became cancelled here: stop the work of its attempt (scancel),
    // also when another replica submitted it.
    virtual void cancelled(const std::string &id, int attempt) = 0;
    // Replicas: the task's attempt changed on another replica (answered, cancelled, settled):
    // stop following that attempt's work here, without touching it (that replica does).
    virtual void released(const std::string &id, int attempt) = 0;
};

} // namespace Eddy::Server
