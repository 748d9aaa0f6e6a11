#pragma once

#include "models/sweepreportinput.h"

#include "app/monitor/changeset.h"
#include "app/monitor/engine.h"
#include "app/vocab/records.h"
#include "models/serverlistmodel.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <optional>

namespace Eddy {

// The GUI's one door to the engine, which lives on its own thread: requests become queued calls
// (or engine-thread lambdas for the reads the engine's API has no slot for: a snapshot of a
// session, a task's samples and events), and answers come back as queued signals carrying
// plain records. Lives on the GUI thread; the engine must outlive it or be stopped first.
class EngineBridge final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineBridge)

public:
    struct Snapshot
    {
        std::optional<qint64> sessionId; // empty = all sessions
        QList<Store::ServerRecord> servers;
        QList<Store::SessionRecord> sessions;
        QList<Store::TaskRecord> tasks;
        QList<Store::SweepRecord> sweeps;
        QHash<qint64, int> caseIndex; // case id -> position in its sweep
        QList<Store::InputRequestRecord> pendingInputs;
        // The most recent answered or closed ones, for the inbox's record.
        QList<Store::InputRequestRecord> answeredInputs;
        bool readOnly = false; // the database is open for review only (Engine::isReadOnly())
        QList<Store::CaseRecord> annotatedCases; // every case with a note or tags
    };

    struct TaskDetail
    {
        Store::TaskRecord task; // with the result
        QList<Store::TaskEventRecord> events;
        QList<Store::ProgressSample> samples;
        std::optional<Store::CaseRecord> caseRecord;
        // Lineage: the task this one was relaunched from, and the tasks relaunched from it.
        std::optional<qint64> parentTaskId;
        QList<qint64> childTaskIds;
        QList<Store::InputRequestRecord> inputs; // every question the task asked, with its answer
    };

    // One sweep's cases with their results (for the results table and scalar plot).
    struct SweepResults
    {
        Store::SweepRecord sweep;
        QList<Store::TaskRecord> tasks; // with results
        QHash<qint64, int> caseIndex;   // case id -> position in the sweep
        QList<Store::CaseRecord> cases; // in sweep order (the export lists every case)
        QHash<qint64, QString> answers; // task id -> InputInbox::answerSummary() of its questions
    };

    // A question asked before any task exists (tools/call answered input_required), with the
    // case it belongs to (server, sweep, position) read from the store.
    struct CaseQuestion
    {
        Monitor::Engine::CaseQuestion question;
        Store::CaseRecord caseRecord; // id 0 when the store no longer has it
    };

    // A case's tools/call failed before any task exists: it is retried (attempt of limit, in
    // delayMs), or, when deferred, left journalled unsent for a later run.
    struct CaseDelivery
    {
        Store::CaseRecord caseRecord; // id 0 when the store no longer has it
        qint64 caseId = 0;
        int attempt = 0;
        int limit = 0;
        qint64 delayMs = 0;
        bool deferred = false;
        QString message; // the engine's (English) account, for the tooltip and the log
    };

    // Work another process (eddyctl, a second Eddy) journalled into the same database.
    struct SharedWork
    {
        QList<Store::SweepRecord> sweeps;
        QList<Store::CaseRecord> calls;      // single calls (no sweep)
        QList<Store::SessionRecord> sessions; // every session when they changed, else empty
        bool reload = false;                  // changes were missed: read the session again
    };

    // A server's job adapter (docs/eddyctl.md "Job adapters"): the
    // one stored with it, else Eddy's proposal from its tools.
    struct JobAdapterView
    {
        Store::ServerRecord server; // with its tools (JSON text) as last listed
        std::optional<Monitor::JobAdapter> stored;
        QString storedError; // an adapter is stored but not valid: why
        std::optional<Monitor::AdapterProposal> proposal; // when no valid one is stored
        QString error;                                    // the tools could not be listed: why
        bool offersTasks = false; // the server has the Tasks extension
    };

    explicit EngineBridge(Monitor::Engine *engine, QObject *parent = nullptr);
    ~EngineBridge() override;

    // Reads on the engine thread; the answer arrives as a signal.
    void requestSnapshot(std::optional<qint64> sessionId);
    void requestServers();
    void requestTaskDetail(qint64 taskId);
    void requestSamples(const QList<qint64> &taskIds);
    // Each task's last stored residual sample (latestResidualsReady()): what the task table's
    // Residual column showed live, for rows listed without their samples.
    void requestLatestResiduals(const QList<qint64> &taskIds);
    void requestSweep(qint64 sweepId);
    void requestSweepResults(qint64 sweepId);
    // A sweep report's input (SweepReportReader::read); sweepReportReady(), with ok false when
    // the sweep is not stored.
    void requestSweepReport(qint64 sweepId);
    // Tasks matching a query (for "Attach earlier tasks..."), without results.
    void requestSearch(const Store::TaskQuery &query);

    // Writes: queued calls of the engine's slots.
    void addServer(const QString &url, const QString &name, const QString &token);
    void updateServer(const Store::ServerRecord &server);
    // What becomes of a removed server's stored tasks (None: refused when it has any).
    enum class ServerTasks { None, KeepAsHistory, Delete };
    void removeServer(qint64 serverId, ServerTasks tasks = ServerTasks::None);
    void requestServerUse(qint64 serverId); // serverUseReady()
    void refreshServer(qint64 serverId);
    void submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId);
    void callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                  std::optional<qint64> sessionId, std::optional<qint64> parentCaseId = std::nullopt);
    void cancelTasks(const QList<qint64> &taskIds);
    void answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                     const QString &answeredBy = {});
    // Answers a question asked before the case's task exists (caseQuestionAsked()).
    void answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson);
    // The open pre-task questions (after a restart: the journalled ones); caseQuestionsReady().
    void requestCaseQuestions();
    void createSession(const QString &name);
    void renameSession(qint64 sessionId, const QString &name);
    void attachTasks(qint64 sessionId, const QList<qint64> &taskIds);
    // Reads other processes' changes to the database now (F5) instead of at the next look.
    void checkSharedChanges();
    // Sweeps and single calls another process journalled without a session join `sessionId`.
    void adoptSharedWork(qint64 sessionId, const QList<qint64> &sweepIds, const QList<qint64> &caseIds);

    // Task handles of other clients (docs/interop.md): imports a handles file into the session
    // `sessionName` (created when missing), adding `serverUrl` when references name its
    // endpoint; handlesImported(). Exports references of `taskIds`; handlesExported().
    void importHandles(const QByteArray &content, const QString &sessionName,
                       const QString &serverUrl);
    void exportHandles(const QList<qint64> &taskIds);
    // The endpoint ids in a handles file that none of `serverUrls` has (pure; any thread).
    static QStringList unknownHandleEndpoints(const QByteArray &content,
                                              const QStringList &serverUrls);

    // Job adapters: the server's (jobAdapterReady()); storing one through the engine call
    // `eddyctl adapter set` uses (jobAdapterStored()); and the check when a server connects:
    // jobAdapterSuggested() when it offers no Tasks extension, has job-shaped tools and no
    // adapter yet (nothing otherwise).
    void requestJobAdapter(qint64 serverId);
    void setJobAdapter(qint64 serverId, const Monitor::JobAdapter &adapter);
    void checkJobAdapter(qint64 serverId);

    // Review of past sweeps (Monitor::Review): notes and tags on cases
    // (the same note or tags on each given case) and on a sweep, a sweep's baseline and the
    // pause of its unsent cases. The stored state comes back by caseReviewChanged()/sweepReviewChanged(),
    // as another process's edits do; a refused edit by reviewFailed().
    void setCaseNote(const QList<qint64> &caseIds, const QString &note);
    void setCaseTags(const QList<qint64> &caseIds, const QStringList &tags);
    void setSweepNote(qint64 sweepId, const QString &note);
    void setSweepTags(qint64 sweepId, const QStringList &tags);
    void setBaseline(qint64 sweepId, std::optional<qint64> caseId);
    void setSweepPaused(qint64 sweepId, bool paused);

    // Names of the varied parameters in a stored sweep spec ("vary" keys, file order).
    static QStringList variedNames(const QString &specJson);

