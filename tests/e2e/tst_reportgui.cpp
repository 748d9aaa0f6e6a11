// File > Export Sweep Report... end to end: the real window (offscreen) against the real
// eddy-cfd-server and a real SQLite file. A sweep whose defective meshes asked and were answered
// (by a user whose name is markup) is reported through the menu and the file dialog, as HTML and
// as PDF: every case and every answer, who gave it and when, is in the file, escaped; no server
// task id is. With no sweep shown the action says what to do.
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QProcess>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

namespace {

const QString s_who = QStringLiteral("ada <b>\"lovelace\"</b>");

QString utc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

} // namespace

class tst_ReportGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void noSweepShownSaysWhatToDo();
    void sweepWithAnsweredQuestions();
    void htmlThroughTheMenu();
    void pdfThroughTheMenu();
    void cleanupTestCase();

private:
    QString db() const { return m_dir.filePath(QStringLiteral("eddy.sqlite")); }
    QByteArray exportThroughMenu(const QString &path);
    void checkNoServerIdIn(const QByteArray &text);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_sweepId = 0;
    QList<QStringList> m_answers; // task number, answered_by, answered_at
};

void tst_ReportGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_reportgui"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
    m_app = Test::E2eWindow::open(db());
    QVERIFY(m_app);
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->currentSession().has_value(), 30000);
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Report CFD")));
}

void tst_ReportGui::noSweepShownSaysWhatToDo()
{
    auto *action = m_app->window()->findChild<QAction *>(QStringLiteral("exportSweepReport"));
    QVERIFY(action);
    action->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_app->window()->findChild<QMessageBox *>(QStringLiteral("sweepReportNoSweep")))
                                 && box->isVisible(),
                             10000);
    QVERIFY2(box->text().contains(QLatin1String("Select a task of a sweep")), qPrintable(box->text()));
    box->accept();
}

void tst_ReportGui::sweepWithAnsweredQuestions()
{
    const qint64 serverId
        = m_app->window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "<script>alert(1)</script>", "grid": 16, "max_iterations": 2000, "tolerance": 1e-4},
        "vary": {"reynolds": {"list": [100, 400]}, "force_mesh_defect": {"list": [false, true]}},
        "concurrency": 4})";
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->rowCount(), 4, 60000);
    // The two defective meshes ask; each is answered as the answer panel does, by a user.
    QSet<qint64> answered;
    const auto done = [this] {
        return m_app->window()->taskModel()->statusCounts().value(TaskStatus::Completed) == 4;
    };
    QVERIFY(QTest::qWaitFor([&] {
        const InboxModel *inbox = m_app->window()->inboxModel();
        for (int r = 0; r < inbox->rowCount(); ++r) {
            const qint64 task = inbox->index(r, 0).data(InboxModel::TaskIdRole).toLongLong();
            if (task <= 0 || answered.contains(task))
                continue;
            m_app->bridge()->answerInput(task, inbox->index(r, 0).data(InboxModel::KeyRole).toString(),
                                         R"({"action":"accept","content":{"action":"repair","smoothing_passes":3}})", s_who);
            answered.insert(task);
        }
        return done();
    }, 180000));
    QCOMPARE(answered.size(), 2);
    m_answers = Test::query(db(), QStringLiteral("SELECT task_id, answered_by, answered_at FROM input_requests "
                                                 "WHERE state='answered'"), 10000);
    QCOMPARE(m_answers.size(), 2);
    const qint64 task = m_app->window()->taskModel()->taskIdAt(0);
    m_sweepId = m_app->window()->taskModel()->task(task)->sweepId.value_or(0);
    QVERIFY(m_sweepId > 0);
    m_app->window()->monitor()->selectTask(task);
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->sweepResults()->model()->sweepId(), m_sweepId, 20000);
}

QByteArray tst_ReportGui::exportThroughMenu(const QString &path)
{
    m_app->window()->findChild<QAction *>(QStringLiteral("exportSweepReport"))->trigger();
    if (path.endsWith(QLatin1String(".pdf"))) {
        // As a person does: the file type first, then the name.
        QFileDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] {
                return (dialog = m_app->window()->findChild<QFileDialog *>(QStringLiteral("sweepReportFileDialog")))
                       && dialog->isVisible();
            }, 10000))
            return {};
        const QStringList filters = dialog->nameFilters();
        const auto pdf = std::find_if(filters.begin(), filters.end(),
                                      [](const QString &f) { return f.contains(QLatin1String("*.pdf")); });
        if (pdf == filters.end())
            return {};
        dialog->selectNameFilter(*pdf);
        Q_EMIT dialog->filterSelected(*pdf);
    }
    Test::chooseInFileDialog(m_app->window(), QStringLiteral("sweepReportFileDialog"), path);
    if (QTest::currentTestFailed())
        return {};
    if (!QTest::qWaitFor([&] { return QFile::exists(path); }, 30000))
        return {};
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void tst_ReportGui::checkNoServerIdIn(const QByteArray &text)
{
    const auto ids = Test::query(m_server.dataDir() + QStringLiteral("/tasks.sqlite"), QStringLiteral("SELECT id FROM tasks"), 10000);
    QCOMPARE(ids.size(), 4);
    for (const QStringList &row : ids)
        QVERIFY2(!text.contains(row[0].toUtf8()), "a server task id is in the report");
}

void tst_ReportGui::htmlThroughTheMenu()
{
    QVERIFY(m_sweepId > 0);
    const QString path = m_dir.filePath(QStringLiteral("sweep-report.html"));
    const QByteArray text = exportThroughMenu(path);
    QVERIFY2(text.startsWith("<!DOCTYPE html>"), "no report written");
    for (int c = 1; c <= 4; ++c)
        QVERIFY(text.contains(QStringLiteral("<tr id=\"case-%1\">").arg(c).toUtf8()));
    QCOMPARE(text.count("smoothing_passes = 3"), qsizetype(2));
    for (const QStringList &a : std::as_const(m_answers)) {
        QCOMPARE(a[1], s_who);
        QVERIFY(text.contains(utc(a[2].toLongLong()).toUtf8()));
    }
    QCOMPARE(text.count("ada &lt;b&gt;&quot;lovelace&quot;&lt;/b&gt;"), qsizetype(2));
    QVERIFY(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    QVERIFY(!text.contains("<script") && !text.contains("<b>"));
    QVERIFY(text.contains("Report CFD"));
    checkNoServerIdIn(text);
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->statusBar()->currentMessage().contains(QLatin1String("written to")), 10000);
}

void tst_ReportGui::pdfThroughTheMenu()
{
    QVERIFY(m_sweepId > 0);
    const QString path = m_dir.filePath(QStringLiteral("sweep-report.pdf"));
    const QByteArray pdf = exportThroughMenu(path);
    QVERIFY2(pdf.startsWith("%PDF-"), "no PDF written");
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
    QVERIFY2(p.waitForFinished(60000) && p.exitCode() == 0, "pdftotext (poppler-utils) failed");
    const QByteArray text = p.readAllStandardOutput().simplified();
    QCOMPARE(text.count("smoothing_passes = 3"), qsizetype(2));
    QCOMPARE(text.count(s_who.toUtf8()), qsizetype(2));
    for (const QStringList &a : std::as_const(m_answers))
        QVERIFY(text.contains(utc(a[2].toLongLong()).toUtf8()));
    checkNoServerIdIn(text);
}

void tst_ReportGui::cleanupTestCase()
{
    m_app.reset();
}

QTEST_MAIN(tst_ReportGui)
#include "tst_reportgui.moc"
