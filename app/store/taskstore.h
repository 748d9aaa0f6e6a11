#pragma once

#include "app/store/database.h"
#include "app/vocab/records.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy::Store {

// The durable owner of every server, sweep, case, task handle, result, event, progress sample
// and input request (schema + migrations in schema.cpp). Lives on the engine thread (one
// connection); every method is synchronous and returns errors as values (false/empty + lastError()).
class TaskStore final
{
    Q_DISABLE_COPY_MOVE(TaskStore)

public:
    static constexpr int SchemaVersion = 10;

    TaskStore();
    ~TaskStore();

    // Opens or creates the database; runs migrations. False + lastError() when the file is
    // damaged, newer than this Eddy, or cannot be created (the file is then left untouched).
    bool open(const QString &path);
    void close();
    bool isOpen() const { return m_db.isOpen(); }
    QString lastError() const { return m_db.lastError(); }
    bool isReadOnly() const { return m_db.isReadOnly(); }
    Database &database() { return m_db; }

    // --- servers
    std::optional<qint64> addServer(const ServerRecord &server);   // url must be new
    bool updateServer(const ServerRecord &server);
    // Removal (taskstoreservers.cpp; the modes: records.h).
    using Removal = ServerRemoval;
    bool removeServer(qint64 id, Removal mode = Removal::RefuseIfUsed);
    // The end of a removed server's row that this process itself ended afterwards (a streamed
    // call whose stream it closed): its status, message and error, with an event. storeTaskUpdate
    // leaves such rows as the remover stored them. False + lastError() on error.
    bool storeRemovedServerTaskEnd(const TaskRecord &task);
    std::optional<ServerUse> serverUse(qint64 id); // nullopt on error
    bool setServerRetired(qint64 id, bool retired);
    QList<ServerRecord> servers(bool withRetired = false);
    std::optional<ServerRecord> server(qint64 id);               // retired ones too
    std::optional<ServerRecord> serverByUrl(const QString &url); // retired ones too
    bool setServerDiscovery(qint64 id, const QString &era, const QString &discovery);
    bool setServerTools(qint64 id, const QString &toolsJson);

    // --- sessions
    std::optional<qint64> createSession(const QString &name,
                                        const QString &kind = QStringLiteral("workbench"));
    bool renameSession(qint64 id, const QString &name);
    QList<SessionRecord> sessions();
    std::optional<SessionRecord> sessionByName(const QString &name);
    // Attaches every task matching the query; returns how many were newly attached (-1 on error).
    int attachTasks(qint64 sessionId, const TaskQuery &query);
    bool attachTask(qint64 sessionId, qint64 taskId);
    QList<QString> sessionNamesOfTask(qint64 taskId);
    std::optional<SessionRecord> session(qint64 id);

    // --- agent conversations (sessions of kind "agent")
    // Appends a message; fills in id and createdAtMs.
    bool addAgentMessage(AgentMessageRecord &message);
    QList<AgentMessageRecord> agentMessages(qint64 sessionId, bool withCompacted = false);
    // In one transaction: marks every active message of the session compacted, then appends the
    // summary and fresh copies of `keep` (the recent messages that stay in context), in order.
    bool compactAgentMessages(qint64 sessionId, AgentMessageRecord &summary,
                              QList<AgentMessageRecord> &keep);
    // Every server task id in the database: what a transcript must never contain.
    QStringList serverTaskIds();

    // --- journal: sweeps and cases
    // Writes the sweep and all its cases (state Pending) in one transaction; fills in the ids.
    bool journalSweep(SweepRecord &sweep, QList<CaseRecord> &cases);
    bool journalCase(CaseRecord &c);   // a single call (no sweep)
    QList<SweepRecord> sweeps();
    std::optional<SweepRecord> sweep(qint64 id);
    QList<CaseRecord> cases(std::optional<qint64> sweepId);
    std::optional<CaseRecord> caseRecord(qint64 id);
    // Lineage of a relaunch: the tasks started by the cases relaunched from case `caseId` (by case
    // id), and the task of the case it was itself relaunched from (when it has one).
    QList<qint64> childTaskIds(qint64 caseId);
    std::optional<qint64> parentTaskId(const CaseRecord &c);
    // Cases whose request may not have reached the server: Pending or Sent, oldest first.
    QList<CaseRecord> unsubmittedCases(int limit = -1);
    bool markCaseSent(qint64 caseId);
    // In one transaction: insert the task row and mark the case Submitted (or Completed when the
    // record has no server task id). Returns the new task id. Idempotent: when the case already
    // has a task, returns that task's id.
    std::optional<qint64> recordTaskForCase(qint64 caseId, TaskRecord &task);
    // A task handed over by another client (no case); an already stored one (same server and
    // server task id) keeps its number and sets *existed.
    std::optional<qint64> importTask(TaskRecord &task, bool *existed = nullptr);
    bool markCaseRejected(qint64 caseId, const QString &errorJson);
    // The case's pre-task question (multi round trip) as JSON text; '' clears it.
    bool setCasePendingInput(qint64 caseId, const QString &pendingInputJson);

