#pragma once

#include "app/monitor/engine.h"
#include "app/vocab/records.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QSet>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <vector>

namespace Eddy::Mcp {
class CallJob;
class Error;
}

namespace Eddy::Monitor {

// The submitter: turns a sweep spec or a single call into journalled cases and sends them with
// each sweep's concurrency (paused sweeps wait), answers the server's questions asked before a
// task exists (multi round-trip tools/call, journalled with the case), retries a call that got
// no answer with the same idempotency key, and hands each answered call to the hub as a task
// row. Lives on the engine's thread; the engine (its hub) owns it, stores and reports for it.
class SweepSubmitter final
{
    Q_DISABLE_COPY_MOVE(SweepSubmitter)

public:
    explicit SweepSubmitter(Engine &hub);

    // Engine::submitSweep(), Engine::callOnce(), Engine::answerCaseInput().
    void submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId);
    void callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                  std::optional<qint64> sessionId, std::optional<qint64> parentCaseId);
    void answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson);
    QList<Engine::CaseQuestion> pendingCaseQuestions() const;

    void setRetryPolicy(int attempts, qint64 baseDelayMs)
    {
        m_retryLimit = std::max(0, attempts);
        m_retryBaseMs = std::max<qint64>(1, baseDelayMs);
    }
    // A sweep's concurrency limit (stored with the sweep; read on open and from other processes).
    void setConcurrency(qint64 sweepId, int concurrency)
    {
        m_sweepConcurrency[sweepId] = std::max(1, concurrency);
    }
    // A journalled, unsent case waits in its sweep's queue; pump() sends what the limits allow.
    void enqueue(const Store::CaseRecord &c);
    void pump();
    // The server answers again: its cases waiting for that are sent now (Engine::serverAnswered).
    void sendWaitingCases(qint64 serverId);
    // The single call's task goes to this session once it exists (0 when none).
    qint64 takeSessionForCase(qint64 caseId) { return m_sessionForCase.take(caseId); }

    // A tools/call in flight or a case waiting to be sent.
    bool isSubmitting() const;
    // Anything to do for the idle check: calls in flight, tools being listed, cases waiting to
    // be sent again, unsent cases of sweeps that are not paused.
    bool hasWork() const;
    // A call to this server is being sent (or waits for an answer to its question).
    bool isSendingTo(qint64 serverId) const;
    // The server was removed: its unsent cases are dropped, those waiting are rejected.
    void dropServer(qint64 serverId);
    void clear();

private:
    // Looks up tool on the server: then(its input schema), or the rejection (the lookup failed, or
    // the server has no such tool).
    void withToolSchema(qint64 serverId, const QString &tool,
                        std::function<void(const nlohmann::json &schema)> then);

    // Pre-task round trips (multi round-trip tools/call): the open round of a case.
    struct CaseRound
    {
        Store::CaseRecord c;
        nlohmann::json inputRequests = nlohmann::json::object();
        nlohmann::json requestState;                      // null when the server sent none
        nlohmann::json answers = nlohmann::json::object(); // key -> ElicitResult
        std::function<void(nlohmann::json)> reply;         // empty once replied
    };
    // A case waiting to be sent again after tools/call failed: on its retry timer, or deferred
    // (retries ran out). Its server answering again sends it (sendWaitingCases()).
    struct CaseWait
    {
        Store::CaseRecord c;
        quint64 timer = 0;     // the retry timer's token: a timer that is not current does nothing
        bool noAnswer = false; // the last failure got no answer (not the server's "later")
        bool deferred = false;
    };

    void start(qint64 serverId, const QString &tool, std::vector<nlohmann::json> cases,
               const nlohmann::json &inputSchema, const nlohmann::ordered_json &specRaw,
               int concurrency, std::optional<qint64> sessionId, bool single,
               std::optional<qint64> parentCaseId);
    void sendCase(const Store::CaseRecord &c);
    void startCall(const Store::CaseRecord &c, bool resumed);
    void callFinished(const Store::CaseRecord &c, Mcp::CallJob *job, bool resumed);
    void journalQuestion(qint64 caseId);
    void ask(qint64 caseId);
    void autoAnswer(const Engine::CaseQuestion &question);
    void retry(const Store::CaseRecord &c, const Mcp::Error &e);
    // Back in the queue, unless it is no longer unsent (another process sent it); false then.
    bool requeue(const Store::CaseRecord &c);

    Engine &m_hub;
    QSet<qint64> m_sending;                         // case ids with a tools/call in flight
    QHash<qint64, int> m_sweepConcurrency;          // sweep id -> concurrency limit
    QHash<qint64, int> m_sweepSending;              // sweep id (0 = single calls) -> in flight
    QMap<qint64, QList<Store::CaseRecord>> m_queue; // sweep id (0 = single calls) -> unsent
    QHash<qint64, qint64> m_sessionForCase;         // single call -> session to attach its task to
    int m_toolLookups = 0;                          // tools/list fetches before journalling
    QHash<qint64, CaseRound> m_rounds;              // case id -> its open round
    QHash<qint64, int> m_attempts;                  // case id -> transient failures so far
    QHash<qint64, CaseWait> m_waits;                // case id -> its wait
    quint64 m_waitTimers = 0;                       // tokens handed out
    int m_retryLimit = 6;
    qint64 m_retryBaseMs = 1000;
};

} // namespace Eddy::Monitor
