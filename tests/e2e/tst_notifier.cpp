// Questions that reach the engineer while Eddy's window is closed, with real desktop parts: a
// private D-Bus session bus (dbus-daemon), a private X server (Xvfb) and the dunst notification
// daemon on them; the real eddy binary (offscreen) as window and as notifier (eddy --notify), the
// real eddyctl, eddy-cfd-server on loopback (debug log: one line per tasks/update) and a SQLite
// file. Two cases of a sweep ask their mesh question; the window closes with them running; the
// notifier shows one notification per question naming the server and the case; eddyctl cancels
// one case and its notification closes; "Answer..." on the other, invoked through dunst, starts
// Eddy at exactly that question and the notifier ends; the answer reaches the server once. And
// with a window open (in this process), a second `eddy --answer N` brings that window to question
// N, where a click on Accept sends the answer once.
#include "tests/common/ctlprocess.h"
#include "models/inboxmodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/desktopservice.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusReply>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

#include <signal.h>

using namespace Eddy;
using nlohmann::json;

namespace {

constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};
const QString s_window = QStringLiteral("io.github.eddy.Eddy");
const QString s_notifier = QStringLiteral("io.github.eddy.Notifier");
const QString s_daemon = QStringLiteral("org.freedesktop.Notifications");

// One notification as dunst's script saw it.
struct Seen
{
    uint id = 0;
    QString summary;
    QString body;
};

// Ended (or a zombie nobody reaped yet: a detached process's parent is whoever adopted it).
bool isGone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 || text.mid(close + 2, 1) == "Z";
}

} // namespace

class tst_Notifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void saysSoWithoutASessionBus();
    void saysSoWithoutANotificationDaemon();
    void questionsReachTheDesktopWhileTheWindowIsClosed();
    void aSecondEddyBringsTheOpenWindowToTheQuestion();

private:
    bool needs(const QString &program, const QString &package);
    QProcessEnvironment eddyEnv() const;
    // `eddy --notify` on an empty database with `env`: its standard error once it ended with 1.
    QString notifierAloneSays(const QProcessEnvironment &env);
    QProcess *startProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env);
    // Xvfb, and dunst on it and on the bus; a failed QVERIFY when they do not come up.
    void startDunst();
    QList<Seen> seen() const;
    QList<uint> history() const;
    qint64 property(const QString &service, const QString &path, const QString &interface, const QString &name) const;
    qint64 displayed() const;
    bool activate(const QString &action, const QVariantList &parameter) const;
    qint64 shownQuestion() const;
    qint64 pidOf(const QString &name) const;
    void remember(qint64 pid);

    QTemporaryDir m_dir;
    Test::TestServer m_server;
    QString m_busAddress;
    QString m_display;
    QList<QProcess *> m_processes; // ours, ended in cleanupTestCase
    QList<qint64> m_detached;      // started by eddy (notifier, window): ended by pid if still there
    std::unique_ptr<QDBusConnection> m_bus;
    std::unique_ptr<Test::E2eWindow> m_app; // the window of this process
};

bool tst_Notifier::needs(const QString &program, const QString &package)
{
    if (!QStandardPaths::findExecutable(program).isEmpty())
        return true;
    qWarning("this test needs %s: install the Debian package %s (apt-get install %s)", qPrintable(program),
             qPrintable(package), qPrintable(package));
    return false;
}

QProcess *tst_Notifier::startProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env)
{
    auto *p = new QProcess(this);
    p->setProcessEnvironment(env);
    p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p->start(program, args);
    m_processes << p;
    return p;
}

