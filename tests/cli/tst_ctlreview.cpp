// Reviewing past sweeps from the command line: the real eddyctl, a real SQLite file and the real
// eddy-cfd-server on 127.0.0.1:0.
// - eddyctl note and tag on cases and a sweep; eddyctl tasks --tag finds the tagged cases; the
//   export carries notes and tags; a bad tag is refused and changes nothing;
// - eddyctl baseline shows the first case until one is marked, marks one, refuses a task of
//   another sweep and goes back with none;
// - eddyctl pause holds a sweep's unsent cases through eddyctl watch (which says so and ends),
//   eddyctl resume lets the next watch send each of them once (the server's own task list).
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::TestServer;

namespace {

const QStringList kServerArgs{QStringLiteral("--workers"), QStringLiteral("2"),
                              QStringLiteral("--poll-interval-ms"), QStringLiteral("200")};

const QByteArray kThreeCases = R"({"tool": "run_cfd_case", "fixed": {"grid": 8, "max_iterations": 50},
    "vary": {"reynolds": {"list": [100, 200, 300]}}, "concurrency": 3})";

Eddy::Test::CtlRun ctl(const QString &db, const QStringList &args, const QHash<QString, QString> &env = {})
{
    return Eddy::Test::runCtl(QStringList{QStringLiteral("--db"), db} + args, {10000, 120000, 5000}, env);
}

QList<QStringList> query(const QString &path, const QString &sql)
{
    return Eddy::Test::query(path, sql, 10000);
}

qint64 scalar(const QString &path, const QString &sql)
{
    return Eddy::Test::scalar(path, sql, 10000);
}

QJsonArray jsonArray(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).array();
}

} // namespace

class tst_CtlReview : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void notesTagsAndExport();
    void baselineOfASweep();
    void pauseHoldsUnsentCasesUntilResumed();

private:
    // A finished sweep of three cases in a new database; its task numbers in case order.
    QList<qint64> finishedSweep(const QString &db, const TestServer &server);

    QTemporaryDir m_dir;
    QString m_spec;
};

void tst_CtlReview::initTestCase()
{
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    m_spec = m_dir.filePath(QStringLiteral("three.json"));
    QVERIFY(Eddy::Test::writeFile(m_spec, kThreeCases));
}

QList<qint64> tst_CtlReview::finishedSweep(const QString &db, const TestServer &server)
{
    auto r = ctl(db, {QStringLiteral("sweep"), QStringLiteral("submit"), server.url(), m_spec});
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    r = ctl(db, {QStringLiteral("watch"), QStringLiteral("--until-done")});
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    QList<qint64> ids;
    for (const QStringList &row : query(db, QStringLiteral("SELECT task_id FROM cases WHERE sweep_id=1 ORDER BY idx")))
        ids << row.value(0).toLongLong();
    return ids;
}