    // --- review of past sweeps (taskstorereview.cpp; docs/sweeps.md). Each write is logged for
    // other processes (a case's as "case_notes", a sweep's by its update trigger) and fails
    // with lastError() for an unknown case or sweep, or a bad tag (tagProblem), storing nothing.
    bool setCaseNote(qint64 caseId, const QString &note);
    bool setCaseTags(qint64 caseId, const QStringList &tags); // replaces them (normalizeTags)
    bool setSweepNote(qint64 sweepId, const QString &note);
    bool setSweepTags(qint64 sweepId, const QStringList &tags);
    // Marks a case of the sweep as its baseline; nullopt clears the mark (the first case again).
    bool setSweepBaseline(qint64 sweepId, std::optional<qint64> caseId);
    // The sweep's baseline: the marked case, else its first case (lowest index, first attempt).
    std::optional<qint64> sweepBaselineCase(qint64 sweepId);
    // Pausing keeps the sweep's unsent cases unsent (Engine honours it, here and in every other
    // process); resuming lets them go. Pausing a paused sweep keeps its first pause time.
    bool setSweepPaused(qint64 sweepId, bool paused);
    QList<qint64> pausedSweepIds();
    // Every case with a note or tags (the window's table shows them beside the tasks).
    QList<CaseRecord> annotatedCases();

    // --- tasks
    std::optional<TaskRecord> task(qint64 id);
    QList<TaskRecord> tasks(const TaskQuery &query = {});
    QList<TaskRecord> liveTasks();
    qint64 taskCount();
    // Stores a newly observed state: updates the row, adds a task_events row when the status or
    // message changed, and the samples; one transaction.
    bool storeTaskUpdate(const TaskRecord &task, bool addEvent, const QList<ProgressSample> &samples);
    bool setNextPoll(qint64 taskId, qint64 nextPollAtMs);
    bool setCancelRequested(qint64 taskId);
    // A streamed row whose server made a task after all: the row becomes that
    // task (pattern 'task', its server id), to be polled like one.
    bool promoteStreamedToTask(qint64 taskId, const QString &serverTaskId);

    // --- job adapters: the adapter JSON text stored with a server
    bool setJobAdapter(qint64 serverId, const QString &adapterJson);
    // Empty when the server has none (lastError() empty) or on error (lastError() set).
    std::optional<QString> jobAdapter(qint64 serverId);
    QList<TaskEventRecord> taskEvents(qint64 taskId);
    QList<ProgressSample> progressSamples(qint64 taskId);
    // The task's last stored sample of one series (the highest id: samples are stored in order),
    // read backwards along the task's index, so it costs a few rows, not the task's history.
    std::optional<ProgressSample> latestSample(qint64 taskId, const QString &series);
    // Drops a task's samples of one series and its fields ("residual" and "residual.*"): a
    // result's full residual history replaces what polling saw of it.
    bool deleteSamples(qint64 taskId, const QString &series);

    // --- input requests
    // Stores the request the first time its key is seen; returns the stored record either way
    // (so a key answered earlier stays answered even if the server still lists it).
    std::optional<InputRequestRecord> recordInputRequest(qint64 taskId, const QString &key,
                                                         const QString &requestJson, bool *isNew = nullptr);
    std::optional<InputRequestRecord> inputRequest(qint64 taskId, const QString &key);
    QList<InputRequestRecord> inputRequests(qint64 taskId);
    QList<InputRequestRecord> pendingInputRequests(); // Pending, for live tasks
    // Pending -> Answering with the answer, who gave it and when stored; false when the key is not
    // Pending any more (answered once, never twice).
    bool beginAnswer(qint64 taskId, const QString &key, const QString &answerJson,
                     const QString &answeredBy = {});
    bool finishAnswer(qint64 taskId, const QString &key, bool accepted);
    QList<InputRequestRecord> answeringInputRequests(); // answers to (re)send after a restart
    // The most recent questions no longer open (Answering, Answered or Closed), oldest first.
    QList<InputRequestRecord> answeredInputRequests(int limit = 500);

    // --- user progress templates
    std::optional<qint64> addProgressTemplate(const ProgressTemplate &t);
    QList<ProgressTemplate> progressTemplates(const QString &tool = {});
    bool removeProgressTemplate(qint64 id);

private:
    bool migrate();
    // Moves bearer tokens still held in servers.token into the process's secret vault
    // (app/secret.h), leaving the reference in servers.token_ref; a token the vault cannot take
    // stays where it is, and the person is told what to do.
    void moveTokensOut();
    // The token and token_ref columns for a server's token: ("", reference) when the vault took
    // it, (token, "") when there is no vault or it could not.
    std::pair<QString, QString> keepToken(const QString &url, const QString &token);
    QString whereClause(const TaskQuery &query, QList<QString> &binds) const;

    Database m_db;
};

} // namespace Eddy::Store
