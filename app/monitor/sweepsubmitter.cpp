#include "app/monitor/sweepsubmitter.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/jobfollower.h"
#include "app/monitor/review.h"
#include "app/monitor/streamedfollower.h"
#include "app/monitor/sweepexport.h"

#include <algorithm>

namespace Eddy::Monitor {

namespace {

// The server said nothing: the connection failed, was reset or timed out, or a gateway found no
// server behind it. Not the server's own "busy, later" (429, 503, Retry-After): that pace is kept.
bool gotNoAnswer(const Mcp::Error &e)
{
    if (e.retryAfterMs() > 0)
        return false;
    switch (e.kind()) {
    case Mcp::Error::Kind::Transport:
    case Mcp::Error::Kind::Timeout:
    case Mcp::Error::Kind::Aborted:
        return true;
    case Mcp::Error::Kind::Http:
        return e.httpStatus() == 502 || e.httpStatus() == 504;
    default:
        return false;
    }
}

} // namespace

SweepSubmitter::SweepSubmitter(Engine &hub)
    : m_hub(hub)
{
}

void SweepSubmitter::submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId)
{
    if (m_hub.isReadOnly()) {
        emit m_hub.submissionRejected(Engine::readOnlyMessage());
        return;
    }
    QString error;
    const auto spec = SweepSpec::fromText(specJson, &error);
    if (!spec) {
        emit m_hub.submissionRejected(error);
        return;
    }
    withToolSchema(serverId, spec->tool, [this, serverId, spec = *spec, sessionId](const json &schema) {
        QStringList problems;
        auto cases = SweepExpander::expand(spec, schema, &problems);
        if (!cases) {
            emit m_hub.submissionRejected(Engine::tr("The sweep was not submitted: %1")
                                        .arg(problems.join(QStringLiteral("; "))));
            m_hub.checkIdle();
            return;
        }
        start(serverId, spec.tool, std::move(*cases), schema, spec.raw, spec.concurrency,
              sessionId, false, std::nullopt);
    });
}

void SweepSubmitter::withToolSchema(qint64 serverId, const QString &tool,
                                    std::function<void(const json &schema)> then)
{
    ++m_toolLookups;
    m_hub.withTools(serverId, [this, tool, then = std::move(then)](const json &tools, const QString &error) {
        --m_toolLookups;
        QStringList names;
        const json schema = error.isEmpty() ? toolSchema(tools, tool, &names) : json();
        if (!error.isEmpty() || schema.is_null()) {
            emit m_hub.submissionRejected(
                !error.isEmpty() ? error
                                 : Engine::tr("The server has no tool \"%1\" (it offers: %2).")
                                       .arg(tool, names.join(QStringLiteral(", "))));
            m_hub.checkIdle();
            return;
        }
        then(schema);
    });
}

void SweepSubmitter::callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                      std::optional<qint64> sessionId, std::optional<qint64> parentCaseId)
{
    if (m_hub.isReadOnly()) {
        emit m_hub.submissionRejected(Engine::readOnlyMessage());
        return;
    }
    const json args = json::parse(argumentsJson.constBegin(), argumentsJson.constEnd(), nullptr, false);
    if (args.is_discarded() || !args.is_object()) {
        emit m_hub.submissionRejected(Engine::tr("The arguments must be a JSON object, e.g. {\"reynolds\": 100}."));
        return;
    }
    withToolSchema(serverId, tool, [this, serverId, tool, args, sessionId, parentCaseId](const json &schema) {
        json probe = args;
        const bool takesKey = schema.value("properties", json::object()).contains("idempotency_key");
        if (takesKey && !probe.contains("idempotency_key"))
            probe["idempotency_key"] = "eddy-key-check";
        // MCP reads a null argument as one not given (its x-mcp-header is omitted): the server
        // decides what it means, so only a required one is refused here. It is sent as typed.
        const json required = schema.value("required", json::array());
        if (args.is_object() && required.is_array())
            for (const auto &[name, value] : args.items())
                if (value.is_null()
                    && std::find(required.begin(), required.end(), json(name)) == required.end())
                    probe.erase(name);
        const QStringList problems = SchemaValidator::validate(probe, schema);
        if (!problems.isEmpty()) {
            emit m_hub.submissionRejected(Engine::tr("The call was not sent: %1").arg(problems.join(QStringLiteral("; "))));
            m_hub.checkIdle();
            return;
        }
        start(serverId, tool, {args}, schema, nlohmann::ordered_json(), s_singleCallConcurrency,
              sessionId, true, parentCaseId);
    });
}

