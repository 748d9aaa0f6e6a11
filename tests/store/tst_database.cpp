// The integrity check of a real SQLite file: skipped at open only after a clean close of an
// untouched file, run in full after a killed writer (this binary re-run as a child and killed
// with SIGKILL) or any change since, and run in the background otherwise, where damage still
// reaches the user and makes the next open refuse the file.
#include "app/store/taskstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace Eddy::Store;

namespace {

constexpr int s_checkTimeoutMs = 120000; // a background check at nice 19 on a loaded machine

ServerRecord testServer()
{
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:1/mcp");
    return s;
}

// Journals `count` cases with a task each: enough rows to span many pages.
bool addTasks(TaskStore &store, qint64 serverId, int first, int count)
{
    for (int i = first; i < first + count; ++i) {
        CaseRecord c;
        c.serverId = serverId;
        c.index = i;
        c.tool = QStringLiteral("run_cfd_case");
        c.arguments = QStringLiteral("{\"reynolds\":%1,\"pad\":\"%2\"}").arg(i).arg(QString(300, QLatin1Char('x')));
        c.idempotencyKey = QStringLiteral("key-%1").arg(i);
        if (!store.journalCase(c))
            return false;
        TaskRecord t;
        t.serverId = serverId;
        t.tool = c.tool;
        t.arguments = c.arguments;
        t.serverTaskId = QStringLiteral("secret-%1").arg(i);
        if (!store.recordTaskForCase(c.id, t))
            return false;
    }
    return true;
}

// A store with `tasks` tasks, closed cleanly (so it leaves the clean-shutdown mark).
bool writeAndClose(const QString &path, int tasks)
{
    TaskStore store;
    return store.open(path) && addTasks(store, *store.addServer(testServer()), 0, tasks);
}

bool overwrite(const QString &path, qint64 offset, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
}

// The child: writes tasks in a loop and says how many are committed, until it is killed.
int runWriter(const QString &path)
{
    TaskStore store;
    if (!store.open(path)) {
        fprintf(stderr, "%s\n", qPrintable(store.lastError()));
        return 1;
    }
    const qint64 server = *store.addServer(testServer());
    for (int i = 0;; i += 10) {
        if (!addTasks(store, server, i, 10))
            return 1;
        printf("%d\n", i + 10);
        fflush(stdout);
    }
}

} // namespace

class tst_Database : public QObject
{
    Q_OBJECT

private slots:
    void cleanCloseSkipsTheFullCheck();
    void killedWriterGetsTheFullCheck();
    void changedAfterCloseGetsTheFullCheck();
    void backgroundCheckReportsDamage();
};

void tst_Database::cleanCloseSkipsTheFullCheck()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    const QString mark = Database::cleanShutdownMarkPath(path);
    {
        TaskStore store;
        QVERIFY2(store.open(path), qPrintable(store.lastError()));
        QCOMPARE(store.database().openCheck(), Database::OpenCheck::Full); // a new file: no mark
        QVERIFY2(store.database().openCheckReason().contains(QStringLiteral("no clean-shutdown mark")),
                 qPrintable(store.database().openCheckReason()));
        QVERIFY(addTasks(store, *store.addServer(testServer()), 0, 200));
    }
    QVERIFY(QFile::exists(mark));
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")) || QFile(path + QStringLiteral("-wal")).size() == 0);

    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().openCheck(), Database::OpenCheck::Skipped);
    QVERIFY(store.database().openCheckReason().isEmpty());
    QVERIFY(!QFile::exists(mark)); // removed at open: a crash from here on leaves none
    QCOMPARE(store.taskCount(), qint64(200));
    QTRY_COMPARE_WITH_TIMEOUT(store.database().backgroundCheckState(), IntegrityCheck::State::Passed,
                              s_checkTimeoutMs);
}

void tst_Database::killedWriterGetsTheFullCheck()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store; // a clean close first, so only the kill can take the mark away
        QVERIFY(store.open(path));
    }
    QVERIFY(QFile::exists(Database::cleanShutdownMarkPath(path)));

    QProcess writer;
    writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    writer.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--writer"), path});
    QVERIFY(writer.waitForStarted(30000));
    int committed = 0;
    while (committed < 100 && writer.state() == QProcess::Running) {
        if (!writer.canReadLine() && !writer.waitForReadyRead(60000))
            break;
        while (writer.canReadLine())
            committed = writer.readLine().trimmed().toInt();
    }
    QVERIFY2(committed >= 100, "the writer did not commit 100 tasks");
    writer.kill(); // SIGKILL, in the middle of its next transactions
    QVERIFY(writer.waitForFinished(30000));
    QCOMPARE(writer.exitStatus(), QProcess::CrashExit);

    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().openCheck(), Database::OpenCheck::Full);
    QVERIFY2(store.database().openCheckReason().contains(QStringLiteral("no clean-shutdown mark")),
             qPrintable(store.database().openCheckReason()));
    // SQLite's WAL recovery kept every transaction the writer reported as committed.
    QVERIFY2(store.taskCount() >= committed, qPrintable(QString::number(store.taskCount())));
}

void tst_Database::changedAfterCloseGetsTheFullCheck()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    QVERIFY(writeAndClose(path, 20));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray header = f.read(100);
    f.close();
    // The same bytes written again, right after the close: the content is sound, but the file was
    // written by someone else, so the open cannot vouch for it.
    QVERIFY(overwrite(path, 0, header));
    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().openCheck(), Database::OpenCheck::Full);
    QVERIFY2(store.database().openCheckReason().contains(QStringLiteral("changed")),
             qPrintable(store.database().openCheckReason()));
    QCOMPARE(store.taskCount(), qint64(20));
}

void tst_Database::backgroundCheckReportsDamage()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    QVERIFY(writeAndClose(path, 200));
    // Damage the open cannot see: pages spoilt under a valid mark, as a failing disk would.
    QByteArray garbage(4096 * 4, '\0');
    for (int i = 0; i < garbage.size(); ++i)
        garbage[i] = char((i * 131 + 7) & 0xff);
    QVERIFY(overwrite(path, 4096 * 3, garbage));
    QVERIFY(Database::writeCleanShutdownMark(path));

    std::mutex mutex;
    QString reported;
    {
        TaskStore store;
        store.database().setDamageHandler([&](const QString &message) {
            const std::lock_guard lock(mutex);
            reported = message;
        });
        QVERIFY2(store.open(path), qPrintable(store.lastError()));
        QCOMPARE(store.database().openCheck(), Database::OpenCheck::Skipped);
        QTRY_COMPARE_WITH_TIMEOUT(store.database().backgroundCheckState(),
                                  IntegrityCheck::State::Damaged, s_checkTimeoutMs);
        const std::lock_guard lock(mutex);
        QVERIFY2(reported.contains(QStringLiteral("damaged")), qPrintable(reported));
        QVERIFY2(reported.contains(path), qPrintable(reported));
        QVERIFY2(reported.contains(QStringLiteral("--db")), qPrintable(reported)); // says what to do
    }
    QVERIFY(!QFile::exists(Database::cleanShutdownMarkPath(path))); // no clean mark for a damaged file

    TaskStore store;
    QVERIFY(!store.open(path));
    QVERIFY2(store.lastError().contains(QStringLiteral("damaged")), qPrintable(store.lastError()));
    QCOMPARE(store.database().openCheck(), Database::OpenCheck::Full);
}

int main(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], "--writer") == 0)
        return runWriter(QString::fromLocal8Bit(argv[2]));
    QCoreApplication app(argc, argv);
    tst_Database test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_database.moc"
