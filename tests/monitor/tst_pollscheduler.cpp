// The poll scheduler on a fake clock: intervals honoured (never faster, exactly one interval apart
// on the phase lattice), changes of pollIntervalMs followed, clamping, per-server caps, backoff and
// Retry-After, wake-ups shared by the tasks of one interval. Logic only.
#include "app/monitor/pollscheduler.h"

#include <QTest>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>

using namespace Eddy::Monitor;

namespace {

struct FakeClock
{
    qint64 now = 1000000;
};

using Sends = std::map<qint64, QList<qint64>>; // task -> the moments its polls went out

// Runs the scheduler on the fake clock until `end` the way the engine does: wakes when a poll is
// due, an answer arrives or an event (e.g. an add) happens; sends everything due; answers each
// poll after latency() ms with the same interval.
Sends drive(PollScheduler &s,
            FakeClock &clock,
            qint64 end,
            qint64 interval,
            const std::function<qint64()> &latency,
            std::multimap<qint64, std::function<void()>> events = {})
{
    Sends sends;
    std::multimap<qint64, qint64> answers; // answer time -> task
    for (;;) {
        qint64 next = std::numeric_limits<qint64>::max();
        if (const auto due = s.nextDueAtMs())
            next = std::max(clock.now, *due);
        if (!answers.empty())
            next = std::min(next, answers.begin()->first);
        if (!events.empty())
            next = std::min(next, events.begin()->first);
        if (next >= end)
            return sends;
        clock.now = next;
        while (!answers.empty() && answers.begin()->first <= clock.now) {
            s.completed(answers.begin()->second, interval);
            answers.erase(answers.begin());
        }
        while (!events.empty() && events.begin()->first <= clock.now) {
            events.begin()->second();
            events.erase(events.begin());
        }
        for (qint64 id : s.takeDue()) {
            sends[id] << clock.now;
            answers.emplace(clock.now + latency(), id);
        }
    }
}

// The distinct moments at which any poll went out in [from, to).
int instantsBetween(const Sends &sends, qint64 from, qint64 to)
{
    std::set<qint64> instants;
    for (const auto &[id, times] : sends)
        for (qint64 t : times)
            if (t >= from && t < to)
                instants.insert(t);
    return int(instants.size());
}

} // namespace

class tst_PollScheduler : public QObject
{
    Q_OBJECT

private slots:
    void intervalHonouredExactly();
    void randomStartsNeverFaster();
    void followsIntervalChanges();
    void clamps();
    void slowAnswerDoesNotStretchCadence();
    void perServerCap();
    void backoffAndRetryAfter();
    void restartServerForgetsBackoffAndFlight();
    void pollSoonRespectsInterval();
    void removeWhileInFlight();
    void duePollsShareOneWakeUp();
    void lateWakeUpsDoNotLosePolls();
    void oneIntervalSharesItsSlots();
    void steadyPollsExactlyOneIntervalApart();
    void latticeRepeatsEveryInterval();
    void longIntervalsGetOneSlotPerSecond();
    void slotWidthBounds();
    void rateOverTwoHundredIntervals_data();
    void rateOverTwoHundredIntervals();
    void offsetDrawnOncePerScheduler();
    void pollSoonLeavesAndRejoinsLattice();
    void backoffRejoinsLattice();
    void ticksShareInstantsWhateverTheBackoff();
    void ticksBackOffAndStartAfresh();
    void ticksBatchCountsAsOneRequest();
    void ticksFailureKeepsTheBatchTogether();
    void setTicksMovesLiveJobs();
};

// A task polled at once when added joins its lattice on the second poll (at most one slot late)
// and from then on is polled exactly every interval: no jitter, no grid rounding to add up.
void tst_PollScheduler::intervalHonouredExactly()
{
    FakeClock clock;
    PollScheduler s(
        PollScheduler::Config(),
        [&] { return clock.now; },
        [] { return 0.5; }); // offset: half a slot
    s.add(1, 1, 1000);
    QList<qint64> sends;
    const qint64 start = clock.now;
    while (clock.now - start < 100000) {
        const auto due = s.nextDueAtMs();
        QVERIFY(due);
        clock.now = *due;
        const auto taken = s.takeDue();
        QCOMPARE(taken.size(), 1);
        sends << clock.now;
        clock.now += 40; // answer latency
        s.completed(1, 1000);
    }
    const qint64 slot = 1000 / s.slotsPerInterval(1000);
    const qint64 joined = sends[1] - sends[0];
    QVERIFY2(joined >= 1000 && joined <= 1000 + slot, qPrintable(QString::number(joined)));
    QCOMPARE(s.slotAtOrAfter(1000, sends[1]), sends[1]); // on the lattice from the second poll
    for (int i = 2; i < sends.size(); ++i)
        QCOMPARE(sends[i] - sends[i - 1], qint64(1000));
    // 100 s at 1000 ms: 100 polls asked; one join costs at most a quarter of one.
    QVERIFY2(sends.size() >= 99 && sends.size() <= 101, qPrintable(QString::number(sends.size())));
}