void SweepSubmitter::start(qint64 serverId, const QString &tool, std::vector<json> caseArgs,
                             const json &inputSchema, const nlohmann::ordered_json &specRaw, int concurrency,
                             std::optional<qint64> sessionId, bool single,
                             std::optional<qint64> parentCaseId)
{
    const bool takesKey = inputSchema.value("properties", json::object()).contains("idempotency_key");
    QList<Store::CaseRecord> cases;
    cases.reserve(qsizetype(caseArgs.size()));
    int index = 0;
    for (json &args : caseArgs) {
        Store::CaseRecord c;
        c.serverId = serverId;
        c.index = index++;
        c.tool = tool;
        // Journalled before anything is sent: the same key goes out on every retry, so the
        // server can hand back the task it already made.
        c.idempotencyKey = args.contains("idempotency_key") && args["idempotency_key"].is_string()
                               ? QString::fromStdString(args["idempotency_key"].get<std::string>())
                               : QStringLiteral("eddy-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
        if (takesKey)
            args["idempotency_key"] = c.idempotencyKey.toStdString();
        c.arguments = QString::fromStdString(args.dump());
        c.traceparent = QString::fromLatin1(Mcp::TraceContext::create().newTraceparent());
        cases << c;
    }
    if (single) {
        Store::CaseRecord &c = cases.first();
        c.parentCaseId = parentCaseId;
        // A re-run, or a relaunch that keeps the sweep's varied values (more iterations, a
        // tighter tolerance), is a new attempt of the same design point: it joins the parent's
        // sweep at the parent's case index, and the sweep shows it instead of the earlier one.
        // A changed varied value is a new point of its own and stays a single call.
        if (parentCaseId) {
            if (const auto parent = m_hub.m_store.caseRecord(*parentCaseId); parent && parent->sweepId) {
                json mine = json::parse(c.arguments.toStdString(), nullptr, false);
                json theirs = json::parse(parent->arguments.toStdString(), nullptr, false);
                if (mine.is_object() && theirs.is_object()) {
                    mine.erase("idempotency_key");
                    theirs.erase("idempotency_key");
                    const auto sweep = m_hub.m_store.sweep(*parent->sweepId);
                    const QStringList varied = sweep ? SweepExport::variedNames(sweep->spec) : QStringList();
                    const auto sameValue = [&mine, &theirs](const QString &name) {
                        const std::string key = name.toStdString();
                        return mine.value(key, json()) == theirs.value(key, json());
                    };
                    const bool samePoint = mine == theirs
                                           || (!varied.isEmpty() && c.tool == parent->tool
                                               && std::all_of(varied.cbegin(), varied.cend(), sameValue));
                    if (samePoint) {
                        c.sweepId = parent->sweepId;
                        c.index = parent->index;
                        // The engineer's words about the design point stay with it.
                        c.note = parent->note;
                        c.tags = parent->tags;
                    }
                }
            }
        }
        if (!m_hub.m_store.journalCase(c)) {
            emit m_hub.submissionRejected(m_hub.m_store.lastError());
            m_hub.checkIdle();
            return;
        }
        if (sessionId)
            m_sessionForCase.insert(c.id, *sessionId);
        if (!c.note.isEmpty() || !c.tags.isEmpty()) // a re-run starts with its case's words
            emit m_hub.m_review->caseReviewChanged({c});
        enqueue(c);
        emit m_hub.callJournalled(c.id);
    } else {
        Store::SweepRecord sweep;
        sweep.serverId = serverId;
        sweep.sessionId = sessionId;
        sweep.tool = tool;
        sweep.spec = QString::fromStdString(specRaw.dump());
        sweep.concurrency = concurrency;
        if (!m_hub.m_store.journalSweep(sweep, cases)) {
            emit m_hub.submissionRejected(m_hub.m_store.lastError());
            m_hub.checkIdle();
            return;
        }
        m_sweepConcurrency[sweep.id] = std::max(1, concurrency);
        for (const Store::CaseRecord &c : std::as_const(cases))
            enqueue(c);
        emit m_hub.sweepSubmitted(sweep.id, int(cases.size()));
    }
    pump();
}

void SweepSubmitter::enqueue(const Store::CaseRecord &c)
{
    m_queue[c.sweepId.value_or(0)].append(c);
}

void SweepSubmitter::pump()
{
    if (!m_hub.m_monitoring || !m_hub.isOpen())
        return;
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
        const qint64 sweepKey = it.key();
        if (m_hub.m_review->isPaused(sweepKey))
            continue; // its unsent cases wait for Resume (review.h)
        const int limit = sweepKey == 0 ? s_singleCallConcurrency : m_sweepConcurrency.value(sweepKey, 4);
        QList<Store::CaseRecord> &queue = it.value();
        while (!queue.isEmpty() && m_sweepSending.value(sweepKey) < limit) {
            const Store::CaseRecord c = queue.takeFirst();
            sendCase(c);
        }
        // takeFirst() keeps the room of the cases sent (a 10,000-case sweep's list is ~3 MB):
        // give it back as the queue drains, for the tasks the sent cases become.
        if (queue.size() < queue.capacity() / 4)
            queue.squeeze();
    }
}

