#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

#include "app/secret.h"
#include "app/store/log.h"
#include "app/store/statement.h"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>
#include <QUuid>

#include <nlohmann/json.hpp>

namespace Eddy::Store {

namespace {

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
    // 4 -> 5: streamed calls (a tools/call answered as an SSE stream) are rows too: pattern
    // 'task' or 'streamed', and for a streamed row the process holding its stream
    // ("host/pid/start"), so a later run can tell a stream that is gone from one still open.
    R"sql(
ALTER TABLE tasks ADD COLUMN pattern TEXT NOT NULL DEFAULT 'task';
ALTER TABLE tasks ADD COLUMN stream_owner TEXT NOT NULL DEFAULT '';
)sql",
    // 5 -> 6: several processes on one database (app/store/sharing.h). Leases: which process
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
    // 6 -> 7: a job adapter per server (its classic job-id tools mapped onto tasks; JSON as in
    // docs/eddyctl.md). A job followed through it is a task row of pattern 'job' whose
    // server_task_id is the job id.
    R"sql(
CREATE TABLE job_adapters (
    server_id INTEGER PRIMARY KEY REFERENCES servers(id),
    adapter TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
)sql",
    // 7 -> 8: a server removed with its tasks kept as history is retired, not deleted: left out
    // of servers(), never contacted again, still naming its tasks (taskstoreservers.cpp).
    R"sql(
ALTER TABLE servers ADD COLUMN retired INTEGER NOT NULL DEFAULT 0;
)sql",
    // 8 -> 9: review of past sweeps (taskstorereview.cpp). A note and tags (a JSON array of
    // strings, '' = none) on every case and sweep; a sweep's baseline case (NULL = its first
    // case) and when its submission was paused (NULL = not paused: unsent cases are sent).
    R"sql(
ALTER TABLE cases ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE cases ADD COLUMN tags TEXT NOT NULL DEFAULT '';
ALTER TABLE sweeps ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE sweeps ADD COLUMN tags TEXT NOT NULL DEFAULT '';
ALTER TABLE sweeps ADD COLUMN baseline_case_id INTEGER;
ALTER TABLE sweeps ADD COLUMN paused_at INTEGER;
)sql",
    // 9 -> 10: a server's bearer token lives in the secret vault (the Secret Service, else the
    // owner-only token file; app/secret.h); the row keeps only its reference ("keychain:KEY" or
    // "file:KEY"). servers.token holds a token only while no vault could take it:
    // TaskStore::moveTokensOut moves it after every open.
    R"sql(
ALTER TABLE servers ADD COLUMN token_ref TEXT NOT NULL DEFAULT '';
)sql",
};

constexpr int s_migrationCount = int(sizeof(s_migrations) / sizeof(s_migrations[0]));
static_assert(s_migrationCount == TaskStore::SchemaVersion);

} // namespace

namespace {
QString newerSchemaMessage(const QString &path, int version)
{
    return QStringLiteral("The database %1 was written by a newer Eddy (schema %2; this Eddy knows "
                          "up to %3). Update Eddy, or use another file with --db.")
        .arg(path)
        .arg(version)
        .arg(TaskStore::SchemaVersion);
}
} // namespace

TaskStore::TaskStore() = default;
TaskStore::~TaskStore() = default;

bool TaskStore::open(const QString &path)
{
    if (!m_db.open(path))
        return false;
    if (m_db.isReadOnly()) {
        // Read for review as it is: nothing to migrate, nothing written.
        const int version = m_db.userVersion();
        if (version != SchemaVersion) {
            const QString err = version < SchemaVersion
                ? QStringLiteral("The database %1 is read-only and was written by an older Eddy "
                                 "(schema %2; this Eddy needs %3). Copy it to a writable folder "
                                 "and open the copy: it is upgraded there.")
                      .arg(path).arg(version).arg(SchemaVersion)
                : newerSchemaMessage(path, version);
            m_db.close();
            m_db.setError(err);
            return false;
        }
        return true;
    }
    if (!migrate()) {
        const QString err = m_db.lastError();
        m_db.close();
        m_db.setError(err);
        return false;
    }
    moveTokensOut();
    return true;
}

std::pair<QString, QString> TaskStore::keepToken(const QString &url, const QString &token)
{
    SecretVault *vault = secretVault();
    if (token.isEmpty() || !vault)
        return {token, QString()};
    // A key per row and token, so that two databases naming the same server keep theirs apart.
    const QString key = QStringLiteral("bearer %1 %2")
                            .arg(url, QUuid::createUuid().toString(QUuid::Id128).left(12));
    QString error;
    const QString ref = vault->put(key, token, &error);
    if (ref.isEmpty()) {
        vault->tell(QStringLiteral(
                        "The bearer token of %1 could not be put into the keychain or the token "
                        "file (%2), so it stays in the database %3. Make the token file writable "
                        "(or start the Secret Service) and open the database again to move it.")
                        .arg(url, error, m_db.path()));
        return {token, QString()};
    }
    return {QString(), ref};
}