void tst_PollScheduler::randomStartsNeverFaster()
{
    FakeClock clock;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [&] { return u(rng); });
    for (int t = 1; t <= 50; ++t)
        s.add(t, 1, 2000, clock.now + t);
    QHash<qint64, qint64> last;
    int polls = 0;
    double sumGap = 0;
    int gaps = 0;
    while (polls < 2000) {
        clock.now = *s.nextDueAtMs();
        for (qint64 id : s.takeDue()) {
            if (last.contains(id)) {
                const qint64 gap = clock.now - last[id];
                QVERIFY2(gap >= 2000 && gap < 2200, qPrintable(QString::number(gap)));
                sumGap += double(gap);
                ++gaps;
            }
            last[id] = clock.now;
            ++polls;
            s.completed(id, 2000);
        }
    }
    const double mean = sumGap / gaps;
    QVERIFY2(mean >= 2000 && mean <= 2000 * 1.10, qPrintable(QString::number(mean)));
}

void tst_PollScheduler::followsIntervalChanges()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(7, 1, 1000);
    QCOMPARE(s.takeDue(), QList<qint64>{7});
    s.completed(7, 5000); // the server widened the interval (queued)
    QCOMPARE(*s.dueAtMs(7), clock.now + 5000);
    clock.now += 4999;
    QVERIFY(s.takeDue().isEmpty());
    clock.now += 1;
    QCOMPARE(s.takeDue(), QList<qint64>{7});
    s.completed(7, 300); // narrower near the end
    QCOMPARE(*s.dueAtMs(7), clock.now + 300);
    clock.now += 300;
    QCOMPARE(s.takeDue(), QList<qint64>{7});
    s.completed(7, std::nullopt); // no hint this time: keep the last one
    QCOMPARE(*s.dueAtMs(7), clock.now + 300);
}

void tst_PollScheduler::clamps()
{
    PollScheduler s;
    QCOMPARE(s.clampedInterval(10), qint64(250));
    QCOMPARE(s.clampedInterval(600000), qint64(60000));
    QCOMPARE(s.clampedInterval(std::nullopt), s.config().defaultIntervalMs);
    QCOMPARE(s.clampedInterval(-5), s.config().defaultIntervalMs);
    QCOMPARE(s.clampedInterval(1500), qint64(1500));
}

void tst_PollScheduler::slowAnswerDoesNotStretchCadence()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, 1000);
    const qint64 sent = clock.now;
    QCOMPARE(s.takeDue().size(), 1);
    clock.now += 400;
    s.completed(1, 1000);
    QCOMPARE(*s.dueAtMs(1), sent + 1000); // measured from the send
    clock.now = sent + 3000; // an answer slower than the interval: next poll at once, not earlier
    QCOMPARE(s.takeDue().size(), 1);
    clock.now += 2500;
    s.completed(1, 1000);
    QCOMPARE(*s.dueAtMs(1), clock.now);
}

void tst_PollScheduler::perServerCap()
{
    FakeClock clock;
    PollScheduler::Config config;
    config.maxInFlightPerServer = 4;
    PollScheduler s(config, [&] { return clock.now; }, [] { return 0.0; });
    for (int t = 1; t <= 10; ++t)
        s.add(t, 1, 1000);
    s.add(100, 2, 1000);
    const auto first = s.takeDue();
    QCOMPARE(first.size(), 5); // 4 of server 1, and server 2 is not blocked by server 1's cap
    QVERIFY(first.contains(100));
    QCOMPARE(s.inFlight(1), 4);
    QVERIFY(s.takeDue().isEmpty());
    s.completed(first[0] == 100 ? first[1] : first[0], 1000);
    QCOMPARE(s.takeDue().size(), 1);
    QCOMPARE(s.inFlight(1), 4);
    const auto limited = s.takeDue(0);
    QVERIFY(limited.isEmpty());
}