void SweepSubmitter::sendCase(const Store::CaseRecord &c)
{
    const qint64 sweepKey = c.sweepId.value_or(0);
    Engine::ServerLink *l = m_hub.link(c.serverId);
    if (!l) {
        m_hub.m_store.markCaseRejected(c.id, QStringLiteral("{\"message\":\"unknown server\"}"));
        emit m_hub.caseRejected(c.id, Engine::tr("The case's server is no longer configured."));
        return;
    }
    m_hub.m_store.markCaseSent(c.id);
    m_sending.insert(c.id);
    ++m_sweepSending[sweepKey];
    // A round trip journalled before a restart: resumed with the server's requestState once
    // every question of the round has an answer (asked again first when some has none).
    const json journal = c.pendingInput.isEmpty()
                             ? json()
                             : json::parse(c.pendingInput.toStdString(), nullptr, false);
    if (journal.is_object() && journal.value("inputRequests", json()).is_object()
        && !journal["inputRequests"].empty()) {
        CaseRound &round = m_rounds[c.id];
        round.c = c;
        round.inputRequests = journal["inputRequests"];
        round.requestState = journal.value("requestState", json());
        round.answers = journal.value("answers", json::object());
        if (!round.answers.is_object())
            round.answers = json::object();
        bool complete = true;
        for (auto it = round.inputRequests.begin(); it != round.inputRequests.end(); ++it)
            complete = complete && round.answers.contains(it.key());
        if (complete) {
            startCall(c, true);
            return;
        }
        qCInfo(lcMonitor, "case %lld: the server's question before starting is still open; "
                          "asking it again", c.id);
        round.reply = [this, id = c.id](json) {
            const auto it = m_rounds.constFind(id);
            if (it != m_rounds.constEnd() && m_hub.isOpen())
                startCall(it->c, true);
        };
        ask(c.id);
        return;
    }
    startCall(c, false);
}

