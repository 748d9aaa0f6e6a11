#pragma once

// Shared by the slurm-labelled tests: the private cluster's script and running a command to its
// end (the Slurm tools, the script).

#include <QProcess>
#include <QString>
#include <QStringList>

namespace Eddy::Test::Slurm {

inline QString script()
{
    return qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/tests/slurm/slurm-cluster.sh");
}

// Runs a command to its end; its stdout, or empty on failure. stderr goes to the test's log.
inline QByteArray tool(const QString &program, const QStringList &args, int *code = nullptr)
{
    QProcess p;
    p.start(program, args);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
    }
    if (code)
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    const QByteArray err = p.readAllStandardError();
    if (!err.isEmpty())
        qInfo("%s: %s", qPrintable(program), err.constData());
    return p.readAllStandardOutput();
}

} // namespace Eddy::Test::Slurm