void tst_PollScheduler::backoffAndRetryAfter()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, 250);
    s.add(2, 1, 250);
    QCOMPARE(s.takeDue().size(), 2);
    s.failed(1);
    QCOMPARE(s.failureCount(1), 1);
    QCOMPARE(s.backoffUntil(1), clock.now + 1000);
    s.failed(2); // the same outage seen by the other poll in flight: counted once
    QCOMPARE(s.failureCount(1), 1);
    QCOMPARE(s.backoffUntil(1), clock.now + 1000);
    clock.now += 999;
    QVERIFY(s.takeDue().isEmpty()); // the whole server waits
    QCOMPARE(*s.nextDueAtMs(), clock.now + 1);
    clock.now += 1;
    auto again = s.takeDue();
    QCOMPARE(again.size(), 2);
    s.failed(again[0]); // a poll sent after the backoff fails too: the next one is longer
    QCOMPARE(s.failureCount(1), 2);
    QCOMPARE(s.backoffUntil(1), clock.now + 2000); // exponential
    clock.now += 2000;
    const auto third = s.takeDue();
    QCOMPARE(third.size(), 1); // again[1] is still in flight
    s.failed(third[0], 30000); // Retry-After: 30 s beats the 4 s backoff
    QCOMPARE(s.failureCount(1), 3);
    QCOMPARE(s.backoffUntil(1), clock.now + 30000);
    s.completed(again[1], 250); // a success clears the backoff
    QCOMPARE(s.failureCount(1), 0);
    QCOMPARE(s.backoffUntil(1), qint64(0));
    for (int i = 0; i < 40; ++i) { // capped at backoffMaxMs
        clock.now += 120000;
        const auto ids = s.takeDue();
        for (qint64 id : ids)
            s.failed(id);
    }
    QVERIFY(s.backoffUntil(1) - clock.now <= s.config().backoffMaxMs);
}

void tst_PollScheduler::pollSoonRespectsInterval()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, 10000);
    const qint64 sent = clock.now;
    s.takeDue();
    s.completed(1, 10000);
    clock.now += 100;
    s.pollSoon(1); // an answer was sent: poll as soon as allowed, never sooner than asked
    QCOMPARE(*s.dueAtMs(1), sent + 10000);
    s.add(2, 1, 10000, clock.now + 50000); // never polled: may go at once
    s.pollSoon(2);
    QCOMPARE(*s.dueAtMs(2), clock.now);
}

