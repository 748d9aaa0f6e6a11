#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

namespace Eddy::Store {

// ---------------------------------------------------------------- journal

namespace {
// A case enters the journal Pending; the same statement for a sweep's cases and a single call.
const char *const s_insertCase =
    "INSERT INTO cases(sweep_id, server_id, idx, tool, arguments, idempotency_key, state, "
    "traceparent, created_at, parent_case_id, note, tags) VALUES(?,?,?,?,?,?,'pending',?,?,?,?,?)";

void bindCase(Statement &st, const CaseRecord &c)
{
    st.bind(1, c.sweepId).bind(2, c.serverId).bind(3, c.index).bind(4, c.tool)
        .bind(5, c.arguments).bind(6, c.idempotencyKey).bind(7, c.traceparent + QString(""))
        .bind(8, c.createdAtMs).bind(9, c.parentCaseId).bind(10, c.note + QString(""))
        .bind(11, tagsText(c.tags));
}
} // namespace

bool TaskStore::journalSweep(SweepRecord &sweep, QList<CaseRecord> &cases)
{
    Transaction tx(m_db);
    if (!tx.isActive())
        return false;
    sweep.createdAtMs = sweep.createdAtMs ? sweep.createdAtMs : nowMs();
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO sweeps(server_id, session_id, tool, spec, concurrency, created_at) VALUES(?,?,?,?,?,?)"));
    st.bind(1, sweep.serverId).bind(2, sweep.sessionId).bind(3, sweep.tool).bind(4, sweep.spec)
        .bind(5, sweep.concurrency).bind(6, sweep.createdAtMs);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot journal the sweep: %1").arg(st.errorString()));
        return false;
    }
    sweep.id = m_db.lastInsertId();
    sweep.caseCount = int(cases.size());
    Statement ins = m_db.prepare(QLatin1String(s_insertCase));
    for (CaseRecord &c : cases) {
        c.sweepId = sweep.id;
        c.serverId = sweep.serverId;
        c.createdAtMs = sweep.createdAtMs;
        c.state = CaseState::Pending;
        ins.reset();
        bindCase(ins, c);
        if (!ins.exec()) {
            m_db.setError(QStringLiteral("Cannot journal case %1: %2").arg(c.index).arg(ins.errorString()));
            return false;
        }
        c.id = m_db.lastInsertId();
    }
    return tx.commit();
}

bool TaskStore::journalCase(CaseRecord &c)
{
    c.createdAtMs = c.createdAtMs ? c.createdAtMs : nowMs();
    Statement ins = m_db.prepare(QLatin1String(s_insertCase));
    bindCase(ins, c);
    if (!ins.exec()) {
        m_db.setError(QStringLiteral("Cannot journal the call: %1").arg(ins.errorString()));
        return false;
    }
    c.id = m_db.lastInsertId();
    c.state = CaseState::Pending;
    return true;
}

namespace {
const char *const s_sweepSelect =
    "SELECT s.id, s.server_id, s.session_id, s.tool, s.spec, s.concurrency, s.created_at, "
    "(SELECT COUNT(DISTINCT c.idx) FROM cases c WHERE c.sweep_id = s.id), s.note, s.tags, "
    "s.baseline_case_id, s.paused_at FROM sweeps s";

SweepRecord readSweep(Statement &st)
{
    SweepRecord s;
    s.id = st.int64(0);
    s.serverId = st.int64(1);
    s.sessionId = st.optInt64(2);
    s.tool = st.text(3);
    s.spec = st.text(4);
    s.concurrency = st.integer(5);
    s.createdAtMs = st.int64(6);
    s.caseCount = st.integer(7);
    s.note = st.text(8);
    s.tags = tagsFromText(st.text(9));
    s.baselineCaseId = st.optInt64(10);
    s.pausedAtMs = st.optInt64(11);
    return s;
}
} // namespace

QList<SweepRecord> TaskStore::sweeps()
{
    Statement st = m_db.prepare(QStringLiteral("%1 ORDER BY s.id").arg(QLatin1String(s_sweepSelect)));
    return readAll(st, readSweep);
}

std::optional<SweepRecord> TaskStore::sweep(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("%1 WHERE s.id = ?").arg(QLatin1String(s_sweepSelect)));
    st.bind(1, id);
    return readOne(st, readSweep);
}

namespace {
CaseRecord readCase(Statement &st)
{
    CaseRecord c;
    c.id = st.int64(0);
    c.sweepId = st.optInt64(1);
    c.serverId = st.int64(2);
    c.index = st.integer(3);
    c.tool = st.text(4);
    c.arguments = st.text(5);
    c.idempotencyKey = st.text(6);
    c.state = caseStateFromString(st.text(7)).value_or(CaseState::Pending);
    c.attempts = st.integer(8);
    c.taskId = st.optInt64(9);
    c.error = st.text(10);
    c.traceparent = st.text(11);
    c.createdAtMs = st.int64(12);
    c.parentCaseId = st.optInt64(13);
    c.pendingInput = st.text(14);
    c.note = st.text(15);
    c.tags = tagsFromText(st.text(16));
    return c;
}
} // namespace

QList<CaseRecord> TaskStore::cases(std::optional<qint64> sweepId)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM cases WHERE %2 ORDER BY idx, id")
                                    .arg(QLatin1String(s_caseColumns),
                                         sweepId ? QStringLiteral("sweep_id = ?")
                                                 : QStringLiteral("sweep_id IS NULL")));
    if (sweepId)
        st.bind(1, *sweepId);
    return readAll(st, readCase);
}

std::optional<CaseRecord> TaskStore::caseRecord(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM cases WHERE id = ?").arg(QLatin1String(s_caseColumns)));
    st.bind(1, id);
    return readOne(st, readCase);
}

