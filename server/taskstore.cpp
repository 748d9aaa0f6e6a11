#include "server/taskstore.h"

#include "server/log.h"

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Eddy::Server {

namespace {

// A prepared statement that finalizes itself.
class Statement final
{
public:
    Statement(sqlite3 *db, const char *sql)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            m_stmt = nullptr;
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    sqlite3_stmt *get() const { return m_stmt; }
    explicit operator bool() const { return m_stmt != nullptr; }
    void text(int i, const std::string &s)
    {
        sqlite3_bind_text(m_stmt, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
    }
    void integer(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    std::string column(int i) const
    {
        const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, i));
        return p ? std::string(p, std::size_t(sqlite3_column_bytes(m_stmt, i))) : std::string();
    }

private:
    sqlite3_stmt *m_stmt = nullptr;
};

std::string dumpJson(const nlohmann::json &j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// SELECT of the columns readRow() expects, in its order, followed by tail.
// result: the column, or an expression standing for it.
std::string selectTasks(const char *tail, const char *result = "result")
{
    return std::string("SELECT id, token_hash, idempotency_key, legacy, status, status_message,"
                       " created_ms, updated_ms, ttl_ms, arguments, input_requests, ")
           + result + ", error, key_counter, repairs, seq FROM tasks " + tail;
}

// One row of selectTasks(); false (with out.id set) when it cannot be read.
bool readRow(const Statement &st, TaskRecord &out)
{
    TaskRecord &r = out;
    sqlite3_stmt *s = st.get();
    r.id = st.column(0);
    r.tokenHash = st.column(1);
    r.idempotencyKey = st.column(2);
    r.legacy = sqlite3_column_int(s, 3) != 0;
    const bool statusOk = statusFromName(st.column(4), r.status);
    r.statusMessage = st.column(5);
    r.createdMs = sqlite3_column_int64(s, 6);
    r.updatedMs = sqlite3_column_int64(s, 7);
    r.ttlMs = sqlite3_column_int64(s, 8);
    r.arguments = nlohmann::json::parse(st.column(9), nullptr, false);
    r.inputRequests = nlohmann::json::parse(st.column(10), nullptr, false);
    r.result = nlohmann::json::parse(st.column(11), nullptr, false);
    r.error = nlohmann::json::parse(st.column(12), nullptr, false);
    r.keyCounter = sqlite3_column_int(s, 13);
    r.seq = sqlite3_column_int64(s, 15);
    const auto repairs = nlohmann::json::parse(st.column(14), nullptr, false);
    if (!statusOk || !r.arguments.is_object() || r.inputRequests.is_discarded()
        || r.result.is_discarded() || r.error.is_discarded() || !repairs.is_array())
        return false;
    r.repairs.clear();
    for (const auto &v : repairs) {
        if (!v.is_number_integer())
            return false;
        r.repairs.push_back(v.get<int>());
    }
    return true;
}

} // namespace

TaskStore::~TaskStore()
{
    sqlite3_finalize(m_dataVersionQuery);
    if (m_db)
        sqlite3_close(m_db);
}

bool TaskStore::exec(const char *sql, std::string &error)
{
    char *message = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        error = message ? message : "unknown SQLite error";
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool TaskStore::open(const std::string &path, std::string &error)
{
    const std::lock_guard lock(m_mutex);
    // Create the file ourselves so it is 0600 from the first byte: it holds token hashes.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        error = "cannot create the database file " + path
                + ": check that the --data-dir folder is writable";
        return false;
    }
    ::fchmod(fd, 0600);
    ::close(fd);
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX,
                        nullptr)
        != SQLITE_OK) {
        error = "cannot open the database " + path + ": " + sqlite3_errmsg(m_db);
        return false;
    }
    sqlite3_busy_timeout(m_db, 5000);
    std::string why;
    // The WAL file keeps its largest size until the database closes unless told otherwise: a
    // reader that holds a snapshot for a while (a backup, a sqlite3 shell) lets it grow past the
    // 1000-page autocheckpoint, and the server would keep that space for its whole lifetime.
    if (!exec("PRAGMA journal_mode=WAL;", why) || !exec("PRAGMA synchronous=NORMAL;", why)
        || !exec("PRAGMA journal_size_limit=4194304;", why)
        || !exec("CREATE TABLE IF NOT EXISTS tasks ("
                 " id TEXT PRIMARY KEY,"
                 " token_hash TEXT NOT NULL,"
                 " idempotency_key TEXT NOT NULL,"
                 " legacy INTEGER NOT NULL,"
                 " status TEXT NOT NULL,"
                 " status_message TEXT NOT NULL,"
                 " created_ms INTEGER NOT NULL,"
                 " updated_ms INTEGER NOT NULL,"
                 " ttl_ms INTEGER NOT NULL,"
                 " arguments TEXT NOT NULL,"
                 " input_requests TEXT NOT NULL,"
                 " result TEXT NOT NULL,"
                 " error TEXT NOT NULL,"
                 " key_counter INTEGER NOT NULL,"
                 " repairs TEXT NOT NULL,"
                 " checkpoint BLOB,"
                 " seq INTEGER NOT NULL DEFAULT 0);",
                 why)
        || !addChangeNumbers(why)) {
        error = "cannot prepare the database " + path + ": " + why
                + " (is it an eddy-cfd-server database?)";
        return false;
    }
    return true;
}

