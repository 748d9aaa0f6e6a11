// Job adapters stored with their server, and task rows that remember their pattern.
#include "app/store/taskstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Eddy::Store;

class TstJobAdapterStore : public QObject
{
    Q_OBJECT

private slots:
    void adapterAndPattern()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
        qint64 serverId = 0;
        qint64 taskId = 0;
        {
            TaskStore store;
            QVERIFY2(store.open(path), qPrintable(store.lastError()));
            ServerRecord s;
            s.url = QStringLiteral("http://127.0.0.1:1/mcp");
            serverId = *store.addServer(s);
            QVERIFY(!store.jobAdapter(serverId));
            QVERIFY(store.lastError().isEmpty());
            QVERIFY(store.setJobAdapter(serverId, QStringLiteral("{\"a\":1}")));
            QVERIFY(store.setJobAdapter(serverId, QStringLiteral("{\"a\":2}")));
            CaseRecord c;
            c.serverId = serverId;
            c.tool = QStringLiteral("submit_job");
            c.arguments = QStringLiteral("{}");
            c.idempotencyKey = QStringLiteral("k1");
            c.traceparent = QStringLiteral("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            QVERIFY2(store.journalCase(c), qPrintable(store.lastError()));
            TaskRecord t;
            t.serverId = serverId;
            t.tool = c.tool;
            t.serverTaskId = QStringLiteral("job-1");
            t.pattern = QStringLiteral("job");
            taskId = *store.recordTaskForCase(c.id, t);
        }
        TaskStore store;
        QVERIFY(store.open(path));
        QCOMPARE(store.jobAdapter(serverId).value_or(QString()), QStringLiteral("{\"a\":2}"));
        QCOMPARE(store.task(taskId)->pattern, QStringLiteral("job"));
        QCOMPARE(store.liveTasks().value(0).pattern, QStringLiteral("job"));
    }
};

QTEST_GUILESS_MAIN(TstJobAdapterStore)
#include "tst_jobadapterstore.moc"