void tst_Notifier::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_notifier"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY(needs(QStringLiteral("dbus-daemon"), QStringLiteral("dbus-daemon")));
    QVERIFY(needs(QStringLiteral("Xvfb"), QStringLiteral("xvfb")));
    QVERIFY(needs(QStringLiteral("dunst"), QStringLiteral("dunst")));
    QVERIFY(needs(QStringLiteral("dunstctl"), QStringLiteral("dunst")));
    QVERIFY(needs(QStringLiteral("dbus-send"), QStringLiteral("dbus-bin")));
    QVERIFY2(!qEnvironmentVariableIsEmpty("EDDY_GUI_BIN"), "EDDY_GUI_BIN must name the eddy binary (ctest sets it)");

    // A session bus of our own, without service activation: only what this test starts is on it.
    const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
    QVERIFY(Test::writeFile(config, QStringLiteral(R"(<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=%1</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
)").arg(m_dir.path()).toUtf8()));
    QProcess *bus = startProcess(QStringLiteral("dbus-daemon"),
                                 {QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                                  QStringLiteral("--print-address=1")},
                                 QProcessEnvironment::systemEnvironment());
    QVERIFY(bus->waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(bus->canReadLine() || bus->state() == QProcess::NotRunning, 30000);
    m_busAddress = QString::fromUtf8(bus->readLine()).trimmed();
    QVERIFY2(!m_busAddress.isEmpty(), "dbus-daemon printed no address");
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_busAddress.toUtf8()); // this process's window uses it
    m_bus = std::make_unique<QDBusConnection>(QDBusConnection::connectToBus(m_busAddress, QStringLiteral("tst")));
    QVERIFY2(m_bus->isConnected(), qPrintable(m_bus->lastError().message()));

    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("500"), QStringLiteral("--workers"),
                             QStringLiteral("4"), QStringLiteral("--log-level"), QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
}

void tst_Notifier::cleanupTestCase()
{
    m_app.reset();
    QSettings().clear();
    for (qint64 pid : std::as_const(m_detached)) {
        if (!isGone(pid)) {
            ::kill(pid_t(pid), SIGKILL);
            qWarning("killed eddy process %lld, still running at the end", pid);
        }
    }
    // Last started first: dunst before its X server and its bus.
    for (qsizetype i = m_processes.size() - 1; i >= 0; --i) {
        QProcess *p = m_processes[i];
        if (p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(10000)) {
                p->kill();
                p->waitForFinished(10000);
            }
        }
    }
    m_bus.reset();
    QDBusConnection::disconnectFromBus(QStringLiteral("tst"));
}

QProcessEnvironment tst_Notifier::eddyEnv() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_busAddress);
    env.remove(QStringLiteral("DISPLAY"));
    // Settings and data of this test only (the window remembers its session there).
    for (const char *v : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
        env.insert(QString::fromLatin1(v), m_dir.filePath(QStringLiteral("home/") + QString::fromLatin1(v)));
    env.insert(QStringLiteral("EDDY_LEASE_MS"), QStringLiteral("1500")); // the notifier takes over quickly
    return env;
}

QString tst_Notifier::notifierAloneSays(const QProcessEnvironment &env)
{
    QProcess notifier;
    notifier.setProcessEnvironment(env);
    notifier.start(qEnvironmentVariable("EDDY_GUI_BIN"),
                   {QStringLiteral("--notify"), QStringLiteral("--db"), m_dir.filePath(QStringLiteral("none.sqlite")),
                    QStringLiteral("--lang"), QStringLiteral("en")});
    const bool ended = notifier.waitForFinished(60000);
    const QString err = QString::fromUtf8(notifier.readAllStandardError());
    if (!ended || notifier.exitCode() != 1) {
        QTest::qFail(qPrintable(QStringLiteral("eddy --notify %1 (exit code %2): %3")
                                    .arg(ended ? QStringLiteral("ended") : QStringLiteral("did not end in 60 s"))
                                    .arg(notifier.exitCode()).arg(err)),
                     __FILE__, __LINE__);
        if (!ended)
            notifier.kill();
    }
    return err;
}

