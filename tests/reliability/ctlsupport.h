#pragma once

// Helpers for the reliability suites: run the real eddyctl binary, read a SQLite file another
// process owns, pick a loopback port that a restarted server can bind again.
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>

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

inline CtlRun runCtl(const QStringList &args, int timeoutMs = 240000)
{
    QProcess p;
    p.start(ctlBin(), args);
    CtlRun r;
    if (!p.waitForStarted(30000))
        return r;
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(10000);
        r.err = "timed out: " + p.readAllStandardError();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Read-only SQL on a database file another process owns (WAL: readers never block writers).
inline QList<QStringList> query(const QString &path, const QString &sql)
{
    QList<QStringList> rows;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return rows;
    }
    sqlite3_busy_timeout(db, 20000);
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

inline qint64 scalar(const QString &path, const QString &sql)
{
    const auto rows = query(path, sql);
    return rows.isEmpty() || rows[0].isEmpty() ? -1 : rows[0][0].toLongLong();
}

inline bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// A loopback port free right now, for a server that must come back on the same URL.
inline quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

} // namespace Eddy::Test