QList<CaseRecord> TaskStore::annotatedCases()
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM cases WHERE note != '' OR tags != '' "
                                               "ORDER BY id")
                                    .arg(QLatin1String(s_caseColumns)));
    return readAll(st, readCase);
}

QList<CaseRecord> TaskStore::unsubmittedCases(int limit)
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT %1 FROM cases WHERE state IN ('pending','sent') ORDER BY id LIMIT ?")
                                    .arg(QLatin1String(s_caseColumns)));
    st.bind(1, qint64(limit));
    return readAll(st, readCase);
}

bool TaskStore::markCaseSent(qint64 caseId)
{
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE cases SET state = CASE WHEN state = 'pending' THEN 'sent' ELSE state END, "
        "attempts = attempts + 1, sent_at = ? WHERE id = ?"));
    st.bind(1, nowMs()).bind(2, caseId);
    return st.exec();
}

bool TaskStore::setCasePendingInput(qint64 caseId, const QString &pendingInputJson)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE cases SET pending_input = ? WHERE id = ?"));
    st.bind(1, pendingInputJson.isNull() ? QStringLiteral("") : pendingInputJson).bind(2, caseId);
    return st.exec();
}

std::optional<qint64> TaskStore::recordTaskForCase(qint64 caseId, TaskRecord &task)
{
    Transaction tx(m_db);
    if (!tx.isActive())
        return std::nullopt;
    {
        Statement existing = m_db.prepare(QStringLiteral("SELECT task_id FROM cases WHERE id = ?"));
        existing.bind(1, caseId);
        if (existing.step() != Statement::StepResult::Row) {
            m_db.setError(QStringLiteral("No case %1 in the journal.").arg(caseId));
            return std::nullopt;
        }
        if (!existing.isNull(0)) {
            task.id = existing.int64(0);
            return task.id;
        }
    }
    const qint64 now = nowMs();
    task.firstSeenAtMs = task.firstSeenAtMs ? task.firstSeenAtMs : now;
    task.updatedAtMs = now;
    task.caseId = caseId;
    if (isTerminal(task.status) && !task.finishedAtMs)
        task.finishedAtMs = now;
    Statement ins = m_db.prepare(QStringLiteral(
        "INSERT INTO tasks(server_id, case_id, sweep_id, tool, arguments, server_task_id, status, "
        "status_message, created_at, last_updated_at, ttl_ms, poll_interval_ms, next_poll_at, "
        "traceparent, result, error, is_tool_error, cancel_requested, first_seen_at, updated_at, "
        "finished_at, pattern, stream_owner) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    ins.bind(1, task.serverId).bind(2, caseId).bind(3, task.sweepId).bind(4, task.tool)
        .bind(5, task.arguments + QString("")).bind(6, task.serverTaskId.isEmpty() ? QString() : task.serverTaskId)
        .bind(7, toText(task.status)).bind(8, task.statusMessage + QString(""))
        .bind(9, task.createdAt + QString("")).bind(10, task.lastUpdatedAt + QString(""))
        .bind(11, task.ttlMs).bind(12, task.pollIntervalMs).bind(13, task.nextPollAtMs)
        .bind(14, task.traceparent + QString("")).bind(15, task.result + QString(""))
        .bind(16, task.error + QString("")).bind(17, task.isToolError)
        .bind(18, task.cancelRequested).bind(19, task.firstSeenAtMs).bind(20, task.updatedAtMs)
        .bind(21, task.finishedAtMs).bind(22, patternName(task.pattern))
        .bind(23, task.streamOwner + QString(""));
    if (!ins.exec()) {
        m_db.setError(QStringLiteral("Cannot store the task handle: %1").arg(ins.errorString()));
        return std::nullopt;
    }
    task.id = m_db.lastInsertId();
    Statement ev = prepareTaskEvent(m_db, task, now);
    Statement upd = m_db.prepare(QStringLiteral(
        "UPDATE cases SET state = ?, task_id = ? WHERE id = ?"));
    upd.bind(1, toText(task.serverTaskId.isEmpty() ? CaseState::Completed : CaseState::Submitted))
        .bind(2, task.id).bind(3, caseId);
    // A sweep's session shows its tasks from the start.
    Statement sess = m_db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO session_tasks(session_id, task_id, attached_at) "
        "SELECT session_id, ?, ? FROM sweeps WHERE id = ? AND session_id IS NOT NULL"));
    sess.bind(1, task.id).bind(2, now).bind(3, task.sweepId.value_or(-1));
    if (!ev.exec() || !upd.exec() || !sess.exec() || !tx.commit()) {
        m_db.setError(QStringLiteral("Cannot store the task handle: %1").arg(m_db.lastError()));
        return std::nullopt;
    }
    return task.id;
}

bool TaskStore::markCaseRejected(qint64 caseId, const QString &errorJson)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE cases SET state = 'rejected', error = ? WHERE id = ?"));
    st.bind(1, errorJson + QString("")).bind(2, caseId);
    return st.exec();
}

QList<qint64> TaskStore::childTaskIds(qint64 caseId)
{
    QList<qint64> out;
    Statement st = m_db.prepare(QStringLiteral("SELECT task_id FROM cases WHERE parent_case_id = ? "
                                               "AND task_id IS NOT NULL ORDER BY id"));
    st.bind(1, caseId);
    while (st.step() == Statement::StepResult::Row)
        out << st.int64(0);
    return out;
}

std::optional<qint64> TaskStore::parentTaskId(const CaseRecord &c)
{
    if (!c.parentCaseId)
        return std::nullopt;
    const auto parent = caseRecord(*c.parentCaseId);
    return parent ? parent->taskId : std::nullopt;
}

} // namespace Eddy::Store