void tst_PollScheduler::removeWhileInFlight()
{
    FakeClock clock;
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1;
    PollScheduler s(config, [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, 1000);
    s.add(2, 1, 1000);
    QCOMPARE(s.takeDue().size(), 1);
    s.remove(1); // finished elsewhere (a push): the slot frees up
    QCOMPARE(s.inFlight(1), 0);
    QCOMPARE(s.takeDue(), QList<qint64>{2});
    s.completed(1, 1000); // late answer of a removed task is ignored
    QCOMPARE(s.size(), 1);
}

// 100 tasks every 500 ms, first polls spread over one interval: the lattice puts many polls on one
// timer expiry (the first scheduler woke once per poll, 200 times a second), every poll still at
// least the interval after the previous one of its task and never later than that.
void tst_PollScheduler::duePollsShareOneWakeUp()
{
    FakeClock clock;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.minIntervalMs = 100;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const int tasks = 100;
    const qint64 interval = 500;
    for (int t = 0; t < tasks; ++t)
        s.add(t, 1, interval, clock.now + 1 + t * interval / tasks);
    QHash<qint64, qint64> last;
    int wakeUps = 0;
    int polls = 0;
    const qint64 start = clock.now;
    const qint64 seconds = 60;
    while (clock.now - start < seconds * 1000) {
        clock.now = *s.nextDueAtMs();
        const QList<qint64> due = s.takeDue();
        QVERIFY(!due.isEmpty());
        QCOMPARE(s.slotAtOrAfter(interval, clock.now), clock.now); // on the lattice
        ++wakeUps;
        for (qint64 id : due) {
            if (last.contains(id)) {
                const qint64 gap = clock.now - last[id];
                // The first polls were given on the lattice: every gap is the interval.
                QCOMPARE(gap, interval);
            }
            last[id] = clock.now;
            ++polls;
            s.completed(id, interval);
        }
    }
    const int asked = int(tasks * seconds * 1000 / interval);
    QVERIFY2(polls <= asked + tasks && polls >= asked * 97 / 100,
             qPrintable(QStringLiteral("%1 polls, %2 asked").arg(polls).arg(asked)));
    // One wake-up per slot (8 a second here), against one per poll at first and 25 a second on
    // the 20 ms grid that came before the lattice.
    const qint64 slotCount = s.slotsPerInterval(interval);
    QVERIFY2(wakeUps <= seconds * 1000 / interval * slotCount + 1,
             qPrintable(QStringLiteral("%1 wake-ups for %2 polls").arg(wakeUps).arg(polls)));
    QVERIFY(wakeUps * 20 < polls);
}

// A loaded machine: every timer expiry comes 0-30 ms late and answers take 0-100 ms. The cadence
// runs from when each poll was due, so the polls sent stay within 2 % of what the interval implies
// (~99 %; counted from when each poll left, the old way lost the lateness on every poll: 95-97 %),
// and never more.
void tst_PollScheduler::lateWakeUpsDoNotLosePolls()
{
    FakeClock clock;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const int tasks = 20;
    const qint64 interval = 500;
    for (int t = 0; t < tasks; ++t)
        s.add(t, 1, interval, clock.now + t * interval / tasks);
    std::multimap<qint64, qint64> answers; // answer time -> task
    int polls = 0;
    const qint64 start = clock.now;
    const qint64 end = start + 120000;
    while (clock.now < end) {
        const auto next = s.nextDueAtMs();
        const qint64 wake = next ? *next + qint64(u(rng) * 30) : answers.begin()->first;
        // Answers arriving before the (late) wake-up are handled first, as the event loop would.
        while (!answers.empty() && answers.begin()->first <= wake) {
            clock.now = std::max(clock.now, answers.begin()->first);
            s.completed(answers.begin()->second, interval);
            answers.erase(answers.begin());
        }
        clock.now = std::max(clock.now, wake);
        for (qint64 id : s.takeDue()) {
            ++polls;
            answers.emplace(clock.now + qint64(u(rng) * 100), id);
        }
    }
    const int asked = int(tasks * (end - start) / interval);
    QVERIFY2(polls <= asked + tasks && polls >= asked * 98 / 100,
             qPrintable(QStringLiteral("%1 polls, %2 asked").arg(polls).arg(asked)));
}

// 100 tasks of one interval, each added (and polled at once) at a random moment of the first
// interval: after their first round they go out on at most K distinct instants per interval,
// where the 20 ms grid gave up to 25 and the per-task timers 100.
void tst_PollScheduler::oneIntervalSharesItsSlots()
{
    FakeClock clock;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const qint64 interval = 500;
    const qint64 start = clock.now;
    std::multimap<qint64, std::function<void()>> adds;
    for (int t = 0; t < 100; ++t)
        adds.emplace(start + qint64(u(rng) * interval),
                     [&s, t, interval] { s.add(t, 1, interval); });
    const qint64 rounds = 60;
    const Sends sends = drive(s, clock, start + rounds * interval, interval,
                              [&] { return qint64(u(rng) * 50); }, std::move(adds));
    QCOMPARE(int(sends.size()), 100);
    const qint64 slotCount = s.slotsPerInterval(interval);
    QCOMPARE(slotCount, qint64(4));
    // The first round joins within one slot after its interval, so from 2 I on all are on slots.
    for (qint64 from = start + 2 * interval; from + interval <= start + rounds * interval;
         from += interval) {
        const int instants = instantsBetween(sends, from, from + interval);
        QVERIFY2(instants <= slotCount, qPrintable(QStringLiteral("%1 instants in [%2, +%3)")
                                                   .arg(instants).arg(from - start).arg(interval)));
    }
}

// Consecutive polls of a task: never closer than the interval, and exactly the interval apart once
// on the lattice, whatever the answer latency (below the interval) and the start moment.
void tst_PollScheduler::steadyPollsExactlyOneIntervalApart()
{
    FakeClock clock;
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const qint64 interval = 2000;
    const qint64 start = clock.now;
    std::multimap<qint64, std::function<void()>> adds;
    for (int t = 0; t < 30; ++t)
        adds.emplace(start + qint64(u(rng) * interval),
                     [&s, t, interval] { s.add(t, 1, interval); });
    const Sends sends = drive(s, clock, start + 50 * interval, interval,
                              [&] { return qint64(u(rng) * 1500); }, std::move(adds));
    const qint64 slot = interval / s.slotsPerInterval(interval);
    for (const auto &[id, times] : sends) {
        QVERIFY(times.size() >= 49);
        const qint64 joined = times[1] - times[0];
        QVERIFY2(joined >= interval && joined <= interval + slot,
                 qPrintable(QString::number(joined)));
        for (int i = 2; i < times.size(); ++i)
            QCOMPARE(times[i] - times[i - 1], interval);
    }
}

// I = 1234 ms is no multiple of its slot (308.5 ms): slot n at offset + floor(n * I / K) keeps the
// lattice repeating every I exactly, so a task neither drifts nor slips a slot over time.
void tst_PollScheduler::latticeRepeatsEveryInterval()
{
    FakeClock clock;
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const qint64 interval = 1234;
    QCOMPARE(s.slotsPerInterval(interval), qint64(4));
    // The slots of one period: widths 308 and 309, and the next period starts I after the first.
    QList<qint64> period{s.slotAtOrAfter(interval, clock.now)};
    for (int i = 0; i < 4; ++i)
        period << s.slotAtOrAfter(interval, period.last() + 1);
    for (int i = 1; i < period.size(); ++i)
        QVERIFY2(period[i] - period[i - 1] == 308 || period[i] - period[i - 1] == 309,
                 qPrintable(QString::number(period[i] - period[i - 1])));
    QCOMPARE(period[4] - period[0], interval);

    const qint64 start = clock.now;
    for (int t = 0; t < 20; ++t)
        s.add(t, 1, interval, start + qint64(u(rng) * interval));
    const qint64 rounds = 200;
    const Sends sends = drive(s, clock, start + rounds * interval, interval, [] { return 30; });
    for (const auto &[id, times] : sends) {
        QVERIFY(times.size() >= rounds - 1);
        for (int i = 1; i < times.size(); ++i)
            QCOMPARE(times[i] - times[i - 1], interval);
        QCOMPARE(s.slotAtOrAfter(interval, times.last()), times.last());
    }
    for (qint64 from = start; from + interval <= start + rounds * interval; from += interval)
        QVERIFY(instantsBetween(sends, from, from + interval) <= 4);
}

// A 60 s interval gets 60 slots (none wider than maxSlotMs): a joining poll waits at most 1 s.
void tst_PollScheduler::longIntervalsGetOneSlotPerSecond()
{
    FakeClock clock;
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const qint64 interval = 60000;
    QCOMPARE(s.slotsPerInterval(interval), qint64(60));
    const qint64 start = clock.now;
    std::multimap<qint64, std::function<void()>> adds;
    for (int t = 0; t < 100; ++t)
        adds.emplace(start + qint64(u(rng) * interval),
                     [&s, t, interval] { s.add(t, 1, interval); });
    const qint64 rounds = 10;
    const Sends sends = drive(s, clock, start + rounds * interval, interval,
                              [&] { return qint64(u(rng) * 200); }, std::move(adds));
    for (const auto &[id, times] : sends) {
        QVERIFY(times.size() >= rounds - 1);
        const qint64 joined = times[1] - times[0];
        QVERIFY2(joined >= interval && joined <= interval + config.maxSlotMs,
                 qPrintable(QString::number(joined)));
        for (int i = 2; i < times.size(); ++i)
            QCOMPARE(times[i] - times[i - 1], interval);
    }
    for (qint64 from = start + 2 * interval; from + interval <= start + rounds * interval;
         from += interval)
        QVERIFY(instantsBetween(sends, from, from + interval) <= 60);
}

// K = phasesPerInterval, raised so that no slot is wider than maxSlotMs, lowered so that none is
// narrower than batchWindowMs.
void tst_PollScheduler::slotWidthBounds()
{
    PollScheduler::Config config;
    config.minIntervalMs = 1;
    config.phasesPerInterval = 50;
    const PollScheduler wide(config);
    QCOMPARE(wide.slotsPerInterval(500), qint64(25)); // 20 ms slots, not 10 ms
    QCOMPARE(wide.slotsPerInterval(30), qint64(1));   // one slot: a whole interval of 30 ms
    QCOMPARE(wide.slotsPerInterval(10000), qint64(50));
    config.phasesPerInterval = 4;
    const PollScheduler defaults(config);
    QCOMPARE(defaults.slotsPerInterval(250), qint64(4));
    QCOMPARE(defaults.slotsPerInterval(4000), qint64(4));
    QCOMPARE(defaults.slotsPerInterval(4001), qint64(5)); // 1000.25 ms would be too wide
    QCOMPARE(defaults.slotsPerInterval(15000), qint64(15));
    QCOMPARE(defaults.slotsPerInterval(60), qint64(3));
}

void tst_PollScheduler::rateOverTwoHundredIntervals_data()
{
    QTest::addColumn<qint64>("interval");
    QTest::newRow("250 ms") << qint64(250);
    QTest::newRow("500 ms") << qint64(500);
    QTest::newRow("1234 ms") << qint64(1234);
    QTest::newRow("2 s") << qint64(2000);
    QTest::newRow("15 s") << qint64(15000);
    QTest::newRow("60 s") << qint64(60000);
}

// Over 200 intervals each task is polled within 1 % of 200 times (the join costs at most one
// slot, once), never faster than its interval, with answers taking up to 40 % of it.
void tst_PollScheduler::rateOverTwoHundredIntervals()
{
    QFETCH(qint64, interval);
    FakeClock clock;
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler::Config config;
    config.minIntervalMs = 250;
    config.maxInFlightPerServer = 1000;
    PollScheduler s(config, [&] { return clock.now; }, [&] { return u(rng); });
    const qint64 start = clock.now;
    std::multimap<qint64, std::function<void()>> adds;
    for (int t = 0; t < 10; ++t)
        adds.emplace(start + qint64(u(rng) * interval),
                     [&s, t, interval] { s.add(t, 1, interval); });
    const qint64 rounds = 200;
    const qint64 end = start + rounds * interval;
    const Sends sends = drive(
        s,
        clock,
        end + interval,
        interval,
        [&] { return qint64(u(rng) * 0.4 * double(interval)); },
        std::move(adds));
    QCOMPARE(int(sends.size()), 10);
    for (const auto &[id, times] : sends) {
        for (int i = 1; i < times.size(); ++i)
            QVERIFY(times[i] - times[i - 1] >= interval);
        // Polls in the 200 intervals after this task's first.
        const auto polls = std::count_if(times.begin(), times.end(), [&](qint64 t) {
            return t < times.first() + rounds * interval;
        });
        QVERIFY2(polls >= rounds * 99 / 100 && polls <= rounds,
                 qPrintable(QStringLiteral("task %1: %2 polls in %3 intervals")
                                .arg(id)
                                .arg(polls)
                                .arg(rounds)));
    }
}

// The lattice's offset is drawn once per scheduler: two clients polling one server land on
// different instants, and no poll asks for a random number (per-poll jitter would move a task off
// its slot every time).
void tst_PollScheduler::offsetDrawnOncePerScheduler()
{
    FakeClock clock;
    int draws = 0;
    PollScheduler a(
        PollScheduler::Config(),
        [&] { return clock.now; },
        [&] {
            ++draws;
            return 0.1;
        });
    PollScheduler b(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.7; });
    QCOMPARE(draws, 1);
    const qint64 interval = 1000; // 250 ms slots: offsets 25 and 175 ms
    a.add(1, 1, interval, clock.now);
    b.add(1, 1, interval, clock.now);
    QVERIFY(*a.dueAtMs(1) != *b.dueAtMs(1));
    QCOMPARE((*b.dueAtMs(1) - *a.dueAtMs(1) + 250) % 250, qint64(150));
    for (int i = 0; i < 20; ++i) {
        for (PollScheduler *s : {&a, &b}) {
            clock.now = std::max(clock.now, *s->dueAtMs(1));
            QCOMPARE(s->takeDue().size(), 1);
            s->completed(1, interval);
        }
    }
    QCOMPARE(draws, 1);
    QVERIFY(*a.dueAtMs(1) != *b.dueAtMs(1));

    // Two real random sources (as two Eddy processes would have) give different offsets.
    std::mt19937 r1(1), r2(2);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    PollScheduler c(PollScheduler::Config(), [&] { return clock.now; }, [&] { return u(r1); });
    PollScheduler d(PollScheduler::Config(), [&] { return clock.now; }, [&] { return u(r2); });
    QVERIFY(c.slotAtOrAfter(60000, clock.now) != d.slotAtOrAfter(60000, clock.now));
}

