// Cases that could not be sent while their server was down go as soon as it answers again: the
// real eddyctl binary, a real SQLite file and the real eddy-cfd-server on 127.0.0.1:0, stopped
// and started again on the same port. A parked task (it waits for an answer to its mesh
// question) keeps `eddyctl watch` polling the server, as an engineer's running sweep does.
// - cases on their retry timer are submitted well before the retry the engine announced,
//   while those of another server that is still down keep waiting;
// - cases kept unsent after their last retry are sent while the same watch runs;
// - either way each case reaches the server once: one task per idempotency key.
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using Eddy::Test::TestServer;

namespace {

// Debug logging: the server logs every tasks/get, which says when watch's polls are answered.
const QStringList kServerArgs{QStringLiteral("--workers"), QStringLiteral("1"),
                              QStringLiteral("--poll-interval-ms"), QStringLiteral("250"),
                              QStringLiteral("--log-level"), QStringLiteral("debug")};

// One case that stops at once on its mesh question and stays live until answered.
const QByteArray kParkedSpec = R"({"tool": "run_cfd_case",
    "fixed": {"grid": 8, "max_iterations": 200, "force_mesh_defect": true},
    "vary": {"reynolds": {"list": [100]}}, "concurrency": 1})";

// Two short cases (sweep ids follow the order the sweeps are submitted in).
QByteArray twoCases(int reynolds)
{
    return QStringLiteral(R"({"tool": "run_cfd_case", "fixed": {"grid": 8, "max_iterations": 50},
        "vary": {"reynolds": {"list": [%1, %2]}}, "concurrency": 2})")
        .arg(reynolds)
        .arg(reynolds + 1)
        .toUtf8();
}

using Run = Eddy::Test::CtlRun;

Run runCtl(const QStringList &args, const QHash<QString, QString> &env = {})
{
    return Eddy::Test::runCtl(args, {10000, 60000, 5000}, env);
}

QList<QStringList> query(const QString &path, const QString &sql)
{
    return Eddy::Test::query(path, sql, 10000);
}

qint64 scalar(const QString &path, const QString &sql)
{
    return Eddy::Test::scalar(path, sql, 10000);
}

QList<qint64> caseIds(const QString &db, int sweepId)
{
    QList<qint64> ids;
    for (const QStringList &row :
         query(db, QStringLiteral("SELECT id FROM cases WHERE sweep_id=%1 ORDER BY id").arg(sweepId)))
        ids << row.value(0).toLongLong();
    return ids;
}

// How often Eddy has sent the case (every process on the database sends unsent cases).
qint64 attempts(const QString &db, qint64 caseId)
{
    return scalar(db, QStringLiteral("SELECT attempts FROM cases WHERE id=%1").arg(caseId));
}

// How many of the cases have their task (state 'submitted').
int submitted(const QString &db, const QList<qint64> &ids)
{
    int n = 0;
    for (qint64 id : ids)
        n += query(db, QStringLiteral("SELECT state FROM cases WHERE id=%1").arg(id)).value(0).value(0)
             == QLatin1String("submitted");
    return n;
}

bool restartOnSamePort(TestServer &server)
{
    const quint16 port = server.port();
    return server.start(kServerArgs + QStringList{QStringLiteral("--port"), QString::number(port)},
                        server.dataDir())
           && server.port() == port;
}

// `eddyctl watch` in the background; its stderr read line by line as it comes, each line with
// when the test read it. Stopped (by its own process id) when the test ends.
class Watch
{
public:
    bool start(const QString &db, const QHash<QString, QString> &env)
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (auto it = env.cbegin(); it != env.cend(); ++it)
            e.insert(it.key(), it.value());
        m_process.setProcessEnvironment(e);
        m_clock.start();
        m_process.start(Eddy::Test::ctlBin(), {QStringLiteral("--db"), db, QStringLiteral("watch")});
        if (!m_process.waitForStarted(10000))
            return false;
        m_process.closeWriteChannel();
        return true;
    }
    ~Watch()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    // Reads what came until `done` holds or `timeoutMs` passed; whether it holds.
    bool waitFor(const std::function<bool()> &done, int timeoutMs)
    {
        QElapsedTimer waited;
        waited.start();
        for (;;) {
            read();
            if (done())
                return true;
            if (waited.elapsed() > timeoutMs || m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(50);
        }
    }
    void read()
    {
        m_buffer += m_process.readAllStandardError();
        for (qsizetype nl; (nl = m_buffer.indexOf('\n')) >= 0;) {
            m_lines << QString::fromUtf8(m_buffer.left(nl));
            m_readAt << m_clock.elapsed();
            m_buffer.remove(0, nl + 1);
        }
    }
    qint64 now() const { return m_clock.elapsed(); }
    const QStringList &lines() const { return m_lines; }
    qint64 readAt(qsizetype line) const { return m_readAt.value(line); }
    QByteArray text() const { return m_lines.join(QLatin1Char('\n')).toUtf8(); }

private:
    QProcess m_process;
    QElapsedTimer m_clock;
    QByteArray m_buffer;
    QStringList m_lines;
    QList<qint64> m_readAt;
};