void SweepSubmitter::startCall(const Store::CaseRecord &c, bool resumed)
{
    Engine::ServerLink *l = m_hub.link(c.serverId);
    if (!l) {
        m_sending.remove(c.id);
        --m_sweepSending[c.sweepId.value_or(0)];
        m_hub.m_store.markCaseRejected(c.id, QStringLiteral("{\"message\":\"unknown server\"}"));
        emit m_hub.caseRejected(c.id, Engine::tr("The case's server is no longer configured."));
        return;
    }
    const json args = json::parse(c.arguments.toStdString(), nullptr, false);
    Mcp::CallOptions options;
    const auto trace = Mcp::TraceContext::fromTraceparent(c.traceparent.toLatin1());
    options.traceparent = trace.isValid() ? trace.newTraceparent() : QByteArray();
    if (resumed) {
        const CaseRound &round = m_rounds[c.id];
        options.resumeRequestState = round.requestState;
        json responses = json::object();
        for (auto it = round.inputRequests.begin(); it != round.inputRequests.end(); ++it)
            if (round.answers.contains(it.key()))
                responses[it.key()] = round.answers[it.key()];
        options.resumeInputResponses = std::move(responses);
    }
    const qint64 caseId = c.id;
    // Multi round trip before any task exists: each round is journalled with the case, then its
    // questions go to whoever answers them (the inbox, eddyctl, the agent, --answers).
    options.onInputRequired = [this, c](const json &requestState, const json &inputRequests) {
        CaseRound &round = m_rounds[c.id];
        round.c = c;
        round.requestState = requestState;
        round.inputRequests = inputRequests.is_object() ? inputRequests : json::object();
        round.answers = json::object();
        round.reply = nullptr;
        journalQuestion(c.id);
    };
    // The job exists by the time its stream opens (never inside callTool()).
    auto callJob = std::make_shared<QPointer<Mcp::CallJob>>();
    options.onStreamOpened = [this, c, callJob] { m_hub.m_streamed.opened(c, *callJob); };
    options.onNotification = [this, caseId](const json &n) { m_hub.m_streamed.notification(caseId, n); };
    options.inputHandler = [this, caseId](const json &, Mcp::CallOptions::Reply reply) {
        auto it = m_rounds.find(caseId);
        if (it == m_rounds.end())
            return;
        it->reply = std::move(reply);
        ask(caseId);
    };
    Mcp::CallJob *job = l->client->callTool(c.tool, args.is_discarded() ? json::object() : args, options);
    *callJob = job;
    QObject::connect(job, &Mcp::Job::finished, &m_hub, [this, job, c, resumed] { callFinished(c, job, resumed); });
}

void SweepSubmitter::callFinished(const Store::CaseRecord &c, Mcp::CallJob *job, bool resumed)
{
    const qint64 sweepKey = c.sweepId.value_or(0);
    m_sending.remove(c.id);
    --m_sweepSending[sweepKey];
    if (m_hub.m_streamed.finished(c, job)) {
        m_attempts.remove(c.id);
        pump();
        m_hub.checkIdle();
        return;
    }
    const qint64 now = nowMs();
    if (job->hasError() || job->kind() == Mcp::CallJob::Kind::Error) {
        const Mcp::Error e = job->error();
        const auto server = m_hub.m_store.server(c.serverId);
        if (e.kind() == Mcp::Error::Kind::Aborted && (!server || server->retired)) {
            // Its server was removed by another process (endServerCalls()), which stored the
            // case rejected, or deleted it.
            m_rounds.remove(c.id);
            m_attempts.remove(c.id);
            emit m_hub.caseRejected(c.id, Engine::tr("Not sent: its server was removed from Eddy."));
        } else if (e.isTransient() || e.kind() == Mcp::Error::Kind::Aborted) {
            retry(c, e);
        } else if (resumed && m_rounds.contains(c.id)) {
            // The server would not take a round trip resumed from the journal (its requestState
            // may have expired): start the call afresh, once, with the same idempotency key.
            qCWarning(lcMonitor, "case %lld: the resumed round trip was refused (%s); sending the "
                                 "call afresh", c.id, qPrintable(e.message()));
            m_rounds.remove(c.id);
            m_hub.m_store.setCasePendingInput(c.id, {});
            Store::CaseRecord fresh = c;
            fresh.pendingInput.clear();
            enqueue(fresh);
        } else {
            m_rounds.remove(c.id);
            m_attempts.remove(c.id);
            m_hub.m_store.setCasePendingInput(c.id, {});
            m_hub.m_store.markCaseRejected(c.id, errorJson(e));
            emit m_hub.caseRejected(c.id, e.message());
        }
        pump();
        m_hub.checkIdle();
        return;
    }
    m_attempts.remove(c.id);
    m_hub.serverAnswered(c.serverId, true); // its other waiting cases need not wait any longer
    if (m_rounds.remove(c.id) > 0 || !c.pendingInput.isEmpty())
        m_hub.m_store.setCasePendingInput(c.id, {});
    Store::TaskRecord t = taskOfCase(c);
    t.firstSeenAtMs = now;
    if (job->kind() == Mcp::CallJob::Kind::Task) {
        const Mcp::TaskState &st = job->task();
        t.serverTaskId = QString::fromStdString(st.taskId);
        fillFromState(t, st);
        for (const QString &w : st.warnings)
            qCWarning(lcMonitor, "case %lld: %s", c.id, qPrintable(w));
        t.nextPollAtMs = now + m_hub.m_scheduler->clampedInterval(t.pollIntervalMs);
    } else if (!m_hub.m_jobs.adopt(c, job->callResult(), job->isToolError(), t)) {
        t.status = Store::TaskStatus::Completed;
        t.result = QString::fromStdString(job->callResult().dump());
        t.isToolError = job->isToolError();
        t.finishedAtMs = now;
    }
    const auto id = m_hub.m_store.recordTaskForCase(c.id, t);
    if (!id) {
        qCWarning(lcMonitor) << "cannot store a task handle:" << m_hub.m_store.lastError();
        emit m_hub.operationFailed(m_hub.m_store.lastError());
        pump();
        m_hub.checkIdle();
        return;
    }
    if (auto sess = m_sessionForCase.take(c.id))
        m_hub.m_store.attachTask(sess, *id);
    if (auto stored = m_hub.m_store.task(*id))
        t = *stored;
    emit m_hub.caseSubmitted(c.id, t.id);
    m_hub.m_feed.queueChange(t);
    if (t.isLive()) {
        m_hub.follow(t, t.nextPollAtMs);
    } else if (!t.serverTaskId.isEmpty() && t.result.isEmpty() && t.error.isEmpty()) {
        // A terminal seed carries no payload: fetch it once.
        m_hub.follow(t, now);
    } else {
        m_hub.m_feed.queueFinished(t);
        emit m_hub.taskFinished(t);
    }
    pump();
    m_hub.armPollTimer();
    m_hub.checkIdle();
}

