// The task store on real temp-file databases: schema and migrations, owner-only permissions,
// refusing a damaged file without touching it, and the journal/task/session/input round trips.
#include "app/secret.h"
#include "app/store/statement.h"
#include "app/store/taskstore.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>

using namespace Eddy::Store;
using Eddy::SecretVault;
using Eddy::setSecretVault;

namespace {

QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

mode_t modeOf(const QString &path)
{
    struct stat st {};
    ::stat(QFile::encodeName(path).constData(), &st);
    return st.st_mode & 0777;
}

// Fills a store with enough rows to span many pages.
void fill(TaskStore &store, int tasks)
{
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:1/mcp");
    const qint64 server = *store.addServer(s);
    SweepRecord sweep;
    sweep.serverId = server;
    sweep.tool = QStringLiteral("run_cfd_case");
    sweep.spec = QStringLiteral("{}");
    QList<CaseRecord> cases;
    for (int i = 0; i < tasks; ++i) {
        CaseRecord c;
        c.index = i;
        c.tool = sweep.tool;
        c.arguments = QStringLiteral("{\"reynolds\":%1,\"grid\":16,\"pad\":\"%2\"}").arg(i).arg(QString(200, QLatin1Char('x')));
        c.idempotencyKey = QStringLiteral("key-%1").arg(i);
        cases << c;
    }
    QVERIFY(store.journalSweep(sweep, cases));
    for (const CaseRecord &c : std::as_const(cases)) {
        TaskRecord t;
        t.serverId = server;
        t.sweepId = sweep.id;
        t.tool = c.tool;
        t.arguments = c.arguments;
        t.serverTaskId = QStringLiteral("secret-%1").arg(c.index);
        QVERIFY(store.recordTaskForCase(c.id, t));
    }
}

// A vault in memory that can be told to refuse: what the store does with either answer.
class MemoryVault final : public SecretVault
{
public:
    QString put(const QString &key, const QString &value, QString *error) override
    {
        if (refuse) {
            *error = QStringLiteral("refused");
            return {};
        }
        items.insert(key, value);
        return QStringLiteral("keychain:") + key;
    }
    std::optional<QString> get(const QString &reference, QString *) override
    {
        const auto it = items.constFind(reference.mid(9));
        return it == items.constEnd() ? std::nullopt : std::optional<QString>(*it);
    }
    void remove(const QString &reference) override { items.remove(reference.mid(9)); }
    void tell(const QString &message) override { told << message; }

