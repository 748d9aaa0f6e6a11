#pragma once

// Shared by the eddyctl job suites: the real eddy-cfd-server with classic job tools only
// (--no-tasks-extension, debug log so a test can count the status calls it received) and a
// private eddyctl database in a temporary folder.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace Eddy::Test {

struct CtlJobServer
{
    TestServer server;
    QTemporaryDir dir;
    QString db; // the eddyctl database file, in dir

    // Starts the server with `workers` solver threads; empty, or what went wrong.
    QString start(int workers)
    {
        if (!QFile::exists(ctlBin()))
            return QStringLiteral("no eddyctl at ") + ctlBin();
        if (!server.start({QStringLiteral("--workers"),
                           QString::number(workers),
                           QStringLiteral("--no-tasks-extension"),
                           QStringLiteral("--log-level"),
                           QStringLiteral("debug")}))
            return server.errorString();
        if (!dir.isValid())
            return QStringLiteral("no temporary folder: ") + dir.errorString();
        db = dir.filePath(QStringLiteral("eddy.sqlite"));
        return {};
    }

    QStringList withDb(const QStringList &rest) const
    {
        return QStringList{QStringLiteral("--db"), db} + rest;
    }

    // eddyctl --db <db> args, to its end (a sweep of jobs may take minutes on a loaded machine).
    CtlRun run(const QStringList &args) const
    {
        return runCtl(withDb(args), {10000, 240000, 5000});
    }

    qint64 scalar(const QString &sql) const { return Eddy::Test::scalar(db, sql, 10000); }
};

// One status call as the server logged it: when (ms of the day) and how many ids it asked about.
struct StatusCall
{
    qint64 atMs = 0;
    int ids = 0;
};

inline QList<StatusCall> statusCalls(const QByteArray &log)
{
    static const QRegularExpression line(
        QStringLiteral("^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d\\d\\d) eddy\\.server debug: "
                       "get_cfd_case_status call for (\\d+) job\\(s\\)$"),
        QRegularExpression::MultilineOption);
    QList<StatusCall> out;
    qint64 dayOffset = 0;
    for (auto it = line.globalMatch(QString::fromUtf8(log)); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        qint64 at = ((m.captured(1).toLongLong() * 60 + m.captured(2).toLongLong()) * 60
                     + m.captured(3).toLongLong())
                        * 1000
                    + m.captured(4).toLongLong();
        if (!out.isEmpty() && at + dayOffset < out.last().atMs)
            dayOffset += 24 * 3600 * 1000; // past midnight
        out.append({at + dayOffset, m.captured(5).toInt()});
    }
    return out;
}

} // namespace Eddy::Test