void tst_Notifier::saysSoWithoutASessionBus()
{
    // No bus address and none in the runtime folder: said once, and no bus of its own started.
    QProcessEnvironment env = eddyEnv();
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("no-runtime")));
    const QString err = notifierAloneSays(env);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(err.count(QLatin1String("no D-Bus session bus")), 1);
}

void tst_Notifier::saysSoWithoutANotificationDaemon()
{
    // A bus without a notification daemon: the notifier says so once and ends, never waits.
    const QString err = notifierAloneSays(eddyEnv());
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(err.contains(QLatin1String("no notification daemon answers")) && err.contains(s_daemon), qPrintable(err));
    QCOMPARE(err.count(QLatin1String("no notification daemon answers")), 1); // said once
}

void tst_Notifier::startDunst()
{
    QProcess *x = startProcess(QStringLiteral("Xvfb"),
                               {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                                QStringLiteral("0"), QStringLiteral("640x480x24"), QStringLiteral("-nolisten"),
                                QStringLiteral("tcp")},
                               QProcessEnvironment::systemEnvironment());
    QVERIFY(x->waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(x->canReadLine() || x->state() == QProcess::NotRunning, 30000);
    m_display = QStringLiteral(":") + QString::fromUtf8(x->readLine()).trimmed();
    QVERIFY2(m_display != QLatin1String(":"), "Xvfb printed no display number");
    // Every notification dunst shows is written down by its script, with dunst's own id.
    const QString script = m_dir.filePath(QStringLiteral("record.sh"));
    const QString log = m_dir.filePath(QStringLiteral("notifications.log"));
    Test::writeFile(script, QStringLiteral("#!/bin/sh\nprintf '%s\\t%s\\t%s\\n' \"$DUNST_ID\" \"$DUNST_SUMMARY\" "
                                           "\"$DUNST_BODY\" >> '%1'\n")
                                .arg(log)
                                .toUtf8());
    QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QString config = m_dir.filePath(QStringLiteral("dunstrc"));
    // sort = no: position 0 of "dunstctl action" is the oldest notification shown.
    Test::writeFile(config, QStringLiteral("[global]\n    sort = no\n    idle_threshold = 0\n    markup = no\n"
                                           "[record]\n    appname = \"*\"\n    script = %1\n")
                                .arg(script)
                                .toUtf8());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), m_display);
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_busAddress);
    QProcess *dunst = startProcess(QStringLiteral("dunst"), {QStringLiteral("-config"), config}, env);
    QVERIFY(dunst->waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(m_bus->interface()->isServiceRegistered(s_daemon).value(), 30000);
}

QList<Seen> tst_Notifier::seen() const
{
    QFile f(m_dir.filePath(QStringLiteral("notifications.log")));
    QList<Seen> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split('\t');
        if (parts.size() == 3)
            out << Seen{parts[0].toUInt(), QString::fromUtf8(parts[1]), QString::fromUtf8(parts[2])};
    }
    return out;
}

// Ids of the notifications dunst closed (its history), read over the bus.
QList<uint> tst_Notifier::history() const
{
    const QDBusMessage reply = m_bus->call(QDBusMessage::createMethodCall(
        s_daemon, QStringLiteral("/org/freedesktop/Notifications"), QStringLiteral("org.dunstproject.cmd0"),
        QStringLiteral("NotificationListHistory")));
    QList<uint> ids;
    const QDBusArgument arg = reply.arguments().value(0).value<QDBusArgument>();
    arg.beginArray();
    while (!arg.atEnd()) {
        QVariantMap entry;
        arg >> entry;
        ids << entry.value(QStringLiteral("id")).value<QDBusVariant>().variant().toUInt();
        if (ids.last() == 0)
            ids.last() = entry.value(QStringLiteral("id")).toUInt();
    }
    arg.endArray();
    return ids;
}

