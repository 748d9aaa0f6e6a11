// "Notify About Questions After Login" in the real window (offscreen, real SQLite file): checking
// it writes the notifier's XDG autostart entry, which desktop-file-validate (desktop-file-utils)
// accepts and whose Exec line starts the notifier on the window's database even from a path
// with spaces; unchecking removes it; a folder that cannot be written leaves it unchecked and
// says what to do.
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "widgets/autostartentry.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;

class tst_Autostart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void checkingWritesAValidEntryAndUncheckingRemovesIt();
    void anUnwritableFolderLeavesItUnchecked();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
};

void tst_Autostart::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the config folder is the test's own
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_autostart"));
    QVERIFY(m_dir.isValid());
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate")).isEmpty(),
             "this test needs desktop-file-validate: install the Debian package desktop-file-utils");
    QSettings().clear();
    QFile::remove(AutostartEntry::path());
}

void tst_Autostart::cleanup()
{
    m_app.reset();
    QFile::remove(AutostartEntry::path());
    QDir(QFileInfo(AutostartEntry::path()).absolutePath()).removeRecursively();
    QFile::remove(QFileInfo(AutostartEntry::path()).absolutePath());
}

void tst_Autostart::checkingWritesAValidEntryAndUncheckingRemovesIt()
{
    const QString db = m_dir.filePath(QStringLiteral("my study.sqlite"));
    m_app = Test::E2eWindow::open(db);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    const QString program = m_dir.filePath(QStringLiteral("Eddy $HOME/eddy"));
    w.setNotifierCommand({program, QStringLiteral("--db"), db});
    QAction *action = w.findChild<QAction *>(QStringLiteral("notifyAfterLogin"));
    QVERIFY(action);
    QVERIFY(!action->isChecked());

    action->trigger(); // as the Tasks menu does
    QVERIFY(action->isChecked());
    QVERIFY(QFile::exists(AutostartEntry::path()));
    QProcess validate;
    validate.start(QStringLiteral("desktop-file-validate"), {AutostartEntry::path()});
    QVERIFY(validate.waitForFinished(30000));
    const QByteArray said = validate.readAllStandardOutput() + validate.readAllStandardError();
    QVERIFY2(validate.exitCode() == 0 && said.isEmpty(), said.constData());
    QFile f(AutostartEntry::path());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    // $ escaped for the Exec key's quoting, and that backslash once more for the value.
    const QString program2 = QString(program).replace(QLatin1Char('$'), QStringLiteral("\\\\$"));
    QVERIFY2(text.contains(QStringLiteral("\nExec=\"%1\" --db \"%2\" --notify\n").arg(program2, db)), qPrintable(text));

    action->trigger();
    QVERIFY(!action->isChecked());
    QVERIFY(!QFile::exists(AutostartEntry::path()));
}

void tst_Autostart::anUnwritableFolderLeavesItUnchecked()
{
    // A file where the autostart folder belongs: the entry cannot be written.
    const QString folder = QFileInfo(AutostartEntry::path()).absolutePath();
    QVERIFY(QDir().mkpath(QFileInfo(folder).absolutePath()));
    QVERIFY(Test::writeFile(folder, "not a folder"));
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("other.sqlite")));
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QAction *action = w.findChild<QAction *>(QStringLiteral("notifyAfterLogin"));
    QVERIFY(action);
    action->trigger();
    QVERIFY(!action->isChecked());
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w.findChild<QMessageBox *>()) != nullptr);
    QVERIFY2(box->text().contains(folder), qPrintable(box->text()));
}

QTEST_MAIN(tst_Autostart)
#include "tst_autostart.moc"
