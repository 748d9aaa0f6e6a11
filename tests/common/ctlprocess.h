#pragma once

// Shared by the eddyctl end-to-end and reliability suites: run the real eddyctl binary to its end,
// and read a SQLite file another process owns. Every wait is the caller's to choose: a crash suite
// on a loaded machine waits minutes where a command-line check waits seconds.
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QStringList>

#include <sqlite3.h>

namespace Eddy::Test {

inline QString ctlBin()
{
    return qEnvironmentVariable("EDDYCTL_BIN", QStringLiteral("eddyctl"));
}

struct CtlRun
{
    int code = -1; // -2: crashed, -1: did not start or timed out
    QByteArray out;
    QByteArray err;
};

struct CtlTimeouts
{
    int startMs;  // for the process to start
    int finishMs; // for it to exit; then it is killed
    int killMs;   // for it to go after the kill
};

// Runs eddyctl with args and no input, env added to this process's environment; its exit code,
// or -2 when it crashed, -1 when it did not start or did not finish in time (err then says
// "timed out").
inline CtlRun runCtl(const QStringList &args, const CtlTimeouts &timeouts,
                     const QHash<QString, QString> &env = {})
{
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (auto it = env.cbegin(); it != env.cend(); ++it)
            e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
    }
    p.start(ctlBin(), args);
    CtlRun r;
    if (!p.waitForStarted(timeouts.startMs))
        return r;
    p.closeWriteChannel();
    if (!p.waitForFinished(timeouts.finishMs)) {
        p.kill();
        p.waitForFinished(timeouts.killMs);
        r.err = "timed out: " + p.readAllStandardError();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Read-only SQL on a database file another process owns (WAL: readers never block writers);
// busyTimeoutMs bounds the wait for a checkpoint or recovery of the owner.
inline QList<QStringList> query(const QString &path, const QString &sql, int busyTimeoutMs)
{
    QList<QStringList> rows;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_busy_timeout(db, busyTimeoutMs);
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            QStringList row;
            for (int i = 0; i < sqlite3_column_count(st); ++i)
                row << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, i)));
            rows << row;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

// The first column of the first row as a number; -1 when there is none.
inline qint64 scalar(const QString &path, const QString &sql, int busyTimeoutMs)
{
    const auto rows = query(path, sql, busyTimeoutMs);
    return rows.isEmpty() || rows[0].isEmpty() ? -1 : rows[0][0].toLongLong();
}

inline bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

} // namespace Eddy::Test