bool TaskStore::addChangeNumbers(std::string &error)
{
    // Every write of a row gives it the next number of one counter (task_seq), so a replica
    // finds what others changed with one indexed read and a write can expect its row unchanged.
    bool hasSeq = false;
    {
        Statement st(m_db, "SELECT 1 FROM pragma_table_info('tasks') WHERE name='seq'");
        hasSeq = st && sqlite3_step(st.get()) == SQLITE_ROW;
    }
    std::string why;
    // Two replicas upgrading one file at once: the second finds the column there.
    if (!hasSeq && !exec("ALTER TABLE tasks ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;", why)
        && why.find("duplicate column") == std::string::npos) {
        error = why;
        return false;
    }
    return exec(
        "CREATE INDEX IF NOT EXISTS tasks_by_seq ON tasks(seq);"
        "CREATE TABLE IF NOT EXISTS task_seq (one INTEGER PRIMARY KEY CHECK (one = 1),"
        " n INTEGER NOT NULL);"
        "INSERT OR IGNORE INTO task_seq VALUES (1, (SELECT COALESCE(MAX(seq), 0) FROM tasks));",
        error);
}

TaskStore::Saved TaskStore::save(const TaskRecord &r, std::int64_t &seq, std::string &error)
{
    const std::lock_guard lock(m_mutex);
    if (!exec("BEGIN IMMEDIATE;", error))
        return Saved::Failed;
    const auto fail = [&](Saved outcome) {
        if (outcome == Saved::Failed)
            error = sqlite3_errmsg(m_db);
        std::string ignored;
        exec("ROLLBACK;", ignored);
        return outcome;
    };
    std::int64_t next = 0;
    {
        Statement counter(m_db, "UPDATE task_seq SET n = n + 1 RETURNING n");
        if (!counter || sqlite3_step(counter.get()) != SQLITE_ROW)
            return fail(Saved::Failed);
        next = sqlite3_column_int64(counter.get(), 0);
        if (sqlite3_step(counter.get()) != SQLITE_DONE)
            return fail(Saved::Failed);
    }
    Statement st(m_db,
                 "INSERT INTO tasks (id, token_hash, idempotency_key, legacy, status,"
                 " status_message, created_ms, updated_ms, ttl_ms, arguments, input_requests,"
                 " result, error, key_counter, repairs, seq) VALUES"
                 " (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?17)"
                 " ON CONFLICT(id) DO UPDATE SET status=?5, status_message=?6, updated_ms=?8,"
                 " ttl_ms=?9, input_requests=?11, result=?12, error=?13, key_counter=?14,"
                 " repairs=?15, seq=?17,"
                 // A finished case never resumes: its checkpoint (megabytes for a large grid)
                 // would stay until the task expires.
                 " checkpoint=CASE WHEN ?5 IN ('completed', 'failed', 'cancelled') THEN NULL"
                 " ELSE checkpoint END"
                 " WHERE tasks.seq=?16 RETURNING seq");
    if (!st)
        return fail(Saved::Failed);
    st.text(1, r.id);
    st.text(2, r.tokenHash);
    st.text(3, r.idempotencyKey);
    st.integer(4, r.legacy ? 1 : 0);
    st.text(5, statusName(r.status));
    st.text(6, r.statusMessage);
    st.integer(7, r.createdMs);
    st.integer(8, r.updatedMs);
    st.integer(9, r.ttlMs);
    st.text(10, dumpJson(r.arguments));
    st.text(11, dumpJson(r.inputRequests));
    st.text(12, dumpJson(r.result));
    st.text(13, dumpJson(r.error));
    st.integer(14, r.keyCounter);
    st.text(15, dumpJson(nlohmann::json(r.repairs)));
    st.integer(16, r.seq);
    st.integer(17, next);
    const int step = sqlite3_step(st.get());
    if (step == SQLITE_DONE)
        return fail(Saved::Conflict); // the row is there with another change number
    if (step != SQLITE_ROW || sqlite3_step(st.get()) != SQLITE_DONE)
        return fail(Saved::Failed);
    if (!exec("COMMIT;", error))
        return fail(Saved::Failed);
    seq = next;
    return Saved::Yes;
}

