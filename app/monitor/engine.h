#pragma once

#include "app/monitor/adapterproposal.h"
#include "app/monitor/answersender.h"
#include "app/monitor/catalogue.h"
#include "app/monitor/changefeed.h"
#include "app/monitor/changeset.h"
#include "app/monitor/follower.h"
#include "app/monitor/inputinbox.h"
#include "app/monitor/jobfollower.h"
#include "app/monitor/pollscheduler.h"
#include "app/monitor/progressparser.h"
#include "app/monitor/sweepexport.h"
#include "app/monitor/streamedfollower.h"
#include "app/vocab/sweepspec.h"
#include "app/monitor/taskfollower.h"
#include "app/monitor/taskhandle.h"
#include "app/vocab/records.h"
#include "app/store/taskstore.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <functional>
#include <optional>

namespace Eddy::Net {
class HttpClient;
}
namespace Eddy::Mcp {
class Client;
class Listen;
class CallJob;
class Error;
struct TaskState;
}

namespace Eddy::Monitor {

class Review;
class Sharing;
class SweepSubmitter;
class ServerLinks;
struct ServerLink;
class HandleExchange;

// The engine: owns the HttpClient, one Mcp::Client per server, the TaskStore, the poll scheduler
// and the input inbox; journals and submits sweeps, polls every live task, stores every change
// and result, and reports batched ChangeSets. Lives on one thread with an event loop (the GUI
// moves it to a QThread and talks to it through queued calls; eddyctl runs it on the main thread).
class Engine final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Engine)

