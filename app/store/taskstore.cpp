#include "app/store/taskstore.h"
#include "app/store/log.h"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

namespace Eddy::Store {

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Each entry moves the schema from version i to i+1, inside one transaction.
const char *const s_migrations[] = {
    // 0 -> 1: the first schema.
    R"sql(
CREATE TABLE servers (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    token TEXT NOT NULL DEFAULT '',
    era TEXT NOT NULL DEFAULT '',
    discovery TEXT NOT NULL DEFAULT '',
    tools TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    server_id INTEGER NOT NULL REFERENCES servers(id),
    session_id INTEGER REFERENCES sessions(id),
    tool TEXT NOT NULL,
    spec TEXT NOT NULL,
    concurrency INTEGER NOT NULL DEFAULT 4,
    created_at INTEGER NOT NULL
);
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    server_id INTEGER NOT NULL REFERENCES servers(id),
    case_id INTEGER,
    sweep_id INTEGER REFERENCES sweeps(id),
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL DEFAULT '{}',
    server_task_id TEXT,
    status TEXT NOT NULL,
    status_message TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT '',
    last_updated_at TEXT NOT NULL DEFAULT '',
    ttl_ms INTEGER,
    poll_interval_ms INTEGER,
    next_poll_at INTEGER NOT NULL DEFAULT 0,
    traceparent TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    is_tool_error INTEGER NOT NULL DEFAULT 0,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    first_seen_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX tasks_status ON tasks(status);
CREATE INDEX tasks_sweep ON tasks(sweep_id);
CREATE TABLE cases (
    id INTEGER PRIMARY KEY,
    sweep_id INTEGER REFERENCES sweeps(id),
    server_id INTEGER NOT NULL REFERENCES servers(id),
    idx INTEGER NOT NULL DEFAULT 0,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    task_id INTEGER REFERENCES tasks(id),
    error TEXT NOT NULL DEFAULT '',
    traceparent TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    sent_at INTEGER
);
CREATE INDEX cases_sweep ON cases(sweep_id);
CREATE INDEX cases_state ON cases(state);
CREATE TABLE task_events (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    at INTEGER NOT NULL,
    status TEXT NOT NULL,
    status_message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX task_events_task ON task_events(task_id);
CREATE TABLE progress_samples (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    at INTEGER NOT NULL,
    series TEXT NOT NULL,
    x REAL NOT NULL,
    y REAL NOT NULL
);
CREATE INDEX progress_samples_task ON progress_samples(task_id);
CREATE TABLE input_requests (
    id INTEGER PRIMARY KEY,
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    key TEXT NOT NULL,
    request TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    answer TEXT NOT NULL DEFAULT '',
    first_seen_at INTEGER NOT NULL,
    answered_at INTEGER,
    UNIQUE(task_id, key)
);
CREATE TABLE session_tasks (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    task_id INTEGER NOT NULL REFERENCES tasks(id),
    attached_at INTEGER NOT NULL,
    PRIMARY KEY(session_id, task_id)
);
CREATE TABLE progress_templates (
    id INTEGER PRIMARY KEY,
    tool TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL,
    pattern TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
)sql",
    // 1 -> 2: lineage of relaunched cases, and agent conversations (a session of kind 'agent'
    // owns its stored messages; a compaction marks the older ones and adds one summary row).
    R"sql(
ALTER TABLE cases ADD COLUMN parent_case_id INTEGER REFERENCES cases(id);
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'workbench';
CREATE TABLE agent_messages (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    tool_calls TEXT NOT NULL DEFAULT '',
    tool_call_id TEXT NOT NULL DEFAULT '',
    compacted INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX agent_messages_session ON agent_messages(session_id, id);
)sql",
    // 2 -> 3: a multi round-trip question asked before any task exists (tools/call answered
    // input_required), journalled with its case so a crash during the round trip loses nothing:
    // {"requestState": ..., "inputRequests": {...}, "answers": {...}} or '' when none.
    R"sql(
ALTER TABLE cases ADD COLUMN pending_input TEXT NOT NULL DEFAULT '';
)sql",
    // 3 -> 4: who answered a question (answered_at now says when it was given).
    R"sql(
ALTER TABLE input_requests ADD COLUMN answered_by TEXT NOT NULL DEFAULT '';
)sql",
    // 4 -> 5: several processes on one database (app/store/sharing.h). Leases: which process
    // polls a task or sends an answer, until expires_at (epoch ms) unless renewed. The change
    // log: every row written to the tables a window shows, in commit order (AUTOINCREMENT: a
    // number is never reused), so another process reads exactly what changed; rows older than
    // ten minutes are pruned.
    R"sql(
CREATE TABLE leases (
    item TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    tbl TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);
CREATE TRIGGER log_tasks_insert AFTER INSERT ON tasks
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('tasks', NEW.id); END;
CREATE TRIGGER log_tasks_update AFTER UPDATE ON tasks
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('tasks', NEW.id); END;
CREATE TRIGGER log_cases_insert AFTER INSERT ON cases
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('cases', NEW.id); END;
CREATE TRIGGER log_cases_update AFTER UPDATE ON cases
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('cases', NEW.id); END;
CREATE TRIGGER log_sweeps_insert AFTER INSERT ON sweeps
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('sweeps', NEW.id); END;
CREATE TRIGGER log_sweeps_update AFTER UPDATE ON sweeps
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('sweeps', NEW.id); END;
CREATE TRIGGER log_sessions_insert AFTER INSERT ON sessions
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('sessions', NEW.id); END;
CREATE TRIGGER log_sessions_update AFTER UPDATE ON sessions
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('sessions', NEW.id); END;
CREATE TRIGGER log_session_tasks_insert AFTER INSERT ON session_tasks
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('sessions', NEW.session_id); END;
CREATE TRIGGER log_inputs_insert AFTER INSERT ON input_requests
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('input_requests', NEW.id); END;
CREATE TRIGGER log_inputs_update AFTER UPDATE ON input_requests
    BEGIN INSERT INTO change_log(tbl, row_id) VALUES('input_requests', NEW.id); END;
)sql",
};

