#include "app/store/database.h"
#include "app/store/log.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUrl>

#include <sqlite3.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

Q_LOGGING_CATEGORY(lcStore, "eddy.store")

namespace Eddy::Store {

namespace {

bool isMemoryPath(const QString &path)
{
    return path == QLatin1String(":memory:") || path.isEmpty();
}

// Task ids are bearer secrets: the file must exist with owner-only permissions before SQLite
// writes the first byte into it (SQLite gives -wal/-shm the main file's mode). An existing file
// is left as it is here: its mode is tightened only once it opened and passed its checks
// (restrictMode), so a file Eddy refuses is never changed.
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
    }
    return {};
}

void restrictMode(const QString &path)
{
    const QByteArray native = QFile::encodeName(QFileInfo(path).absoluteFilePath());
    struct stat st {};
    if (::stat(native.constData(), &st) == 0 && (st.st_mode & 077)) {
        qCWarning(lcStore, "database file was readable by others; restricting it to the owner");
        ::chmod(native.constData(), 0600);
    }
}

// An existing file that Eddy must not write: the file or its folder (where SQLite keeps the
// -wal and -shm files) without write permission for its owner, or not writable by this process.
// The mode counts even for root, who may write anything: an archive made read-only stays so.
bool isWriteProtected(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return false;
    const QByteArray file = QFile::encodeName(info.absoluteFilePath());
    const QByteArray dir = QFile::encodeName(info.absolutePath());
    struct stat fileStat {};
    struct stat dirStat {};
    if (::stat(file.constData(), &fileStat) != 0 || ::stat(dir.constData(), &dirStat) != 0)
        return false;
    return !(fileStat.st_mode & S_IWUSR) || !(dirStat.st_mode & S_IWUSR)
        || ::access(file.constData(), W_OK) != 0 || ::access(dir.constData(), W_OK) != 0;
}

// Why the full check may be skipped at open. In WAL mode SQLite itself keeps the file consistent
// across a crash of the process: a transaction is committed only by a WAL frame with a valid
// checksum, the next open rebuilds the WAL index and ignores any torn or uncommitted tail, and a
// checkpoint copies only committed pages (synchronous=NORMAL may lose the last transactions on a
// power loss, never the file's consistency). What quick_check finds is damage from outside SQLite:
// a disk or file system that lost or flipped pages, a copy taken while Eddy was writing, a -wal
// of another file put next to this one, another program writing into it. So it runs in full at
// open whenever the file is not provably as Eddy left it - no mark (first open, a crash, a kill, a
// power loss), a log left behind, or a file whose identity, size or change time moved since the
// mark - and otherwise in the background on a second connection, off the thread that polls.
// The mark is a file next to the database: device, inode, size and ctime of the database right
// after the final checkpoint. open() removes it before the first write, so a session that does
// not reach close() leaves none. ctime cannot be set by a program; the mark is only trusted when
// its own ctime is later than the recorded one, so a write in the same clock tick as the close
// (timestamps are coarse) still shows up as a newer ctime.
struct Fingerprint
{
    qint64 dev = 0;
    qint64 ino = 0;
    qint64 size = 0;
    qint64 ctimeSec = 0;
    qint64 ctimeNsec = 0;

    bool operator==(const Fingerprint &) const = default;
    bool isBefore(const struct stat &st) const
    {
        return ctimeSec < st.st_ctim.tv_sec
            || (ctimeSec == st.st_ctim.tv_sec && ctimeNsec < st.st_ctim.tv_nsec);
    }
    static Fingerprint of(const struct stat &st)
    {
        return {qint64(st.st_dev), qint64(st.st_ino), qint64(st.st_size), qint64(st.st_ctim.tv_sec),
                qint64(st.st_ctim.tv_nsec)};
    }
};

constexpr const char s_markTag[] = "eddy-clean-shutdown-1";

bool statPath(const QString &path, struct stat &st)
{
    return ::stat(QFile::encodeName(path).constData(), &st) == 0;
}

bool hasWalFrames(const QString &path)
{
    struct stat st {};
    return statPath(path + QStringLiteral("-wal"), st) && st.st_size > 0;
}

// Removes the mark (a crash from here on leaves none) and says why the full check must run, or
// returns an empty string when the file is as a clean close left it.
QString takeCleanShutdownMark(const QString &path)
{
    const QString markPath = Database::cleanShutdownMarkPath(path);
    struct stat markStat {};
    if (!statPath(markPath, markStat))
        return QStringLiteral("no clean-shutdown mark (first open, or the last session ended "
                              "without closing the database)");
    QFile mark(markPath);
    const QByteArray text = mark.open(QIODevice::ReadOnly) ? mark.read(256) : QByteArray();
    mark.close();
    if (::unlink(QFile::encodeName(markPath).constData()) != 0 && errno != ENOENT)
        return QStringLiteral("the clean-shutdown mark cannot be removed");
    const QList<QByteArray> fields = text.trimmed().split(' ');
    bool ok = fields.size() == 6 && fields[0] == s_markTag;
    qint64 values[5] = {};
    for (int i = 0; ok && i < 5; ++i)
        values[i] = fields[i + 1].toLongLong(&ok);
    if (!ok)
        return QStringLiteral("the clean-shutdown mark is unreadable");
    const Fingerprint recorded{values[0], values[1], values[2], values[3], values[4]};
    struct stat dbStat {};
    if (!statPath(path, dbStat) || !(Fingerprint::of(dbStat) == recorded))
        return QStringLiteral("the file changed after Eddy closed it");
    if (!recorded.isBefore(markStat))
        return QStringLiteral("the file changed in the same clock tick as the close");
    if (hasWalFrames(path))
        return QStringLiteral("a write-ahead log was left next to the file");
    return {};
}

} // namespace

