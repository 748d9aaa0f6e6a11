// A file dialog that shows the database's own folder keeps the window's hold on the database: the
// real window (offscreen) on a real SQLite file, File > Open Sweep pointed at that folder, then the
// real eddyctl opening and closing the same file. SQLite's locks are POSIX locks, which any close()
// of the same file by this process drops; a dialog that reads eddy.sqlite-shm to guess its type
// would leave the window without them, and eddyctl, taking itself for the last user, would delete
// the WAL the window still writes into.
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileSystemModel>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Eddy;

namespace {

// POSIX locks this process holds on `path`'s inode, from /proc/locks; -1 when it has no inode.
int locksHeld(const QString &path)
{
    struct stat st{};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly | QIODevice::Text))
        return -1;
    const QByteArray pid = QByteArray::number(QCoreApplication::applicationPid());
    const QByteArray inode = ':' + QByteArray::number(qulonglong(st.st_ino));
    int held = 0;
    // "1: POSIX  ADVISORY  READ 4242 fe:01:123456 128 128"
    for (const QByteArray &line : locks.readAll().split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() >= 6 && f[1] == "POSIX" && f[4] == pid && f[5].endsWith(inode))
            ++held;
    }
    return held;
}

qint64 inodeOf(const QString &path)
{
    struct stat st{};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? qint64(st.st_ino) : -1;
}

} // namespace

class tst_DialogLocks : public QObject
{
    Q_OBJECT

private slots:
    void fileDialogOnTheDatabaseFolderKeepsItsLocks();
};

void tst_DialogLocks::fileDialogOnTheDatabaseFolderKeepsItsLocks()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("eddy.sqlite"));
    auto app = Test::E2eWindow::open(db);
    QVERIFY(app);
    const QString shm = db + QStringLiteral("-shm");
    QTRY_VERIFY_WITH_TIMEOUT(locksHeld(shm) > 0, 10000);
    const qint64 shmInode = inodeOf(shm);

    QAction *open = app->window()->findChild<QAction *>(QStringLiteral("openSweep"));
    QVERIFY(open);
    open->trigger();
    QFileDialog *dialog = nullptr;
    const auto findDialog = [] {
        for (QWidget *w : QApplication::allWidgets())
            if (auto *d = qobject_cast<QFileDialog *>(w); d && d->objectName() == QLatin1String("sweepFileDialog"))
                return d;
        return static_cast<QFileDialog *>(nullptr);
    };
    QTRY_VERIFY_WITH_TIMEOUT((dialog = findDialog()), 10000);
    dialog->selectNameFilter(dialog->nameFilters().constLast()); // All files
    dialog->setDirectory(dir.path());
    auto *model = dialog->findChild<QFileSystemModel *>();
    QVERIFY(model);
    // The dialog has listed the folder and named each file's type (what read the file before).
    QTRY_VERIFY_WITH_TIMEOUT(model->index(shm).isValid() && !model->type(model->index(shm)).isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!model->type(model->index(db + QStringLiteral("-wal"))).isEmpty(), 20000);
    QVERIFY2(locksHeld(shm) > 0, "the window lost its locks on the database when the file dialog listed its folder");

    // Another process opens and closes the database: it must see the window still there.
    const Test::CtlRun r = Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("tasks")}, {10000, 60000, 5000});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(QFile::exists(db + QStringLiteral("-wal")), "eddyctl deleted the WAL the window writes into");
    QCOMPARE(inodeOf(shm), shmInode);
    QVERIFY(locksHeld(shm) > 0);
    dialog->reject();
}

QTEST_MAIN(tst_DialogLocks)
#include "tst_dialoglocks.moc"