// "call 7: ...; retry 1 of 6 in 16 s (re-sent ...)": when it was read and the delay announced.
struct Announcement
{
    qint64 readAtMs = -1;
    qint64 delayMs = 0;
};

QHash<qint64, Announcement> firstRetries(const Watch &watch)
{
    static const QRegularExpression line(QStringLiteral("^call (\\d+): .*; retry 1 of \\d+ in ([0-9.]+) s "));
    QHash<qint64, Announcement> out;
    for (qsizetype i = 0; i < watch.lines().size(); ++i) {
        const auto m = line.match(watch.lines()[i]);
        if (m.hasMatch() && !out.contains(m.captured(1).toLongLong()))
            out.insert(m.captured(1).toLongLong(), {watch.readAt(i), qint64(m.captured(2).toDouble() * 1000)});
    }
    return out;
}

bool saidFor(const Watch &watch, qint64 caseId, const QString &phrase)
{
    const QString head = QStringLiteral("call %1: ").arg(caseId);
    for (const QString &l : watch.lines())
        if (l.startsWith(head) && l.contains(phrase))
            return true;
    return false;
}

} // namespace

class tst_CtlResubmit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void waitingCasesGoWhenTheirServerAnswersAgain();
    void deferredCasesGoWhenTheirServerAnswersAgain();

private:
    // Each case reached the server once: one server task per idempotency key, one row each.
    void checkOneTaskPerKey(const QString &db, const TestServer &server, const QList<qint64> &ids);

    QTemporaryDir m_dir;
};

void tst_CtlResubmit::initTestCase()
{
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    QVERIFY(m_dir.isValid());
    QVERIFY(Eddy::Test::writeFile(m_dir.filePath(QStringLiteral("parked.json")), kParkedSpec));
    QVERIFY(Eddy::Test::writeFile(m_dir.filePath(QStringLiteral("first.json")), twoCases(200)));
    QVERIFY(Eddy::Test::writeFile(m_dir.filePath(QStringLiteral("second.json")), twoCases(300)));
}

void tst_CtlResubmit::checkOneTaskPerKey(const QString &db, const TestServer &server,
                                         const QList<qint64> &ids)
{
    const QString serverDb = server.dataDir() + QStringLiteral("/tasks.sqlite");
    for (qint64 id : ids) {
        const QString key = query(db, QStringLiteral("SELECT idempotency_key FROM cases WHERE id=%1").arg(id))
                                .value(0)
                                .value(0);
        QVERIFY(!key.isEmpty());
        QCOMPARE(scalar(serverDb, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE idempotency_key='%1'").arg(key)),
                 qint64(1));
        QCOMPARE(scalar(db, QStringLiteral("SELECT COUNT(*) FROM tasks WHERE case_id=%1").arg(id)), qint64(1));
    }
}

void tst_CtlResubmit::waitingCasesGoWhenTheirServerAnswersAgain()
{
    TestServer first;
    TestServer second;
    QVERIFY2(first.start(kServerArgs), qPrintable(first.errorString()));
    QVERIFY2(second.start(kServerArgs), qPrintable(second.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("waiting.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), first.url(),
                    m_dir.filePath(QStringLiteral("parked.json"))});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("tools"), second.url()}); // known while down
    QVERIFY2(r.code == 0, r.err.constData());

    // Both servers stop; a sweep for each is journalled meanwhile (no retries: kept unsent).
    QVERIFY(first.terminate());
    QVERIFY(second.terminate());
    const QHash<QString, QString> noRetries{{QStringLiteral("EDDY_CALL_RETRIES"), QStringLiteral("0")}};
    for (const TestServer *s : {&first, &second}) {
        r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), s->url(),
                    m_dir.filePath(s == &first ? QStringLiteral("first.json") : QStringLiteral("second.json"))},
                   noRetries);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("2 kept unsent"), (r.out + r.err).constData());
    }
    const QList<qint64> onFirst = caseIds(db, 2);
    const QList<qint64> onSecond = caseIds(db, 3);
    QCOMPARE(onFirst.size(), 2);
    QCOMPARE(onSecond.size(), 2);

    // watch sends all four, none is answered, each is announced for a retry in 16 s.
    Watch watch;
    QVERIFY(watch.start(db, {{QStringLiteral("EDDY_CALL_RETRY_BASE_MS"), QStringLiteral("16000")}}));
    QHash<qint64, Announcement> announced;
    QVERIFY2(watch.waitFor([&] {
        announced = firstRetries(watch);
        return announced.size() == 4;
    }, 30000), watch.text().constData());
    for (qint64 id : onFirst + onSecond)
        QVERIFY2(announced.value(id).delayMs == 16000, watch.text().constData());

    // The first server comes back on its port; the second stays down.
    QHash<qint64, qint64> attemptsBefore;
    for (qint64 id : onFirst + onSecond)
        attemptsBefore.insert(id, attempts(db, id));
    QVERIFY2(restartOnSamePort(first), qPrintable(first.errorString()));
    // Its cases go as soon as watch hears from it again (its parked task polled), well within
    // half the backoff announced for them; without that they would wait the whole of it.
    qint64 deadline = 0;
    for (qint64 id : onFirst)
        deadline = std::max(deadline, announced[id].readAtMs + announced[id].delayMs / 2);
    const bool sent = watch.waitFor([&] { return submitted(db, onFirst) == 2; }, int(deadline - watch.now()));
    QVERIFY2(sent, qPrintable(QStringLiteral("%1 of 2 submitted %2 ms after the announcement of a retry in "
                                             "16 s:\n%3")
                                  .arg(submitted(db, onFirst))
                                  .arg(watch.now() - announced[onFirst.first()].readAtMs)
                                  .arg(QString::fromUtf8(watch.text()))));
    qInfo("submitted %lld ms after the first retry was announced for in 16 s",
          watch.now() - announced[onFirst.first()].readAtMs);
    for (qint64 id : onFirst)
        QVERIFY2(saidFor(watch, id, QStringLiteral("the server answers again; retry 1 of 6 now")),
                 watch.text().constData());
    // The second server's cases were not sent again.
    for (qint64 id : onSecond) {
        QCOMPARE(attempts(db, id), attemptsBefore.value(id));
        QCOMPARE(query(db, QStringLiteral("SELECT state FROM cases WHERE id=%1").arg(id)).value(0).value(0),
                 QStringLiteral("sent"));
        QVERIFY2(!saidFor(watch, id, QStringLiteral("answers again")), watch.text().constData());
    }
    for (qint64 id : onFirst) // sent once more since the restart
        QCOMPARE(attempts(db, id), attemptsBefore.value(id) + 1);
    checkOneTaskPerKey(db, first, onFirst);
}

