#pragma once

#include "app/mcp/error.h"
#include "app/mcp/taskstate.h"

#include <QObject>

#include <functional>
#include <string>
#include <vector>

namespace Eddy::Mcp {

// A subscriptions/listen stream for task ids (2026-07-28). Pushes only accelerate polling: the
// server keeps no subscription state, so after closed() the owner re-listens if it still cares.
// Owned by the caller; deleting it closes the stream.
class Listen final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Listen)

public:
    ~Listen() override;

    const std::vector<std::string> &requestedIds() const { return m_requested; }
    const std::vector<std::string> &acceptedIds() const { return m_accepted; }
    bool isOpen() const { return !m_closed; }
    void close(); // ends the stream; closed() follows with Error::Kind::Aborted

signals:
    // The server agreed to these ids (compare with requestedIds(); missing ones must be polled).
    void acknowledged(std::vector<std::string> acceptedIds);
    void taskNotification(Mcp::TaskState state);
    // Exactly once: Error::isOk() when the server ended the subscription gracefully.
    void closed(Mcp::Error error);

private:
    friend class Client;
    explicit Listen(std::vector<std::string> taskIds, QObject *parent = nullptr);
    void handleMessage(const nlohmann::json &message);
    void finish(const Error &error);

    std::vector<std::string> m_requested;
    std::vector<std::string> m_accepted;
    std::function<void()> m_abortHook;
    nlohmann::json m_requestId;
    bool m_closed = false;
};

} // namespace Eddy::Mcp
