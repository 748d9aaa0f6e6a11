#pragma once

// Choosing a file in one of the window's file dialogs as a person does: go to the folder, type the
// file's name, accept. Shared by the e2e suites that open, save, import and export through menus.
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QTest>

namespace Eddy::Test {

// Waits (10 s) for the file dialog `objectName` below `root` to show, goes to `path`'s folder,
// types the file's name and accepts; QFileDialog's own accept() reads the chosen file.
inline void chooseInFileDialog(QWidget *root, const QString &objectName, const QString &path)
{
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = root->findChild<QFileDialog *>(objectName)) && dialog->isVisible(), 10000);
    dialog->setDirectory(QFileInfo(path).absolutePath());
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    QVERIFY(name);
    name->clear();
    QTest::keyClicks(name, QFileInfo(path).fileName());
    QCOMPARE(dialog->selectedFiles(), QStringList{QFileInfo(path).absoluteFilePath()});
    static_cast<QDialog *>(dialog)->accept();
}

} // namespace Eddy::Test