constexpr int s_migrationCount = int(sizeof(s_migrations) / sizeof(s_migrations[0]));
static_assert(s_migrationCount == TaskStore::SchemaVersion);

const char *const s_taskColumns =
    "t.id, t.server_id, t.case_id, t.sweep_id, t.tool, t.arguments, t.server_task_id, t.status, "
    "t.status_message, t.created_at, t.last_updated_at, t.ttl_ms, t.poll_interval_ms, "
    "t.next_poll_at, t.traceparent, t.result, t.error, t.is_tool_error, t.cancel_requested, "
    "t.first_seen_at, t.updated_at, t.finished_at";

const char *const s_caseColumns =
    "id, sweep_id, server_id, idx, tool, arguments, idempotency_key, state, attempts, task_id, "
    "error, traceparent, created_at, parent_case_id, pending_input";

InputRequestRecord readInput(Statement &st)
{
    InputRequestRecord r;
    r.id = st.int64(0);
    r.taskId = st.int64(1);
    r.key = st.text(2);
    r.request = st.text(3);
    const QString state = st.text(4);
    r.state = state == QLatin1String("answered")    ? InputState::Answered
              : state == QLatin1String("answering") ? InputState::Answering
                                                    : InputState::Pending;
    r.answer = st.text(5);
    r.firstSeenAtMs = st.int64(6);
    r.answeredAtMs = st.optInt64(7);
    r.answeredBy = st.text(8);
    return r;
}

const char *const s_inputColumns =
    "id, task_id, key, request, state, answer, first_seen_at, answered_at, answered_by";

// Every row of a statement, each read by read(st).
template<typename Read>
auto readAll(Statement &st, Read read)
{
    QList<decltype(read(st))> out;
    while (st.step() == Statement::StepResult::Row)
        out << read(st);
    return out;
}

// The first row, when there is one.
template<typename Read>
auto readOne(Statement &st, Read read) -> std::optional<decltype(read(st))>
{
    if (st.step() == Statement::StepResult::Row)
        return read(st);
    return std::nullopt;
}

} // namespace

TaskStore::TaskStore() = default;
TaskStore::~TaskStore() = default;

QString TaskStore::defaultPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share/eddy");
    return dir + QStringLiteral("/eddy.sqlite");
}

bool TaskStore::open(const QString &path)
{
    if (!m_db.open(path))
        return false;
    if (!migrate()) {
        const QString err = m_db.lastError();
        m_db.close();
        m_db.setError(err);
        return false;
    }
    return true;
}

void TaskStore::close()
{
    m_db.close();
}