// A push's pollSoon goes out as soon as the interval allows, off the lattice; the poll after it is
// back on a slot, and no two polls are ever closer than the interval.
void tst_PollScheduler::pollSoonLeavesAndRejoinsLattice()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.5; });
    const qint64 interval = 1000; // slots at 125, 375, 625, 875 ms past each second
    s.add(1, 1, interval); // polled at once, off the lattice
    QCOMPARE(s.takeDue().size(), 1);
    const qint64 first = clock.now;
    QVERIFY(s.slotAtOrAfter(interval, first) != first);
    clock.now += 10;
    s.completed(1, interval);
    QCOMPARE(*s.dueAtMs(1), s.slotAtOrAfter(interval, first + interval)); // joins: first + 1125
    QCOMPARE(*s.dueAtMs(1), first + interval + 125);
    s.pollSoon(1); // news: no need to wait for the slot
    QCOMPARE(*s.dueAtMs(1), first + interval);
    clock.now = first + interval;
    QCOMPARE(s.takeDue().size(), 1);
    clock.now += 10;
    s.completed(1, interval);
    QCOMPARE(*s.dueAtMs(1), first + 2 * interval + 125); // back on the lattice
    clock.now = *s.dueAtMs(1);
    QCOMPARE(s.takeDue().size(), 1);
    s.completed(1, interval);
    QCOMPARE(*s.dueAtMs(1), first + 3 * interval + 125);
}

