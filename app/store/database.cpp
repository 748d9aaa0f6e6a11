#include "app/store/database.h"
#include "app/store/log.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcStore, "eddy.store")

namespace Eddy::Store {

namespace {

bool isMemoryPath(const QString &path)
{
    return path == QLatin1String(":memory:") || path.isEmpty();
}

// Task ids are bearer secrets: the file must exist with owner-only permissions before SQLite
// writes the first byte into it (SQLite gives -wal/-shm the main file's mode).
QString prepareFile(const QString &path)
{
    const QFileInfo info(path);
    const QString dir = info.absolutePath();
    if (!QFileInfo::exists(dir)) {
        if (!QDir().mkpath(dir))
            return QStringLiteral("Cannot create the folder %1 for the database: check that the "
                                  "parent folder is writable, or pass another file with --db.")
                .arg(dir);
        ::chmod(QFile::encodeName(dir).constData(), 0700);
    }
    const QByteArray native = QFile::encodeName(info.absoluteFilePath());
    if (!info.exists()) {
        const int fd = ::open(native.constData(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            return QStringLiteral("Cannot create the database file %1 (%2): check the folder's "
                                  "permissions, or pass another file with --db.")
                .arg(path, QString::fromLocal8Bit(strerror(errno)));
        if (fd >= 0)
            ::close(fd);
    } else {
        struct stat st {};
        if (::stat(native.constData(), &st) == 0 && (st.st_mode & 077)) {
            qCWarning(lcStore, "database file was readable by others; restricting it to the owner");
            ::chmod(native.constData(), 0600);
        }
    }
    return {};
}

} // namespace

Database::Database() = default;

Database::~Database()
{
    close();
}

bool Database::fail(const QString &what)
{
    m_error = m_db ? QStringLiteral("%1: %2").arg(what, QString::fromUtf8(sqlite3_errmsg(m_db)))
                   : what;
    return false;
}

bool Database::open(const QString &path)
{
    close();
    m_error.clear();
    m_path = path;
    const bool memory = isMemoryPath(path);
    if (!memory) {
        const QString err = prepareFile(path);
        if (!err.isEmpty()) {
            m_error = err;
            return false;
        }
    }
    const QByteArray native = memory ? QByteArray(":memory:") : QFile::encodeName(path);
    // No SQLITE_OPEN_CREATE: prepareFile made the file, so SQLite never creates one with a
    // default mode behind our back.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        | (memory ? SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY : 0);
    const int rc = sqlite3_open_v2(native.constData(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        m_error = QStringLiteral("Cannot open the database %1: %2. Check the file's permissions, "
                                 "or pass another file with --db.")
                      .arg(path, QString::fromUtf8(sqlite3_errstr(rc)));
        close();
        return false;
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 10000);

    // The integrity check runs before anything writes (WAL switch, migrations), so a damaged file
    // is reported exactly as it was found.
    if (!memory) {
        Statement check = prepare(QStringLiteral("PRAGMA quick_check"));
        QStringList problems;
        Statement::StepResult r;
        while ((r = check.step()) == Statement::StepResult::Row) {
            const QString line = check.text(0);
            if (line != QLatin1String("ok"))
                problems << line;
        }
        if (r == Statement::StepResult::Error || !problems.isEmpty()) {
            const QString detail = r == Statement::StepResult::Error
                ? QString::fromUtf8(sqlite3_errmsg(m_db))
                : problems.mid(0, 3).join(QStringLiteral("; "));
            const QString msg = QStringLiteral(
                "The database %1 is damaged or is not an Eddy database (%2). Eddy has not changed "
                "it. Restore it from a backup, or move it aside and start with a new file "
                "(--db NEW_FILE); task handles in the damaged file cannot be polled until it is "
                "repaired (for example with sqlite3 .recover).")
                .arg(path, detail);
            check = Statement();
            close();
            m_error = msg;
            return false;
        }
    }
    const char *setup = memory ? "PRAGMA foreign_keys=ON;"
                               : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                                 "PRAGMA foreign_keys=ON;";
    if (!exec(QString::fromLatin1(setup))) {
        const QString msg = m_error;
        close();
        m_error = msg;
        return false;
    }
    return true;
}

void Database::close()
{
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

bool Database::exec(const QString &sql)
{
    if (!m_db)
        return fail(QStringLiteral("database not open"));
    char *err = nullptr;
    const int rc = sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        m_error = QString::fromUtf8(err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        return false;
    }
    m_error.clear();
    return true;
}

Statement Database::prepare(const QString &sql)
{
    if (!m_db) {
        m_error = QStringLiteral("database not open");
        return {};
    }
    sqlite3_stmt *stmt = nullptr;
    const QByteArray utf8 = sql.toUtf8();
    if (sqlite3_prepare_v2(m_db, utf8.constData(), int(utf8.size()), &stmt, nullptr) != SQLITE_OK) {
        fail(QStringLiteral("cannot prepare statement"));
        return Statement(m_db, nullptr);
    }
    return Statement(m_db, stmt);
}

qint64 Database::lastInsertId() const
{
    return m_db ? sqlite3_last_insert_rowid(m_db) : 0;
}

int Database::changes() const
{
    return m_db ? sqlite3_changes(m_db) : 0;
}

bool Database::begin()
{
    return exec(QStringLiteral("BEGIN IMMEDIATE"));
}

bool Database::commit()
{
    return exec(QStringLiteral("COMMIT"));
}

void Database::rollback()
{
    if (m_db && !sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

int Database::userVersion()
{
    Statement st = prepare(QStringLiteral("PRAGMA user_version"));
    if (st.step() == Statement::StepResult::Row)
        return st.integer(0);
    return -1;
}

bool Database::setUserVersion(int version)
{
    return exec(QStringLiteral("PRAGMA user_version = %1").arg(version));
}

} // namespace Eddy::Store
