#pragma once

#include "app/mcp/error.h"
#include "app/mcp/job.h"
#include "app/mcp/taskstate.h"

#include <QObject>

#include <QDateTime>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace Eddy::Mcp {

// A subscriptions/listen stream for task ids (2026-07-28). Pushes only accelerate polling: the
// server keeps no subscription state, so after closed() the owner re-listens if it still cares.
// A push older than one already delivered for the same task (by lastUpdatedAt), or any push after
// a terminal one, is dropped: a server may send two changes out of order.
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
    // False for a push that would move a task backwards (see the class comment).
    bool isNewer(const TaskState &state);

    struct Delivered
    {
        QDateTime lastUpdatedAt;
        bool terminal = false;
    };

    std::vector<std::string> m_requested;
    std::vector<std::string> m_accepted;
    std::unordered_map<std::string, Delivered> m_delivered; // per task id, the newest push so far
    std::weak_ptr<Abortable> m_abortTarget;
    nlohmann::json m_requestId;
    bool m_closed = false;
};

} // namespace Eddy::Mcp