    bool refuse = false;
    QHash<QString, QString> items;
    QStringList told;
};

QByteArray databaseBytes(const QString &path)
{
    QByteArray all;
    for (const QString &p : {path, path + QStringLiteral("-wal")}) {
        QFile f(p);
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    return all;
}

// Makes a file of the current schema one of schema 9: servers.token_ref of schema 10 goes.
bool downgradeToSchema9(TaskStore &store)
{
    return store.database().exec(QStringLiteral("ALTER TABLE servers DROP COLUMN token_ref"))
           && store.database().setUserVersion(9);
}

// Makes a file of the current schema one of schema 8: the review columns of schema 9 go.
bool downgradeToSchema8(TaskStore &store)
{
    return downgradeToSchema9(store) && store.database().exec(QStringLiteral(
               "ALTER TABLE cases DROP COLUMN note; ALTER TABLE cases DROP COLUMN tags; "
               "ALTER TABLE sweeps DROP COLUMN note; ALTER TABLE sweeps DROP COLUMN tags; "
               "ALTER TABLE sweeps DROP COLUMN baseline_case_id; "
               "ALTER TABLE sweeps DROP COLUMN paused_at;"))
           && store.database().setUserVersion(8);
}

} // namespace

class tst_TaskStore : public QObject
{
    Q_OBJECT

private slots:
    void createsSchemaAtCurrentVersion();
    void refusesNewerSchema();
    void failedMigrationLeavesFileAsItWas();
    void ownerOnlyPermissions();
    void tightensLoosePermissions();
    void refusesDamagedFileUntouched_data();
    void refusesDamagedFileUntouched();
    void journalAndTaskRoundTrip();
    void recordTaskForCaseIsIdempotent();
    void removeServerKeepsOrDeletesTasks();
    void migratesToRetiredServers();
    void migratesToReviewKeepingEverything();
    void notesTagsBaselineAndPause();
    void migratesTokensIntoTheVault();
    void tokenTheVaultRefusesStays();
    void updatesStoreEventsAndSamples();
    void sessionsAndAttachByQuery();
    void inputRequestsDedupByKey();
    void dataSurvivesReopen();
};

void tst_TaskStore::createsSchemaAtCurrentVersion()
{
    QTemporaryDir dir;
    TaskStore store;
    QVERIFY2(store.open(dir.filePath(QStringLiteral("eddy.sqlite"))), qPrintable(store.lastError()));
    QCOMPARE(store.database().userVersion(), TaskStore::SchemaVersion);
    for (const char *table : {"servers", "sessions", "sweeps", "cases", "tasks", "task_events",
                              "progress_samples", "input_requests", "session_tasks", "progress_templates"}) {
        Statement st = store.database().prepare(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name=?"));
        st.bind(1, QString::fromLatin1(table));
        QCOMPARE(st.step(), Statement::StepResult::Row);
        QVERIFY2(st.int64(0) == 1, table);
    }
    Statement wal = store.database().prepare(QStringLiteral("PRAGMA journal_mode"));
    QCOMPARE(wal.step(), Statement::StepResult::Row);
    QCOMPARE(wal.text(0), QStringLiteral("wal"));
}

void tst_TaskStore::refusesNewerSchema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store;
        QVERIFY(store.open(path));
        QVERIFY(store.database().setUserVersion(TaskStore::SchemaVersion + 5));
    }
    TaskStore store;
    QVERIFY(!store.open(path));
    QVERIFY2(store.lastError().contains(QStringLiteral("newer Eddy")), qPrintable(store.lastError()));
    QVERIFY(!store.isOpen());
}

void tst_TaskStore::failedMigrationLeavesFileAsItWas()
{
    // A file at version 0 that already has a conflicting "tasks" table: migration 1 must fail
    // as a whole (transaction), leaving user_version 0 and the foreign table intact.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("foreign.sqlite"));
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE tasks(x); INSERT INTO tasks VALUES(42);", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    TaskStore store;
    QVERIFY(!store.open(path));
    QVERIFY2(store.lastError().contains(QStringLiteral("Cannot upgrade")), qPrintable(store.lastError()));
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt *st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version), (SELECT x FROM tasks), "
                                    "(SELECT COUNT(*) FROM sqlite_master WHERE name='servers')", -1, &st, nullptr), SQLITE_OK);
    QCOMPARE(sqlite3_step(st), SQLITE_ROW);
    QCOMPARE(sqlite3_column_int(st, 0), 0);
    QCOMPARE(sqlite3_column_int(st, 1), 42);
    QCOMPARE(sqlite3_column_int(st, 2), 0); // the half-made schema was rolled back
    sqlite3_finalize(st);
    sqlite3_close(db);
}

void tst_TaskStore::ownerOnlyPermissions()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("new/appdata"));
    const QString path = folder + QStringLiteral("/eddy.sqlite");
    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    fill(store, 3);
    QCOMPARE(modeOf(path), mode_t(0600));
    QCOMPARE(modeOf(folder), mode_t(0700));
    // SQLite gives the WAL the main file's mode.
    QVERIFY(QFile::exists(path + QStringLiteral("-wal")));
    QCOMPARE(modeOf(path + QStringLiteral("-wal")), mode_t(0600));
}

void tst_TaskStore::tightensLoosePermissions()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store;
        QVERIFY(store.open(path));
    }
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
    TaskStore store;
    QVERIFY(store.open(path));
    QCOMPARE(modeOf(path), mode_t(0600));
}

void tst_TaskStore::refusesDamagedFileUntouched_data()
{
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("length");
    QTest::newRow("header") << 0 << 100;
    QTest::newRow("btree pages") << 4096 * 3 << 4096 * 4;
}