public:
    enum class ServerState { Unknown, Online, Unreachable, BackingOff };
    Q_ENUM(ServerState)

    explicit Engine(QObject *parent = nullptr);
    ~Engine() override;

    // Everything stored, read only (catalogue.h): what the agent, eddyctl and the GUI's bridge
    // read. Use on the engine's thread.
    const Catalogue &catalogue() const { return m_catalogue; }
    PollScheduler &scheduler() { return *m_scheduler; }
    bool isOpen() const { return m_store.isOpen(); }
    // The database is write-protected and open for review only: nothing is polled, submitted,
    // answered or cancelled (each refuses with readOnlyMessage()).
    bool isReadOnly() const { return m_store.isOpen() && m_store.isReadOnly(); }
    static QString readOnlyMessage();
    // True when nothing is left to do: no live task, no unsent case, no request in flight.
    bool isIdle() const;
    int liveTaskCount() const { return m_scheduler->size(); }
    // Requests sent to all servers so far (tasks/get, tools/call, ...): for tests and benches.
    qint64 requestsSent() const;
    // notifications/tasks pushes received on subscriptions/listen streams so far.
    qint64 pushesReceived() const { return m_pushes; }
    // Batch interval of changesReady() (default 30 ms): the first change after a quiet interval
    // goes out on the next event-loop turn; changes that follow within the interval are batched.
    void setBatchIntervalMs(int ms) { m_feed.setBatchIntervalMs(ms); }
    // Rows per snapshotChunk() (default 2,000; at least 1).
    void setSnapshotChunkRows(int rows) { m_feed.setSnapshotChunkRows(rows); }
    // Per-request timeout for servers linked from now on (default 30 s; listen streams have none).
    void setRequestTimeoutMs(int ms);
    // Polling and submission start only after open(); off = the engine stores but never polls
    // (eddyctl's read-only commands).
    void setMonitoring(bool enabled);
    // Answers for input requests without a human (eddyctl --answers): when set, every new form
    // question is answered at once from these values (see InputInbox::answerFromValues).
    void setAutoAnswers(std::optional<nlohmann::json> values)
    {
        m_answers.setAutoAnswers(std::move(values));
    }
    // Failures of tools/call before a task exists (reset, timeout, 429/503, a transfer slower
    // than the floor) are retried with exponential backoff from baseDelayMs (or the server's
    // Retry-After, capped at a minute) at most `attempts` times; then the case is left journalled
    // (watch sends it again with the same idempotency key) and caseDeferred() says so. A case
    // that got no answer at all does not wait out its backoff once the server answers again (a
    // poll, a listen stream, another call): it is sent at once, and a deferred case too (see
    // serverAnswered()).
    void setCaseRetryPolicy(int attempts, qint64 baseDelayMs);
    // Slow-transfer floor for servers linked from now on (default 1 KB/s over 30 s; 0 = none).
    void setSlowTransferFloor(int bytesPerSec, int windowMs);
    // tasks/get answers about another task id than asked: after this many in a row the task is
    // given up as having an unreliable server (default 5).
    void setWrongTaskLimit(int answers) { m_wrongTaskLimit = std::max(1, answers); }
    // The questions of cases waiting for an answer before any task exists.
    struct CaseQuestion
    {
        qint64 caseId = 0;
        QString tool;
        QString arguments; // JSON object text
        QString key;
        QString request;   // the InputRequest JSON text ({method, params})
    };
    QList<CaseQuestion> pendingCaseQuestions() const;

    // The few writes that need no engine bookkeeping (the agent's sessions and messages). Call on
    // the engine's thread; storeError() says why one failed.
    QString storeError() const { return m_store.lastError(); }
    // A session of another kind than "workbench" (the agent's conversations); nullopt + storeError().
    std::optional<qint64> createSessionOfKind(const QString &name, const QString &kind);
    bool attachTask(qint64 sessionId, qint64 taskId);
    // attachTasks() without operationFailed(): -1 + storeError() on error.
    int attachTasksQuietly(qint64 sessionId, const Store::TaskQuery &query);
    bool addAgentMessage(Store::AgentMessageRecord &message);
    bool compactAgentMessages(qint64 sessionId, Store::AgentMessageRecord &summary,
                              QList<Store::AgentMessageRecord> &keep);
    // Notes, tags, baselines and pauses of sweeps and cases (review.h); always there, usable
    // while the database is open.
    Review *review() const { return m_review.get(); }
    // Task references of other clients (handleexchange.h, docs/interop.md). importHandles reads a
    // handles file, finds each reference's server by its endpoint id (adding serverUrl when its
    // endpoint id matches), stores each task once, attaches it to the session `sessionName`
    // (created when missing; none when empty) and monitors it like any task.
    HandleImportReport importHandles(const QByteArray &fileContent, const QString &sessionName,
                                     const QString &serverUrl = {});
    // References (JSON lines) for the tasks matching `query`, only `taskIds` when not empty, only
    // those of the session `sessionName` when given.
    HandleExport exportHandles(const Store::TaskQuery &query, const QList<qint64> &taskIds = {},
                               const QString &sessionName = {});
    // Job adapters (jobfollower.h): the server's stored adapter (empty when none; *error says
    // why when the stored one is invalid), storing one, and a proposal from its tools/list.
    std::optional<JobAdapter> jobAdapter(qint64 serverId, QString *error = nullptr)
    {
        return m_jobs.adapter(serverId, error);
    }
    bool setJobAdapter(qint64 serverId, const JobAdapter &adapter)
    {
        return m_jobs.setAdapter(serverId, adapter);
    }
    void proposeJobAdapter(qint64 serverId,
                           std::function<void(const AdapterProposal &, const QString &error)> then);

