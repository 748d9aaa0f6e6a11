// kill -9 of the process that polls the tasks, another process on the same database taking them
// over (found by bench/soak: each kill -9 of `eddyctl watch` beside the window made the window
// poll every task it took over at once, a whole round of early polls). The real eddyctl twice on
// one SQLite file, eddy-cfd-server on loopback with its debug log (one line per tasks/get, the
// task id redacted): after the takeover no task is polled sooner after its last poll than the
// server's pollIntervalMs asks.
#include "ctlsupport.h"
#include "tests/common/serverlog.h"
#include "tests/common/testserver.h"

#include <QHash>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace Eddy;
using nlohmann::json;

namespace {

constexpr int s_intervalMs = 4000; // the server's pollIntervalMs for a waiting task
constexpr int s_tasks = 24;

} // namespace

class tst_Takeover : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void killedWatchersTasksAreNotPolledEarly();

private:
    std::unique_ptr<QProcess> startWatch(const QString &db);
    // Polls per redacted task id in the server's log from byte `from` on.
    QHash<QString, QList<qint64>> pollsSince(qsizetype from) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QList<std::shared_ptr<QProcess>> m_watches;
};

void tst_Takeover::initTestCase()
{
    // A lease tick every second: the takeover follows the kill within about a second.
    qputenv("EDDY_LEASE_MS", "3000");
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QString::number(s_intervalMs),
                             QStringLiteral("--log-level"), QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
}

void tst_Takeover::cleanup()
{
    for (const auto &p : std::as_const(m_watches)) {
        if (p->state() != QProcess::NotRunning) {
            p->kill();
            p->waitForFinished(10000);
        }
    }
    m_watches.clear();
}

std::unique_ptr<QProcess> tst_Takeover::startWatch(const QString &db)
{
    auto p = std::make_unique<QProcess>();
    p->setProgram(Test::ctlBin());
    p->setArguments({QStringLiteral("--db"), db, QStringLiteral("watch")});
    p->setStandardInputFile(QProcess::nullDevice()); // no terminal: nothing asks on stdin
    p->start();
    return p;
}

QHash<QString, QList<qint64>> tst_Takeover::pollsSince(qsizetype from) const
{
    QHash<QString, QList<qint64>> byTask;
    for (const Test::LogLine &l : Test::serverLines(m_server.standardError().mid(from), QStringLiteral("tasks/get")))
        byTask[l.task] << l.atMs;
    return byTask;
}

void tst_Takeover::killedWatchersTasksAreNotPolledEarly()
{
    const QString db = m_dir.filePath(QStringLiteral("takeover.sqlite"));
    json reynolds = json::array();
    for (int i = 0; i < s_tasks; ++i)
        reynolds.push_back(100 + i);
    // Every case stops at the mesh question: live, polled every s_intervalMs, never ending.
    const json spec{{"tool", "run_cfd_case"},
                    {"fixed", {{"grid", 8}, {"max_iterations", 100}, {"force_mesh_defect", true}}},
                    {"vary", {{"reynolds", {{"list", reynolds}}}}},
                    {"concurrency", s_tasks}};
    const QString specPath = m_dir.filePath(QStringLiteral("spec.json"));
    QVERIFY(Test::writeFile(specPath, QByteArray::fromStdString(spec.dump())));
    const Test::CtlRun submit = Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"),
                                              QStringLiteral("submit"), m_server.url(), specPath});
    QVERIFY2(submit.code == 0, submit.err.constData());

    // The first watcher polls every task (the submitting eddyctl has gone) ...
    const qsizetype logStart = m_server.standardError().size();
    m_watches << startWatch(db);
    QProcess &first = *m_watches.last();
    QVERIFY(first.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto polls = pollsSince(logStart);
            if (polls.size() < s_tasks)
                return false;
            for (const QList<qint64> &at : polls)
                if (at.size() < 2)
                    return false;
            return true;
        }(),
        60000);
    // ... the second follows them; then the first is killed and the second takes them over.
    m_watches << startWatch(db);
    QVERIFY(m_watches.last()->waitForStarted(10000));
    const qsizetype killedAt = m_server.standardError().size();
    first.kill();
    QVERIFY(first.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto after = pollsSince(killedAt);
            return after.size() == s_tasks;
        }(),
        60000);

    // The server asked for one poll per interval: a task taken over is polled no sooner after
    // its last poll than that (less the scheduler's slot rounding), not at once.
    const auto before = pollsSince(logStart);
    const auto after = pollsSince(killedAt);
    int early = 0;
    QStringList gaps;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const QList<qint64> earlier = before.value(it.key());
        QVERIFY2(!earlier.isEmpty(), "a task polled only after the kill");
        qint64 last = 0;
        for (qint64 at : earlier)
            if (at < it.value().first())
                last = std::max(last, at);
        const qint64 gap = it.value().first() - last;
        gaps << QString::number(gap);
        if (gap < s_intervalMs * 3 / 4)
            ++early;
    }
    QVERIFY2(early == 0,
             qPrintable(QStringLiteral("%1 of %2 tasks polled sooner than %3 ms after their last poll once "
                                       "taken over; gaps (ms): %4")
                            .arg(early)
                            .arg(s_tasks)
                            .arg(s_intervalMs)
                            .arg(gaps.join(QStringLiteral(", ")))));
}

QTEST_GUILESS_MAIN(tst_Takeover)
#include "tst_takeover.moc"
