#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

namespace Eddy::Store {

// ---------------------------------------------------------------- sessions

std::optional<qint64> TaskStore::createSession(const QString &name, const QString &kind)
{
    if (name.trimmed().isEmpty()) {
        m_db.setError(QStringLiteral("A session needs a name."));
        return std::nullopt;
    }
    Statement st = m_db.prepare(QStringLiteral("INSERT INTO sessions(name, created_at, kind) VALUES(?,?,?)"));
    st.bind(1, name.trimmed()).bind(2, nowMs()).bind(3, kind);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot create the session \"%1\": a session with that name "
                                     "may already exist (%2).").arg(name, st.errorString()));
        return std::nullopt;
    }
    return m_db.lastInsertId();
}

bool TaskStore::renameSession(qint64 id, const QString &name)
{
    if (name.trimmed().isEmpty()) {
        m_db.setError(QStringLiteral("A session needs a name."));
        return false;
    }
    Statement st = m_db.prepare(QStringLiteral("UPDATE sessions SET name=? WHERE id=?"));
    st.bind(1, name.trimmed()).bind(2, id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot rename the session to \"%1\": the name may be taken (%2).")
                          .arg(name, st.errorString()));
        return false;
    }
    return m_db.changes() == 1;
}

namespace {
const char *const s_sessionSelect =
    "SELECT s.id, s.name, s.created_at, (SELECT COUNT(*) FROM session_tasks st WHERE "
    "st.session_id=s.id), s.kind FROM sessions s";

SessionRecord readSession(Statement &st)
{
    SessionRecord s;
    s.id = st.int64(0);
    s.name = st.text(1);
    s.createdAtMs = st.int64(2);
    s.taskCount = st.integer(3);
    s.kind = st.text(4);
    return s;
}
} // namespace

QList<SessionRecord> TaskStore::sessions()
{
    Statement st = m_db.prepare(QStringLiteral("%1 ORDER BY s.id").arg(QLatin1String(s_sessionSelect)));
    return readAll(st, readSession);
}

std::optional<SessionRecord> TaskStore::sessionByName(const QString &name)
{
    Statement st = m_db.prepare(QStringLiteral("%1 WHERE s.name = ?").arg(QLatin1String(s_sessionSelect)));
    st.bind(1, name.trimmed());
    return readOne(st, readSession);
}

QString TaskStore::whereClause(const TaskQuery &q, QList<QString> &binds) const
{
    QStringList conds;
    if (q.serverId) {
        conds << QStringLiteral("t.server_id = ?");
        binds << QString::number(*q.serverId);
    }
    if (!q.serverUrl.isEmpty()) {
        conds << QStringLiteral("t.server_id IN (SELECT id FROM servers WHERE url = ?)");
        binds << q.serverUrl;
    }
    if (!q.tool.isEmpty()) {
        conds << QStringLiteral("t.tool = ?");
        binds << q.tool;
    }
    for (const auto &[name, value] : q.arguments) {
        // Compare as JSON when the value parses (400 == 400.0 is not wanted; text compare of the
        // canonical dump is), else as a string argument.
        conds << QStringLiteral("(json_extract(t.arguments, ?) = ? OR CAST(json_extract(t.arguments, ?) AS TEXT) = ?)");
        const QString path = QStringLiteral("$.\"%1\"").arg(QString(name).replace(QLatin1Char('"'), QString()));
        binds << path << value << path << value;
    }
    if (q.status) {
        conds << QStringLiteral("t.status = ?");
        binds << toText(*q.status);
    }
    if (q.sweepId) {
        conds << QStringLiteral("t.sweep_id = ?");
        binds << QString::number(*q.sweepId);
    }
    if (q.sessionId) {
        conds << QStringLiteral("t.id IN (SELECT task_id FROM session_tasks WHERE session_id = ?)");
        binds << QString::number(*q.sessionId);
    }
    if (q.fromMs) {
        conds << QStringLiteral("t.first_seen_at >= ?");
        binds << QString::number(*q.fromMs);
    }
    if (q.toMs) {
        conds << QStringLiteral("t.first_seen_at < ?");
        binds << QString::number(*q.toMs);
    }
    return conds.isEmpty() ? QString() : QStringLiteral(" WHERE ") + conds.join(QStringLiteral(" AND "));
}

