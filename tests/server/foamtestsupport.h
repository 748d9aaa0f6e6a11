#pragma once

// What the OpenFOAM tests share: finding the Debian installation and its tutorials, reading a
// case back with OpenFOAM's own foamDictionary. Header-only, Qt Core.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>

namespace Eddy::Test {

inline QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The installation's prefix: the folder above the bin/ holding foamDictionary (Debian: /usr).
inline QString foamPrefix()
{
    const QString bin = QFileInfo(QStandardPaths::findExecutable(QStringLiteral("foamDictionary")))
                            .canonicalFilePath();
    return QFileInfo(bin).dir().filePath(QStringLiteral(".."));
}

// A tutorial of openfoam-examples, e.g. "incompressible/icoFoam/cavity/cavity".
inline QString foamTutorial(const QString &relative)
{
    return foamPrefix() + QStringLiteral("/share/doc/openfoam-examples/examples/") + relative;
}

// The environment an OpenFOAM utility needs to run in caseDir without a sourced bashrc.
inline QProcessEnvironment foamEnvironment(const QString &caseDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains(QStringLiteral("WM_PROJECT_DIR")))
        env.insert(QStringLiteral("WM_PROJECT_DIR"), foamPrefix() + QStringLiteral("/share/openfoam"));
    env.insert(QStringLiteral("PWD"), QFileInfo(caseDir).canonicalFilePath()); // else a warning
    return env;
}

// foamDictionary FILE -entry ENTRY -value, as an engineer would read a case back.
inline QString foamValue(const QString &caseDir, const QString &file, const QString &entry)
{
    QProcess p;
    p.setWorkingDirectory(caseDir);
    p.setProcessEnvironment(foamEnvironment(caseDir));
    p.start(QStringLiteral("foamDictionary"), {file, QStringLiteral("-entry"), entry, QStringLiteral("-value")});
    if (!p.waitForFinished(30000))
        return QStringLiteral("<foamDictionary hung>");
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace Eddy::Test
