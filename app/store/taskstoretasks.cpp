#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

namespace Eddy::Store {

// ---------------------------------------------------------------- tasks

namespace {
// The column's pattern; a word no Eddy writes (a hand edit) reads as nullopt.
std::optional<Pattern> patternAt(const Statement &st, int column)
{
    const std::string p = st.utf8(column); // short: no allocation
    return patternFromName(QString::fromLatin1(p.data(), qsizetype(p.size())));
}

// A progress_samples row selected as task_id, at, series, x, y.
ProgressSample sampleAt(Statement &st)
{
    ProgressSample s;
    s.taskId = st.int64(0);
    s.atMs = st.int64(1);
    s.series = st.text(2);
    s.x = st.real(3);
    s.y = st.real(4);
    return s;
}

TaskRecord readTask(Statement &st)
{
    TaskRecord t;
    t.id = st.int64(0);
    t.serverId = st.int64(1);
    t.caseId = st.optInt64(2);
    t.sweepId = st.optInt64(3);
    t.tool = st.text(4);
    t.arguments = st.text(5);
    t.serverTaskId = st.text(6);
    t.status = taskStatusFromString(st.text(7)).value_or(TaskStatus::Lost);
    t.statusMessage = st.text(8);
    t.createdAt = st.text(9);
    t.lastUpdatedAt = st.text(10);
    t.ttlMs = st.optInt64(11);
    t.pollIntervalMs = st.optInt64(12);
    t.nextPollAtMs = st.int64(13);
    t.traceparent = st.text(14);
    t.result = st.text(15);
    t.error = st.text(16);
    t.isToolError = st.int64(17) != 0;
    t.cancelRequested = st.int64(18) != 0;
    t.firstSeenAtMs = st.int64(19);
    t.updatedAtMs = st.int64(20);
    t.finishedAtMs = st.optInt64(21);
    if (const std::optional<Pattern> p = patternAt(st, 22)) {
        t.pattern = *p;
    } else {
        // Not a way Eddy knows to follow a call: never polled as a task (as an unknown status).
        t.status = TaskStatus::Lost;
    }
    t.streamOwner = st.text(23);
    return t;
}
} // namespace

std::optional<TaskRecord> TaskStore::task(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM tasks t WHERE t.id = ?").arg(QLatin1String(s_taskColumns)));
    st.bind(1, id);
    return readOne(st, readTask);
}

QList<TaskRecord> TaskStore::tasks(const TaskQuery &query)
{
    QList<QString> binds;
    const QString where = whereClause(query, binds);
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM tasks t%2 ORDER BY t.id LIMIT ?")
                                    .arg(QLatin1String(s_taskColumns), where));
    int i = 0;
    for (; i < binds.size(); ++i)
        bindMixed(st, i + 1, binds[i]);
    st.bind(i + 1, qint64(query.limit));
    return readAll(st, readTask);
}

QList<TaskRecord> TaskStore::liveTasks()
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT %1 FROM tasks t WHERE t.status IN ('working','input_required') "
        // completed without its result (a kill before it was fetched): still to be fetched
        "OR (t.status = 'completed' AND t.result = '' AND t.error = '' "
        "AND COALESCE(t.server_task_id, '') <> '') ORDER BY t.id")
                                    .arg(QLatin1String(s_taskColumns)));
    QList<TaskRecord> live = readAll(st, readTask);
    // A row of a pattern no Eddy writes reads as lost (readTask): it is not followed.
    live.removeIf([](const TaskRecord &t) { return t.status == TaskStatus::Lost; });
    return live;
}

qint64 TaskStore::taskCount()
{
    Statement st = m_db.prepare(QStringLiteral("SELECT COUNT(*) FROM tasks"));
    return st.step() == Statement::StepResult::Row ? st.int64(0) : 0;
}