// After a backoff a task goes out when the server may be asked again, then rejoins its slot.
void tst_PollScheduler::restartServerForgetsBackoffAndFlight()
{
    // The server's address changed (Engine::relinkServer): its backoff and its polls in flight
    // are forgotten and each of its tasks is due now; another server's tasks are left alone.
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, 2000);
    s.add(2, 1, 2000);
    s.add(3, 1, 2000);
    s.add(9, 2, 2000);
    QCOMPARE(s.takeDue().size(), 4);
    s.completed(3, 2000);
    s.failed(1); // then the old address fails: the server backs off
    QVERIFY(s.backoffUntil(1) > clock.now);
    QCOMPARE(s.inFlight(1), 1); // task 2's poll is still on the wire
    clock.now += 10;
    s.restartServer(1);
    QCOMPARE(s.failureCount(1), 0);
    QCOMPARE(s.backoffUntil(1), qint64(0));
    QCOMPARE(s.inFlight(1), 0);
    QCOMPARE(s.inFlight(2), 1); // task 9 is another server's
    QList<qint64> due = s.takeDue();
    std::sort(due.begin(), due.end());
    QCOMPARE(due, (QList<qint64>{1, 2, 3}));
    QCOMPARE(s.inFlight(1), 3);
    // An answer that arrives anyway for a task no longer in flight changes nothing for the count.
    s.completed(9, 2000);
    QCOMPARE(s.inFlight(2), 0);
}

