// Task handles in the window (issue 16, item 4), on the real MainWindow offscreen against the real
// eddy-cfd-server and real SQLite files: a task started by `eddyctl call` on a second database and
// handed off with `eddyctl handles export -o FILE` is taken in through File > Import Task
// Handles... (the window's database does not know the server: the user gives its URL), shows in
// the shown session and completes with its result; File > Export Task Handles... writes the
// selected row's reference back, mode 0600, with the same endpoint id.
#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/tasktablemodel.h"
#include "tests/common/ctlprocess.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/filedialogs.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Eddy;

namespace {
constexpr Test::CtlTimeouts s_ctl{30000, 120000, 10000};

QJsonObject firstLine(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readLine()).object();
}
} // namespace

class tst_HandlesGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void importThenExportThroughTheMenu();
    void cleanupTestCase();

private:
    void stopApp();
    // Triggers a menu action and chooses `path` in its file dialog as a user does.
    static void chooseFile(MainWindow &w, const QString &action, const QString &path);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
};

void tst_HandlesGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_handlesgui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
}

void tst_HandlesGui::chooseFile(MainWindow &w, const QString &action, const QString &path)
{
    QAction *a = w.findChild<QAction *>(action);
    QVERIFY2(a, qPrintable(QStringLiteral("no menu action %1").arg(action)));
    a->trigger();
    Test::chooseInFileDialog(&w, QStringLiteral("handlesFileDialog"), path);
}

void tst_HandlesGui::importThenExportThroughTheMenu()
{
    // Another client: eddyctl on a second database starts a case and hands it off.
    const QString otherDb = m_dir.filePath(QStringLiteral("other.sqlite"));
    Test::CtlRun r
        = Test::runCtl({QStringLiteral("--db"),
                        otherDb,
                        QStringLiteral("--json"),
                        QStringLiteral("call"),
                        m_server.url(),
                        QStringLiteral("run_cfd_case"),
                        QStringLiteral("{\"reynolds\": 100, \"grid\": 16, "
                                       "\"max_iterations\": 600, \"tolerance\": 1e-30}")},
                       s_ctl);
    QVERIFY2(r.code == 0, r.err.constData());
    const QString handles = m_dir.filePath(QStringLiteral("handed-off.jsonl"));
    r = Test::runCtl({QStringLiteral("--db"),
                      otherDb,
                      QStringLiteral("handles"),
                      QStringLiteral("export"),
                      QStringLiteral("-o"),
                      handles},
                     s_ctl);
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject handedOff = firstLine(handles);
    const QString taskId = handedOff.value(QStringLiteral("taskId")).toString();
    QVERIFY(!taskId.isEmpty());

    // The window on its own, fresh database (which does not know the server).
    const QString db = m_dir.filePath(QStringLiteral("window.sqlite"));
    m_app = Test::E2eWindow::open(db);
    QVERIFY(m_app);
    MainWindow &w = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentSession().has_value(), 30000); // the first-run session
    const qint64 session = *w.currentSession();

    // File > Import Task Handles...
    chooseFile(w, QStringLiteral("importHandles"), handles);
    if (QTest::currentTestFailed())
        return;
    QInputDialog *prompt = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (prompt = w.findChild<QInputDialog *>(QStringLiteral("handlesServerPrompt")))
            && prompt->isVisible(),
        10000);
    QVERIFY2(prompt->labelText().contains(QLatin1String("no server Eddy knows")),
             qPrintable(prompt->labelText()));
    prompt->setTextValue(m_server.url());
    prompt->accept();
    QMessageBox *summary = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (summary = w.findChild<QMessageBox *>(QStringLiteral("handlesImportSummary")))
            && summary->isVisible(),
        30000);
    QVERIFY2(summary->text().contains(QLatin1String("1 imported, 0 already known, 0 rejected")),
             qPrintable(summary->text() + summary->informativeText()));
    summary->accept();

    // The row shows in the shown session and completes with its result.
    QCOMPARE(w.currentSession().value_or(-1), session);
    TaskTableModel *tasks = w.taskModel();
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->index(0, 0).data(TaskTableModel::StatusRole).toInt(),
                              int(Store::TaskStatus::Completed),
                              120000);
    const auto rows = Test::query(db,
                                  QStringLiteral("SELECT t.server_task_id, t.result, s.task_id "
                                                 "FROM tasks t JOIN session_tasks s "
                                                 "ON s.task_id = t.id WHERE s.session_id = %1")
                                      .arg(session),
                                  10000);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0][0], taskId);
    const QJsonObject result = QJsonDocument::fromJson(rows[0][1].toUtf8()).object();
    QCOMPARE(result.value(QStringLiteral("structuredContent"))
                 .toObject()
                 .value(QStringLiteral("iterations"))
                 .toInt(),
             600);

    // File > Export Task Handles... for the selected row.
    auto *view = w.monitor()->findChild<QTableView *>(QStringLiteral("taskTable"));
    QVERIFY(view);
    view->selectRow(0);
    QCOMPARE(w.monitor()->selectedTaskIds().size(), 1);
    QAction *exportAction = w.findChild<QAction *>(QStringLiteral("exportHandles"));
    QVERIFY(exportAction);
    exportAction->trigger();
    QMessageBox *warning = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (warning = w.findChild<QMessageBox *>(QStringLiteral("handlesSecretWarning")))
            && warning->isVisible(),
        10000);
    QVERIFY(warning->text().contains(QLatin1String("secret")));
    QTest::mouseClick(warning->findChild<QPushButton *>(QStringLiteral("confirmExport")),
                      Qt::LeftButton);
    const QString exported = m_dir.filePath(QStringLiteral("from-window.jsonl"));
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = w.findChild<QFileDialog *>(QStringLiteral("handlesFileDialog")))
            && dialog->isVisible(),
        10000);
    dialog->setDirectory(m_dir.path());
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    QVERIFY(name);
    name->clear();
    QTest::keyClicks(name, QFileInfo(exported).fileName());
    static_cast<QDialog *>(dialog)->accept();
    QTRY_VERIFY_WITH_TIMEOUT(
        (summary = w.findChild<QMessageBox *>(QStringLiteral("handlesExportSummary")))
            && summary->isVisible(),
        30000);
    QVERIFY2(summary->text().contains(QLatin1String("Wrote 1 task reference")),
             qPrintable(summary->text()));
    summary->accept();

    QFile file(exported);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QJsonObject back = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(back.value(QStringLiteral("endpointId")),
             handedOff.value(QStringLiteral("endpointId")));
    QCOMPARE(back.value(QStringLiteral("taskId")).toString(), taskId);
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                            | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                            | QFileDevice::WriteOther | QFileDevice::ExeOther
                                            | QFileDevice::ExeUser;
    QCOMPARE((file.permissions() & others).toInt(), 0);
    QVERIFY(file.permissions() & QFileDevice::ReadUser);
}

void tst_HandlesGui::stopApp()
{
    m_app.reset();
}

void tst_HandlesGui::cleanupTestCase()
{
    stopApp();
    m_server.terminate();
    QSettings().clear();
}

QTEST_MAIN(tst_HandlesGui)
#include "tst_handlesgui.moc"