bool TaskStore::saveCheckpoint(const std::string &id, const std::vector<std::uint8_t> &blob,
                               const std::string &statusMessage, std::int64_t updatedMs)
{
    const std::lock_guard lock(m_mutex);
    // Not for a task that has ended meanwhile (cancelled while the solver saved).
    Statement st(m_db, "UPDATE tasks SET checkpoint=?2, status_message=?3, updated_ms=?4"
                       " WHERE id=?1 AND status NOT IN ('completed', 'failed', 'cancelled')");
    if (!st)
        return false;
    st.text(1, id);
    sqlite3_bind_blob64(st.get(), 2, blob.data(), blob.size(), SQLITE_TRANSIENT);
    st.text(3, statusMessage);
    st.integer(4, updatedMs);
    return sqlite3_step(st.get()) == SQLITE_DONE;
}

std::vector<std::uint8_t> TaskStore::loadCheckpoint(const std::string &id)
{
    const std::lock_guard lock(m_mutex);
    Statement st(m_db, "SELECT checkpoint FROM tasks WHERE id=?1");
    std::vector<std::uint8_t> out;
    if (!st)
        return out;
    st.text(1, id);
    if (sqlite3_step(st.get()) == SQLITE_ROW) {
        const auto *p = static_cast<const std::uint8_t *>(sqlite3_column_blob(st.get(), 0));
        const int n = sqlite3_column_bytes(st.get(), 0);
        if (p && n > 0)
            out.assign(p, p + n);
    }
    return out;
}

bool TaskStore::remove(const std::string &id)
{
    const std::lock_guard lock(m_mutex);
    Statement st(m_db, "DELETE FROM tasks WHERE id=?1");
    if (!st)
        return false;
    st.text(1, id);
    return sqlite3_step(st.get()) == SQLITE_DONE;
}

std::vector<TaskRecord> TaskStore::loadAll(std::string &warnings, std::int64_t resultsBeforeMs)
{
    const std::lock_guard lock(m_mutex);
    std::vector<TaskRecord> out;
    // A finished task's result (a field picture and a report, about 17 KB) read at start only
    // to be dropped a second later left holes in the heap between the records read with it,
    // more with every finished task of the history (bench/soak).
    const std::string result = std::string("CASE WHEN status IN ('") + statusName(TaskStatus::Completed) + "', '"
                               + statusName(TaskStatus::Failed) + "', '" + statusName(TaskStatus::Cancelled)
                               + "') AND updated_ms < ?1 THEN 'null' ELSE result END";
    Statement st(m_db, selectTasks("ORDER BY created_ms, rowid", result.c_str()).c_str());
    if (!st) {
        warnings += std::string("cannot read tasks: ") + sqlite3_errmsg(m_db) + "\n";
        return out;
    }
    st.integer(1, resultsBeforeMs);
    while (sqlite3_step(st.get()) == SQLITE_ROW) {
        TaskRecord r;
        if (!readRow(st, r)) {
            warnings += "skipping unreadable task " + Log::redact(r.id) + "\n";
            continue;
        }
        out.push_back(std::move(r));
    }
    return out;
}

bool TaskStore::load(const std::string &id, TaskRecord &out)
{
    const std::lock_guard lock(m_mutex);
    Statement st(m_db, selectTasks("WHERE id=?1").c_str());
    if (!st)
        return false;
    st.text(1, id);
    return sqlite3_step(st.get()) == SQLITE_ROW && readRow(st, out);
}

bool TaskStore::changedSince(std::int64_t after, std::vector<TaskRecord> &out)
{
    const std::lock_guard lock(m_mutex);
    if (!m_dataVersionQuery
        && sqlite3_prepare_v2(m_db, "PRAGMA data_version", -1, &m_dataVersionQuery, nullptr)
               != SQLITE_OK)
        return false;
    std::int64_t version = -1;
    if (sqlite3_step(m_dataVersionQuery) == SQLITE_ROW)
        version = sqlite3_column_int64(m_dataVersionQuery, 0);
    sqlite3_reset(m_dataVersionQuery);
    if (version == m_dataVersion)
        return false;
    Statement st(m_db, selectTasks("WHERE seq > ?1 ORDER BY seq").c_str());
    if (!st)
        return false;
    st.integer(1, after);
    while (sqlite3_step(st.get()) == SQLITE_ROW) {
        TaskRecord r;
        if (readRow(st, r))
            out.push_back(std::move(r));
    }
    // Noted only once read: a failed read is retried on the next call.
    m_dataVersion = version;
    return true;
}

} // namespace Eddy::Server