QString Database::cleanShutdownMarkPath(const QString &path)
{
    return path + QStringLiteral("-closed");
}

bool Database::writeCleanShutdownMark(const QString &path)
{
    struct stat dbStat {};
    if (isMemoryPath(path) || hasWalFrames(path) || !statPath(path, dbStat))
        return false;
    const Fingerprint fp = Fingerprint::of(dbStat);
    const QByteArray text = QByteArray(s_markTag) + ' ' + QByteArray::number(fp.dev) + ' '
        + QByteArray::number(fp.ino) + ' ' + QByteArray::number(fp.size) + ' '
        + QByteArray::number(fp.ctimeSec) + ' ' + QByteArray::number(fp.ctimeNsec) + '\n';
    const QByteArray native = QFile::encodeName(cleanShutdownMarkPath(path));
    const int fd = ::open(native.constData(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    bool ok = ::write(fd, text.constData(), size_t(text.size())) == ssize_t(text.size());
    // The mark counts only with a ctime later than the database's: touch it until the coarse
    // clock has ticked (a few ms at most).
    struct stat markStat {};
    for (int i = 0; ok && i < 100; ++i) {
        ok = ::fstat(fd, &markStat) == 0;
        if (!ok || fp.isBefore(markStat))
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ok = ::futimens(fd, nullptr) == 0;
    }
    ok = ok && fp.isBefore(markStat);
    ::close(fd);
    if (!ok)
        ::unlink(native.constData());
    return ok;
}

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
    m_readOnly = !memory && isWriteProtected(path);
    if (!memory && !m_readOnly) {
        const QString err = prepareFile(path);
        if (!err.isEmpty()) {
            m_error = err;
            return false;
        }
    }
    if (m_readOnly)
        return openReadOnly(path);
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
    // is reported exactly as it was found. After a clean close it moves to the background (see
    // takeCleanShutdownMark for why that is safe).
    m_damaged = false;
    m_openCheckReason.clear();
    m_openCheck = memory ? OpenCheck::None : OpenCheck::Skipped;
    if (!memory) {
        m_openCheckReason = takeCleanShutdownMark(path);
        if (!m_openCheckReason.isEmpty()) {
            m_openCheck = OpenCheck::Full;
            qCInfo(lcStore).noquote() << "full integrity check at open:" << m_openCheckReason;
            const QString problem = IntegrityCheck::run(m_db, path);
            if (!problem.isEmpty()) {
                close();
                m_error = problem;
                return false;
            }
        } else {
            qCInfo(lcStore, "integrity check at open skipped (clean shutdown); running it in the background");
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
    if (!memory)
        restrictMode(path);
    m_markOnClose = !memory;
    if (m_openCheck == OpenCheck::Skipped) {
        m_check.start(path, [this, onDamaged = m_onDamaged](const QString &message) {
            m_damaged = true; // no clean mark at close: the next open checks in full and refuses
            if (onDamaged)
                onDamaged(message);
        });
    }
    return true;
}

bool Database::openReadOnly(const QString &path)
{
    // Nothing is written: no WAL switch, no clean-shutdown mark taken or left, no mode change;
    // the whole file is checked first, as after an unclean close. A WAL file in a folder nobody
    // may write has no -shm to share: it is read as immutable then (nobody can write it either).
    qCInfo(lcStore, "database is write-protected; opening it read-only");
    const QByteArray native = QFile::encodeName(QFileInfo(path).absoluteFilePath());
    for (const bool immutable : {false, true}) {
        const QByteArray uri = immutable ? "file:" + QUrl::toPercentEncoding(QString::fromLocal8Bit(native), "/")
                                               + "?immutable=1"
                                         : native;
        const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0);
        const int rc = sqlite3_open_v2(uri.constData(), &m_db, flags, nullptr);
        if (rc == SQLITE_OK) {
            sqlite3_extended_result_codes(m_db, 1);
            sqlite3_busy_timeout(m_db, 10000);
            if (userVersion() >= 0)
                break;
        } else if (immutable) {
            m_error = QStringLiteral("Cannot open the read-only database %1: %2.")
                          .arg(path, QString::fromUtf8(sqlite3_errstr(rc)));
            close();
            return false;
        }
        const QString why = m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QString();
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        if (immutable) {
            m_error = QStringLiteral("Cannot read the read-only database %1: %2.").arg(path, why);
            return false;
        }
    }
    m_damaged = false;
    m_openCheck = OpenCheck::Full;
    m_openCheckReason = QStringLiteral("the file is write-protected");
    const QString problem = IntegrityCheck::run(m_db, path);
    if (!problem.isEmpty()) {
        close();
        m_error = problem;
        return false;
    }
    if (!exec(QStringLiteral("PRAGMA foreign_keys=ON;"))) {
        const QString msg = m_error;
        close();
        m_error = msg;
        return false;
    }
    m_markOnClose = false;
    return true;
}

void Database::close()
{
    m_check.stop();
    if (!m_db)
        return;
    bool markable = m_markOnClose && !m_damaged;
    m_markOnClose = false;
    if (m_damaged) // leave a damaged file as it is, for the next open to refuse
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    if (markable) {
        // Fold the log into the file so the mark describes all of it. A short wait only: a
        // reader in another process keeps the log, and then the next open simply checks in full.
        sqlite3_busy_timeout(m_db, 200);
        markable = sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                                             nullptr)
            == SQLITE_OK;
    }
    if (sqlite3_close(m_db) != SQLITE_OK) { // statements still open: closed when they finish
        sqlite3_close_v2(m_db);
        markable = false;
    }
    m_db = nullptr;
    if (markable && !writeCleanShutdownMark(m_path))
        qCInfo(lcStore, "no clean-shutdown mark written; the next open checks the whole file");
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