void tst_TaskStore::refusesDamagedFileUntouched()
{
    QFETCH(int, offset);
    QFETCH(int, length);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store;
        QVERIFY(store.open(path));
        fill(store, 200);
        // Fold the WAL into the main file so the damage below hits real pages.
        QVERIFY(store.database().exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
    }
    QFile f(path);
    QVERIFY(f.size() > offset + length);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(offset));
    QByteArray garbage(length, '\0');
    for (int i = 0; i < length; ++i)
        garbage[i] = char((i * 131 + 7) & 0xff);
    QCOMPARE(f.write(garbage), qint64(length));
    f.close();
    const QByteArray before = fileHash(path);

    TaskStore store;
    QVERIFY(!store.open(path));
    const QString error = store.lastError();
    QVERIFY2(error.contains(QStringLiteral("damaged")), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("--db")), qPrintable(error)); // says what to do
    QVERIFY(!store.isOpen());
    QCOMPARE(fileHash(path), before); // never modified, never recreated
}

void tst_TaskStore::journalAndTaskRoundTrip()
{
    TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:9/mcp");
    s.token = QStringLiteral("tok");
    const auto server = store.addServer(s);
    QVERIFY(server);
    QVERIFY(!store.addServer(s)); // URL is unique
    SweepRecord sweep;
    sweep.serverId = *server;
    sweep.tool = QStringLiteral("run_cfd_case");
    sweep.spec = QStringLiteral("{\"tool\":\"run_cfd_case\"}");
    sweep.concurrency = 3;
    QList<CaseRecord> cases;
    for (int i = 0; i < 4; ++i) {
        CaseRecord c;
        c.index = i;
        c.tool = sweep.tool;
        c.arguments = QStringLiteral("{\"reynolds\":%1}").arg(100 * (i + 1));
        c.idempotencyKey = QStringLiteral("k%1").arg(i);
        cases << c;
    }
    QVERIFY(store.journalSweep(sweep, cases));
    QVERIFY(sweep.id > 0);
    QCOMPARE(store.unsubmittedCases().size(), 4);
    QVERIFY(store.markCaseSent(cases[0].id));
    QCOMPARE(store.caseRecord(cases[0].id)->state, CaseState::Sent);
    QCOMPARE(store.caseRecord(cases[0].id)->attempts, 1);
    QCOMPARE(store.unsubmittedCases().size(), 4); // sent but unanswered still counts

    TaskRecord t;
    t.serverId = *server;
    t.sweepId = sweep.id;
    t.tool = sweep.tool;
    t.arguments = cases[0].arguments;
    t.serverTaskId = QStringLiteral("0123456789abcdef-secret");
    t.createdAt = QStringLiteral("2026-11-29T20:00:00.000Z");
    t.ttlMs = 60000;
    t.pollIntervalMs = 1000;
    const auto id = store.recordTaskForCase(cases[0].id, t);
    QVERIFY(id);
    QCOMPARE(store.caseRecord(cases[0].id)->state, CaseState::Submitted);
    QCOMPARE(*store.caseRecord(cases[0].id)->taskId, *id);
    QCOMPARE(store.unsubmittedCases().size(), 3);
    const auto back = store.task(*id);
    QVERIFY(back);
    QCOMPARE(back->serverTaskId, t.serverTaskId);
    QCOMPARE(back->status, TaskStatus::Working);
    QCOMPARE(*back->ttlMs, 60000);
    QCOMPARE(*back->expiresAtMs(), QDateTime::fromString(t.createdAt, Qt::ISODateWithMs).toMSecsSinceEpoch() + 60000);
    QCOMPARE(store.liveTasks().size(), 1);
    QCOMPARE(store.taskEvents(*id).size(), 1);

    // An immediate CallToolResult: a completed task without a server id.
    TaskRecord done;
    done.serverId = *server;
    done.sweepId = sweep.id;
    done.tool = sweep.tool;
    done.status = TaskStatus::Completed;
    done.result = QStringLiteral("{\"content\":[],\"isError\":true}");
    done.isToolError = true;
    const auto doneId = store.recordTaskForCase(cases[1].id, done);
    QVERIFY(doneId);
    QCOMPARE(store.caseRecord(cases[1].id)->state, CaseState::Completed);
    QVERIFY(store.task(*doneId)->isToolError);
    QVERIFY(store.task(*doneId)->finishedAtMs);
    QCOMPARE(store.liveTasks().size(), 1);

    QVERIFY(store.markCaseRejected(cases[2].id, QStringLiteral("{\"code\":-32602}")));
    QCOMPARE(store.caseRecord(cases[2].id)->state, CaseState::Rejected);
    QCOMPARE(store.unsubmittedCases().size(), 1);

    QVERIFY(!store.removeServer(*server)); // not without saying what becomes of its tasks
    QVERIFY(store.lastError().contains(QStringLiteral("stored tasks")));
}