void tst_CtlResubmit::deferredCasesGoWhenTheirServerAnswersAgain()
{
    TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QString db = m_dir.filePath(QStringLiteral("deferred.sqlite"));
    Run r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), server.url(),
                    m_dir.filePath(QStringLiteral("parked.json"))});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(server.terminate());
    const QHash<QString, QString> noRetries{{QStringLiteral("EDDY_CALL_RETRIES"), QStringLiteral("0")}};
    r = runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), server.url(),
                m_dir.filePath(QStringLiteral("first.json"))},
               noRetries);
    QCOMPARE(r.code, 1);
    const QList<qint64> ids = caseIds(db, 2);
    QCOMPARE(ids.size(), 2);

    // watch tries each once more and keeps them unsent, then goes on polling the parked task.
    Watch watch;
    QVERIFY(watch.start(db, noRetries));
    QVERIFY2(watch.waitFor([&] {
        return std::all_of(ids.cbegin(), ids.cend(),
                           [&](qint64 id) { return saidFor(watch, id, QStringLiteral("kept unsent")); });
    }, 30000), watch.text().constData());

    QHash<qint64, qint64> attemptsBefore;
    for (qint64 id : ids)
        attemptsBefore.insert(id, attempts(db, id));
    const qsizetype logBefore = server.standardError().size();
    QVERIFY2(restartOnSamePort(server), qPrintable(server.errorString()));
    // Sent while the same watch runs, once it hears from the server: by the time the server has
    // answered eight of its polls (2 s at its 250 ms interval) the calls are long answered.
    const auto pollsAnswered = [&] { return server.standardError().mid(logBefore).count("tasks/get "); };
    QVERIFY(watch.waitFor([&] { return submitted(db, ids) == 2 || pollsAnswered() >= 8; }, 60000));
    QVERIFY2(submitted(db, ids) == 2,
             qPrintable(QStringLiteral("%1 of 2 submitted after %2 polls were answered:\n%3")
                            .arg(submitted(db, ids))
                            .arg(pollsAnswered())
                            .arg(QString::fromUtf8(watch.text()))));
    for (qint64 id : ids)
        QVERIFY2(saidFor(watch, id, QStringLiteral("the server answers again; sent again now")),
                 watch.text().constData());
    for (qint64 id : ids) // sent once more since the restart
        QCOMPARE(attempts(db, id), attemptsBefore.value(id) + 1);
    checkOneTaskPerKey(db, server, ids);
}

QTEST_GUILESS_MAIN(tst_CtlResubmit)
#include "tst_ctlresubmit.moc"
