// Job adapters stored with their server, and task rows that remember their pattern (the three
// known words and one a later version may write).
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
            t.pattern = Pattern::Job;
            taskId = *store.recordTaskForCase(c.id, t);
        }
        TaskStore store;
        QVERIFY(store.open(path));
        QCOMPARE(store.jobAdapter(serverId).value_or(QString()), QStringLiteral("{\"a\":2}"));
        QCOMPARE(store.task(taskId)->pattern, Pattern::Job);
        QCOMPARE(store.liveTasks().value(0).pattern, Pattern::Job);
    }

    void everyPatternReadsBack()
    {
        QTemporaryDir dir;
        TaskStore store;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("eddy.sqlite"))),
                 qPrintable(store.lastError()));
        ServerRecord s;
        s.url = QStringLiteral("http://127.0.0.1:1/mcp");
        const qint64 serverId = *store.addServer(s);
        const QList<Pattern> patterns{Pattern::Task, Pattern::Streamed, Pattern::Job};
        QList<qint64> ids;
        for (int i = 0; i <= patterns.size(); ++i) {
            CaseRecord c;
            c.serverId = serverId;
            c.tool = QStringLiteral("run_cfd_case");
            c.arguments = QStringLiteral("{}");
            c.idempotencyKey = QStringLiteral("key-%1").arg(i);
            QVERIFY2(store.journalCase(c), qPrintable(store.lastError()));
            TaskRecord t;
            t.serverId = serverId;
            t.tool = c.tool;
            t.serverTaskId = QStringLiteral("id-%1").arg(i);
            t.pattern = patterns.value(i, Pattern::Task);
            ids << *store.recordTaskForCase(c.id, t);
        }
        for (int i = 0; i < patterns.size(); ++i) {
            QCOMPARE(store.task(ids[i])->pattern, patterns[i]);
            QCOMPARE(store.task(ids[i])->status, TaskStatus::Working);
        }
        // A word no Eddy writes (a hand edit): the row reads as lost and is not followed.
        QVERIFY(store.database().exec(
            QStringLiteral("UPDATE tasks SET pattern = 'workflow' WHERE id = %1").arg(ids.last())));
        QCOMPARE(store.task(ids.last())->status, TaskStatus::Lost);
        QList<Pattern> live;
        for (const TaskRecord &t : store.liveTasks())
            live << t.pattern;
        QCOMPARE(live, patterns);
    }
};

QTEST_GUILESS_MAIN(TstJobAdapterStore)
#include "tst_jobadapterstore.moc"