// Removing a server (issue 14, item 10): kept as history (retired; live tasks lost, rows kept,
// across a reopen) or deleted with its tasks; another server's rows are never touched.
void tst_TaskStore::removeServerKeepsOrDeletesTasks()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    qint64 a = 0;
    qint64 b = 0;
    {
        TaskStore store;
        QVERIFY(store.open(path));
        fill(store, 3); // server a: one sweep, three live tasks
        a = store.servers().first().id;
        ServerRecord other;
        other.url = QStringLiteral("http://127.0.0.1:2/mcp");
        other.name = QStringLiteral("Other");
        b = *store.addServer(other);
        SweepRecord sweep;
        sweep.serverId = b;
        sweep.tool = QStringLiteral("run_cfd_case");
        sweep.spec = QStringLiteral("{}");
        QList<CaseRecord> cases(1);
        cases[0].tool = sweep.tool;
        cases[0].arguments = QStringLiteral("{}");
        cases[0].idempotencyKey = QStringLiteral("other");
        QVERIFY(store.journalSweep(sweep, cases));
        TaskRecord t;
        t.serverId = b;
        t.sweepId = sweep.id;
        t.tool = sweep.tool;
        t.serverTaskId = QStringLiteral("other-secret");
        QVERIFY(store.recordTaskForCase(cases[0].id, t));

        QCOMPARE(store.serverUse(a)->tasks, 3);
        QCOMPARE(store.serverUse(a)->live, 3);
        QVERIFY(!store.removeServer(a));
        QCOMPARE(store.servers().size(), 2);
        QVERIFY2(store.removeServer(a, TaskStore::Removal::KeepTasks), qPrintable(store.lastError()));
    }
    TaskStore store;
    QVERIFY(store.open(path));
    QCOMPARE(store.servers().size(), 1);
    QCOMPARE(store.servers().first().id, b);
    QCOMPARE(store.servers(true).size(), 2);
    QVERIFY(store.server(a)->retired);
    QVERIFY(!store.server(b)->retired);
    TaskQuery ofA;
    ofA.serverId = a;
    const QList<TaskRecord> kept = store.tasks(ofA);
    QCOMPARE(kept.size(), 3);
    for (const TaskRecord &t : kept) {
        QCOMPARE(t.status, TaskStatus::Lost);
        QVERIFY2(t.statusMessage.contains(QStringLiteral("server was removed")),
                 qPrintable(t.statusMessage));
        QVERIFY(t.finishedAtMs);
        QVERIFY(t.arguments.contains(QStringLiteral("reynolds"))); // the rows themselves stay
    }
    QCOMPARE(store.serverUse(a)->live, 0);
    QCOMPARE(store.liveTasks().size(), 1); // b's

    // Back, then deleted with everything of its own.
    QVERIFY(store.setServerRetired(a, false));
    QCOMPARE(store.servers().size(), 2);
    QVERIFY2(store.removeServer(a, TaskStore::Removal::DeleteTasks), qPrintable(store.lastError()));
    QVERIFY(!store.server(a));
    QCOMPARE(store.tasks().size(), 1);
    QCOMPARE(store.tasks().first().serverId, b);
    QCOMPARE(store.sweeps().size(), 1);
    QCOMPARE(store.sweeps().first().serverId, b);
    QCOMPARE(store.cases(store.sweeps().first().id).size(), 1);
    QCOMPARE(store.liveTasks().size(), 1);
    QVERIFY(!store.removeServer(a, TaskStore::Removal::DeleteTasks)); // gone: said so
    QVERIFY2(store.lastError().contains(QStringLiteral("no longer in the database")),
             qPrintable(store.lastError()));
}

