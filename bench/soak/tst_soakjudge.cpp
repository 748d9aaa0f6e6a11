// The soak's judge (bench_soak report, docs/soak.md) on runs written here: the server's memory
// above its heap in use is judged at the same point of every minute, right after its trim, so
// the saw of memory freed between two trims is not read as growth, and a leak, steady or in
// steps, is named. Each run is an hour of samples every 5 s from a server restarted every
// 10 minutes that trims its heap once a minute, the columns soak.sh writes, judged by the real
// bench_soak.

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

namespace {

constexpr int kMinutes = 60;
constexpr int kSampleS = 5;
constexpr double kHeapKb = 80'000;
constexpr qint64 kEpochMs = 1'800'000'000'000;

// The server's anonymous RSS above its heap in use, in KB, right after the trim of minute
// `minute` (1, 2, ... within lifetime `lifetime`).
using AboveHeap = std::function<double(int lifetime, int minute)>;

// Writes a run's folder: samples.csv, events.csv, final.txt.
void writeRun(const QString &dir, const AboveHeap &aboveHeap, int lifetimeMin)
{
    QFile samples(dir + QStringLiteral("/samples.csv"));
    QVERIFY(samples.open(QIODevice::WriteOnly));
    samples.write("t_s,epoch_ms,server_pid,server_rss_kb,server_heap_kb,server_tasks,polls,asked,"
                  "server_stats_rss_kb,server_trim_ms,server_trim_heap_kb,server_trim_anon_kb,server_trim_streams\n");
    for (int t = 0; t <= kMinutes * 60; t += kSampleS) {
        const int lifetime = t / (lifetimeMin * 60);
        const int start = lifetime * lifetimeMin * 60;
        const int minute = (t - start) / 60; // the trims so far in this lifetime
        QByteArray trim = ",,,";
        double above = 2048; // before the first trim: what the sampler would see
        if (minute > 0) {
            above = aboveHeap(lifetime, minute);
            const qint64 trimMs = kEpochMs + qint64(start + minute * 60) * 1000;
            trim = QByteArray::number(trimMs) + ',' + QByteArray::number(kHeapKb, 'f', 0) + ','
                   + QByteArray::number(kHeapKb + above, 'f', 0) + ",3";
        }
        // Plus the file pages, and what was freed since the last trim: a saw of up to 3 MB a minute.
        const double rss = kHeapKb + above + 14'000 + 3072.0 * ((t - start) % 60) / 60.0;
        samples.write(QByteArray::number(t) + ',' + QByteArray::number(kEpochMs + qint64(t) * 1000) + ','
                      + QByteArray::number(1000 + lifetime) + ',' + QByteArray::number(rss, 'f', 0) + ','
                      + QByteArray::number(kHeapKb, 'f', 0) + ",10000," + QByteArray::number(t * 100) + ','
                      + QByteArray::number(t * 100) + ',' + QByteArray::number(rss, 'f', 0) + ',' + trim + '\n');
    }
    QFile events(dir + QStringLiteral("/events.csv"));
    QVERIFY(events.open(QIODevice::WriteOnly));
    events.write("t_s,kind,detail\n0,start,server\n20,ramp,done\n");
    for (int t = lifetimeMin * 60; t < kMinutes * 60; t += lifetimeMin * 60)
        events.write(QByteArray::number(t) + ",restart,server: SIGTERM\n");
    QFile final(dir + QStringLiteral("/final.txt"));
    QVERIFY(final.open(QIODevice::WriteOnly));
    final.write("minutes=60\ncases=100\ntasks=100\nlost=0\nstale=0\nunknown_to_server=0\ncases_unsent=0\n"
                "hostile_lost=0\nreplica_lost=0\ntwice_client=0\ntwice_server=0\nreplica_twice=0\n"
                "questions=0\nrule_answered=0\nrule_cancelled=0\nquestions_answered=0\nanswers_applied=0\n"
                "answers_applied_twice=0\nanswered_not_applied=0\nquestions_pending=0\nreplicas=not run\n");
}

struct Verdict
{
    int exitCode = -1;
    QString measureLine; // the table row of the measure after each trim
    QString last;        // VERDICT: ...
};

Verdict judge(const AboveHeap &aboveHeap, int lifetimeMin = 10)
{
    Verdict v;
    QTemporaryDir dir;
    dir.setAutoRemove(qEnvironmentVariableIsEmpty("SOAKJUDGE_KEEP"));
    if (!dir.isValid())
        return v;
    writeRun(dir.path(), aboveHeap, lifetimeMin);
    QProcess report;
    report.start(qEnvironmentVariable("BENCH_SOAK_BIN"), {QStringLiteral("report"), dir.path()});
    if (!report.waitForFinished(120'000))
        return v;
    v.exitCode = report.exitCode();
    QFile text(dir.path() + QStringLiteral("/verdict.txt"));
    if (!text.open(QIODevice::ReadOnly))
        return v;
    for (const QString &line : QString::fromUtf8(text.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("| eddy-cfd-server anonymous RSS above its heap in use, after each trim |")))
            v.measureLine = line;
        if (line.startsWith(QLatin1String("VERDICT")))
            v.last = line;
    }
    return v;
}

} // namespace

class TestSoakJudge : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(qEnvironmentVariable("BENCH_SOAK_BIN")), "BENCH_SOAK_BIN names no file");
    }

    // Flat at 2 MB after every trim, with up to 3 MB freed and kept between two trims.
    void theSawBetweenTrimsIsNotGrowth()
    {
        const Verdict v = judge([](int, int) { return 2048.0; });
        QVERIFY2(v.measureLine.contains(QLatin1String("| ok")), qPrintable(v.measureLine));
        QCOMPARE(v.last, QStringLiteral("VERDICT: PASS"));
        QCOMPARE(v.exitCode, 0);
    }

    // Lifetimes of 6 minutes hold 3 judged trims: one dip among them is a slope of several MB/h
    // (a 20-minute run failed on one), so such a lifetime does not count, as for the lows.
    void shortLifetimesAreNotJudged()
    {
        const Verdict v = judge([](int, int minute) { return minute == 3 ? 1200.0 : 1500.0; }, 6);
        QVERIFY2(v.measureLine.contains(QLatin1String("not judged")), qPrintable(v.measureLine));
        QCOMPARE(v.exitCode, 0);
    }

    // 2 MB an hour in every lifetime: what a leak of the allocator's pages looks like.
    void steadyGrowthIsNamed()
    {
        const Verdict v = judge([](int, int minute) { return 2048.0 + 2048.0 * minute / 60.0; });
        QVERIFY2(v.measureLine.contains(QLatin1String("**grows**")), qPrintable(v.measureLine));
        QVERIFY2(v.last.startsWith(QLatin1String("VERDICT: FAIL: eddy-cfd-server anonymous RSS above its heap in use, "
                                                 "after each trim grows")),
                 qPrintable(v.last));
        QCOMPARE(v.exitCode, 1);
    }

    // A step of 0.5 MB kept after an event in half the lifetimes and never given back (a leak
    // per client restart, say): the lifetimes without one do not hide it.
    void growthInSomeLifetimesIsNamed()
    {
        const Verdict v = judge([](int lifetime, int minute) {
            return lifetime % 2 == 0 && minute >= 5 ? 2048.0 + 512.0 : 2048.0;
        });
        QVERIFY2(v.measureLine.contains(QLatin1String("**grows**")), qPrintable(v.measureLine));
        QCOMPARE(v.exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestSoakJudge)
#include "tst_soakjudge.moc"
