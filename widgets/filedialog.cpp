#include "widgets/filedialog.h"

#include <QFileDialog>
#include <QFileIconProvider>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QSettings>

namespace Eddy {

namespace {

// Icons and type names from the file name only: nothing listed is ever opened.
class NameOnlyIconProvider final : public QFileIconProvider
{
public:
    QIcon icon(IconType type) const override { return QFileIconProvider::icon(type); }
    QIcon icon(const QFileInfo &info) const override
    {
        return QFileIconProvider::icon(info.isDir() ? QFileIconProvider::Folder : QFileIconProvider::File);
    }
    QString type(const QFileInfo &info) const override
    {
        if (info.isDir())
            return QFileIconProvider::type(info);
        return QMimeDatabase().mimeTypeForFile(info, QMimeDatabase::MatchExtension).comment();
    }
};

} // namespace

QFileDialog *newFileDialog(QWidget *parent,
                           const QString &title,
                           const QString &objectName,
                           const QStringList &nameFilters,
                           const QString &settingsKey)
{
    auto *dialog = new QFileDialog(parent, title);
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    auto *icons = new NameOnlyIconProvider;
    dialog->setIconProvider(icons);
    QObject::connect(dialog, &QObject::destroyed, [icons] { delete icons; });
    dialog->setNameFilters(nameFilters);
    if (!settingsKey.isEmpty()) {
        const QString dir = QSettings().value(settingsKey).toString();
        if (!dir.isEmpty() && QFileInfo(dir).isDir())
            dialog->setDirectory(dir);
    }
    return dialog;
}

QString saveFileName(QWidget *parent, const QString &title, const QString &suggested,
                     const QString &filter)
{
    QFileDialog *dialog = newFileDialog(parent, title, QStringLiteral("saveFileDialog"), {filter});
    dialog->setAttribute(Qt::WA_DeleteOnClose, false);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->selectFile(suggested);
    QString path;
    if (dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty())
        path = dialog->selectedFiles().constFirst();
    delete dialog;
    return path;
}

} // namespace Eddy