// Schema 7 -> 8 adds servers.retired; every stored server stays, not retired.
void tst_TaskStore::migratesToRetiredServers()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store;
        QVERIFY(store.open(path));
        fill(store, 2);
        QVERIFY(downgradeToSchema8(store));
        QVERIFY(store.database().exec(QStringLiteral("ALTER TABLE servers DROP COLUMN retired")));
        QVERIFY(store.database().setUserVersion(7));
    }
    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().userVersion(), TaskStore::SchemaVersion);
    QCOMPARE(store.servers().size(), 1);
    QVERIFY(!store.servers().first().retired);
    QCOMPARE(store.tasks().size(), 2);
}

// Schema 8 -> 9 adds notes, tags, a baseline and a pause: every stored row stays as it was, and
// a sweep of the old file has no note, no tags, its first case as baseline and is not paused.
void tst_TaskStore::migratesToReviewKeepingEverything()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    QList<TaskRecord> before;
    QList<CaseRecord> casesBefore;
    {
        TaskStore store;
        QVERIFY(store.open(path));
        fill(store, 3);
        before = store.tasks();
        casesBefore = store.cases(store.sweeps().first().id);
        QVERIFY(downgradeToSchema8(store));
    }
    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().userVersion(), TaskStore::SchemaVersion);
    const QList<TaskRecord> after = store.tasks();
    QCOMPARE(after.size(), before.size());
    for (int i = 0; i < after.size(); ++i) {
        QCOMPARE(after[i].id, before[i].id);
        QCOMPARE(after[i].arguments, before[i].arguments);
        QCOMPARE(after[i].serverTaskId, before[i].serverTaskId);
    }
    const SweepRecord sweep = store.sweeps().first();
    QCOMPARE(sweep.caseCount, 3);
    QVERIFY(sweep.note.isEmpty() && sweep.tags.isEmpty() && !sweep.isPaused());
    QVERIFY(!sweep.baselineCaseId);
    QCOMPARE(store.sweepBaselineCase(sweep.id), std::optional<qint64>(casesBefore.first().id));
    const QList<CaseRecord> cases = store.cases(sweep.id);
    QCOMPARE(cases.size(), casesBefore.size());
    for (int i = 0; i < cases.size(); ++i) {
        QCOMPARE(cases[i].idempotencyKey, casesBefore[i].idempotencyKey);
        QCOMPARE(cases[i].taskId, casesBefore[i].taskId);
        QVERIFY(cases[i].note.isEmpty() && cases[i].tags.isEmpty());
    }
}

void tst_TaskStore::notesTagsBaselineAndPause()
{
    QTemporaryDir dir;
    TaskStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("eddy.sqlite"))));
    fill(store, 3);
    const qint64 sweepId = store.sweeps().first().id;
    const QList<CaseRecord> cases = store.cases(sweepId);
    QVERIFY(store.setCaseNote(cases[1].id, QStringLiteral("mesh looks coarse near the lid")));
    QVERIFY(store.setCaseTags(cases[1].id, {QStringLiteral(" suspect"), QStringLiteral("baseline-check"),
                                            QStringLiteral("suspect")}));
    QCOMPARE(store.caseRecord(cases[1].id)->note, QStringLiteral("mesh looks coarse near the lid"));
    QCOMPARE(store.caseRecord(cases[1].id)->tags,
             QStringList({QStringLiteral("baseline-check"), QStringLiteral("suspect")}));
    QCOMPARE(store.annotatedCases().size(), 1);
    // A bad tag stores nothing and says why; so does an unknown case.
    QVERIFY(!store.setCaseTags(cases[1].id, {QStringLiteral("two words")}));
    QVERIFY2(store.lastError().contains(QStringLiteral("one word")), qPrintable(store.lastError()));
    QCOMPARE(store.caseRecord(cases[1].id)->tags.size(), 2);
    QVERIFY(!store.setCaseNote(99999, QStringLiteral("x")));
    QVERIFY2(store.lastError().contains(QStringLiteral("no such row")), qPrintable(store.lastError()));
    // Clearing a note and tags takes the case out of the annotated ones.
    QVERIFY(store.setCaseNote(cases[1].id, QString()));
    QVERIFY(store.setCaseTags(cases[1].id, {}));
    QVERIFY(store.annotatedCases().isEmpty());

    QVERIFY(store.setSweepNote(sweepId, QStringLiteral("Re sweep for the report")));
    QVERIFY(store.setSweepTags(sweepId, {QStringLiteral("report")}));
    QVERIFY(store.setSweepBaseline(sweepId, cases[2].id));
    QCOMPARE(store.sweepBaselineCase(sweepId), std::optional<qint64>(cases[2].id));
    QVERIFY(!store.setSweepBaseline(sweepId, 99999));
    QVERIFY(store.setSweepBaseline(sweepId, std::nullopt));
    QCOMPARE(store.sweepBaselineCase(sweepId), std::optional<qint64>(cases[0].id));

    QVERIFY(store.setSweepPaused(sweepId, true));
    const qint64 pausedAt = *store.sweep(sweepId)->pausedAtMs;
    QVERIFY(store.setSweepPaused(sweepId, true)); // the first pause time stays
    QCOMPARE(*store.sweep(sweepId)->pausedAtMs, pausedAt);
    QCOMPARE(store.pausedSweepIds(), QList<qint64>({sweepId}));
    QVERIFY(store.setSweepPaused(sweepId, false));
    QVERIFY(!store.sweep(sweepId)->isPaused());
    QVERIFY(store.pausedSweepIds().isEmpty());
    const SweepRecord sweep = *store.sweep(sweepId);
    QCOMPARE(sweep.note, QStringLiteral("Re sweep for the report"));
    QCOMPARE(sweep.tags, QStringList({QStringLiteral("report")}));
}

