// StreamedCalls: the notifications of a streamed tools/call as the status messages the progress
// parser reads, and whether the process that held a stream is still alive.
#include "app/monitor/streamedtasks.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <QTest>

using Eddy::Monitor::StreamedCalls;
using nlohmann::json;

class tst_StreamedCalls : public QObject
{
    Q_OBJECT

private slots:
    void progress_data();
    void progress();
    void logMessages();
    void lostMessages();
    void owners();
};

void tst_StreamedCalls::progress_data()
{
    QTest::addColumn<QByteArray>("params");
    QTest::addColumn<QString>("message");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("percent"); // -1: none
    QTest::newRow("counter and total") << QByteArray(R"({"progressToken":"t","progress":3,"total":8})")
                                       << "step 3 of 8 (37 %)" << 3.0 << 37.5;
    QTest::newRow("no total") << QByteArray(R"({"progress":12})") << "step 12" << 12.0 << -1.0;
    QTest::newRow("message gets the percent")
        << QByteArray(R"({"progress":40,"total":200,"message":"iteration 40 of 200, residual 1e-3"})")
        << "iteration 40 of 200, residual 1e-3 (20 %)" << 40.0 << 20.0;
    QTest::newRow("message with its own percent")
        << QByteArray(R"({"progress":0.5,"total":1,"message":"meshing 50%"})") << "meshing 50%" << 0.5 << 50.0;
    QTest::newRow("progress beyond total is clamped")
        << QByteArray(R"({"progress":9,"total":8})") << "step 9 of 8 (100 %)" << 9.0 << 100.0;
}

void tst_StreamedCalls::progress()
{
    QFETCH(QByteArray, params);
    QFETCH(QString, message);
    QFETCH(double, x);
    QFETCH(double, percent);
    const json n{{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", json::parse(params.toStdString())}};
    const StreamedCalls::Update u = StreamedCalls::fromNotification(n);
    QCOMPARE(u.message, message);
    QVERIFY(u.x);
    QCOMPARE(*u.x, x);
    if (percent < 0)
        QVERIFY(!u.percent);
    else
        QCOMPARE(u.percent.value_or(-1), percent);
    // Malformed: no counter, a string counter, params not an object.
    QVERIFY(StreamedCalls::fromNotification({{"method", "notifications/progress"}, {"params", {{"total", 3}}}}).message.isEmpty());
    QVERIFY(StreamedCalls::fromNotification({{"method", "notifications/progress"}, {"params", {{"progress", "3"}}}}).message.isEmpty());
    QVERIFY(StreamedCalls::fromNotification({{"method", "notifications/progress"}, {"params", 3}}).message.isEmpty());
}

void tst_StreamedCalls::logMessages()
{
    const auto text = [](const json &params) {
        return StreamedCalls::fromNotification({{"method", "notifications/message"}, {"params", params}}).message;
    };
    QCOMPARE(text({{"level", "info"}, {"data", "case 'a' running: iteration 3 of 9"}}),
             QStringLiteral("case 'a' running: iteration 3 of 9"));
    QCOMPARE(text({{"level", "warning"}, {"data", "mesh skewed"}}), QStringLiteral("warning: mesh skewed"));
    QCOMPARE(text({{"level", "debug"}, {"data", {{"step", 2}}}}), QStringLiteral("{\"step\":2}"));
    QVERIFY(text({{"level", "info"}}).isEmpty());
    QVERIFY(StreamedCalls::fromNotification({{"method", "notifications/resources/updated"}, {"params", json::object()}})
                .message.isEmpty());
}

void tst_StreamedCalls::lostMessages()
{
    QVERIFY(StreamedCalls::lostMessage(62.4).startsWith(
        QStringLiteral("connection lost at 62 %; the server may have cancelled the run.")));
    QVERIFY(StreamedCalls::lostMessage(std::nullopt).startsWith(QStringLiteral("connection lost before any progress")));
    QVERIFY(StreamedCalls::orphanedMessage(40).startsWith(QStringLiteral("connection lost at 40 %: the Eddy process")));
}

void tst_StreamedCalls::owners()
{
    const QString me = StreamedCalls::ownerId();
    QVERIFY(StreamedCalls::ownerAlive(me));
    const QString host = QSysInfo::machineHostName();
    // No such process (pid_max is at most 2^22 on Linux).
    QVERIFY(!StreamedCalls::ownerAlive(host + QStringLiteral("/99999999/1")));
    // Another host cannot be checked from here: taken as alive.
    QVERIFY(StreamedCalls::ownerAlive(QStringLiteral("elsewhere.invalid/1/1")));
    QVERIFY(!StreamedCalls::ownerAlive(QStringLiteral("garbage")));
    QVERIFY(!StreamedCalls::ownerAlive(QString()));
#ifdef Q_OS_LINUX
    // This pid with another start time: a newer process that reused the pid.
    QVERIFY(!StreamedCalls::ownerAlive(
        QStringLiteral("%1/%2/1").arg(host).arg(QCoreApplication::applicationPid())));
#endif
}

QTEST_GUILESS_MAIN(tst_StreamedCalls)
#include "tst_streamedcalls.moc"
