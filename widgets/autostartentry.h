#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace Eddy {

// The XDG autostart entry that starts Eddy's notifier at login (autostart/eddy-notifier.desktop
// in the user's config folder, Desktop Application Autostart Specification): after a restart it
// follows the questions of tasks that were left running, until the window opens. Plain file I/O.
class AutostartEntry final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::AutostartEntry)

public:
    // command: the program and the arguments the notifier gets before --notify (e.g. --db FILE).
    explicit AutostartEntry(QStringList command);

    static QString path();
    bool isEnabled() const;
    // Writes or removes the entry; false and *error (what to do) when that failed.
    bool setEnabled(bool on, QString *error) const;
    // The entry's text, its Exec line quoted as the specification asks.
    QByteArray text() const;

private:
    QStringList m_command;
};

} // namespace Eddy
