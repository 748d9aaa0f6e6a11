#pragma once

#include "app/store/statement.h"

#include <QString>

struct sqlite3;

namespace Eddy::Store {

// One SQLite connection (RAII over sqlite3*): owner-only file creation, WAL, integrity check,
// versioned migrations. Not thread-safe: one Database per thread, used on the thread that opened it.
class Database final
{
    Q_DISABLE_COPY_MOVE(Database)

public:
    Database();
    ~Database();

    // Opens (creating when missing, 0600 in a 0700 folder) and checks the file. ":memory:" works
    // too. A damaged file gives an error that says so and is never modified or recreated.
    bool open(const QString &path);
    void close();
    bool isOpen() const { return m_db != nullptr; }
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

    sqlite3 *m_db = nullptr;
    QString m_path;
    QString m_error;
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