public slots:
    // Opens the database and resumes every non-terminal task and unsent case. Emits opened().
    bool open(const QString &dbPath);
    void close();

    // Servers. addServer returns the id (or the existing id for a known URL; a removed server's
    // URL brings it back with its kept tasks), -1 on error.
    qint64 addServer(const QString &url, const QString &name = {}, const QString &token = {});
    bool updateServer(const Eddy::Store::ServerRecord &server);
    // Refused (operationFailed) while a call to it is being sent, and with
    // RefuseIfUsed when it has stored tasks; KeepTasks retires it (its live tasks are stored lost
    // and no longer polled), DeleteTasks deletes them with it.
    bool removeServer(qint64 serverId,
                      Eddy::Store::ServerRemoval mode
                      = Eddy::Store::ServerRemoval::RefuseIfUsed);
    // server/discover + tools/list; results cached in the store. Emits serverStateChanged() and
    // toolsChanged().
    void refreshServer(qint64 serverId);

    // Validates the spec against the tool's inputSchema (fetching tools when not cached),
    // journals every case, then submits with the spec's concurrency. Emits sweepSubmitted() or
    // submissionRejected().
    void submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId);
    // One tools/call, journalled like a one-case sweep. Emits callJournalled(caseId) or
    // submissionRejected(); then caseSubmitted()/caseRejected(). parentCaseId: the case this
    // call relaunches (with edits), kept as the new case's lineage; with the parent's arguments
    // unchanged (a re-run) the new case is another attempt of the parent's sweep case (same
    // sweep, same index).
    void callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                  std::optional<qint64> sessionId, std::optional<qint64> parentCaseId = std::nullopt);

    // Cancel is a request: the task shows cancelRequested until the server agrees.
    void cancelTasks(const QList<qint64> &taskIds);
    // Sends one answer (an ElicitResult JSON object) with tasks/update; each key once.
    // Emits inputAnswered().
    // answeredBy: who answers, kept with the answer (the user's login name, "eddyctl", "agent").
    void answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                     const QString &answeredBy = {});
    // Answers a question asked before any task exists (caseInputRequested()); once every key of
    // the round is answered, the call is sent again with the server's requestState and the
    // answers. Emits caseInputAnswered().
    void answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson);

    qint64 createSession(const QString &name); // -1 on error (operationFailed())
    bool renameSession(qint64 sessionId, const QString &name);
    int attachTasks(qint64 sessionId, const Eddy::Store::TaskQuery &query); // -1 on error

    // Reads every task matching `query` (results left out: fetch them per task) and delivers
    // them as snapshotChunk()s tagged `snapshotId` (non-zero, chosen by the caller), one chunk
    // per event-loop turn. A request made while another snapshot is being delivered cancels the
    // rest of that one (its complete marker never comes).
    void requestSnapshot(qint64 snapshotId, const Eddy::Store::TaskQuery &query);

    // Reads what other processes wrote to the database now, without waiting for the next
    // look (every 250 ms, when SQLite's data_version says another connection committed).
    void checkSharedChanges();
    // Makes sweeps and single calls journalled without a session by another process part of
    // `sessionId` (a sweep only while it has no session; a call's task once it exists).
    void adoptSharedWork(qint64 sessionId, const QList<qint64> &sweepIds, const QList<qint64> &caseIds);