void TaskStore::moveTokensOut()
{
    if (!secretVault())
        return;
    struct Plain { qint64 id; QString url; QString token; QString oldRef; };
    QList<Plain> plain;
    {
        Statement st = m_db.prepare(
            QStringLiteral("SELECT id, url, token, token_ref FROM servers WHERE token<>''"));
        while (st.step() == Statement::StepResult::Row)
            plain.append({st.int64(0), st.text(1), st.text(2), st.text(3)});
    }
    if (plain.isEmpty())
        return;
    // The old bytes are overwritten, not only unlinked, and the WAL is emptied afterwards: the
    // file keeps no copy of a moved token.
    m_db.exec(QStringLiteral("PRAGMA secure_delete = ON"));
    int moved = 0;
    for (const Plain &p : std::as_const(plain)) {
        const auto [token, ref] = keepToken(p.url, p.token);
        if (ref.isEmpty())
            continue;
        Statement st = m_db.prepare(
            QStringLiteral("UPDATE servers SET token='', token_ref=? WHERE id=? AND token=?"));
        st.bind(1, ref).bind(2, p.id).bind(3, p.token);
        if (!st.exec() || m_db.changes() != 1) {
            secretVault()->remove(ref);
            continue;
        }
        if (!p.oldRef.isEmpty())
            secretVault()->remove(p.oldRef);
        ++moved;
    }
    if (moved > 0) {
        m_db.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
        qCInfo(lcStore, "moved %d bearer token(s) out of the database into the secret store", moved);
    }
    m_db.exec(QStringLiteral("PRAGMA secure_delete = OFF"));
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
        m_db.setError(newerSchemaMessage(m_db.path(), version));
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
    s.retired = st.int64(8) != 0;
    const QString ref = st.text(9);
    if (!ref.isEmpty()) {
        // Never both: a row with a reference has no token in the database.
        s.token.clear();
        if (SecretVault *vault = secretVault()) {
            QString error;
            if (const auto token = vault->get(ref, &error))
                s.token = *token;
            else
                vault->tell(error);
        }
    }
    return s;
}
const char *const s_serverColumns
    = "id, url, name, token, era, discovery, tools, created_at, retired, token_ref";
} // namespace

std::optional<qint64> TaskStore::addServer(const ServerRecord &server)
{
    const auto [token, ref] = keepToken(server.url, server.token);
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO servers(url, name, token, era, discovery, tools, created_at, token_ref) "
        "VALUES(?,?,?,?,?,?,?,?)"));
    st.bind(1, server.url).bind(2, server.name.isNull() ? QString() + "" : server.name)
        .bind(3, token + QString("")).bind(8, ref + QString(""))
        .bind(4, server.era.isNull() ? QStringLiteral("") : server.era)
        .bind(5, server.discovery.isNull() ? QStringLiteral("") : server.discovery)
        .bind(6, server.tools.isNull() ? QStringLiteral("") : server.tools)
        .bind(7, server.createdAtMs ? server.createdAtMs : nowMs());
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot add the server %1: %2").arg(server.url, st.errorString()));
        if (!ref.isEmpty())
            secretVault()->remove(ref);
        return std::nullopt;
    }
    const qint64 id = m_db.lastInsertId();
    logServerChange(m_db, id); // added even when other processes cannot be told
    return id;
}

bool TaskStore::updateServer(const ServerRecord &server)
{
    // The token is put into the vault again only when it changed; the old secret goes after.
    QString oldToken, oldRef;
    {
        Statement old = m_db.prepare(QStringLiteral("SELECT token, token_ref FROM servers WHERE id=?"));
        old.bind(1, server.id);
        if (old.step() != Statement::StepResult::Row)
            return false;
        oldToken = old.text(0);
        oldRef = old.text(1);
    }
    QString token = oldToken, ref = oldRef;
    bool changedToken = true;
    if (!oldRef.isEmpty() && secretVault()) {
        const auto current = secretVault()->get(oldRef, nullptr);
        changedToken = !current || *current != server.token;
    } else if (oldRef.isEmpty()) {
        changedToken = oldToken != server.token || (!server.token.isEmpty() && secretVault());
    }
    if (changedToken)
        std::tie(token, ref) = keepToken(server.url, server.token);
    Statement st = m_db.prepare(QStringLiteral(
        "UPDATE servers SET url=?, name=?, token=?, era=?, discovery=?, tools=?, token_ref=? "
        "WHERE id=?"));
    st.bind(1, server.url).bind(2, server.name + QString(""))
        .bind(3, token + QString("")).bind(4, server.era + QString(""))
        .bind(5, server.discovery + QString("")).bind(6, server.tools + QString(""))
        .bind(7, ref + QString("")).bind(8, server.id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot update the server %1: %2").arg(server.url, st.errorString()));
        if (changedToken && !ref.isEmpty())
            secretVault()->remove(ref);
        return false;
    }
    if (m_db.changes() != 1)
        return false;
    if (changedToken && !oldRef.isEmpty() && oldRef != ref && secretVault())
        secretVault()->remove(oldRef);
    logServerChange(m_db, server.id);
    return true;
}

