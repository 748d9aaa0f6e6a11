#pragma once

// Shared by the slurm-labelled tests: the private cluster (slurm-cluster.sh) and running a
// command to its end (the Slurm tools, the script).

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace Eddy::Test::Slurm {

inline QString script()
{
    return qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/tests/slurm/slurm-cluster.sh");
}

// Runs a command to its end; its stdout, or empty on failure. stderr goes to the test's log, or
// into the output with QProcess::MergedChannels.
inline QByteArray tool(const QString &program,
                       const QStringList &args,
                       int *code = nullptr,
                       QProcess::ProcessChannelMode channels = QProcess::SeparateChannels)
{
    QProcess p;
    p.setProcessChannelMode(channels);
    p.start(program, args);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
    }
    if (code)
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    const QByteArray err = channels == QProcess::MergedChannels ? QByteArray()
                                                                : p.readAllStandardError();
    if (!err.isEmpty())
        qInfo("%s: %s", qPrintable(program), err.constData());
    return p.readAllStandardOutput();
}

// Starts the private cluster in dir (extra: {"--rest"} for slurmrestd too) and exports its
// SLURM_CONF to this process and its children; the script's output, errors included.
inline QByteArray startCluster(const QString &dir, int &code, const QStringList &extra = {})
{
    const QByteArray out = tool(script(),
                                QStringList{QStringLiteral("start"), dir} + extra,
                                &code,
                                QProcess::MergedChannels);
    qputenv("SLURM_CONF", (dir + QStringLiteral("/slurm.conf")).toUtf8());
    return out;
}

// The case key the server names a task's folders, Slurm job and OpenFOAM marker by
// (server/casefolder.h): a hash of the task id, never the id.
inline QString caseKey(const QString &taskId)
{
    return QString::fromLatin1(QCryptographicHash::hash("eddy case folder\n" + taskId.toUtf8(),
                                                        QCryptographicHash::Sha256)
                                   .toHex()
                                   .left(24));
}

// Waits (up to a minute) until squeue lists the case's job in state (RUNNING, PENDING, ...).
inline bool waitForJobState(const QString &caseKey, const QByteArray &state)
{
    QDeadlineTimer deadline(60000);
    const QByteArray name = "eddy-" + caseKey.left(12).toLatin1();
    while (!deadline.hasExpired()) {
        const QByteArray out = tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                                                              QStringLiteral("-o"), QStringLiteral("%j %T")});
        for (const QByteArray &line : out.split('\n'))
            if (line == name + ' ' + state)
                return true;
        QTest::qWait(100); // the poll step of a condition wait: each try runs squeue, not every 10 ms
    }
    return false;
}

// The id of the case's live job, or empty.
inline QByteArray jobIdOf(const QString &caseKey)
{
    const QByteArray name = " eddy-" + caseKey.left(12).toLatin1();
    for (const QByteArray &line : tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i %j")}).split('\n'))
        if (line.endsWith(name))
            return line.split(' ').first();
    return {};
}

inline void stopCluster(const QString &dir)
{
    tool(script(), {QStringLiteral("stop"), dir});
}

} // namespace Eddy::Test::Slurm