void tst_CtlReview::notesTagsAndExport()
{
    TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("notes.sqlite"));
    const QList<qint64> tasks = finishedSweep(db, server);
    QCOMPARE(tasks.size(), 3);
    const QString first = QString::number(tasks[0]);
    const QString second = QString::number(tasks[1]);

    auto r = ctl(db, {QStringLiteral("tag"), first, QStringLiteral("suspect"), QStringLiteral("mesh-study")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out.trimmed(), QByteArray("mesh-study suspect"));
    r = ctl(db, {QStringLiteral("tag"), second, QStringLiteral("+suspect")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = ctl(db, {QStringLiteral("note"), first, QStringLiteral("lid corner under-resolved")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = ctl(db, {QStringLiteral("note"), first});
    QCOMPARE(r.out.trimmed(), QByteArray("lid corner under-resolved"));

    // A bad tag is refused with what to do, and nothing changes.
    r = ctl(db, {QStringLiteral("tag"), first, QStringLiteral("-suspect"), QStringLiteral("two words")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("one word"), r.err.constData());
    r = ctl(db, {QStringLiteral("tag"), first});
    QCOMPARE(r.out.trimmed(), QByteArray("mesh-study suspect"));
    r = ctl(db, {QStringLiteral("note"), QStringLiteral("99999"), QStringLiteral("x")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("there is no task 99999"), r.err.constData());

    // Searchable: the tagged tasks, with their notes and tags.
    r = ctl(db, {QStringLiteral("tasks"), QStringLiteral("--tag"), QStringLiteral("suspect"), QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonArray tagged = jsonArray(r.out);
    QCOMPARE(tagged.size(), 2);
    QSet<qint64> ids;
    for (const auto &v : tagged)
        ids.insert(v.toObject().value(QStringLiteral("id")).toInteger());
    QCOMPARE(ids, QSet<qint64>({tasks[0], tasks[1]}));
    for (const auto &v : tagged)
        if (v.toObject().value(QStringLiteral("id")).toInteger() == tasks[0])
            QCOMPARE(v.toObject().value(QStringLiteral("note")).toString(), QStringLiteral("lid corner under-resolved"));

    // Tags and a note on the sweep itself.
    r = ctl(db, {QStringLiteral("note"), QStringLiteral("sweep"), QStringLiteral("1"), QStringLiteral("Re study for the report")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = ctl(db, {QStringLiteral("tag"), QStringLiteral("sweep"), QStringLiteral("1"), QStringLiteral("report")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(query(db, QStringLiteral("SELECT note, tags FROM sweeps WHERE id=1")).value(0),
             QStringList({QStringLiteral("Re study for the report"), QStringLiteral("[\"report\"]")}));

    // Exported: the CSV's note and tags columns, the JSON's fields.
    r = ctl(db, {QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("csv")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines[0].endsWith(",answer,note,tags"), lines[0].constData());
    QVERIFY2(lines[1].endsWith(",lid corner under-resolved,mesh-study suspect"), lines[1].constData());
    QVERIFY2(lines[2].endsWith(",,suspect"), lines[2].constData());
    r = ctl(db, {QStringLiteral("export"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json")});
    const QJsonArray rows = jsonArray(r.out);
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0].toObject().value(QStringLiteral("tags")).toArray().size(), 2);
}

void tst_CtlReview::baselineOfASweep()
{
    TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("baseline.sqlite"));
    const QList<qint64> tasks = finishedSweep(db, server);
    QCOMPARE(tasks.size(), 3);

    auto r = ctl(db, {QStringLiteral("baseline"), QStringLiteral("1")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out.trimmed(), QStringLiteral("sweep 1: baseline is case 1, task %1 (the first case)").arg(tasks[0]).toUtf8());
    r = ctl(db, {QStringLiteral("baseline"), QStringLiteral("1"), QString::number(tasks[2])});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.out.trimmed(), QStringLiteral("sweep 1: baseline is case 3, task %1 (marked)").arg(tasks[2]).toUtf8());
    QCOMPARE(scalar(db, QStringLiteral("SELECT baseline_case_id FROM sweeps WHERE id=1")),
             scalar(db, QStringLiteral("SELECT id FROM cases WHERE task_id=%1").arg(tasks[2])));
    // A task that is not one of the sweep's cases is refused; the mark stays.
    r = ctl(db, {QStringLiteral("baseline"), QStringLiteral("1"), QStringLiteral("99999")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("is not a case of sweep 1"), r.err.constData());
    r = ctl(db, {QStringLiteral("--json"), QStringLiteral("baseline"), QStringLiteral("1")});
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("case")).toInt(), 3);
    r = ctl(db, {QStringLiteral("baseline"), QStringLiteral("1"), QStringLiteral("none")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("case 1"), r.out.constData());
    QCOMPARE(query(db, QStringLiteral("SELECT baseline_case_id IS NULL FROM sweeps WHERE id=1")).value(0).value(0),
             QStringLiteral("1"));
}

void tst_CtlReview::pauseHoldsUnsentCasesUntilResumed()
{
    TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("pause.sqlite"));
    const quint16 port = server.port();
    auto r = ctl(db, {QStringLiteral("tools"), server.url()}); // its tools known while it is down
    QVERIFY2(r.code == 0, r.err.constData());
    // Journalled while the server is down: three cases kept unsent.
    QVERIFY(server.terminate());
    r = ctl(db, {QStringLiteral("sweep"), QStringLiteral("submit"), server.url(), m_spec},
                 {{QStringLiteral("EDDY_CALL_RETRIES"), QStringLiteral("0")}});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("3 kept unsent"), (r.out + r.err).constData());
    QVERIFY2(server.start(kServerArgs + QStringList{QStringLiteral("--port"), QString::number(port)},
                          server.dataDir()),
             qPrintable(server.errorString()));

    r = ctl(db, {QStringLiteral("pause"), QStringLiteral("1")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("sweep 1 paused: its 3 unsent case(s)"), r.err.constData());
    QVERIFY(scalar(db, QStringLiteral("SELECT paused_at FROM sweeps WHERE id=1")) > 0);

    // watch honours the pause: it sends nothing, says why, and ends.
    r = ctl(db, {QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("sweep 1 is paused: its 3 unsent case(s) are not sent until eddyctl resume 1"),
             r.err.constData());
    const QString serverDb = server.dataDir() + QStringLiteral("/tasks.sqlite");
    QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(0));
    QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(0));

    r = ctl(db, {QStringLiteral("resume"), QStringLiteral("1")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = ctl(db, {QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(!r.err.contains("paused"), r.err.constData());
    // Each case reached the server once.
    QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(3));
    for (const QStringList &row : query(db, QStringLiteral("SELECT idempotency_key, state FROM cases WHERE sweep_id=1"))) {
        QCOMPARE(row.value(1), QStringLiteral("submitted"));
        QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(row.value(0))),
                 qint64(1));
    }
}

QTEST_GUILESS_MAIN(tst_CtlReview)
#include "tst_ctlreview.moc"
