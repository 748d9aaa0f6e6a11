#pragma once

// The reliability suites' use of the shared eddyctl helpers (tests/common/ctlprocess.h), with
// their own waits: whole sweeps run under kill -9 on a loaded machine, so minutes, not seconds.
// Plus a loopback port that a restarted server can bind again.
#include "tests/common/ctlprocess.h"

#include <QHostAddress>
#include <QTcpServer>

namespace Eddy::Test {

inline CtlRun runCtl(const QStringList &args, int timeoutMs = 240000)
{
    return runCtl(args, CtlTimeouts{30000, timeoutMs, 10000});
}

inline QList<QStringList> query(const QString &path, const QString &sql)
{
    return query(path, sql, 20000);
}

inline qint64 scalar(const QString &path, const QString &sql)
{
    return scalar(path, sql, 20000);
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
