#include "widgets/autostartentry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace Eddy {

namespace {

// An Exec argument: quoted when it holds anything but plain characters, with the characters
// ", `, $ and backslash escaped inside the quotes (Desktop Entry Specification, "The Exec key");
// % doubled.
QString execArgument(QString arg)
{
    arg.replace(QLatin1Char('%'), QStringLiteral("%%"));
    static const QString plain = QStringLiteral(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%");
    const bool quote = arg.isEmpty() || std::any_of(arg.cbegin(), arg.cend(), [](QChar c) { return !plain.contains(c); });
    if (!quote)
        return arg;
    QString out;
    for (QChar c : std::as_const(arg)) {
        if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return QLatin1Char('"') + out + QLatin1Char('"');
}

} // namespace

AutostartEntry::AutostartEntry(QStringList command) : m_command(std::move(command)) {}

QString AutostartEntry::path()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/autostart/eddy-notifier.desktop");
}

bool AutostartEntry::isEnabled() const
{
    return QFileInfo::exists(path());
}

QByteArray AutostartEntry::text() const
{
    QStringList exec;
    for (const QString &a : m_command + QStringList{QStringLiteral("--notify")})
        exec << execArgument(a);
    // The value itself is a string whose backslashes are escaped once more.
    const QString execLine = exec.join(QLatin1Char(' ')).replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    return QStringLiteral("[Desktop Entry]\n"
                          "Type=Application\n"
                          "Name=Eddy Notifier\n"
                          "Name[de]=Eddy-Benachrichtigungen\n"
                          "Comment=Desktop notifications for Eddy's open questions while its window is closed\n"
                          "Comment[de]=Desktop-Benachrichtigungen für Eddys offene Fragen, solange sein Fenster "
                          "geschlossen ist\n"
                          "Exec=%1\n"
                          "Icon=eddy\n"
                          "Terminal=false\n"
                          "NoDisplay=true\n")
        .arg(execLine)
        .toUtf8();
}

bool AutostartEntry::setEnabled(bool on, QString *error) const
{
    const QString file = path();
    if (!on) {
        if (!QFileInfo::exists(file) || QFile::remove(file))
            return true;
        *error = tr("Eddy could not remove %1; remove it by hand to stop the notifier at login.").arg(file);
        return false;
    }
    QSaveFile out(file);
    if (!QDir().mkpath(QFileInfo(file).absolutePath()) || !out.open(QIODevice::WriteOnly)
        || out.write(text()) < 0 || !out.commit()) {
        *error = tr("Eddy could not write %1 (%2); check that the folder is writable.").arg(file, out.errorString());
        return false;
    }
    return true;
}

} // namespace Eddy