signals:
    void opened(bool ok, const QString &error);
    void changesReady(const Eddy::Monitor::ChangeSet &changes);
    // One chunk of the snapshot asked with requestSnapshot(), in order:
    // - chunk.snapshotId is the request's id; chunk.tasks are at most setSnapshotChunkRows()
    //   stored rows (by task id, results empty), every row exactly once across the chunks;
    // - the first chunk carries every pending input request in chunk.inputs (samples: none);
    // - the last chunk has snapshotComplete set (it may hold no rows: an empty snapshot is one
    //   empty complete chunk).
    // Rows are as stored when the request was taken. changesReady() never interleaves with the
    // chunks: changes made before the request are emitted before the first chunk, changes made
    // while the chunks go out are held and emitted after the complete one. So a consumer that
    // applies chunks and change sets in arrival order ends with the current state.
    void snapshotChunk(const Eddy::Monitor::ChangeSet &chunk);
    void inputRequested(const Eddy::Store::InputRequestRecord &request);
    void inputAnswered(qint64 taskId, const QString &key, bool ok, const QString &message);
    // The server asked before creating a task (tools/call answered input_required): no task
    // exists yet, so the question names the case, its tool and arguments. Journalled with the
    // case: asked again after a restart until answered.
    void caseInputRequested(const Eddy::Monitor::Engine::CaseQuestion &question);
    void caseInputAnswered(qint64 caseId, const QString &key, bool ok, const QString &message);
    // tools/call failed before a task exists and is sent again in delayMs (attempt of limit).
    // delayMs 0: sent now, as its server answers again (attempt 0: a deferred case, sent again
    // with a fresh set of attempts).
    void caseRetrying(qint64 caseId, int attempt, int limit, qint64 delayMs, const QString &message);
    // Retries ran out: the case stays journalled (unsent); it is sent again when its server
    // answers again while this engine runs, or by a later watch.
    void caseDeferred(qint64 caseId, const QString &message);
    void taskFinished(const Eddy::Store::TaskRecord &task);
    // A live task whose result may be lost: the server may forget it in msLeft.
    void ttlWarning(qint64 taskId, qint64 msLeft);
    // notMcp: the URL answers HTTP, but not as an MCP server (Mcp::Error::isNotMcp()).
    void serverStateChanged(qint64 serverId, Eddy::Monitor::Engine::ServerState state,
                            const QString &message, bool notMcp);
    void toolsChanged(qint64 serverId);
    void sweepSubmitted(qint64 sweepId, int caseCount);
    void callJournalled(qint64 caseId);
    void submissionRejected(const QString &message);
    void caseSubmitted(qint64 caseId, qint64 taskId);
    void caseRejected(qint64 caseId, const QString &message);
    void operationFailed(const QString &message);
    // tasks/cancel was acknowledged (ok) or refused; the task keeps polling either way.
    void cancelSent(qint64 taskId, bool ok, const QString &message);
    void idle(); // isIdle() became true
    // Another process on the same database journalled sweeps or single calls (each announced
    // once), changed sessions, or (reload) this engine missed some of its changes and whoever
    // shows them should read the store again. The tasks themselves come by changesReady().
    // sessions: every session when they changed, else empty.
    void sharedWork(const QList<Eddy::Store::SweepRecord> &sweeps,
                    const QList<Eddy::Store::CaseRecord> &calls,
                    const QList<Eddy::Store::SessionRecord> &sessions, bool reload);
    // Another process on the same database added or brought back (`added`), removed (retired
    // or deleted) or edited servers (both lists may be empty: read the list again). This engine
    // has already stopped polling a removed server's tasks; their rows come by changesReady()
    // (lost) or are gone (deleted).
    void serversChanged(const QList<qint64> &added, const QList<qint64> &removed);