bool TaskStore::migrate()
{
    const int version = m_db.userVersion();
    if (version < 0) {
        m_db.setError(QStringLiteral("Cannot read the schema version of %1.").arg(m_db.path()));
        return false;
    }
    if (version > SchemaVersion) {
        m_db.setError(QStringLiteral("The database %1 was written by a newer Eddy (schema %2; this "
                                     "Eddy knows up to %3). Update Eddy, or use another file with --db.")
                          .arg(m_db.path())
                          .arg(version)
                          .arg(SchemaVersion));
        return false;
    }
    for (int v = version; v < SchemaVersion; ++v) {
        Transaction tx(m_db);
        if (!tx.isActive() || !m_db.exec(QString::fromUtf8(s_migrations[v]))
            || !m_db.setUserVersion(v + 1) || !tx.commit()) {
            m_db.setError(QStringLiteral("Cannot upgrade the database %1 to schema %2: %3")
                              .arg(m_db.path())
                              .arg(v + 1)
                              .arg(m_db.lastError()));
            return false;
        }
        qCInfo(lcStore, "database migrated to schema %d", v + 1);
    }
    return true;
}

// ---------------------------------------------------------------- servers

namespace {
ServerRecord readServer(Statement &st)
{
    ServerRecord s;
    s.id = st.int64(0);
    s.url = st.text(1);
    s.name = st.text(2);
    s.token = st.text(3);
    s.era = st.text(4);
    s.discovery = st.text(5);
    s.tools = st.text(6);
    s.createdAtMs = st.int64(7);
    return s;
}
const char *const s_serverColumns = "id, url, name, token, era, discovery, tools, created_at";
} // namespace

std::optional<qint64> TaskStore::addServer(const ServerRecord &server)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO servers(url, name, token, era, discovery, tools, created_at) "
        "VALUES(?,?,?,?,?,?,?)"));
    st.bind(1, server.url).bind(2, server.name.isNull() ? QString() + "" : server.name)
        .bind(3, server.token.isNull() ? QStringLiteral("") : server.token)
        .bind(4, server.era.isNull() ? QStringLiteral("") : server.era)
        .bind(5, server.discovery.isNull() ? QStringLiteral("") : server.discovery)
        .bind(6, server.tools.isNull() ? QStringLiteral("") : server.tools)
        .bind(7, server.createdAtMs ? server.createdAtMs : nowMs());
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot add the server %1: %2").arg(server.url, st.errorString()));
        return std::nullopt;
    }
    return m_db.lastInsertId();
}

bool TaskStore::updateServer(const ServerRecord &server)
{
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE servers SET url=?, name=?, token=?, era=?, discovery=?, tools=? WHERE id=?"));
    st.bind(1, server.url).bind(2, server.name + QString(""))
        .bind(3, server.token + QString("")).bind(4, server.era + QString(""))
        .bind(5, server.discovery + QString("")).bind(6, server.tools + QString(""))
        .bind(7, server.id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot update the server %1: %2").arg(server.url, st.errorString()));
        return false;
    }
    return m_db.changes() == 1;
}

bool TaskStore::removeServer(qint64 id)
{
    Statement live = m_db.prepare(QStringLiteral(
        "SELECT COUNT(*) FROM tasks WHERE server_id=? AND status IN ('working','input_required')"));
    live.bind(1, id);
    if (live.step() == Statement::StepResult::Row && live.int64(0) > 0) {
        m_db.setError(QStringLiteral("The server still has %1 running task(s); cancel them or wait "
                                     "until they finish before removing it.")
                          .arg(live.int64(0)));
        return false;
    }
    Statement used = m_db.prepare(QStringLiteral(
        "SELECT (SELECT COUNT(*) FROM tasks WHERE server_id=?1) + "
        "(SELECT COUNT(*) FROM sweeps WHERE server_id=?1) + (SELECT COUNT(*) FROM cases WHERE server_id=?1)"));
    used.bind(1, id);
    if (used.step() == Statement::StepResult::Row && used.int64(0) > 0) {
        m_db.setError(QStringLiteral("The server has stored tasks and results, which stay in the "
                                     "database; it cannot be removed, only renamed."));
        return false;
    }
    Statement st = m_db.prepare(QStringLiteral("DELETE FROM servers WHERE id=?"));
    st.bind(1, id);
    return st.exec() && m_db.changes() == 1;
}

QList<ServerRecord> TaskStore::servers()
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM servers ORDER BY id").arg(QLatin1String(s_serverColumns)));
    return readAll(st, readServer);
}