void tst_TaskStore::recordTaskForCaseIsIdempotent()
{
    TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    ServerRecord s;
    s.url = QStringLiteral("http://127.0.0.1:9/mcp");
    CaseRecord c;
    c.serverId = *store.addServer(s);
    c.tool = QStringLiteral("t");
    c.arguments = QStringLiteral("{}");
    c.idempotencyKey = QStringLiteral("only");
    QVERIFY(store.journalCase(c));
    TaskRecord t;
    t.serverId = c.serverId;
    t.tool = c.tool;
    t.serverTaskId = QStringLiteral("abc");
    const auto first = store.recordTaskForCase(c.id, t);
    TaskRecord again = t;
    const auto second = store.recordTaskForCase(c.id, again);
    QVERIFY(first && second);
    QCOMPARE(*first, *second);
    QCOMPARE(store.taskCount(), qint64(1));
    CaseRecord dup = c;
    QVERIFY(!store.journalCase(dup)); // the key is unique in the journal
}

void tst_TaskStore::updatesStoreEventsAndSamples()
{
    TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    fill(store, 1);
    TaskRecord t = store.tasks().first();
    t.statusMessage = QStringLiteral("iteration 100 of 400, residual 1e-2");
    ProgressSample s;
    s.series = QStringLiteral("residual");
    s.x = 100;
    s.y = 1e-2;
    QVERIFY(store.storeTaskUpdate(t, true, {s}));
    t.status = TaskStatus::Completed;
    t.result = QStringLiteral("{\"content\":[]}");
    QVERIFY(store.storeTaskUpdate(t, true, {}));
    const auto back = store.task(t.id);
    QCOMPARE(back->status, TaskStatus::Completed);
    QVERIFY(back->finishedAtMs);
    QCOMPARE(back->result, t.result);
    const auto events = store.taskEvents(t.id);
    QCOMPARE(events.size(), 3);
    QCOMPARE(events[1].statusMessage, t.statusMessage);
    QCOMPARE(events[2].status, TaskStatus::Completed);
    const auto samples = store.progressSamples(t.id);
    QCOMPARE(samples.size(), 1);
    QCOMPARE(samples[0].y, 1e-2);
    QVERIFY(store.liveTasks().isEmpty());
}