Q_SIGNALS:
    void snapshotReady(const Eddy::EngineBridge::Snapshot &snapshot);
    void serversReady(const QList<Eddy::Store::ServerRecord> &servers); // removed ones too
    // A server's stored tasks and how many of them still run (tasks -1: unknown).
    void serverUseReady(qint64 serverId, int tasks, int live);
    void serverRemoved(qint64 serverId); // its tasks changed or went: views read again
    void taskDetailReady(const Eddy::EngineBridge::TaskDetail &detail);
    void samplesReady(const QList<qint64> &taskIds, const QList<Eddy::Store::ProgressSample> &samples);
    // The tasks asked about, and the samples of those that have one.
    void latestResidualsReady(const QList<qint64> &taskIds, const QList<Eddy::Store::ProgressSample> &samples);
    void sweepReady(const Eddy::Store::SweepRecord &sweep, const QHash<qint64, int> &caseIndex);
    void sweepResultsReady(const Eddy::EngineBridge::SweepResults &results);
    void sweepReportReady(qint64 sweepId, bool ok, const Eddy::SweepReportInput &input);
    void searchReady(const QList<Eddy::Store::TaskRecord> &tasks);
    void sessionCreated(qint64 sessionId, const QString &name);
    void sessionsChanged(const QList<Eddy::Store::SessionRecord> &sessions);
    void tasksAttached(qint64 sessionId, int count);
    void handlesImported(const Eddy::Monitor::HandleImportReport &report);
    void handlesExported(const Eddy::Monitor::HandleExport &handles);
    // Before any task exists (forwarded from the engine, the case looked up in the store).
    void caseQuestionAsked(const Eddy::EngineBridge::CaseQuestion &question);
    void caseQuestionsReady(const QList<Eddy::EngineBridge::CaseQuestion> &questions);
    void caseInputAnswered(qint64 caseId, const QString &key, bool ok, const QString &message);
    void
    caseDelivery(const Eddy::EngineBridge::CaseDelivery &delivery); // caseRetrying/caseDeferred
    void caseSubmitted(qint64 caseId, qint64 taskId);
    void caseRejected(qint64 caseId, const QString &message);
    void sharedWork(const Eddy::EngineBridge::SharedWork &work);
    // The engine's own reports, forwarded (queued) to this object's thread. changesReady is the
    // one route of task changes, finishes (ChangeSet::finished) and new questions (inputs).
    void changesReady(const Eddy::Monitor::ChangeSet &changes);
    void inputAnswered(qint64 taskId, const QString &key, bool ok, const QString &message);
    void serverStateChanged(qint64 serverId, Eddy::ServerListModel::State state,
                            const QString &message, bool notMcp);
    void toolsChanged(qint64 serverId);
    void sweepSubmitted(qint64 sweepId, int caseCount);
    void callJournalled(qint64 caseId);
    void submissionRejected(const QString &message);
    void operationFailed(const QString &message);
    void ttlWarning(qint64 taskId, qint64 msLeft);
    void jobAdapterReady(const Eddy::EngineBridge::JobAdapterView &view);
    void jobAdapterSuggested(const Eddy::EngineBridge::JobAdapterView &view);
    void jobAdapterStored(qint64 serverId, bool ok, const QString &message);
    void caseReviewChanged(const QList<Eddy::Store::CaseRecord> &cases);
    void sweepReviewChanged(const Eddy::Store::SweepRecord &sweep);
    void reviewFailed(const QString &message);

private:
    // requestJobAdapter() (unasked false) and checkJobAdapter() (true).
    void adapterView(qint64 serverId, bool unasked);

    QPointer<Monitor::Engine> m_engine;
    QList<QMetaObject::Connection> m_engineLinks; // run on the engine's thread
};

} // namespace Eddy

Q_DECLARE_METATYPE(Eddy::EngineBridge::Snapshot)
Q_DECLARE_METATYPE(Eddy::EngineBridge::TaskDetail)
Q_DECLARE_METATYPE(Eddy::EngineBridge::SweepResults)
Q_DECLARE_METATYPE(Eddy::EngineBridge::CaseQuestion)
Q_DECLARE_METATYPE(Eddy::EngineBridge::CaseDelivery)
Q_DECLARE_METATYPE(Eddy::EngineBridge::SharedWork)
Q_DECLARE_METATYPE(Eddy::EngineBridge::JobAdapterView)
Q_DECLARE_METATYPE(Eddy::Monitor::HandleImportReport)
Q_DECLARE_METATYPE(Eddy::Monitor::HandleExport)