std::optional<ServerRecord> TaskStore::server(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM servers WHERE id=?").arg(QLatin1String(s_serverColumns)));
    st.bind(1, id);
    return readOne(st, readServer);
}

std::optional<ServerRecord> TaskStore::serverByUrl(const QString &url)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM servers WHERE url=?").arg(QLatin1String(s_serverColumns)));
    st.bind(1, url);
    return readOne(st, readServer);
}

bool TaskStore::setServerDiscovery(qint64 id, const QString &era, const QString &discovery)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE servers SET era=?, discovery=? WHERE id=?"));
    st.bind(1, era + QString("")).bind(2, discovery + QString("")).bind(3, id);
    return st.exec();
}

bool TaskStore::setServerTools(qint64 id, const QString &toolsJson)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE servers SET tools=? WHERE id=?"));
    st.bind(1, toolsJson + QString("")).bind(2, id);
    return st.exec();
}

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

namespace {
// Numbers bound as text would not compare equal to integer columns; bind them as numbers.
void bindMixed(Statement &st, int index, const QString &value)
{
    bool isInt = false;
    const qint64 i = value.toLongLong(&isInt);
    if (isInt) {
        st.bind(index, i);
        return;
    }
    bool isReal = false;
    const double d = value.toDouble(&isReal);
    if (isReal) {
        st.bind(index, d);
        return;
    }
    if (value == QLatin1String("true") || value == QLatin1String("false")) {
        st.bind(index, qint64(value == QLatin1String("true")));
        return;
    }
    st.bind(index, value);
}
} // namespace

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

// ---------------------------------------------------------------- journal

namespace {
// A case enters the journal Pending; the same statement for a sweep's cases and a single call.
const char *const s_insertCase =
    "INSERT INTO cases(sweep_id, server_id, idx, tool, arguments, idempotency_key, state, "
    "traceparent, created_at, parent_case_id) VALUES(?,?,?,?,?,?,'pending',?,?,?)";

void bindCase(Statement &st, const CaseRecord &c)
{
    st.bind(1, c.sweepId).bind(2, c.serverId).bind(3, c.index).bind(4, c.tool)
        .bind(5, c.arguments).bind(6, c.idempotencyKey).bind(7, c.traceparent + QString(""))
        .bind(8, c.createdAtMs).bind(9, c.parentCaseId);
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
    "(SELECT COUNT(DISTINCT c.idx) FROM cases c WHERE c.sweep_id = s.id) FROM sweeps s";

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

namespace {
// The row of task_events for the task's current status and message, ready to exec().
Statement prepareTaskEvent(Database &db, const TaskRecord &task, qint64 atMs)
{
    Statement ev = db.prepare(QStringLiteral(
        "INSERT INTO task_events(task_id, at, status, status_message) VALUES(?,?,?,?)"));
    ev.bind(1, task.id).bind(2, atMs).bind(3, toText(task.status)).bind(4, task.statusMessage + QString(""));
    return ev;
}
} // namespace

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
        "finished_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    ins.bind(1, task.serverId).bind(2, caseId).bind(3, task.sweepId).bind(4, task.tool)
        .bind(5, task.arguments + QString("")).bind(6, task.serverTaskId.isEmpty() ? QString() : task.serverTaskId)
        .bind(7, toText(task.status)).bind(8, task.statusMessage + QString(""))
        .bind(9, task.createdAt + QString("")).bind(10, task.lastUpdatedAt + QString(""))
        .bind(11, task.ttlMs).bind(12, task.pollIntervalMs).bind(13, task.nextPollAtMs)
        .bind(14, task.traceparent + QString("")).bind(15, task.result + QString(""))
        .bind(16, task.error + QString("")).bind(17, task.isToolError)
        .bind(18, task.cancelRequested).bind(19, task.firstSeenAtMs).bind(20, task.updatedAtMs)
        .bind(21, task.finishedAtMs);
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

// ---------------------------------------------------------------- tasks

namespace {
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
    return readAll(st, readTask);
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
        "updated_at=?, finished_at=? WHERE id=?"));
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
    while (st.step() == Statement::StepResult::Row) {
        ProgressSample s;
        s.taskId = st.int64(0);
        s.atMs = st.int64(1);
        s.series = st.text(2);
        s.x = st.real(3);
        s.y = st.real(4);
        out << s;
    }
    return out;
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
        "SELECT * FROM (SELECT %1 FROM input_requests WHERE state IN ('answering','answered') "
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