// A number-valued D-Bus property; -1 when it cannot be read.
qint64 tst_Notifier::property(const QString &service, const QString &path, const QString &interface,
                              const QString &name) const
{
    QDBusMessage get = QDBusMessage::createMethodCall(service, path, QStringLiteral("org.freedesktop.DBus.Properties"),
                                                      QStringLiteral("Get"));
    get.setArguments({interface, name});
    const QDBusMessage reply = m_bus->call(get);
    return reply.type() == QDBusMessage::ReplyMessage
               ? reply.arguments().value(0).value<QDBusVariant>().variant().toLongLong()
               : -1;
}

qint64 tst_Notifier::displayed() const
{
    return property(s_daemon, QStringLiteral("/org/freedesktop/Notifications"), QStringLiteral("org.dunstproject.cmd0"),
                    QStringLiteral("displayedLength"));
}

bool tst_Notifier::activate(const QString &action, const QVariantList &parameter) const
{
    QDBusMessage call = QDBusMessage::createMethodCall(s_window, QStringLiteral("/io/github/eddy/Eddy"),
                                                       QStringLiteral("org.freedesktop.Application"),
                                                       QStringLiteral("ActivateAction"));
    call.setArguments({action, parameter, QVariantMap()});
    return m_bus->call(call).type() == QDBusMessage::ReplyMessage;
}

qint64 tst_Notifier::shownQuestion() const
{
    return property(s_window, QStringLiteral("/io/github/eddy/Eddy"), QStringLiteral("io.github.eddy.Eddy"),
                    QStringLiteral("ShownQuestion"));
}

qint64 tst_Notifier::pidOf(const QString &name) const
{
    const QDBusReply<uint> pid = m_bus->interface()->servicePid(name);
    return pid.isValid() ? qint64(pid.value()) : 0;
}

void tst_Notifier::remember(qint64 pid)
{
    if (pid > 0 && !m_detached.contains(pid))
        m_detached << pid;
}