void SweepSubmitter::retry(const Store::CaseRecord &c, const Mcp::Error &e)
{
    // Not answered: try again later with the same key (the server dedups), with backoff and a
    // message per attempt; after the last one the case stays journalled for a later run. Either
    // way its server answering again sends it at once (m_hub.serverAnswered()).
    const int attempt = ++m_attempts[c.id];
    if (attempt > m_retryLimit) {
        m_attempts.remove(c.id);
        m_waits.insert(c.id, CaseWait{c, 0, true, true});
        QString last = e.message();
        if (!last.endsWith(QLatin1Char('.')))
            last += QLatin1Char('.');
        const QString message =
            QStringLiteral("The call of %1 (case %2) got no answer after %3 attempts; the last "
                           "error: %4 It is kept unsent: it is sent again with the same "
                           "idempotency key as soon as the server answers again while Eddy runs, "
                           "or run eddyctl watch (or reopen Eddy) to send it again.")
                .arg(c.tool).arg(c.id).arg(attempt).arg(last);
        qCWarning(lcMonitor).noquote() << message;
        emit m_hub.caseDeferred(c.id, message);
        return;
    }
    QString why = e.message();
    while (why.endsWith(QLatin1Char('.')))
        why.chop(1);
    const qint64 backoff = m_retryBaseMs << std::min(attempt - 1, 16);
    const qint64 delay = std::min<qint64>(std::max<qint64>(e.retryAfterMs(), backoff), 60000);
    const QString message = QStringLiteral("%1; retry %2 of %3 in %4 s (re-sent with the same "
                                           "idempotency key)")
                                .arg(why)
                                .arg(attempt)
                                .arg(m_retryLimit)
                                .arg(double(delay) / 1000.0, 0, 'g', 3);
    qCWarning(lcMonitor, "case %lld: %s", c.id, qPrintable(message));
    const quint64 timer = ++m_waitTimers;
    m_waits.insert(c.id, CaseWait{c, timer, gotNoAnswer(e), false});
    emit m_hub.caseRetrying(c.id, attempt, m_retryLimit, delay, message);
    QTimer::singleShot(int(delay), &m_hub, [this, id = c.id, timer] {
        const auto it = m_waits.constFind(id);
        if (it == m_waits.constEnd() || it->timer != timer)
            return; // sent already (its server answered again), or the engine was closed
        requeue(m_waits.take(id).c);
        pump();
        m_hub.checkIdle();
    });
}