int TaskStore::attachTasks(qint64 sessionId, const TaskQuery &query)
{
    QList<QString> binds;
    const QString where = whereClause(query, binds);
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO session_tasks(session_id, task_id, attached_at) "
        "SELECT ?, t.id, ? FROM tasks t%1").arg(where));
    st.bind(1, sessionId).bind(2, nowMs());
    for (int i = 0; i < binds.size(); ++i)
        bindMixed(st, i + 3, binds[i]);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot attach tasks: %1").arg(st.errorString()));
        return -1;
    }
    return m_db.changes();
}

bool TaskStore::attachTask(qint64 sessionId, qint64 taskId)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO session_tasks(session_id, task_id, attached_at) VALUES(?,?,?)"));
    st.bind(1, sessionId).bind(2, taskId).bind(3, nowMs());
    return st.exec();
}

QList<QString> TaskStore::sessionNamesOfTask(qint64 taskId)
{
    QList<QString> out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT s.name FROM sessions s JOIN session_tasks st ON st.session_id = s.id "
        "WHERE st.task_id = ? ORDER BY s.id"));
    st.bind(1, taskId);
    while (st.step() == Statement::StepResult::Row)
        out << st.text(0);
    return out;
}

std::optional<SessionRecord> TaskStore::session(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("%1 WHERE s.id = ?").arg(QLatin1String(s_sessionSelect)));
    st.bind(1, id);
    return readOne(st, readSession);
}

// ---------------------------------------------------------------- agent conversations

bool TaskStore::addAgentMessage(AgentMessageRecord &m)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO agent_messages(session_id, role, content, tool_calls, tool_call_id, compacted, "
        "created_at) VALUES(?,?,?,?,?,?,?)"));
    m.createdAtMs = m.createdAtMs ? m.createdAtMs : nowMs();
    // Empty QStrings may be null; the columns are NOT NULL, so bind "" explicitly.
    st.bind(1, m.sessionId)
        .bind(2, m.role + QString(""))
        .bind(3, m.content + QString(""))
        .bind(4, m.toolCalls + QString(""))
        .bind(5, m.toolCallId + QString(""))
        .bind(6, m.compacted)
        .bind(7, m.createdAtMs);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the agent message: %1").arg(st.errorString()));
        return false;
    }
    m.id = m_db.lastInsertId();
    return true;
}

QList<AgentMessageRecord> TaskStore::agentMessages(qint64 sessionId, bool withCompacted)
{
    QList<AgentMessageRecord> out;
    Statement st = m_db.prepare(
        QStringLiteral("SELECT id, session_id, role, content, tool_calls, tool_call_id, compacted, "
                       "created_at FROM agent_messages WHERE session_id=?%1 ORDER BY id")
            .arg(withCompacted ? QString() : QStringLiteral(" AND compacted=0")));
    st.bind(1, sessionId);
    while (st.step() == Statement::StepResult::Row) {
        AgentMessageRecord m;
        m.id = st.int64(0);
        m.sessionId = st.int64(1);
        m.role = st.text(2);
        m.content = st.text(3);
        m.toolCalls = st.text(4);
        m.toolCallId = st.text(5);
        m.compacted = st.int64(6) != 0;
        m.createdAtMs = st.int64(7);
        out << m;
    }
    return out;
}

bool TaskStore::compactAgentMessages(qint64 sessionId, AgentMessageRecord &summary,
                                     QList<AgentMessageRecord> &keep)
{
    Transaction tx(m_db);
    if (!tx.isActive())
        return false;
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE agent_messages SET compacted=1 WHERE session_id=? AND compacted=0"));
    st.bind(1, sessionId);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot compact the conversation: %1").arg(st.errorString()));
        return false;
    }
    summary.sessionId = sessionId;
    summary.compacted = false;
    summary.createdAtMs = 0;
    if (!addAgentMessage(summary))
        return false;
    for (AgentMessageRecord &m : keep) {
        m.sessionId = sessionId;
        m.compacted = false;
        m.createdAtMs = 0;
        if (!addAgentMessage(m))
            return false;
    }
    return tx.commit();
}

QStringList TaskStore::serverTaskIds()
{
    QStringList out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT server_task_id FROM tasks WHERE server_task_id IS NOT NULL AND server_task_id != ''"));
    while (st.step() == Statement::StepResult::Row)
        out << st.text(0);
    return out;
}

} // namespace Eddy::Store
