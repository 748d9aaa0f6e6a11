// eddyctl servers remove NAME|URL [--delete-tasks] against the real eddy-cfd-server and a real
// SQLite file (issue 14, item 10): an unknown name is refused and changes nothing; by default the
// server's tasks are kept as history (the server leaves the list, its finished task keeps its
// result, its running task is stored lost and no longer watched); its URL added again brings it
// back with them; --delete-tasks deletes it with its tasks, cases, events and samples. And
// eddyctl servers set NAME|URL [--url] [--name] [--token]: refused with a clear error and
// nothing changed for nothing to change, a bad URL, an unknown server or a taken URL; otherwise
// the server keeps its id and tasks under the new URL, name and token.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Test::TestServer;
using Run = Eddy::Test::CtlRun;

class tst_CtlServers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void removeKeepingThenDeletingTasks();
    void setUrlNameAndToken();

private:
    Run ctl(const QStringList &args)
    {
        // No session bus and a data folder of the test's own: a token goes to the owner-only
        // file there (tests/keychain has the keyring), never to the user's own keychain.
        return Eddy::Test::runCtl(QStringList{QStringLiteral("--db"), m_db} + args,
                                  {10000, 120000, 5000},
                                  {{QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QString()},
                                   {QStringLiteral("XDG_RUNTIME_DIR"), m_dir.path()},
                                   {QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data"))}});
    }
    qint64 scalar(const QString &sql) { return Eddy::Test::scalar(m_db, sql, 10000); }
    Run call(const QString &arguments, bool wait)
    {
        QStringList args{
            QStringLiteral("call"), m_server.url(), QStringLiteral("run_cfd_case"), arguments};
        if (wait)
            args << QStringLiteral("--wait");
        return ctl(args);
    }
    Run shortCall()
    {
        return call(QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 200})"),
                    true);
    }
    QJsonArray listServers()
    {
        const Run r = ctl({QStringLiteral("--json"), QStringLiteral("servers")});
        if (r.code != 0)
            qWarning("eddyctl servers: %s", r.err.constData());
        return QJsonDocument::fromJson(r.out).array();
    }

    TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
};

void tst_CtlServers::initTestCase()
{
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
}

void tst_CtlServers::removeKeepingThenDeletingTasks()
{
    // One finished task, one that runs for minutes.
    Run r = shortCall();
    QVERIFY2(r.code == 0, r.err.constData());
    r = call(QStringLiteral(R"({"case_name": "long", "reynolds": 100, "grid": 64, )"
                            R"("tolerance": 1e-14, "max_iterations": 5000000})"),
             false);
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(2));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='working'")),
             qint64(1));
    QJsonArray servers = listServers();
    QCOMPARE(servers.size(), 1);
    const QString name = servers.first().toObject().value("name").toString();
    QCOMPARE(name, QStringLiteral("127.0.0.1")); // added by URL: named after its host
    QCOMPARE(servers.first().toObject().value("tasks").toInt(), 2);
    QCOMPARE(servers.first().toObject().value("running").toInt(), 1);

    // An unknown name: a clear error, nothing changed.
    r = ctl({QStringLiteral("servers"), QStringLiteral("remove"), QStringLiteral("nosuchserver")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("no server is named \"nosuchserver\"")
                 && r.err.contains("eddyctl servers"),
             r.err.constData());
    QCOMPARE(listServers().size(), 1);
    r = ctl({QStringLiteral("servers"),
             QStringLiteral("remove"),
             name,
             QStringLiteral("--keep-tasks"),
             QStringLiteral("--delete-tasks")});
    QCOMPARE(r.code, 2);
    QCOMPARE(listServers().size(), 1);

    // By default its tasks are kept as history.
    r = ctl({QStringLiteral("servers"), QStringLiteral("remove"), name});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("removed \"127.0.0.1\"; its 2 task(s) are kept as history")
                 && r.out.contains("1 still running"),
             r.out.constData());
    QVERIFY2(!r.out.contains(m_server.url().toUtf8()), r.out.constData()); // named, not by URL
    QCOMPARE(listServers().size(), 0);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(2));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='completed'")),
             qint64(1));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE status='lost' AND "
                                   "status_message LIKE '%server was removed%'")),
             qint64(1));
    r = ctl({QStringLiteral("--json"),
             QStringLiteral("tasks"),
             QStringLiteral("--status"),
             QStringLiteral("completed")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonArray tasks = QJsonDocument::fromJson(r.out).array();
    QCOMPARE(tasks.size(), 1);
    QCOMPARE(tasks.first().toObject().value("server").toString(), m_server.url());
    r = ctl(
        {QStringLiteral("result"), QString::number(tasks.first().toObject().value("id").toInt())});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("iterations"), r.out.constData());
    // Nothing of it is watched any more.
    r = ctl({QStringLiteral("watch"), QStringLiteral("--until-done")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("watching 0 live task(s)"), r.err.constData());
    // Removed once: no longer listed, so not found again.
    r = ctl({QStringLiteral("servers"), QStringLiteral("remove"), name});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("eddyctl servers"), r.err.constData());

    // Its URL again: the same server, with its history (the server is still busy with the
    // long case, so this call does not wait for its task).
    r = call(QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 200})"), false);
    QVERIFY2(r.code == 0, r.err.constData());
    servers = listServers();
    QCOMPARE(servers.size(), 1);
    QCOMPARE(servers.first().toObject().value("tasks").toInt(), 3);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM servers")), qint64(1));

    // Deleted with its tasks, by URL this time.
    r = ctl({QStringLiteral("servers"),
             QStringLiteral("remove"),
             m_server.url(),
             QStringLiteral("--delete-tasks")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("removed \"127.0.0.1\" and deleted its 3 task(s)"), r.out.constData());
    QCOMPARE(listServers().size(), 0);
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM servers")), qint64(0));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks")), qint64(0));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM cases")), qint64(0));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM task_events")), qint64(0));
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM progress_samples")), qint64(0));
}