private:
    friend class Sharing; // follows other processes' changes into this engine's state
    friend class Review;  // sends a resumed sweep's cases
    friend class SampleThinner; // eddyctl samples thin on the engine's own connection
    friend class StreamedFollower;
    friend class JobFollower;
    friend class TaskFollower;
    friend class SweepSubmitter;
    friend class ServerLinks;
    friend class HandleExchange;
    friend class ChangeFeed;
    friend class AnswerSender;
    // Tests that must see the engine's own connection (a statement trace) reach it through
    // this probe; every other test opens the database file with a store of its own.
    friend struct EngineProbe;
    Store::TaskStore &store() { return m_store; }
    using ServerLink = Monitor::ServerLink;

    ServerLink *link(qint64 serverId); // serverlinks.h
    bool isSubmitting() const; // a tools/call in flight or a case waiting to be sent
    void withTools(qint64 serverId, std::function<void(const nlohmann::json &tools, const QString &error)> then);
    void pumpSubmissions(); // sends the unsent cases the sweeps' limits allow (sweepsubmitter.h)
    void pumpPolls();
    void armPollTimer();
    // The follower of a pattern (follower.h): the one place the hub chooses by the pattern.
    Follower &followerFor(Pattern pattern);
    // A live task is followed by its pattern's follower from now on (Follower::follow).
    void follow(const Store::TaskRecord &task, std::optional<qint64> dueAtMs)
    {
        followerFor(task.pattern).follow(task, dueAtMs);
    }
    void applyState(qint64 taskId, const Mcp::TaskState &state, bool fromPush = false);
    // unreliable: the server's answers cannot be trusted (stored Lost with `why` as the message).
    void markGone(qint64 taskId, const QString &why, bool unreliable = false);
    // The one end of a task in the registry (applyState, markGone): it leaves the registry, the
    // scheduler and its server's client, and is announced (ChangeSet::finished, taskFinished()).
    // Once: a task no longer in the registry is not ended again.
    void finishTask(const Store::TaskRecord &done);
    // The start every cancel with a handle shares (a task's, a job's): refused without one (a
    // streamed row), else the task is stored and shown cancelRequested. False when it cannot be
    // sent (cancelSent() said why).
    bool requestCancel(const Store::TaskRecord &task);
    // A follower's cancel was answered: failure empty when the server took it (cancelSent()).
    void cancelAnswered(qint64 taskId, const QString &failure);
    // The engine stops following the task: its server's client forgets it too.
    void forgetOnClient(const Store::TaskRecord &task);
    // Stops everything of a server that is removed (its live tasks, their
    // leases, its unsent cases, its client and listen stream); the live task ids it dropped.
    QList<qint64> dropServer(qint64 serverId);
    // Its URL, token or era changed here or in another process (ServerLinks::relink()).
    void relinkServer(qint64 serverId);
    double lastX(qint64 taskId); // for a message without a counter
    void checkTtl();
    void checkIdle();
    // The task joins the live registry and the poll scheduler (ticks: a job's shared ones).
    // False when it is not followed here (no server task id, or another process polls it).
    bool trackLive(const Store::TaskRecord &task, std::optional<qint64> dueAtMs,
                   std::optional<PollScheduler::Ticks> ticks);
    // An exchange with the server was answered (a poll, a job status call, a listen stream,
    // tools/list, discovery, a tools/call). A server that was not Online is so now, and the
    // cases waiting for it to answer again are sent at once: those whose last tools/call got no
    // answer (on their retry timer) and the deferred ones. evenIfOnline: an answer that says
    // the server takes calls (a tools/call, a refresh) sends them even when nothing saw the
    // server fail meanwhile; a poll or a listen stream only when the server was not Online
    // (its polls failed, or nothing had heard from it yet), so a server that answers polls but
    // keeps failing calls gets no more calls than the backoff allows.
    void serverAnswered(qint64 serverId, bool evenIfOnline);

    Store::TaskStore m_store;
    Catalogue m_catalogue{m_store, [this] { m_feed.flush(); }};
    std::unique_ptr<PollScheduler> m_scheduler;
    std::unique_ptr<InputInbox> m_inbox;
    ProgressParser m_parser;
    std::unique_ptr<ServerLinks> m_servers; // one client per server, its tools and state
    QHash<qint64, Store::TaskRecord> m_live;       // live tasks by id (cache of the store)
    QSet<qint64> m_ttlWarned;
    QHash<qint64, int> m_noResultTries;           // task id -> 'completed' replies without a result
    QHash<qint64, double> m_lastX;                // task id -> x (iteration) of its last counted message
    QTimer m_pollTimer{this};
    QTimer m_ttlTimer{this};
    bool m_monitoring = true;
    bool m_wasIdle = false;
    int m_answersInFlight = 0;
    QHash<QString, qint64> m_byServerTaskId;       // live tasks: server task id -> task id
    qint64 m_pushes = 0;
    QHash<qint64, int> m_wrongTask;      // task id -> tasks/get answers about another task in a row
    int m_wrongTaskLimit = 5;
    QHash<qint64, QString> m_fieldWarned; // task id -> the last field warning logged
    ChangeFeed m_feed{*this};             // batched change sets and snapshots
    AnswerSender m_answers{*this};        // answers to the tasks' questions
    TaskFollower m_tasks{*this};          // MCP tasks: tasks/get, listen, answers, cancel
    StreamedFollower m_streamed{*this}; // calls answered as a stream, while it is open
    std::unique_ptr<Sharing> m_sharing;   // leases and other processes' changes (while open)
    std::unique_ptr<Review> m_review;     // notes, tags, baselines, paused sweeps
    JobFollower m_jobs{*this};            // jobs through a server's job adapter
    std::unique_ptr<SweepSubmitter> m_submitter; // journals and sends cases
    std::unique_ptr<HandleExchange> m_handles;   // task references of other clients
};

} // namespace Eddy::Monitor

Q_DECLARE_METATYPE(Eddy::Monitor::Engine::CaseQuestion)
