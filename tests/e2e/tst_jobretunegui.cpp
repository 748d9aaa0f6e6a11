// Server > Job Adapter... saved while that server's jobs run in the same window: the live jobs'
// status calls move to the new interval at once, without a restart. The real MainWindow
// offscreen, the real eddy-cfd-server with classic job tools only (--no-tasks-extension, debug
// log so the test can time the status calls it received) and a real SQLite file. The
// cross-process version (eddyctl adapter set under a running eddyctl watch) is tst_ctljobpoll.
#include "app/monitor/jobadapter.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctljobserver.h"
#include "tests/common/e2ewindow.h"
#include "widgets/elicitationdialog.h"
#include "widgets/jobadapterdialog.h"
#include "widgets/mainwindow.h"

#include <QAction>
#include <QListView>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace Eddy;

namespace {

// When (ms of the day) the server logged each status call, from byte `from` of its log.
QList<qint64> statusCallTimes(const Test::TestServer &server, qsizetype from)
{
    QList<qint64> out;
    for (const Test::StatusCall &call : Test::statusCalls(server.standardError().mid(from)))
        out << call.atMs;
    return out;
}

QList<qint64> gaps(const QList<qint64> &times)
{
    QList<qint64> out;
    for (qsizetype i = 1; i < times.size(); ++i)
        out << times[i] - times[i - 1];
    return out;
}

qint64 median(QList<qint64> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

QString text(const QList<qint64> &values)
{
    QStringList parts;
    for (qint64 v : values)
        parts << QString::number(v);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class tst_JobRetuneGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void dialogRetunesLiveJobs();
    void cleanupTestCase();

private:
    Test::TestServer m_server;
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
};

void tst_JobRetuneGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_jobretunegui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--no-tasks-extension"),
                             QStringLiteral("--workers"),
                             QStringLiteral("3"),
                             QStringLiteral("--log-level"),
                             QStringLiteral("debug")}),
             qPrintable(m_server.errorString()));
    m_db = m_dir.filePath(QStringLiteral("eddy.sqlite"));
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_db, options);
    QVERIFY(m_app);
    m_serverId = m_app->addServer(
        m_server.url(), QStringLiteral("Job CFD"), {}, QStringLiteral("submit_cfd_case"));
    QVERIFY(m_serverId > 0);
}

void tst_JobRetuneGui::cleanupTestCase()
{
    m_app.reset();
}

void tst_JobRetuneGui::dialogRetunesLiveJobs()
{
    const int oldMs = 2000;
    const int newMs = 300;
    MainWindow &w = *m_app->window();
    EngineBridge *bridge = m_app->bridge();

    // The adapter Eddy proposes, stored with a slow status tick and no backoff.
    QSignalSpy ready(bridge, &EngineBridge::jobAdapterReady);
    bridge->requestJobAdapter(m_serverId);
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
    const auto view = ready.first().first().value<EngineBridge::JobAdapterView>();
    QVERIFY2(view.proposal && view.proposal->adapter, qPrintable(view.error));
    Monitor::JobAdapter adapter = *view.proposal->adapter;
    adapter.pollIntervalMs = oldMs;
    adapter.backoff = 1.0;
    adapter.maxPollIntervalMs = oldMs;
    QSignalSpy stored(bridge, &EngineBridge::jobAdapterStored);
    bridge->setJobAdapter(m_serverId, adapter);
    QTRY_VERIFY_WITH_TIMEOUT(!stored.isEmpty(), 30000);
    QVERIFY2(stored.first().at(1).toBool(), qPrintable(stored.first().at(2).toString()));

    // Three jobs that would run for minutes.
    for (int i = 0; i < 3; ++i)
        bridge->callOnce(m_serverId,
                         QStringLiteral("submit_cfd_case"),
                         QStringLiteral(R"({"case_name": "long%1", "reynolds": 400, "grid": 64,
                                            "max_iterations": 10000000, "tolerance": 1e-14})")
                             .arg(i)
                             .toUtf8(),
                         w.currentSession());
    const QString working
        = QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job' AND status = 'working'");
    QTRY_COMPARE_WITH_TIMEOUT(Test::scalar(m_db, working, 10000), 3, 30000);

    // The old tick is in force: a few status calls about oldMs apart.
    const qsizetype logFrom = m_server.standardError().size();
    QTRY_VERIFY_WITH_TIMEOUT(statusCallTimes(m_server, logFrom).size() >= 4, 30000);
    const QList<qint64> before = gaps(statusCallTimes(m_server, logFrom));

    // Server > Job Adapter... on the server selected in the sidebar, as a person would: the
    // stored adapter, its interval changed, Save.
    auto *servers = w.findChild<QListView *>(QStringLiteral("servers"));
    QVERIFY(servers);
    const int row = w.serverModel()->rowOf(m_serverId);
    QVERIFY(row >= 0);
    servers->setCurrentIndex(w.serverModel()->index(row));
    auto *action = w.findChild<QAction *>(QStringLiteral("jobAdapter"));
    QVERIFY(action);
    action->trigger();
    JobAdapterDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = w.findChild<JobAdapterDialog *>()) && dialog->isVisible(),
                             10000);
    QCOMPARE(dialog->serverId(), m_serverId);
    auto *save = dialog->findChild<QPushButton *>(QStringLiteral("saveAdapter"));
    QVERIFY(save);
    QTRY_VERIFY_WITH_TIMEOUT(save->isEnabled(), 30000);
    auto *interval = qobject_cast<QSpinBox *>(dialog->field(QStringLiteral("poll.intervalMs")));
    QVERIFY(interval);
    QCOMPARE(interval->value(), oldMs);
    interval->selectAll();
    QTest::keyClicks(interval, QString::number(newMs));
    QCOMPARE(interval->value(), newMs);
    QPointer<JobAdapterDialog> guard(dialog);
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!guard, 10000); // stored, then closed
    const qsizetype changedAt = m_server.standardError().size();

    // The same jobs, still live, are now asked about every newMs.
    QTRY_VERIFY_WITH_TIMEOUT(statusCallTimes(m_server, changedAt).size() >= 8, 30000);
    const QList<qint64> after = gaps(statusCallTimes(m_server, changedAt).mid(1)); // an old tick
    QCOMPARE(Test::scalar(m_db, working, 10000), 3);

    const QString summary
        = QStringLiteral("gaps before: %1 | after: %2").arg(text(before), text(after));
    qInfo("%s", qPrintable(summary));
    QVERIFY2(median(before) >= (oldMs + newMs) / 2, qPrintable(summary));
    QVERIFY2(median(after) < (oldMs + newMs) / 2, qPrintable(summary));

    // Cancelled from the window, they end; nothing is left running on the server.
    QList<qint64> jobs;
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        jobs << w.taskModel()->taskIdAt(r);
    bridge->cancelTasks(jobs);
    QTRY_COMPARE_WITH_TIMEOUT(
        Test::scalar(m_db,
                     QStringLiteral("SELECT COUNT(*) FROM tasks WHERE pattern = 'job' AND status "
                                    "= 'cancelled'"),
                     10000),
        3,
        30000);
}

QTEST_MAIN(tst_JobRetuneGui)
#include "tst_jobretunegui.moc"
