#pragma once

#include "app/vocab/pattern.h"

// Plain value types of the task store: what one row of each table holds. Copied freely across
// threads (queued signals carry them), so no pointers and no Qt object ownership here.

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <optional>

namespace Eddy::Store {

using Eddy::Pattern;

// Eddy's view of a task. Working/InputRequired are live; the rest never change again.
// Expired: the server forgot the task (TTL passed) before a result was stored.
// Lost: the server does not know the id (unknown task) — not the same as failed.
enum class TaskStatus { Working, InputRequired, Completed, Failed, Cancelled, Expired, Lost };

// Named toText, not toString: QTest looks up toString(T) by ADL and wants a char*.
QString toText(TaskStatus status);                  // "working", "input_required", ...
std::optional<TaskStatus> taskStatusFromString(QStringView text);
bool isTerminal(TaskStatus status);

// Journal state of one sweep case (also used for single calls).
// Pending: journalled, not yet sent. Sent: request left, no answer stored yet (re-sent with the
// same idempotency key after a restart). Submitted: a task row exists. Completed: the server
// answered at once with a CallToolResult (a task row holds it). Rejected: the server refused the
// call with a permanent error (stored in error).
enum class CaseState { Pending, Sent, Submitted, Completed, Rejected };
QString toText(CaseState state);
std::optional<CaseState> caseStateFromString(QStringView text);

struct ServerRecord
{
    qint64 id = 0;
    QString url;
    QString name;
    QString token;        // bearer token (secret; never logged), empty = none
    QString era;          // "2026-07-28", "2025-11-25" or empty when unknown
    QString discovery;    // cached server/discover result (JSON text)
    QString tools;        // cached tools/list result: JSON array of Tool objects
    qint64 createdAtMs = 0;
    bool retired = false; // removed with its tasks kept as history: never contacted again
};

struct SessionRecord
{
    qint64 id = 0;
    QString name;
    qint64 createdAtMs = 0;
    int taskCount = 0;    // filled by sessions(); ignored on write
    QString kind = QStringLiteral("workbench"); // "workbench" or "agent" (a conversation)
};

struct SweepRecord
{
    qint64 id = 0;
    qint64 serverId = 0;
    std::optional<qint64> sessionId;
    QString tool;
    QString spec;          // the sweep spec file as submitted (JSON text)
    int concurrency = 4;
    qint64 createdAtMs = 0;
    int caseCount = 0;     // filled on read
    // Review (schema 9; docs/sweeps.md "Reviewing past sweeps"). Written only through
    // TaskStore::setSweepNote/setSweepTags/setSweepBaseline/setSweepPaused.
    QString note;                        // free text, '' = none
    QStringList tags;                    // normalised (normalizeTags): sorted, unique
    // The case the engineer marked as the sweep's baseline; empty = none marked, and the
    // baseline is then the sweep's first case (TaskStore::sweepBaselineCase resolves both).
    std::optional<qint64> baselineCaseId;
    // When submission was paused (epoch ms); empty = not paused. Cases not yet sent stay
    // unsent while it is set, in every process and across restarts.
    std::optional<qint64> pausedAtMs;
    bool isPaused() const { return pausedAtMs.has_value(); }
};

struct CaseRecord
{
    qint64 id = 0;
    std::optional<qint64> sweepId;   // empty for a single call
    qint64 serverId = 0;
    int index = 0;                   // position in the sweep
    QString tool;
    QString arguments;               // JSON object text, including idempotency_key when used
    QString idempotencyKey;
    CaseState state = CaseState::Pending;
    int attempts = 0;
    std::optional<qint64> taskId;    // Eddy's task number once one exists
    QString error;                   // JSON-RPC error (JSON text) when rejected
    QString traceparent;             // W3C traceparent used for the call and every poll
    qint64 createdAtMs = 0;
    std::optional<qint64> parentCaseId; // the case this one was relaunched from (lineage)
    // A question the server asked before creating a task (tools/call answered input_required):
    // {"requestState": ..., "inputRequests": {...}, "answers": {...}} as JSON text; '' = none.
    QString pendingInput;
    // Review (schema 9): the engineer's note and tags on this case (TaskStore::setCaseNote,
    // setCaseTags). A re-run that joins its sweep starts with its parent's.
    QString note;
    QStringList tags;
};

// Tags as stored: each trimmed, none empty, no duplicates, sorted. A tag is one word of at most
// 64 characters without commas (tagProblem says what is wrong with one, '' when fine).
QStringList normalizeTags(const QStringList &tags);
QString tagProblem(const QString &tag);

struct TaskRecord
{
    qint64 id = 0;                   // Eddy's own task number: the one users see
    qint64 serverId = 0;
    std::optional<qint64> caseId;
    std::optional<qint64> sweepId;
    QString tool;
    QString arguments;               // JSON object text
    QString serverTaskId;            // the server's id: a bearer secret, never shown; empty when
                                     // the server answered at once (no task)
    TaskStatus status = TaskStatus::Working;
    QString statusMessage;
    QString createdAt;               // server's ISO 8601 timestamps, as sent
    QString lastUpdatedAt;
    std::optional<qint64> ttlMs;     // empty = unlimited
    std::optional<qint64> pollIntervalMs;
    qint64 nextPollAtMs = 0;         // epoch ms
    QString traceparent;
    QString result;                  // CallToolResult JSON text once completed
    QString error;                   // JSON-RPC error JSON text once failed
    bool isToolError = false;        // completed with result.isError == true (not failed)
    // structuredContent.converged of the result, when it has one: kept where the (large) result
    // is dropped, e.g. in the snapshots the task table lists. Not stored in the database.
    std::optional<bool> converged;
    bool cancelRequested = false;
    qint64 firstSeenAtMs = 0;        // when Eddy stored the handle
    qint64 updatedAtMs = 0;          // when Eddy last stored a change
    std::optional<qint64> finishedAtMs;
    // How the server runs the call (app/vocab/pattern.h). A streamed call is live only while the
    // process in streamOwner ("host/pid/start") holds the stream; a job's serverTaskId is the
    // job id.
    Pattern pattern = Pattern::Task;
    QString streamOwner;