void tst_Notifier::questionsReachTheDesktopWhileTheWindowIsClosed()
{
    startDunst();
    if (QTest::currentTestFailed())
        return;
    const QString db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    const QString eddy = qEnvironmentVariable("EDDY_GUI_BIN");
    QElapsedTimer stopwatch; // for the report: how long each step takes (nothing asserted on it)
    stopwatch.start();

    // The window, on the bus once it lists its questions.
    QProcess *window = startProcess(eddy,
                                    {QStringLiteral("--db"), db, QStringLiteral("--server"), m_server.url(),
                                     QStringLiteral("--no-local-server"), QStringLiteral("--lang"),
                                     QStringLiteral("en")},
                                    eddyEnv());
    QVERIFY(window->waitForStarted(30000));
    QTRY_VERIFY_WITH_TIMEOUT(m_bus->interface()->isServiceRegistered(s_window).value(), 60000);

    // A sweep of two cases that each ask the mesh question, submitted into its database.
    const json spec{{"tool", "run_cfd_case"},
                    {"fixed", {{"grid", 16}, {"max_iterations", 200}, {"force_mesh_defect", true}}},
                    {"vary", {{"reynolds", {{"list", {100, 400}}}}}},
                    {"concurrency", 2}};
    const QString specPath = m_dir.filePath(QStringLiteral("spec.json"));
    QVERIFY(Test::writeFile(specPath, QByteArray::fromStdString(spec.dump())));
    const Test::CtlRun submit = Test::runCtl(
        {QStringLiteral("--db"), db, QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), specPath},
        s_ctl);
    QVERIFY2(submit.code == 0, submit.err.constData());
    const QString pendingSql = QStringLiteral("SELECT COUNT(*) FROM input_requests WHERE state = 'pending'");
    QTRY_COMPARE_WITH_TIMEOUT(Test::scalar(db, pendingSql, 5000), 2, 90000);

    // The question of each case: (case index, task, key, question number).
    const auto rows = Test::query(db, QStringLiteral("SELECT c.idx, t.id, q.key, q.id FROM input_requests q "
                                                     "JOIN tasks t ON t.id = q.task_id JOIN cases c ON c.id = t.case_id "
                                                     "ORDER BY c.idx"),
                                  5000);
    QCOMPARE(rows.size(), 2);
    const QStringList server = Test::query(db, QStringLiteral("SELECT name, url FROM servers"), 5000).value(0);
    const QString serverName = server.value(0).isEmpty() ? server.value(1) : server.value(0);
    const QStringList secrets = [&] {
        QStringList ids;
        for (const QStringList &r : Test::query(db, QStringLiteral("SELECT server_task_id FROM tasks"), 5000))
            ids << r.value(0);
        return ids;
    }();

    // Closed with the tasks running (no bundled server here, so no "Keep Running" question): the
    // window starts the notifier as it goes.
    stopwatch.restart();
    QVERIFY(activate(QStringLiteral("quit"), {}));
    QVERIFY(window->waitForFinished(60000));
    QCOMPARE(window->exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_bus->interface()->isServiceRegistered(s_notifier).value(), 30000);
    remember(pidOf(s_notifier));

    // One notification per question, naming the server and the case, and no task id.
    QTRY_COMPARE_WITH_TIMEOUT(seen().size(), 2, 60000);
    qInfo("window quit to both notifications shown: %lld ms", stopwatch.elapsed());
    const QList<Seen> shown = seen();
    QHash<int, uint> idOfCase; // case index -> dunst's id of its notification
    for (const Seen &s : shown) {
        qInfo("dunst showed: \"%s\" / \"%s\"", qPrintable(s.summary), qPrintable(s.body));
        QVERIFY2(s.summary.contains(serverName), qPrintable(s.summary));
        QVERIFY2(s.body.contains(QLatin1String("case 1 (reynolds = 100)"))
                     || s.body.contains(QLatin1String("case 2 (reynolds = 400)")),
                 qPrintable(s.body));
        idOfCase.insert(s.body.contains(QLatin1String("case 1 (")) ? 0 : 1, s.id);
        for (const QString &secret : secrets)
            QVERIFY2(!s.summary.contains(secret) && !s.body.contains(secret), "a task id reached a notification");
    }
    QCOMPARE(idOfCase.size(), 2);
    QCOMPARE(displayed(), 2);

    // eddyctl cancels the second case: its notification closes, the first stays.
    stopwatch.restart();
    const Test::CtlRun cancel
        = Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("cancel"), rows[1][1]}, s_ctl);
    QVERIFY2(cancel.code == 0, cancel.err.constData());
    QTRY_VERIFY_WITH_TIMEOUT(history().contains(idOfCase[1]), 60000);
    qInfo("eddyctl cancel to its notification closed: %lld ms", stopwatch.elapsed());
    QCOMPARE(displayed(), 1);
    QVERIFY(!history().contains(idOfCase[0]));

    // "Answer..." on the one left, through dunst: Eddy opens at exactly that question, and the
    // notifier, seeing the window, ends.
    const qsizetype logBefore = m_server.standardError().size();
    QProcess ctl;
    QProcessEnvironment ctlEnv = QProcessEnvironment::systemEnvironment();
    ctlEnv.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_busAddress);
    ctl.setProcessEnvironment(ctlEnv);
    stopwatch.restart();
    ctl.start(QStringLiteral("dunstctl"), {QStringLiteral("action"), QStringLiteral("0")});
    QVERIFY(ctl.waitForFinished(30000));
    QCOMPARE(ctl.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_bus->interface()->isServiceRegistered(s_window).value(), 60000);
    remember(pidOf(s_window));
    QTRY_COMPARE_WITH_TIMEOUT(shownQuestion(), rows[0][3].toLongLong(), 30000);
    qInfo("dunstctl action to the window showing the question: %lld ms", stopwatch.elapsed());
    QTRY_VERIFY_WITH_TIMEOUT(!m_bus->interface()->isServiceRegistered(s_notifier).value(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(history().contains(idOfCase[0]), 30000);
    QCOMPARE(displayed(), 0);

    // Answered (with the window open on it): the server gets the answer once, the case completes.
    const Test::CtlRun answer = Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("answer"), rows[0][1],
                                              rows[0][2], QStringLiteral("{\"action\":\"repair\",\"smoothing_passes\":3}")},
                                             s_ctl);
    QVERIFY2(answer.code == 0, answer.err.constData());
    QTRY_COMPARE_WITH_TIMEOUT(
        Test::query(db, QStringLiteral("SELECT status FROM tasks WHERE id = %1").arg(rows[0][1]), 5000).value(0).value(0),
        QStringLiteral("completed"), 90000);
    const QByteArray log = m_server.standardError().mid(logBefore);
    QCOMPARE(log.count("eddy.server debug: tasks/update "), 1);
    QCOMPARE(seen().size(), 2); // never shown twice

    // The window closes with nothing running: no notifier follows.
    const qint64 windowPid = pidOf(s_window);
    QVERIFY(activate(QStringLiteral("quit"), {}));
    QTRY_VERIFY_WITH_TIMEOUT(isGone(windowPid), 60000);
}