bool SweepSubmitter::requeue(const Store::CaseRecord &c)
{
    const auto stored = m_hub.m_store.caseRecord(c.id);
    if (stored && stored->state != Store::CaseState::Pending && stored->state != Store::CaseState::Sent) {
        m_attempts.remove(c.id); // another process on the database sent it meanwhile
        return false;
    }
    Store::CaseRecord again = c;
    if (stored)
        again.pendingInput = stored->pendingInput;
    enqueue(again);
    return true;
}

void SweepSubmitter::sendWaitingCases(qint64 serverId)
{
    if (m_waits.isEmpty() || !m_hub.m_monitoring || !m_hub.isOpen())
        return;
    QList<qint64> ids;
    for (auto it = m_waits.cbegin(); it != m_waits.cend(); ++it)
        if (it->c.serverId == serverId && (it->noAnswer || it->deferred))
            ids << it.key();
    if (ids.isEmpty())
        return;
    std::sort(ids.begin(), ids.end()); // in the order they were journalled
    qCInfo(lcMonitor, "server %lld answers again: sending its %d waiting case(s) now", serverId,
           int(ids.size()));
    for (qint64 id : std::as_const(ids)) {
        const CaseWait w = m_waits.take(id); // its retry timer, if any, finds nothing now
        if (!requeue(w.c))
            continue;
        // A deferred case gets a fresh set of attempts; a waiting one uses the retry announced.
        const int attempt = w.deferred ? 0 : m_attempts.value(id);
        const QString message =
            w.deferred ? QStringLiteral("the server answers again; sent again now (with the same "
                                        "idempotency key)")
                       : QStringLiteral("the server answers again; retry %1 of %2 now (re-sent "
                                        "with the same idempotency key)")
                             .arg(attempt)
                             .arg(m_retryLimit);
        emit m_hub.caseRetrying(id, attempt, m_retryLimit, 0, message);
    }
    pump();
}

void SweepSubmitter::journalQuestion(qint64 caseId)
{
    const auto it = m_rounds.constFind(caseId);
    if (it == m_rounds.constEnd())
        return;
    const json journal{{"requestState", it->requestState},
                       {"inputRequests", it->inputRequests},
                       {"answers", it->answers}};
    if (!m_hub.m_store.setCasePendingInput(caseId, QString::fromStdString(journal.dump())))
        qCWarning(lcMonitor) << "cannot journal the question of case" << caseId << ":" << m_hub.m_store.lastError();
}

QList<Engine::CaseQuestion> SweepSubmitter::pendingCaseQuestions() const
{
    QList<Engine::CaseQuestion> out;
    for (auto it = m_rounds.cbegin(); it != m_rounds.cend(); ++it) {
        if (!it->reply)
            continue;
        for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q) {
            if (it->answers.contains(q.key()))
                continue;
            out << Engine::CaseQuestion{it.key(), it->c.tool, it->c.arguments, QString::fromStdString(q.key()),
                                QString::fromStdString(q.value().dump())};
        }
    }
    return out;
}

void SweepSubmitter::ask(qint64 caseId)
{
    const auto it = m_rounds.constFind(caseId);
    if (it == m_rounds.constEnd())
        return;
    const CaseRound round = *it; // signals may answer (and change the round) at once
    for (auto q = round.inputRequests.begin(); q != round.inputRequests.end(); ++q) {
        if (round.answers.contains(q.key()))
            continue;
        const Engine::CaseQuestion question{caseId, round.c.tool, round.c.arguments,
                                    QString::fromStdString(q.key()),
                                    QString::fromStdString(q.value().dump())};
        qCInfo(lcMonitor, "case %lld (%s) asks \"%s\" before starting", caseId,
               qPrintable(round.c.tool), qPrintable(question.key));
        emit m_hub.caseInputRequested(question);
        autoAnswer(question);
    }
}

void SweepSubmitter::autoAnswer(const Engine::CaseQuestion &question)
{
    if (!m_hub.m_answers.autoAnswers())
        return;
    const json req = json::parse(question.request.toStdString(), nullptr, false);
    QString error;
    const json answer = InputInbox::answerFromValues(req, *m_hub.m_answers.autoAnswers(), &error);
    if (answer.is_null()) {
        emit m_hub.operationFailed(Engine::tr("The call of %1 (case %2), question \"%3\": %4")
                                 .arg(question.tool).arg(question.caseId).arg(question.key, error));
        return;
    }
    answerCaseInput(question.caseId, question.key, QByteArray::fromStdString(answer.dump()));
}

