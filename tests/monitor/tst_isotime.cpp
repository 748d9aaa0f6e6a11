// The engine's server times: isoTimeUtc() writes exactly what Qt's ISODateWithMs writes for the
// same instant in UTC, whatever the time's zone, across the years, and leap days and seconds'
// edges; an invalid time is an empty string.
#include "app/monitor/isotime.h"

#include <QRandomGenerator>
#include <QTimeZone>
#include <QtTest>

using Eddy::Monitor::isoTimeUtc;

class TstIsoTime : public QObject
{
    Q_OBJECT

private slots:
    void sameAsQt_data();
    void sameAsQt();
    void sameAsQtAtRandom();
    void invalidIsEmpty();
};

void TstIsoTime::sameAsQt_data()
{
    QTest::addColumn<QDateTime>("time");
    const QDate leap(2028, 2, 29);
    QTest::newRow("epoch") << QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    QTest::newRow("a poll") << QDateTime::fromString("2026-12-02T05:47:01.123Z", Qt::ISODateWithMs);
    QTest::newRow("no ms on the wire")
        << QDateTime::fromString("2026-07-28T10:00:00Z", Qt::ISODate);
    QTest::newRow("leap day, last ms") << QDateTime(leap, QTime(23, 59, 59, 999), Qt::UTC);
    QTest::newRow("offset +05:30")
        << QDateTime::fromString("2026-12-02T01:02:03.004+05:30", Qt::ISODateWithMs);
    QTest::newRow("offset -11:00 across new year")
        << QDateTime(QDate(2026, 12, 31), QTime(20, 0), QTimeZone(-11 * 3600));
    QTest::newRow("local time") << QDateTime(
        QDate(2026, 6, 1), QTime(12, 34, 56, 789), Qt::LocalTime);
    QTest::newRow("before 1970") << QDateTime(QDate(1969, 12, 31), QTime(23, 59, 59, 1), Qt::UTC);
    QTest::newRow("year 1") << QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC);
    QTest::newRow("year 9999") << QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC);
    QTest::newRow("year 10000") << QDateTime(QDate(10000, 1, 1), QTime(0, 0), Qt::UTC);
    QTest::newRow("before year 1") << QDateTime(QDate(-1, 12, 31), QTime(12, 0), Qt::UTC);
}

void TstIsoTime::sameAsQt()
{
    QFETCH(QDateTime, time);
    QVERIFY(time.isValid());
    QCOMPARE(isoTimeUtc(time), time.toUTC().toString(Qt::ISODateWithMs));
}

void TstIsoTime::sameAsQtAtRandom()
{
    // Any millisecond from year 1 to 9999 (seeded: a failure names its time and repeats).
    QRandomGenerator rng(20261202);
    const qint64 from = QDateTime(QDate(1, 1, 1), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
    const qint64 to
        = QDateTime(QDate(9999, 12, 31), QTime(23, 59, 59, 999), Qt::UTC).toMSecsSinceEpoch();
    for (int i = 0; i < 20000; ++i) {
        const qint64 ms = from + qint64(rng.bounded(quint64(to - from) + 1));
        const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
        QCOMPARE(isoTimeUtc(t), t.toString(Qt::ISODateWithMs));
    }
}

void TstIsoTime::invalidIsEmpty()
{
    QVERIFY(isoTimeUtc(QDateTime()).isEmpty());
    QVERIFY(isoTimeUtc(QDateTime::fromString("not a time", Qt::ISODateWithMs)).isEmpty());
}

QTEST_GUILESS_MAIN(TstIsoTime)
#include "tst_isotime.moc"