bool TaskStore::storeTaskUpdate(const TaskRecord &t, bool addEvent, const QList<ProgressSample> &samples)
{
    Transaction tx(m_db);
    if (!tx.isActive())
        return false;
    const qint64 now = nowMs();
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE tasks SET status=?, status_message=?, created_at=?, last_updated_at=?, ttl_ms=?, "
        "poll_interval_ms=?, next_poll_at=?, result=?, error=?, is_tool_error=?, cancel_requested=?, "
        "updated_at=?, finished_at=? WHERE id=? "
        // Its server removed by another process since it was polled: the stored end (lost, or
        // no row at all) stands; what the poll brought is dropped.
        "AND server_id NOT IN (SELECT id FROM servers WHERE retired=1)"));
    std::optional<qint64> finished = t.finishedAtMs;
    if (isTerminal(t.status) && !finished)
        finished = now;
    st.bind(1, toText(t.status)).bind(2, t.statusMessage + QString(""))
        .bind(3, t.createdAt + QString("")).bind(4, t.lastUpdatedAt + QString(""))
        .bind(5, t.ttlMs).bind(6, t.pollIntervalMs).bind(7, t.nextPollAtMs)
        .bind(8, t.result + QString("")).bind(9, t.error + QString("")).bind(10, t.isToolError)
        .bind(11, t.cancelRequested).bind(12, now).bind(13, finished).bind(14, t.id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store task %1: %2").arg(t.id).arg(st.errorString()));
        return false;
    }
    if (m_db.changes() == 0)
        return tx.commit(); // nothing to add events or samples to
    if (isTerminal(t.status)) {
        // Nobody can answer its open questions any more: closed, for every process and the next
        // start; why is the status the task ended in. An answer already given or being sent
        // stays on record.
        Statement close = m_db.prepare(QStringLiteral(
            "UPDATE input_requests SET state='closed', answered_at=? WHERE task_id=? AND state='pending'"));
        close.bind(1, now).bind(2, t.id);
        if (!close.exec()) {
            m_db.setError(QStringLiteral("Cannot close the questions of task %1: %2")
                              .arg(t.id).arg(close.errorString()));
            return false;
        }
    }
    if (addEvent) {
        Statement ev = prepareTaskEvent(m_db, t, now);
        if (!ev.exec())
            return false;
    }
    if (!samples.isEmpty()) {
        Statement ps = m_db.prepare(QStringLiteral(
            "INSERT INTO progress_samples(task_id, at, series, x, y) VALUES(?,?,?,?,?)"));
        for (const ProgressSample &s : samples) {
            ps.reset();
            ps.bind(1, t.id).bind(2, s.atMs ? s.atMs : now).bind(3, s.series).bind(4, s.x).bind(5, s.y);
            if (!ps.exec())
                return false;
        }
    }
    return tx.commit();
}

bool TaskStore::setNextPoll(qint64 taskId, qint64 nextPollAtMs)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE tasks SET next_poll_at=? WHERE id=?"));
    st.bind(1, nextPollAtMs).bind(2, taskId);
    return st.exec();
}

bool TaskStore::deleteSamples(qint64 taskId, const QString &series)
{
    Statement st = m_db.prepare(QStringLiteral(
        "DELETE FROM progress_samples WHERE task_id=? AND (series=? OR substr(series, 1, ?)=?)"));
    const QString prefix = series + QLatin1Char('.');
    st.bind(1, taskId).bind(2, series).bind(3, qint64(prefix.size())).bind(4, prefix);
    return st.exec();
}

bool TaskStore::setCancelRequested(qint64 taskId)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE tasks SET cancel_requested=1, updated_at=? WHERE id=?"));
    st.bind(1, nowMs()).bind(2, taskId);
    return st.exec() && m_db.changes() == 1;
}

QList<TaskEventRecord> TaskStore::taskEvents(qint64 taskId)
{
    QList<TaskEventRecord> out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT id, task_id, at, status, status_message FROM task_events WHERE task_id=? ORDER BY id"));
    st.bind(1, taskId);
    while (st.step() == Statement::StepResult::Row) {
        TaskEventRecord e;
        e.id = st.int64(0);
        e.taskId = st.int64(1);
        e.atMs = st.int64(2);
        e.status = taskStatusFromString(st.text(3)).value_or(TaskStatus::Lost);
        e.statusMessage = st.text(4);
        out << e;
    }
    return out;
}

QList<ProgressSample> TaskStore::progressSamples(qint64 taskId)
{
    QList<ProgressSample> out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT task_id, at, series, x, y FROM progress_samples WHERE task_id=? ORDER BY id"));
    st.bind(1, taskId);
    while (st.step() == Statement::StepResult::Row)
        out << sampleAt(st);
    return out;
}

std::optional<ProgressSample> TaskStore::latestSample(qint64 taskId, const QString &series)
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT task_id, at, series, x, y FROM progress_samples WHERE task_id=? AND series=? "
        "ORDER BY id DESC LIMIT 1"));
    st.bind(1, taskId).bind(2, series);
    if (st.step() != Statement::StepResult::Row)
        return std::nullopt;
    return sampleAt(st);
}

// ---------------------------------------------------------------- input requests