void tst_TaskStore::sessionsAndAttachByQuery()
{
    TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    fill(store, 10);
    auto all = store.tasks();
    TaskRecord done = all[3];
    done.status = TaskStatus::Completed;
    QVERIFY(store.storeTaskUpdate(done, true, {}));

    const auto a = store.createSession(QStringLiteral("study A"));
    QVERIFY(a);
    QVERIFY(!store.createSession(QStringLiteral("study A")));
    QVERIFY(!store.createSession(QStringLiteral("  ")));
    TaskQuery byArg;
    byArg.arguments.append({QStringLiteral("reynolds"), QStringLiteral("7")});
    QCOMPARE(store.attachTasks(*a, byArg), 1);
    QCOMPARE(store.attachTasks(*a, byArg), 0); // already attached
    TaskQuery byStatus;
    byStatus.status = TaskStatus::Completed;
    QCOMPARE(store.attachTasks(*a, byStatus), 1);
    TaskQuery bySession;
    bySession.sessionId = *a;
    const auto attached = store.tasks(bySession);
    QCOMPARE(attached.size(), 2);
    QCOMPARE(store.sessionNamesOfTask(done.id), QList<QString>{QStringLiteral("study A")});
    QVERIFY(store.renameSession(*a, QStringLiteral("study B")));
    QCOMPARE(store.sessions().first().name, QStringLiteral("study B"));
    QCOMPARE(store.sessions().first().taskCount, 2);
    TaskQuery future;
    future.fromMs = QDateTime::currentMSecsSinceEpoch() + 3600000;
    QCOMPARE(store.tasks(future).size(), 0);
    TaskQuery tool;
    tool.tool = QStringLiteral("run_cfd_case");
    QCOMPARE(store.tasks(tool).size(), 10);
    // A task belongs to the database: attaching to a second session keeps the first.
    const auto c = store.createSession(QStringLiteral("study C"));
    QCOMPARE(store.attachTasks(*c, byStatus), 1);
    QCOMPARE(store.sessionNamesOfTask(done.id).size(), 2);
}

void tst_TaskStore::inputRequestsDedupByKey()
{
    TaskStore store;
    QVERIFY(store.open(QStringLiteral(":memory:")));
    fill(store, 1);
    const qint64 task = store.tasks().first().id;
    bool isNew = false;
    QVERIFY(store.recordInputRequest(task, QStringLiteral("k1"), QStringLiteral("{}"), &isNew));
    QVERIFY(isNew);
    QVERIFY(store.recordInputRequest(task, QStringLiteral("k1"), QStringLiteral("{\"changed\":1}"), &isNew));
    QVERIFY(!isNew);
    QCOMPARE(store.inputRequest(task, QStringLiteral("k1"))->request, QStringLiteral("{}"));
    QVERIFY(store.beginAnswer(task, QStringLiteral("k1"), QStringLiteral("{\"action\":\"accept\"}")));
    QVERIFY(!store.beginAnswer(task, QStringLiteral("k1"), QStringLiteral("{\"action\":\"decline\"}")));
    QCOMPARE(store.answeringInputRequests().size(), 1);
    QVERIFY(store.finishAnswer(task, QStringLiteral("k1"), true));
    QCOMPARE(store.inputRequest(task, QStringLiteral("k1"))->state, InputState::Answered);
    QCOMPARE(store.inputRequest(task, QStringLiteral("k1"))->answer, QStringLiteral("{\"action\":\"accept\"}"));
    QVERIFY(store.pendingInputRequests().isEmpty());

    // Who answered and when: kept from beginAnswer through the ack; a failed send forgets both.
    QVERIFY(store.recordInputRequest(task, QStringLiteral("k2"), QStringLiteral("{}")));
    QVERIFY(store.beginAnswer(task, QStringLiteral("k2"), QStringLiteral("{\"action\":\"decline\"}"), QStringLiteral("alice")));
    const auto answering = store.inputRequest(task, QStringLiteral("k2"));
    QCOMPARE(answering->answeredBy, QStringLiteral("alice"));
    QVERIFY(answering->answeredAtMs);
    QVERIFY(store.finishAnswer(task, QStringLiteral("k2"), false));
    QCOMPARE(store.inputRequest(task, QStringLiteral("k2"))->answeredBy, QString());
    QCOMPARE(store.inputRequest(task, QStringLiteral("k2"))->answeredAtMs, std::nullopt);
    QVERIFY(store.beginAnswer(task, QStringLiteral("k2"), QStringLiteral("{\"action\":\"decline\"}"), QStringLiteral("eddyctl")));
    const qint64 given = *store.inputRequest(task, QStringLiteral("k2"))->answeredAtMs;
    QVERIFY(store.finishAnswer(task, QStringLiteral("k2"), true));
    QCOMPARE(store.inputRequest(task, QStringLiteral("k2"))->answeredBy, QStringLiteral("eddyctl"));
    QCOMPARE(*store.inputRequest(task, QStringLiteral("k2"))->answeredAtMs, given);
    const auto answered = store.answeredInputRequests();
    QCOMPARE(answered.size(), 2);
    QCOMPARE(answered.last().key, QStringLiteral("k2"));
}

