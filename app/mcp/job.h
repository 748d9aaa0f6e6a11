#pragma once

#include "app/mcp/error.h"

#include <QObject>

#include <memory>

namespace Eddy::Mcp {

// What Job::abort() and Listen::close() stop: the Client's exchange in flight. Held weakly, so a
// job costs no closure per request and an exchange that ended meanwhile is simply not there.
class Abortable
{
public:
    virtual void abort() = 0;

protected:
    ~Abortable() = default;
};

// Base of every asynchronous MCP operation (KJob-like): it starts when the Client creates it and
// emits finished() exactly once, always from the event loop (never inside the call that made it).
// Unless the caller calls setAutoDelete(false), it deletes itself as soon as finished() returns:
// read its result in a slot connected directly (a queued slot would find it gone). A slot may
// also delete it.
class Job : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Job)

public:
    ~Job() override;

    Error error() const { return m_error; }
    bool hasError() const { return !m_error.isOk(); }
    bool isFinished() const { return m_finished; }
    bool autoDelete() const { return m_autoDelete; }
    void setAutoDelete(bool autoDelete) { m_autoDelete = autoDelete; }
    // Stops the exchange; finished() follows with Error::Kind::Aborted unless already finished
    // (with autoDelete, the job is gone when this returns).
    void abort();

signals:
    void finished();

protected:
    explicit Job(QObject *parent = nullptr);
    // Called once by the implementation; emits finished(), then deletes the job (autoDelete).
    // The caller must not touch the job after it returns.
    void finish(const Error &error = {});

private:
    friend class Client;
    std::weak_ptr<Abortable> m_abortTarget;
    Error m_error;
    bool m_finished = false;
    bool m_autoDelete = true;
};

} // namespace Eddy::Mcp