void tst_PollScheduler::backoffRejoinsLattice()
{
    FakeClock clock;
    PollScheduler s(PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.5; });
    const qint64 interval = 500; // 125 ms slots at 62 ms past each
    s.add(1, 1, interval, clock.now);
    clock.now = *s.dueAtMs(1);
    QCOMPARE(s.takeDue().size(), 1);
    clock.now += 3;
    s.failed(1);
    const qint64 resume = s.backoffUntil(1);
    QCOMPARE(*s.dueAtMs(1), resume);
    clock.now = resume;
    QCOMPARE(s.takeDue().size(), 1);
    clock.now += 20;
    s.completed(1, interval);
    const qint64 next = *s.dueAtMs(1);
    QVERIFY(next >= resume + interval && next <= resume + interval + interval / 4);
    QCOMPARE(s.slotAtOrAfter(interval, next), next);
    clock.now = next;
    QCOMPARE(s.takeDue().size(), 1);
    s.completed(1, interval);
    QCOMPARE(*s.dueAtMs(1), next + interval);
}

// Jobs on ticks: added at random moments, each backing off on its own (answers that change or
// not at random), they only ever go out on the ticks of their shared lattice, so one wake-up
// (one batched request) serves every job due on it; and none is polled sooner than its interval.
void tst_PollScheduler::ticksShareInstantsWhateverTheBackoff()
{
    FakeClock clock;
    PollScheduler s(
        PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.3; });
    const PollScheduler::Ticks ticks{1000, 1.5, 8000, 100};
    std::mt19937 rng(7);
    std::uniform_int_distribution<qint64> start(0, 5000);
    std::bernoulli_distribution unchanged(0.6);
    const int jobs = 20;
    for (int i = 0; i < jobs; ++i)
        s.add(i, 1, std::nullopt, clock.now + start(rng), ticks);
    std::map<qint64, qint64> lastSent; // task -> when
    std::map<qint64, qint64> interval; // task -> the interval its next poll must respect
    std::set<qint64> instants;
    int polls = 0;
    const qint64 end = clock.now + 600000;
    while (clock.now < end) {
        const auto due = s.nextDueAtMs();
        QVERIFY(due);
        clock.now = *due;
        const QList<qint64> taken = s.takeDue();
        QVERIFY(!taken.isEmpty());
        QCOMPARE(s.tickAtOrAfter(1000, clock.now), clock.now); // on a tick
        instants.insert(clock.now);
        clock.now += 30; // one request answers them all
        for (qint64 id : taken) {
            if (lastSent.count(id))
                QVERIFY2(clock.now - 30 - lastSent[id] >= interval[id],
                         qPrintable(QStringLiteral("job %1 polled after %2 ms, interval %3")
                                        .arg(id)
                                        .arg(clock.now - 30 - lastSent[id])
                                        .arg(interval[id])));
            lastSent[id] = clock.now - 30;
            ++polls;
            interval[id] = s.backOff(id, unchanged(rng));
            QVERIFY(interval[id] >= 1000 && interval[id] <= 8000);
            s.completed(id, interval[id]);
        }
    }
    // Twenty jobs at 1 to 8 s: far more polls than instants, at most one instant per tick.
    QVERIFY2(int(instants.size()) <= 601, qPrintable(QString::number(instants.size())));
    QVERIFY2(polls > 3 * int(instants.size()),
             qPrintable(QStringLiteral("%1 polls on %2 ticks").arg(polls).arg(instants.size())));
}