std::optional<InputRequestRecord> TaskStore::recordInputRequest(qint64 taskId, const QString &key,
                                                                const QString &requestJson, bool *isNew)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO input_requests(task_id, key, request, first_seen_at) VALUES(?,?,?,?)"));
    st.bind(1, taskId).bind(2, key).bind(3, requestJson + QString("")).bind(4, nowMs());
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the input request: %1").arg(st.errorString()));
        return std::nullopt;
    }
    if (isNew)
        *isNew = m_db.changes() == 1;
    return inputRequest(taskId, key);
}

std::optional<InputRequestRecord> TaskStore::inputRequest(qint64 taskId, const QString &key)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM input_requests WHERE task_id=? AND key=?")
                                    .arg(QLatin1String(s_inputColumns)));
    st.bind(1, taskId).bind(2, key);
    return readOne(st, readInput);
}

QList<InputRequestRecord> TaskStore::inputRequests(qint64 taskId)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM input_requests WHERE task_id=? ORDER BY id")
                                    .arg(QLatin1String(s_inputColumns)));
    st.bind(1, taskId);
    return readAll(st, readInput);
}

QList<InputRequestRecord> TaskStore::pendingInputRequests()
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT %1 FROM input_requests WHERE state='pending' AND task_id IN "
        "(SELECT id FROM tasks WHERE status IN ('working','input_required')) ORDER BY id")
                                    .arg(QLatin1String(s_inputColumns)));
    return readAll(st, readInput);
}

bool TaskStore::beginAnswer(qint64 taskId, const QString &key, const QString &answerJson,
                            const QString &answeredBy)
{
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE input_requests SET state='answering', answer=?, answered_by=?, answered_at=? "
        "WHERE task_id=? AND key=? AND state='pending'"));
    st.bind(1, answerJson).bind(2, answeredBy + QString("")).bind(3, nowMs()).bind(4, taskId).bind(5, key);
    if (!st.exec())
        return false;
    if (m_db.changes() != 1) {
        m_db.setError(QStringLiteral("The question \"%1\" was already answered (or is unknown); "
                                     "each question is answered once.").arg(key));
        return false;
    }
    return true;
}

bool TaskStore::finishAnswer(qint64 taskId, const QString &key, bool accepted)
{
    if (!accepted) {
        // Open again: nobody's answer is on record.
        Statement st = m_db.prepare(QStringLiteral(
            "UPDATE input_requests SET state='pending', answer='', answered_by='', answered_at=NULL "
            "WHERE task_id=? AND key=? AND state='answering'"));
        st.bind(1, taskId).bind(2, key);
        return st.exec();
    }
    // answered_at keeps when the answer was given (set by beginAnswer).
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE input_requests SET state='answered', answered_at=COALESCE(answered_at, ?) WHERE task_id=? AND key=?"));
    st.bind(1, nowMs()).bind(2, taskId).bind(3, key);
    return st.exec();
}

QList<InputRequestRecord> TaskStore::answeredInputRequests(int limit)
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT * FROM (SELECT %1 FROM input_requests WHERE state IN ('answering','answered','closed') "
        "ORDER BY id DESC LIMIT ?) ORDER BY id").arg(QLatin1String(s_inputColumns)));
    st.bind(1, limit);
    return readAll(st, readInput);
}

QList<InputRequestRecord> TaskStore::answeringInputRequests()
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT %1 FROM input_requests WHERE state='answering' ORDER BY id").arg(QLatin1String(s_inputColumns)));
    return readAll(st, readInput);
}

// ---------------------------------------------------------------- templates

std::optional<qint64> TaskStore::addProgressTemplate(const ProgressTemplate &t)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO progress_templates(tool, name, pattern, created_at) VALUES(?,?,?,?)"));
    st.bind(1, t.tool + QString("")).bind(2, t.name).bind(3, t.pattern).bind(4, nowMs());
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the template: %1").arg(st.errorString()));
        return std::nullopt;
    }
    return m_db.lastInsertId();
}

QList<ProgressTemplate> TaskStore::progressTemplates(const QString &tool)
{
    QList<ProgressTemplate> out;
    Statement st = m_db.prepare(tool.isEmpty()
        ? QStringLiteral("SELECT id, tool, name, pattern FROM progress_templates ORDER BY id")
        : QStringLiteral("SELECT id, tool, name, pattern FROM progress_templates WHERE tool = '' OR tool = ? ORDER BY id"));
    if (!tool.isEmpty())
        st.bind(1, tool);
    while (st.step() == Statement::StepResult::Row)
        out << ProgressTemplate{st.int64(0), st.text(1), st.text(2), st.text(3)};
    return out;
}

bool TaskStore::removeProgressTemplate(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("DELETE FROM progress_templates WHERE id=?"));
    st.bind(1, id);
    return st.exec() && m_db.changes() == 1;
}

} // namespace Eddy::Store