void SweepSubmitter::answerCaseInput(qint64 caseId, const QString &key, const QByteArray &elicitResultJson)
{
    const json answer = json::parse(elicitResultJson.constBegin(), elicitResultJson.constEnd(), nullptr, false);
    if (answer.is_discarded() || !answer.is_object()) {
        emit m_hub.caseInputAnswered(caseId, key, false,
                               Engine::tr("The answer is not a JSON object; give one like "
                                              "{\"action\": \"accept\", \"content\": {...}}."));
        return;
    }
    auto it = m_rounds.find(caseId);
    const std::string k = key.toStdString();
    if (it == m_rounds.end() || !it->reply || !it->inputRequests.contains(k)) {
        emit m_hub.caseInputAnswered(caseId, key, false,
                               Engine::tr("Case %1 has no open question \"%2\".").arg(caseId).arg(key));
        return;
    }
    if (it->answers.contains(k)) {
        emit m_hub.caseInputAnswered(caseId, key, false,
                               Engine::tr("The question \"%1\" of case %2 is answered already.")
                                   .arg(key).arg(caseId));
        return;
    }
    it->answers[k] = answer;
    journalQuestion(caseId); // before anything is sent: a crash resumes from here
    emit m_hub.caseInputAnswered(caseId, key, true, {});
    it = m_rounds.find(caseId);
    if (it == m_rounds.end() || !it->reply)
        return;
    for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q)
        if (!it->answers.contains(q.key()))
            return;
    json responses = json::object();
    for (auto q = it->inputRequests.begin(); q != it->inputRequests.end(); ++q)
        responses[q.key()] = it->answers[q.key()];
    const auto reply = std::move(it->reply);
    it->reply = nullptr;
    reply(std::move(responses));
}

bool SweepSubmitter::isSubmitting() const
{
    if (!m_sending.isEmpty())
        return true;
    return std::any_of(m_queue.cbegin(), m_queue.cend(),
                       [](const QList<Store::CaseRecord> &q) { return !q.isEmpty(); });
}

bool SweepSubmitter::hasWork() const
{
    if (!m_sending.isEmpty() || m_toolLookups > 0
        || !m_attempts.isEmpty()) // a case waiting to be sent again after a failure
        return true;
    // A paused sweep's unsent cases are nothing to do until it is resumed.
    for (auto it = m_queue.cbegin(); it != m_queue.cend(); ++it)
        if (!it->isEmpty() && !m_hub.m_review->isPaused(it.key()))
            return true;
    return false;
}

bool SweepSubmitter::isSendingTo(qint64 serverId) const
{
    for (qint64 caseId : std::as_const(m_sending)) {
        const auto c = m_hub.m_store.caseRecord(caseId);
        if (c && c->serverId == serverId)
            return true;
    }
    return std::any_of(m_rounds.cbegin(), m_rounds.cend(),
                       [serverId](const CaseRound &round) { return round.c.serverId == serverId; });
}

void SweepSubmitter::dropServer(qint64 serverId)
{
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it)
        it->removeIf([serverId](const Store::CaseRecord &c) { return c.serverId == serverId; });
    // Cases waiting to be sent again (the store has rejected them): their rows say why.
    QList<qint64> waiting;
    for (auto it = m_waits.cbegin(); it != m_waits.cend(); ++it)
        if (it->c.serverId == serverId)
            waiting << it.key();
    for (qint64 caseId : std::as_const(waiting)) {
        m_waits.remove(caseId);
        m_attempts.remove(caseId);
        emit m_hub.caseRejected(caseId, Engine::tr("Not sent: its server was removed from Eddy."));
    }
}

void SweepSubmitter::clear()
{
    m_sending.clear();
    m_sweepSending.clear();
    m_queue.clear();
    m_rounds.clear();
    m_attempts.clear();
    m_waits.clear(); // their retry timers find nothing
}

} // namespace Eddy::Monitor
