#pragma once

#include "app/store/integritycheck.h"
#include "app/store/statement.h"

#include <QString>

#include <atomic>
#include <functional>

struct sqlite3;

namespace Eddy::Store {

// One SQLite connection (RAII over sqlite3*): owner-only file creation, WAL, integrity check,
// versioned migrations. Not thread-safe: one Database per thread, used on the thread that opened it.
class Database final
{
    Q_DISABLE_COPY_MOVE(Database)

public:
    // How open() checked the file. Full: PRAGMA quick_check before anything else (after an
    // unclean shutdown, or when the file changed after Eddy closed it). Skipped: Eddy closed the
    // file cleanly and nothing touched it since; the check then runs in the background on a
    // connection of its own. None: ":memory:".
    enum class OpenCheck { None, Full, Skipped };

    Database();
    ~Database();

    // Opens (creating when missing, 0600 in a 0700 folder) and checks the file. ":memory:" works
    // too. A damaged file gives an error that says so and is never modified or recreated.
    bool open(const QString &path);
    // Checkpoints the WAL into the file and, when that left no log behind, writes the
    // clean-shutdown mark that lets the next open skip the full check.
    void close();
    OpenCheck openCheck() const { return m_openCheck; }
    // Why the last open ran the full check (empty when it did not).
    QString openCheckReason() const { return m_openCheckReason; }
    // Called (from the background check's thread) with the message for the user when the check
    // that open() left to the background finds the file damaged. Set before open().
    void setDamageHandler(std::function<void(const QString &)> handler) { m_onDamaged = std::move(handler); }
    IntegrityCheck::State backgroundCheckState() const { return m_check.state(); }
    // Writes the mark close() writes: the file as it is now was left consistent by Eddy. False
    // when a write-ahead log with frames is still next to it.
    static bool writeCleanShutdownMark(const QString &path);
    static QString cleanShutdownMarkPath(const QString &path);
    bool isOpen() const { return m_db != nullptr; }
    // Opened read-only: the file or its folder is write-protected (mode 0444, a read-only
    // folder or file system). Nothing is written to it; every write fails.
    bool isReadOnly() const { return m_readOnly; }
    QString path() const { return m_path; }

    // Runs one or more statements without results; false + lastError() on failure.
    bool exec(const QString &sql);
    Statement prepare(const QString &sql);
    qint64 lastInsertId() const;
    int changes() const;

    bool begin();     // BEGIN IMMEDIATE
    bool commit();
    void rollback();

    int userVersion();
    bool setUserVersion(int version);

    // The last error in words a user can act on (empty when the last call succeeded).
    QString lastError() const { return m_error; }
    void setError(const QString &error) { m_error = error; }
    sqlite3 *handle() const { return m_db; }

private:
    bool fail(const QString &what);
    bool openReadOnly(const QString &path);

    sqlite3 *m_db = nullptr;
    QString m_path;
    QString m_error;
    OpenCheck m_openCheck = OpenCheck::None;
    QString m_openCheckReason;
    bool m_readOnly = false;
    bool m_markOnClose = false;        // opened a file and passed its checks
    std::atomic<bool> m_damaged = false; // the background check found damage
    std::function<void(const QString &)> m_onDamaged;
    IntegrityCheck m_check;
};

// Commits on commit(), rolls back when it goes out of scope uncommitted.
class Transaction final
{
    Q_DISABLE_COPY_MOVE(Transaction)

public:
    explicit Transaction(Database &db) : m_db(db), m_active(db.begin()) {}
    ~Transaction()
    {
        if (m_active)
            m_db.rollback();
    }
    bool isActive() const { return m_active; }
    bool commit()
    {
        if (!m_active)
            return false;
        m_active = false;
        if (m_db.commit())
            return true;
        m_db.rollback();
        return false;
    }

private:
    Database &m_db;
    bool m_active;
};

} // namespace Eddy::Store