    bool isLive() const { return !isTerminal(status); }
    // Epoch ms when the server may forget the task (createdAt + ttlMs), if known.
    std::optional<qint64> expiresAtMs() const;
};

struct TaskEventRecord
{
    qint64 id = 0;
    qint64 taskId = 0;
    qint64 atMs = 0;
    TaskStatus status = TaskStatus::Working;
    QString statusMessage;
};

struct ProgressSample
{
    qint64 taskId = 0;
    qint64 atMs = 0;      // epoch ms when the message was seen
    QString series;       // "iteration", "residual", "residual.u", "percent", "time", "step", ...
    double x = 0.0;       // iteration when known, else the sample time in seconds since first seen
    double y = 0.0;
};

// Closed: never to be answered (its server was removed from Eddy; a pending question is closed
// with no answer, one being sent keeps the answer that was not sent).
enum class InputState { Pending, Answering, Answered, Closed };
QString toText(InputState state);                  // "pending", "answering", ...
std::optional<InputState> inputStateFromString(QStringView text);

struct InputRequestRecord
{
    qint64 id = 0;
    qint64 taskId = 0;
    QString key;          // unique for the task's whole life
    QString request;      // the InputRequest JSON text ({method, params})
    InputState state = InputState::Pending;
    QString answer;       // the ElicitResult JSON text once answered
    qint64 firstSeenAtMs = 0;
    std::optional<qint64> answeredAtMs; // when the answer was given
    QString answeredBy;   // who gave it: the user's login name, eddyctl or the agent
};

struct ProgressTemplate
{
    qint64 id = 0;
    QString tool;         // empty = every tool
    QString name;
    QString pattern;      // a regex with named captures; each capture becomes a series
};

// One stored message of an agent conversation (a session of kind "agent"), in the Chat
// Completions shape. A compaction marks older rows compacted and adds one summary row; compacted
// rows are kept for the record but never sent to the model again.
struct AgentMessageRecord
{
    qint64 id = 0;
    qint64 sessionId = 0;
    QString role;         // "user", "assistant", "tool", "system" (notes and summaries)
    QString content;
    QString toolCalls;    // assistant only: JSON array of tool calls, empty when none
    QString toolCallId;   // tool only: the call this message answers
    bool compacted = false;
    qint64 createdAtMs = 0;
};

// What to match when attaching tasks to a session. Empty fields match everything.
struct TaskQuery
{
    std::optional<qint64> serverId;
    QString serverUrl;
    QString tool;
    QList<QPair<QString, QString>> arguments; // name = value (JSON text of the value, or plain)
    std::optional<TaskStatus> status;
    std::optional<qint64> sweepId;
    std::optional<qint64> sessionId;
    std::optional<qint64> fromMs;             // firstSeenAtMs >= fromMs
    std::optional<qint64> toMs;               // firstSeenAtMs < toMs
    int limit = -1;
};

// How many stored tasks name a server (TaskStore::serverUse).
struct ServerUse
{
    int tasks = 0; // stored tasks
    int live = 0;  // of them still working or waiting for input
};

// What removing a server does to its rows (TaskStore::removeServer): RefuseIfUsed refuses a
// server with stored tasks or cases; KeepTasks retires it (every row kept; live tasks become
// "lost" with a message saying its server was removed, unsent cases rejected); DeleteTasks
// deletes it with its tasks, cases, events, samples, questions and sweeps.
enum class ServerRemoval { RefuseIfUsed, KeepTasks, DeleteTasks };

// Where the window and eddyctl keep their database unless told otherwise:
// QStandardPaths::AppDataLocation + "/eddy.sqlite".
QString defaultDatabasePath();

} // namespace Eddy::Store

Q_DECLARE_METATYPE(Eddy::Store::TaskRecord)
Q_DECLARE_METATYPE(Eddy::Store::InputRequestRecord)
Q_DECLARE_METATYPE(Eddy::Store::ProgressSample)
Q_DECLARE_METATYPE(Eddy::Store::ServerRecord)
Q_DECLARE_METATYPE(Eddy::Store::SessionRecord)
Q_DECLARE_METATYPE(Eddy::Store::TaskQuery)
Q_DECLARE_METATYPE(Eddy::Store::AgentMessageRecord)
