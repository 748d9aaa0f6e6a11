#pragma once

// Choosing a file in one of the window's file dialogs as a person does: go to the folder, type the
// file's name, accept. Shared by the e2e suites that open, save, import and export through menus.
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <optional>

namespace Eddy::Test {

// Waits (10 s) for the file dialog `objectName` below `root` to show, goes to `path`'s folder,
// types the file's name and accepts; QFileDialog's own accept() reads the chosen file.
inline void chooseInFileDialog(QWidget *root, const QString &objectName, const QString &path)
{
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = root->findChild<QFileDialog *>(objectName)) && dialog->isVisible(), 10000);
    // A folder the dialog has not listed yet loads in the background, and a name typed before
    // that (into a field without focus, which is what keyClicks gives) selects the folder itself
    // for good: the dialog then answers with the folder, not the file. Wait for the listing, as a
    // person sees it before typing.
    const QString folder = QFileInfo(path).absolutePath();
    auto *model = dialog->findChild<QFileSystemModel *>();
    std::optional<QSignalSpy> loaded;
    if (model && dialog->directory().absolutePath() != folder)
        loaded.emplace(model, &QFileSystemModel::directoryLoaded);
    dialog->setDirectory(folder);
    if (loaded) {
        (void)QTest::qWaitFor([&] {
            return std::any_of(loaded->cbegin(), loaded->cend(),
                               [&](const QList<QVariant> &args) { return args.value(0).toString() == folder; });
        }, 5000);
    }
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    QVERIFY(name);
    name->clear();
    QTest::keyClicks(name, QFileInfo(path).fileName());
    QCOMPARE(dialog->selectedFiles(), QStringList{QFileInfo(path).absoluteFilePath()});
    static_cast<QDialog *>(dialog)->accept();
}

} // namespace Eddy::Test
