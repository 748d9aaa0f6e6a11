#pragma once

#include "app/monitor/follower.h"
#include "app/vocab/records.h"

#include <QHash>
#include <QPointer>
#include <QSet>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Mcp {
class CallJob;
class Job;
}

namespace Eddy::Monitor {

class Engine;

// The streamed-call follower: a tools/call answered as an SSE stream (no task handle) is a row
// of pattern "streamed" from the moment the stream opens; this class follows each such call
// through its notifications to its end (a result, an error, a loss, a cancel), and says what
// became of the streams nobody holds any more. Lives on the engine's thread; the engine (its
// hub) stores, reports and schedules for it.
class StreamedFollower final : public Follower
{
    Q_DISABLE_COPY_MOVE(StreamedFollower)

public:
    explicit StreamedFollower(Engine &hub);

    // The call's stream opened: its row is stored (once, whatever retries follow) and reported.
    void opened(const Store::CaseRecord &c, Mcp::CallJob *job);
    // A progress or message notification on the call's stream.
    void notification(qint64 caseId, const nlohmann::json &notification);
    // The call ended. False when the call was not streamed (or became a task after all: its
    // row is then a task's, and the hub follows it like one).
    bool finished(const Store::CaseRecord &c, Mcp::CallJob *job);

    // Follower. A streamed row is followed only by the process holding its stream, from
    // opened() on: nothing to resume (reconcile() ends the rows nobody holds) and nothing to
    // poll (the registry never holds one).
    void follow(const Store::TaskRecord &, std::optional<qint64>) override {}
    void poll(qint64, const QList<qint64> &) override {}
    // Refused, saying so: a streamed call has no handle to send an answer to.
    void answer(const Store::TaskRecord &t, const QString &key, const nlohmann::json &answer,
                int attempt) override;
    // Cancel of a streamed row: its call ends on the server's terms (the stream closed, or
    // notifications/cancelled first in 2025-11-25); the row ends cancelled.
    void cancel(const Store::TaskRecord &t) override;

    // On open, over the stored live rows: a streamed row whose stream nobody holds is lost.
    void reconcile(const QList<Store::TaskRecord> &live);
    // On close: every stream this engine holds ends, its row stored lost.
    void closeAll();
    // The server was removed: its streams end saying so; the calls to end on the server's terms.
    QSet<Mcp::Job *> endForRemovedServer(qint64 serverId);

private:
    void reconcileOne(Store::TaskRecord t);

    struct Row
    {
        Store::TaskRecord task;
        std::optional<double> percent; // of the last progress notification with a total
        QPointer<Mcp::CallJob> job;    // the call whose stream this is
        bool cancelling = false;       // cancel(): its end is a cancellation
        bool serverRemoved = false;    // endForRemovedServer(): ended as its server was removed
    };

    Engine &m_hub;
    QHash<qint64, Row> m_rows; // case id -> its row while the stream is open
};

} // namespace Eddy::Monitor