void tst_PollScheduler::ticksBackOffAndStartAfresh()
{
    FakeClock clock;
    PollScheduler s(
        PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    s.add(1, 1, std::nullopt, clock.now, PollScheduler::Ticks{1000, 2.0, 5000, 10});
    QCOMPARE(*s.intervalMs(1), qint64(1000));
    QCOMPARE(s.backOff(1, true), qint64(2000));
    QCOMPARE(s.backOff(1, true), qint64(4000));
    QCOMPARE(s.backOff(1, true), qint64(5000)); // capped
    QCOMPARE(s.backOff(1, false), qint64(1000));
    // An interval that is not a whole number of ticks waits for the next tick: never sooner.
    clock.now = *s.dueAtMs(1);
    QCOMPARE(s.takeDue().size(), 1);
    const qint64 sent = clock.now;
    s.completed(1, 1500);
    QCOMPARE(*s.dueAtMs(1), sent + 2000);
    // A backed-off job asked to be polled soon (an answer sent) goes on the next tick allowed
    // by the base interval, and its backoff starts afresh.
    QCOMPARE(s.backOff(1, true), qint64(3000));
    s.pollSoon(1);
    QCOMPARE(*s.dueAtMs(1), sent + 1000);
    QCOMPARE(*s.intervalMs(1), qint64(1000));
    // A restored job keeps the interval it had reached.
    s.add(2, 1, 4000, clock.now, PollScheduler::Ticks{1000, 2.0, 5000, 10});
    QCOMPARE(*s.intervalMs(2), qint64(4000));
    QCOMPARE(s.backOff(2, true), qint64(5000));
    // Tasks without ticks are left alone.
    s.add(3, 1, 700);
    QCOMPARE(s.backOff(3, true), qint64(700));
}

// perRequest jobs in flight are one request against maxInFlightPerServer, so a tick's batch is
// not cut into in-flight-cap sized pieces.
void tst_PollScheduler::ticksBatchCountsAsOneRequest()
{
    FakeClock clock;
    PollScheduler::Config config;
    config.maxInFlightPerServer = 2;
    PollScheduler s(
        config, [&] { return clock.now; }, [] { return 0.0; });
    for (int i = 0; i < 250; ++i)
        s.add(i, 1, std::nullopt, clock.now, PollScheduler::Ticks{1000, 1.0, 1000, 100});
    s.add(1000, 1, 1000, clock.now); // a plain task of the same server
    clock.now = *s.nextDueAtMs();
    const QList<qint64> taken = s.takeDue();
    // Two requests' worth: either 200 jobs, or the plain task and 100 jobs.
    QCOMPARE(s.inFlight(1), 2);
    QVERIFY2(taken.size() == 200 || taken.size() == 101, qPrintable(QString::number(taken.size())));
    QVERIFY(s.takeDue().isEmpty());
    for (qint64 id : taken)
        s.completed(id, 1000);
    QCOMPARE(s.inFlight(1), 0);
    const QList<qint64> rest = s.takeDue();
    QCOMPARE(rest.size() + taken.size(), qsizetype(251));
}

// A failed batch: the server backs off, and every job of the batch waits for the same tick.
void tst_PollScheduler::ticksFailureKeepsTheBatchTogether()
{
    FakeClock clock;
    PollScheduler s(
        PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.4; });
    for (int i = 0; i < 5; ++i)
        s.add(i, 1, std::nullopt, clock.now + 100 * i, PollScheduler::Ticks{2000, 1.5, 8000, 100});
    clock.now = *s.nextDueAtMs();
    QList<qint64> taken = s.takeDue();
    QCOMPARE(taken.size(), 5); // all five joined one tick
    for (qint64 id : taken) {
        clock.now += 7; // answers fail one after another
        s.failed(id);
    }
    const qint64 next = *s.dueAtMs(0);
    QVERIFY(next >= s.backoffUntil(1));
    QCOMPARE(s.tickAtOrAfter(2000, next), next);
    for (qint64 id : taken)
        QCOMPARE(*s.dueAtMs(id), next);
}

// The adapter's poll settings changed while jobs are live: queued and in-flight jobs move to the
// new ticks (backoff afresh), due one new tick after their last poll, and share the new ticks.
void tst_PollScheduler::setTicksMovesLiveJobs()
{
    FakeClock clock;
    PollScheduler s(
        PollScheduler::Config(), [&] { return clock.now; }, [] { return 0.0; });
    const PollScheduler::Ticks slow{4000, 2.0, 16000, 100};
    const PollScheduler::Ticks fast{500, 1.0, 500, 100};
    s.add(1, 1, std::nullopt, clock.now, slow);
    s.add(2, 1, std::nullopt, clock.now, slow);
    s.add(3, 1, 700); // a plain task: left alone
    clock.now = *s.dueAtMs(1); // the first slow tick (the plain task is due at once)
    const qint64 sent = clock.now;
    QCOMPARE(s.takeDue().size(), 3);
    s.completed(1, s.backOff(1, true)); // backed off to 8 s
    QCOMPARE(*s.dueAtMs(1), sent + 8000);
    clock.now += 200;
    s.setTicks(1, fast); // queued: moves to the first fast tick after its last poll
    QCOMPARE(*s.intervalMs(1), qint64(500));
    QCOMPARE(*s.dueAtMs(1), s.tickAtOrAfter(500, sent + 500));
    s.setTicks(2, fast); // in flight: its answer puts it on the fast ticks
    s.completed(2, s.backOff(2, true));
    QCOMPARE(*s.intervalMs(2), qint64(500));
    QCOMPARE(*s.dueAtMs(2), *s.dueAtMs(1));
    s.setTicks(3, fast);
    s.completed(3, 700);
    QCOMPARE(*s.intervalMs(3), qint64(700));
    // Long past its last poll: due on the next fast tick from now, not in the past.
    clock.now = sent + 60000;
    s.setTicks(1, slow);
    QCOMPARE(*s.dueAtMs(1), s.tickAtOrAfter(4000, clock.now));
    QCOMPARE(*s.intervalMs(1), qint64(4000));
}

QTEST_GUILESS_MAIN(tst_PollScheduler)
#include "tst_pollscheduler.moc"
