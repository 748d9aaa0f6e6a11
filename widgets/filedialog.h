#pragma once

#include <QString>
#include <QStringList>

class QFileDialog;
class QWidget;

namespace Eddy {

// Every file dialog of the window. Qt's own dialog (never the platform's), with an icon provider
// that names a file's type from its name alone. Qt's default one reads a file to sniff its type
// when the name does not tell it (eddy.sqlite-wal, -shm), and closing that read drops every POSIX
// lock this process holds on the file: SQLite's locks on the database the window has open. An
// eddyctl that closed the database next would then take itself for its last user and delete the
// WAL the window still writes into.
//
// A dialog that deletes itself on close; `settingsKey` (QSettings) remembers its folder.
QFileDialog *newFileDialog(QWidget *parent,
                           const QString &title,
                           const QString &objectName,
                           const QStringList &nameFilters,
                           const QString &settingsKey = {});

// Modal "Save as" with such a dialog, starting at `suggested`: the chosen path, or empty.
QString saveFileName(QWidget *parent, const QString &title, const QString &suggested,
                     const QString &filter);

} // namespace Eddy
