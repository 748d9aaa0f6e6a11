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

} // namespace

TaskStore::~TaskStore()
{
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
    if (!exec("PRAGMA journal_mode=WAL;", why) || !exec("PRAGMA synchronous=NORMAL;", why)
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
                 " checkpoint BLOB);",
                 why)) {
        error = "cannot prepare the database " + path + ": " + why
                + " (is it an eddy-cfd-server database?)";
        return false;
    }
    return true;
}

bool TaskStore::save(const TaskRecord &r, std::string &error)
{
    const std::lock_guard lock(m_mutex);
    Statement st(m_db,
                 "INSERT INTO tasks (id, token_hash, idempotency_key, legacy, status,"
                 " status_message, created_ms, updated_ms, ttl_ms, arguments, input_requests,"
                 " result, error, key_counter, repairs) VALUES"
                 " (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)"
                 " ON CONFLICT(id) DO UPDATE SET status=?5, status_message=?6, updated_ms=?8,"
                 " ttl_ms=?9, input_requests=?11, result=?12, error=?13, key_counter=?14,"
                 " repairs=?15");
    if (!st) {
        error = sqlite3_errmsg(m_db);
        return false;
    }
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
    if (sqlite3_step(st.get()) != SQLITE_DONE) {
        error = sqlite3_errmsg(m_db);
        return false;
    }
    return true;
}

bool TaskStore::saveCheckpoint(const std::string &id, const std::vector<std::uint8_t> &blob,
                               const std::string &statusMessage, std::int64_t updatedMs)
{
    const std::lock_guard lock(m_mutex);
    Statement st(m_db, "UPDATE tasks SET checkpoint=?2, status_message=?3, updated_ms=?4"
                       " WHERE id=?1");
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

std::vector<TaskRecord> TaskStore::loadAll(std::string &warnings)
{
    const std::lock_guard lock(m_mutex);
    std::vector<TaskRecord> out;
    Statement st(m_db, "SELECT id, token_hash, idempotency_key, legacy, status, status_message,"
                       " created_ms, updated_ms, ttl_ms, arguments, input_requests, result,"
                       " error, key_counter, repairs FROM tasks ORDER BY created_ms, rowid");
    if (!st) {
        warnings += std::string("cannot read tasks: ") + sqlite3_errmsg(m_db) + "\n";
        return out;
    }
    while (sqlite3_step(st.get()) == SQLITE_ROW) {
        TaskRecord r;
        r.id = st.column(0);
        r.tokenHash = st.column(1);
        r.idempotencyKey = st.column(2);
        r.legacy = sqlite3_column_int(st.get(), 3) != 0;
        const bool statusOk = statusFromName(st.column(4), r.status);
        r.statusMessage = st.column(5);
        r.createdMs = sqlite3_column_int64(st.get(), 6);
        r.updatedMs = sqlite3_column_int64(st.get(), 7);
        r.ttlMs = sqlite3_column_int64(st.get(), 8);
        r.arguments = nlohmann::json::parse(st.column(9), nullptr, false);
        r.inputRequests = nlohmann::json::parse(st.column(10), nullptr, false);
        r.result = nlohmann::json::parse(st.column(11), nullptr, false);
        r.error = nlohmann::json::parse(st.column(12), nullptr, false);
        r.keyCounter = sqlite3_column_int(st.get(), 13);
        const auto repairs = nlohmann::json::parse(st.column(14), nullptr, false);
        bool ok = statusOk && r.arguments.is_object() && !r.inputRequests.is_discarded()
                  && !r.result.is_discarded() && !r.error.is_discarded() && repairs.is_array();
        if (ok) {
            for (const auto &v : repairs) {
                if (!v.is_number_integer()) {
                    ok = false;
                    break;
                }
                r.repairs.push_back(v.get<int>());
            }
        }
        if (!ok) {
            warnings += "skipping unreadable task " + Log::redact(r.id) + "\n";
            continue;
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace Eddy::Server
