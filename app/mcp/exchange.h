#pragma once

#include "app/mcp/error.h"
#include "app/mcp/job.h"
#include "app/mcp/jobs.h"
#include "app/mcp/streamedcall.h"
#include "app/net/httpclient.h"
#include "app/net/sseparser.h"

#include <QByteArray>
#include <QPointer>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>

namespace Eddy::Mcp {

class Connection;

// One HTTP POST carrying one JSON-RPC message, answered by JSON or by an SSE stream. Messages on
// the stream other than our response go to onMessage; onDone runs once with the response.
// The reply's handler (called directly, no signal connections per request); the reply keeps it
// alive while it lives. What it learns for the whole connection (the legacy session id, a sign-in
// challenge) and a dropped stream's resumption go to its Connection.
struct Exchange final : Net::HttpReply::Handler, Abortable, std::enable_shared_from_this<Exchange>
{
    // The response is the exchange's own: a callee may move parts out of it.
    using Done = std::function<void(
        nlohmann::json &response, const Error &error, int httpStatus, qint64 retryAfterMs)>;

    Connection *connection = nullptr; // ends every exchange before it goes (~Connection)
    Net::HttpReply *reply = nullptr;
    Net::SseParser sse;
    QByteArray body;
    nlohmann::json requestId;
    QString method;
    bool isSse = false;
    bool isInitialize = false; // its answer carries the legacy session id
    bool done = false;
    qint64 retryAfterMs = -1; // from Retry-After, for the caller's error
    std::function<void(const nlohmann::json &)> onMessage;
    Done onDone;
    // tasks/get (modern): a steady-state answer goes straight into the job's TaskState, no JSON
    // tree. The id shares the request's Mcp-Name bytes.
    QPointer<TaskJob> pollJob;
    QByteArray expectedTaskId;
    qint64 requestNumber = 0;
    bool isPoll = false;
    // A call that may be answered as a long stream (streamedcall.h): told when the stream opens,
    // and timed by the watchdog instead of a total HTTP timeout.
    std::function<void()> onStreamOpened;
    std::unique_ptr<StreamWatchdog> watchdog;
    // Its stream may be resumed with GET + Last-Event-ID when it drops.
    bool resumable = false;
    bool resuming = false; // a resumption GET is under way
    int resumes = 0;
    QByteArray lastEventId;
    Error dropError; // why the stream was being resumed

    // Ends the exchange: no more callbacks; the reply is released (a running one ends quietly).
    void drop();
    void release() { drop(); }
    void abort() override { drop(); }

    void replyHeadersReceived(Net::HttpReply *r) override;
    // The server answered the resumption GET with something other than a 200 event stream.
    void refuseResume(int httpStatus);
    // The watchdog's limit passed: no answer in time, too slow (below `floor`), or a stream that
    // went silent.
    void wentSilent(StreamWatchdog::Limit why, int ms, StreamWatchdog::Floor floor);
    void replyReadyRead(Net::HttpReply *) override { onReadyRead(); }
    void replyFinished(Net::HttpReply *) override { onFinished(); }

    void complete(nlohmann::json response, const Error &error, int status);

    // A message from the server: our response ends the exchange; everything else is passed on.
    void handleMessage(const nlohmann::json &message, int status);

    void onReadyRead();
    void onFinished();
};

} // namespace Eddy::Mcp