void tst_TaskStore::dataSurvivesReopen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    {
        TaskStore store;
        QVERIFY(store.open(path));
        fill(store, 25);
        QVERIFY(store.addProgressTemplate({0, QStringLiteral("run_cfd_case"), QStringLiteral("cfl"), QStringLiteral("cfl (?<cfl>[0-9.]+)")}));
    }
    TaskStore store;
    QVERIFY(store.open(path));
    QCOMPARE(store.taskCount(), qint64(25));
    QCOMPARE(store.liveTasks().size(), 25);
    QCOMPARE(store.cases(store.sweeps().first().id).size(), 25);
    QCOMPARE(store.progressTemplates(QStringLiteral("run_cfd_case")).size(), 1);
    QCOMPARE(store.progressTemplates(QStringLiteral("other")).size(), 0);
}

// Schema 9 -> 10: a plain servers.token moves into the vault, the row keeps the reference, and
// the file's bytes (and its WAL) no longer hold it; the record still carries the token.
void tst_TaskStore::migratesTokensIntoTheVault()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    const QString token = QStringLiteral("plain-token-5f3a9c1e");
    {
        TaskStore store;
        QVERIFY(store.open(path));
        ServerRecord rec;
        rec.url = QStringLiteral("http://127.0.0.1:1/mcp");
        rec.token = token;
        QVERIFY(store.addServer(rec));
        QVERIFY(downgradeToSchema9(store));
    }
    QVERIFY(databaseBytes(path).contains(token.toUtf8()));
    MemoryVault vault;
    setSecretVault(&vault);
    struct Unset { ~Unset() { setSecretVault(nullptr); } } unset;
    TaskStore store;
    QVERIFY2(store.open(path), qPrintable(store.lastError()));
    QCOMPARE(store.database().userVersion(), TaskStore::SchemaVersion);
    QCOMPARE(vault.items.size(), 1);
    QCOMPARE(vault.items.begin().value(), token);
    QCOMPARE(store.servers().value(0).token, token);
    Statement st = store.database().prepare(QStringLiteral("SELECT token, token_ref FROM servers"));
    QVERIFY(st.step() == Statement::StepResult::Row);
    QCOMPARE(st.text(0), QString());
    QCOMPARE(st.text(1), QStringLiteral("keychain:") + vault.items.begin().key());
    QVERIFY(!databaseBytes(path).contains(token.toUtf8()));
    QVERIFY(vault.told.isEmpty());
}

// A vault that cannot take the token: it stays in the row, the person is told, nothing is lost.
void tst_TaskStore::tokenTheVaultRefusesStays()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("eddy.sqlite"));
    MemoryVault vault;
    vault.refuse = true;
    setSecretVault(&vault);
    struct Unset { ~Unset() { setSecretVault(nullptr); } } unset;
    TaskStore store;
    QVERIFY(store.open(path));
    ServerRecord rec;
    rec.url = QStringLiteral("http://127.0.0.1:1/mcp");
    rec.token = QStringLiteral("kept-token-0123456789");
    QVERIFY(store.addServer(rec));
    QCOMPARE(store.servers().value(0).token, rec.token);
    QCOMPARE(vault.told.size(), 1);
    QVERIFY2(vault.told[0].contains(QLatin1String("stays in the database")), qPrintable(vault.told[0]));
    // Once the vault takes it, the next open moves it.
    store.close();
    vault.refuse = false;
    vault.told.clear();
    QVERIFY(store.open(path));
    QCOMPARE(vault.items.size(), 1);
    QCOMPARE(store.servers().value(0).token, rec.token);
    QVERIFY(!databaseBytes(path).contains(rec.token.toUtf8()));
}

QTEST_GUILESS_MAIN(tst_TaskStore)
#include "tst_taskstore.moc"