void tst_CtlServers::setUrlNameAndToken()
{
    m_db = m_dir.filePath(QStringLiteral("set.sqlite"));
    // Not waited for: the server may still be busy with the long case of the test before.
    Run r = call(QStringLiteral(R"({"reynolds": 100, "grid": 16, "max_iterations": 200})"), false);
    QVERIFY2(r.code == 0, r.err.constData());
    const QString servers = QStringLiteral("SELECT COUNT(*) FROM servers");
    QCOMPARE(scalar(servers), qint64(1));
    const qint64 id = scalar(QStringLiteral("SELECT id FROM servers"));
    const QString unchanged = QStringLiteral("SELECT COUNT(*) FROM servers WHERE name = "
                                             "'127.0.0.1' AND token = '' AND url = '%1'")
                                  .arg(m_server.url());
    const QString set = QStringLiteral("set");
    const QString srv = QStringLiteral("servers");

    // Nothing to change, a URL that is not one, an unknown server, a URL another has: refused.
    r = ctl({srv, set, QStringLiteral("127.0.0.1")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("give what to change"), r.err.constData());
    r = ctl({srv,
             set,
             QStringLiteral("127.0.0.1"),
             QStringLiteral("--url"),
             QStringLiteral("ftp://x")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("is not an http(s) URL") && r.err.contains("Nothing was changed"),
             r.err.constData());
    r = ctl(
        {srv, set, QStringLiteral("nosuchserver"), QStringLiteral("--name"), QStringLiteral("x")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("no server is named \"nosuchserver\"")
                 && r.err.contains("nothing was changed"),
             r.err.constData());
    const QString other = QStringLiteral("http://127.0.0.1:9/mcp");
    r = ctl({QStringLiteral("discover"), other}); // stored, though nobody answers there
    QCOMPARE(scalar(servers), qint64(2));
    r = ctl({srv, set, m_server.url(), QStringLiteral("--url"), other});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("already has the URL"), r.err.constData());
    QCOMPARE(scalar(unchanged), qint64(1));

    // Moved, renamed and given a token: the same server, with its task.
    const QString moved
        = QString(m_server.url()).replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
    r = ctl({QStringLiteral("--token"),
             QStringLiteral("t0ken"),
             srv,
             set,
             m_server.url(),
             QStringLiteral("--url"),
             moved,
             QStringLiteral("--name"),
             QStringLiteral("Moved CFD")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("\"127.0.0.1\" now has URL " + moved.toUtf8())
                 && r.out.contains("name \"Moved CFD\"") && r.out.contains("a new token"),
             r.out.constData());
    QVERIFY2(!r.out.contains("t0ken"), r.out.constData()); // a secret is not printed
    // The token is kept outside the database (here in the owner-only file: no session bus).
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM servers WHERE id = %1 AND url = '%2' AND "
                                   "name = 'Moved CFD' AND token = '' AND token_ref LIKE 'file:%'")
                        .arg(id)
                        .arg(moved)),
             qint64(1));
    {
        QFile tokens(m_dir.filePath(QStringLiteral("data/Eddy/eddy/oauth-tokens.json")));
        QVERIFY(tokens.open(QIODevice::ReadOnly));
        QVERIFY(tokens.readAll().contains("t0ken"));
    }
    QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM tasks WHERE server_id = %1").arg(id)),
             qint64(1));
    // The token removed again, by the new name.
    r = ctl({QStringLiteral("--token"), QString(), srv, set, QStringLiteral("Moved CFD")});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("now has no token"), r.out.constData());
    QCOMPARE(
        scalar(QStringLiteral("SELECT COUNT(*) FROM servers WHERE id = %1 AND token = '' AND "
                              "token_ref = ''").arg(id)),
        qint64(1));
}

QTEST_GUILESS_MAIN(tst_CtlServers)
#include "tst_ctlservers.moc"
