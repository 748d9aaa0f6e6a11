#include "app/store/integritycheck.h"
#include "app/store/log.h"

#include <QFile>
#include <QStringList>

#include <sqlite3.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace Eddy::Store {

QString IntegrityCheck::damagedMessage(const QString &path, const QString &detail)
{
    return QStringLiteral(
               "The database %1 is damaged or is not an Eddy database (%2). Eddy has not changed "
               "it. Restore it from a backup, or move it aside and start with a new file "
               "(--db NEW_FILE); task handles in the damaged file cannot be polled until it is "
               "repaired (for example with sqlite3 .recover).")
        .arg(path, detail);
}

QString IntegrityCheck::run(sqlite3 *db, const QString &path)
{
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &stmt, nullptr);
    QStringList problems;
    while (rc == SQLITE_OK || rc == SQLITE_ROW) {
        rc = sqlite3_step(stmt);
        if (rc != SQLITE_ROW)
            break;
        const auto line = QString::fromUtf8(
            reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
        if (line != QLatin1String("ok"))
            problems << line;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
        return damagedMessage(path, QString::fromUtf8(sqlite3_errmsg(db)));
    if (!problems.isEmpty())
        return damagedMessage(path, problems.mid(0, 3).join(QStringLiteral("; ")));
    return {};
}

void IntegrityCheck::start(const QString &path, std::function<void(const QString &)> onDamaged)
{
    if (m_state.load() == State::Running)
        return;
    if (m_thread.joinable())
        m_thread.join();
    m_stopping = false;
    m_state = State::Running;
    // A thread of its own rather than QtConcurrent: it lowers its own priority, which must not
    // stay behind on a pool thread, and stop() must be able to interrupt and join it.
    m_thread = std::thread([this, path, onDamaged = std::move(onDamaged)] { work(path, onDamaged); });
}

void IntegrityCheck::stop()
{
    m_stopping = true;
    {
        const std::lock_guard lock(m_mutex);
        if (m_db)
            sqlite3_interrupt(m_db);
    }
    if (m_thread.joinable())
        m_thread.join();
}

void IntegrityCheck::work(const QString &path, const std::function<void(const QString &)> &onDamaged)
{
    // Reading the whole file must not compete with the engine and the GUI for the CPU.
    ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 19);
    sqlite3 *db = nullptr;
    const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    {
        const std::lock_guard lock(m_mutex);
        m_db = db;
        if (m_stopping && db)
            sqlite3_interrupt(db);
    }
    QString problem;
    if (rc != SQLITE_OK) {
        problem = damagedMessage(path, QString::fromUtf8(sqlite3_errstr(rc)));
    } else {
        sqlite3_busy_timeout(db, 10000);
        problem = run(db, path);
    }
    {
        const std::lock_guard lock(m_mutex);
        m_db = nullptr;
    }
    sqlite3_close(db);
    if (m_stopping) {
        m_state = State::Stopped;
        return;
    }
    if (problem.isEmpty()) {
        qCInfo(lcStore, "background integrity check: the database is sound");
        m_state = State::Passed;
        return;
    }
    qCCritical(lcStore).noquote() << "background integrity check:" << problem;
    if (onDamaged)
        onDamaged(problem);
    m_state = State::Damaged;
}

} // namespace Eddy::Store