QList<ServerRecord> TaskStore::servers(bool withRetired)
{
    Statement st = m_db.prepare(
        QStringLiteral("SELECT %1 FROM servers %2ORDER BY id")
            .arg(QLatin1String(s_serverColumns),
                 withRetired ? QString() : QStringLiteral("WHERE retired=0 ")));
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

bool TaskStore::setJobAdapter(qint64 serverId, const QString &adapterJson)
{
    // With a change log row in the same transaction: a running Eddy or eddyctl watch on this file
    // reads it (ChangeFeed) and retunes the jobs it follows at once.
    Transaction tx(m_db);
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO job_adapters(server_id, adapter, updated_at) VALUES(?,?,?) "
        "ON CONFLICT(server_id) DO UPDATE SET adapter = excluded.adapter, "
        "updated_at = excluded.updated_at"));
    st.bind(1, serverId).bind(2, adapterJson + QString("")).bind(3, nowMs());
    if (!tx.isActive() || !st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the job adapter of server %1: %2")
                          .arg(serverId)
                          .arg(st.errorString()));
        return false;
    }
    return logChange(m_db, QLatin1String("job_adapters"), serverId) && tx.commit();
}

std::optional<QString> TaskStore::jobAdapter(qint64 serverId)
{
    m_db.setError(QString());
    Statement st = m_db.prepare(
        QStringLiteral("SELECT adapter FROM job_adapters WHERE server_id = ?"));
    st.bind(1, serverId);
    const Statement::StepResult r = st.step();
    if (r == Statement::StepResult::Row)
        return st.text(0);
    if (r == Statement::StepResult::Error)
        m_db.setError(QStringLiteral("Cannot read the job adapter of server %1: %2")
                          .arg(serverId)
                          .arg(st.errorString()));
    return std::nullopt;
}

bool TaskStore::promoteStreamedToTask(qint64 taskId, const QString &serverTaskId)
{
    Statement st = m_db.prepare(
        QStringLiteral("UPDATE tasks SET pattern = 'task', stream_owner = '', server_task_id = ? "
                       "WHERE id = ? AND pattern = 'streamed'"));
    st.bind(1, serverTaskId).bind(2, taskId);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the task handle of task %1: %2")
                          .arg(taskId)
                          .arg(st.errorString()));
        return false;
    }
    return true;
}

// A task handed over by another client: no case journals it (Eddy never called the tool), so it
// is stored as a live task of its server; the same server task id of the same server is one task.
std::optional<qint64> TaskStore::importTask(TaskRecord &task, bool *existed)
{
    if (existed)
        *existed = false;
    if (task.serverTaskId.isEmpty()) {
        m_db.setError(QStringLiteral("A handed-over task needs the server's task id."));
        return std::nullopt;
    }
    Transaction tx(m_db);
    if (!tx.isActive())
        return std::nullopt;
    {
        Statement known = m_db.prepare(QStringLiteral(
            "SELECT id FROM tasks WHERE server_id = ? AND server_task_id = ? ORDER BY id LIMIT 1"));
        known.bind(1, task.serverId).bind(2, task.serverTaskId);
        if (known.step() == Statement::StepResult::Row) {
            task.id = known.int64(0);
            if (existed)
                *existed = true;
            return task.id;
        }
    }
    const qint64 now = nowMs();
    task.firstSeenAtMs = task.firstSeenAtMs ? task.firstSeenAtMs : now;
    task.updatedAtMs = now;
    Statement ins = m_db.prepare(QStringLiteral(
        "INSERT INTO tasks(server_id, tool, arguments, server_task_id, status, status_message, "
        "next_poll_at, first_seen_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?)"));
    ins.bind(1, task.serverId)
        .bind(2, task.tool + QString(""))
        .bind(3, task.arguments.isEmpty() ? QStringLiteral("{}") : task.arguments)
        .bind(4, task.serverTaskId)
        .bind(5, toText(task.status))
        .bind(6, task.statusMessage + QString(""))
        .bind(7, task.nextPollAtMs)
        .bind(8, task.firstSeenAtMs)
        .bind(9, task.updatedAtMs);
    if (!ins.exec()) {
        m_db.setError(
            QStringLiteral("Cannot store the handed-over task: %1").arg(ins.errorString()));
        return std::nullopt;
    }
    task.id = m_db.lastInsertId();
    Statement ev = prepareTaskEvent(m_db, task, now);
    if (!ev.exec() || !tx.commit()) {
        m_db.setError(
            QStringLiteral("Cannot store the handed-over task: %1").arg(m_db.lastError()));
        return std::nullopt;
    }
    return task.id;
}

} // namespace Eddy::Store