void tst_Notifier::aSecondEddyBringsTheOpenWindowToTheQuestion()
{
    const QString db = m_dir.filePath(QStringLiteral("open.sqlite"));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(db, options);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    DesktopService desktop(&w);
    QVERIFY(desktop.registerOnBus());
    const qint64 serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(serverId);
    for (int reynolds : {700, 800}) {
        const json args{{"reynolds", reynolds}, {"grid", 16}, {"max_iterations", 200}, {"force_mesh_defect", true}};
        m_app->bridge()->callOnce(serverId, QStringLiteral("run_cfd_case"), QByteArray::fromStdString(args.dump()),
                                  w.currentSession());
    }
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 2, 90000);
    const auto rows = Test::query(db, QStringLiteral("SELECT id, task_id, key FROM input_requests ORDER BY task_id"), 5000);
    QCOMPARE(rows.size(), 2);
    const qint64 number = rows[1][0].toLongLong();

    // What "Answer..." starts, with this window open: it hands the question over and ends.
    const qsizetype logBefore = m_server.standardError().size();
    QProcess second;
    second.setProcessEnvironment(eddyEnv());
    second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    second.start(qEnvironmentVariable("EDDY_GUI_BIN"), {QStringLiteral("--db"), db, QStringLiteral("--answer"),
                                                       QString::number(number), QStringLiteral("--lang"),
                                                       QStringLiteral("en")});
    QVERIFY(second.waitForStarted(30000));
    QTRY_VERIFY_WITH_TIMEOUT(second.state() == QProcess::NotRunning, 60000);
    QCOMPARE(second.exitCode(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(desktop.shownQuestion(), number, 30000);
    QCOMPARE(w.answerPanel()->taskId(), rows[1][1].toLongLong());

    // The engineer accepts the form as it stands: the answer reaches the server once.
    auto *accept = w.answerPanel()->findChild<QPushButton *>(QStringLiteral("accept"));
    QVERIFY(accept);
    QTRY_VERIFY_WITH_TIMEOUT(accept->isEnabled(), 5000); // after the panel's guard
    QTest::mouseClick(accept, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(
        Test::query(db, QStringLiteral("SELECT status FROM tasks WHERE id = %1").arg(rows[1][1]), 5000).value(0).value(0),
        QStringLiteral("completed"), 90000);
    QCOMPARE(m_server.standardError().mid(logBefore).count("eddy.server debug: tasks/update "), 1);
    QCOMPARE(w.inboxModel()->pendingCount(), 1); // the other one still waits
}

QTEST_MAIN(tst_Notifier)
#include "tst_notifier.moc"
