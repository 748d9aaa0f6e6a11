#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/taskmonitor.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLogValueAxis>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

// The residual chart's axis titles read whole where the chart is shortest: the real window on a
// 1280x800 screen (offscreen) at its own size, against the real eddy-cfd-server and a real SQLite
// file, a converged case's residuals shown while a mesh question is open in the answer panel (the
// inbox then takes the height the question needs and the chart keeps its minimum). In German
// ("Residuum" was drawn "Residu..."), then the same database reopened in English.
class tst_ChartTitle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void germanTitlesReadWhole();
    void englishTitlesReadWhole();
    void cleanupTestCase();

private:
    bool openWindow(const QString &lang);
    // The converged case's residuals in the chart, its mesh question open in the panel.
    void showResidualsBesideTheQuestion();
    // The text the chart draws as the title of `axis` (the y title is the one drawn upright).
    QString drawnTitle(bool vertical) const;
    void verifyTitlesWhole();

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_converged = 0;
};

bool tst_ChartTitle::openWindow(const QString &lang)
{
    m_app.reset();
    for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
        qApp->removeTranslator(t);
        delete t;
    }
    installUiTranslations(qApp, lang);
    Test::E2eWindowOptions options;
    options.size = QSize(); // the window picks its own size on the 1280x800 screen, as for a user
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    return m_app != nullptr;
}

void tst_ChartTitle::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_charttitle"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1280, 800));
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
    QVERIFY(openWindow(QStringLiteral("de")));
    MainWindow &w = *m_app->window();
    QCOMPARE(w.taskModel()->headerData(TaskTableModel::CaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Fall")); // the German translation is in
    const qint64 serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(serverId > 0);
    // One case converges (its residual and u, v, omega), one asks about its mesh.
    m_app->bridge()->submitSweep(serverId,
                                 R"({"tool": "run_cfd_case",
        "fixed": {"reynolds": 100, "grid": 16, "tolerance": 1e-5, "max_iterations": 20000},
        "vary": {"force_mesh_defect": {"list": [false, true]}}, "concurrency": 2})",
                                 w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 1, 120000);
    for (int r = 0; r < w.taskModel()->rowCount(); ++r) {
        if (w.taskModel()->task(w.taskModel()->taskIdAt(r))->status == TaskStatus::Completed)
            m_converged = w.taskModel()->taskIdAt(r);
    }
    QVERIFY(m_converged > 0);
}

void tst_ChartTitle::showResidualsBesideTheQuestion()
{
    MainWindow &w = *m_app->window();
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 1, 60000);
    QTableView *inbox = w.inboxView();
    QTRY_VERIFY(inbox->isVisible());
    const QRect cell = inbox->visualRect(
        w.inboxModel()->index(w.inboxModel()->firstPendingRow(), InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(w.answerPanel()->hasQuestion(), 10000);
    QTest::qWait(300); // the inbox grows to the question after its layout settles
    w.monitor()->selectTask(m_converged);
    ResidualChart *chart = w.chart();
    QTRY_VERIFY_WITH_TIMEOUT(chart->series().size() >= 2, 30000); // residual and fields
    QTRY_VERIFY_WITH_TIMEOUT(chart->chartView()->isVisible(), 10000);
    QTest::qWait(500); // the ranges follow the samples after 100 ms, the layout after that
}

QString tst_ChartTitle::drawnTitle(bool vertical) const
{
    QChart *chart = m_app->window()->chart()->chart();
    const QString title = vertical ? chart->axes(Qt::Vertical).value(0)->titleText()
                                   : chart->axes(Qt::Horizontal).value(0)->titleText();
    // The axis draws its title as a text item; truncated, it ends in "...". The y title is the
    // one turned upright.
    for (QGraphicsItem *item : chart->scene()->items()) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || (text->rotation() != 0) != vertical)
            continue;
        const QString drawn = text->toPlainText();
        if (drawn == title || (drawn.endsWith(QLatin1String("...")) && title.startsWith(drawn.chopped(3))))
            return drawn;
    }
    return QStringLiteral("<no title drawn for %1>").arg(title);
}

void tst_ChartTitle::verifyTitlesWhole()
{
    MainWindow &w = *m_app->window();
    QChart *chart = w.chart()->chart();
    // The chart is as short as the window ever makes it: its minimum, the question beside it.
    QVERIFY2(w.chart()->height() <= w.chart()->minimumHeight() + 20,
             qPrintable(QStringLiteral("chart %1 px high").arg(w.chart()->height())));
    const QString y = chart->axes(Qt::Vertical).value(0)->titleText();
    const QString x = chart->axes(Qt::Horizontal).value(0)->titleText();
    for (const auto theme : {MainWindow::Theme::Light, MainWindow::Theme::Dark}) {
        w.applyTheme(theme);
        QTest::qWait(200);
        const QString where = QStringLiteral("%1 theme, a %2x%3 plot in a %4x%5 window")
                                  .arg(theme == MainWindow::Theme::Dark ? QStringLiteral("dark")
                                                                        : QStringLiteral("light"))
                                  .arg(chart->plotArea().width())
                                  .arg(chart->plotArea().height())
                                  .arg(w.width())
                                  .arg(w.height());
        QVERIFY2(drawnTitle(true) == y, qPrintable(QStringLiteral("%1 drawn as %2; %3").arg(y, drawnTitle(true), where)));
        QVERIFY2(drawnTitle(false) == x, qPrintable(QStringLiteral("%1 drawn as %2; %3").arg(x, drawnTitle(false), where)));
        // Legible: not shrunk below the size of the tick labels beside it.
        const QAbstractAxis *axis = chart->axes(Qt::Vertical).value(0);
        QVERIFY2(axis->titleFont().pointSizeF() >= axis->labelsFont().pointSizeF(),
                 qPrintable(QStringLiteral("title %1 pt, labels %2 pt; %3")
                                .arg(axis->titleFont().pointSizeF())
                                .arg(axis->labelsFont().pointSizeF())
                                .arg(where)));
    }
    w.applyTheme(MainWindow::Theme::Light);
}

void tst_ChartTitle::germanTitlesReadWhole()
{
    showResidualsBesideTheQuestion();
    QCOMPARE(m_app->window()->chart()->chart()->axes(Qt::Vertical).value(0)->titleText(),
             QStringLiteral("Residuum"));
    verifyTitlesWhole();
}

void tst_ChartTitle::englishTitlesReadWhole()
{
    QVERIFY(openWindow(QStringLiteral("en")));
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->taskModel()->task(m_converged), 30000);
    showResidualsBesideTheQuestion();
    QCOMPARE(m_app->window()->chart()->chart()->axes(Qt::Vertical).value(0)->titleText(),
             QStringLiteral("Residual"));
    verifyTitlesWhole();
}

void tst_ChartTitle::cleanupTestCase()
{
    m_app.reset();
}

int main(int argc, char **argv)
{
    // An offscreen screen of the size the layout must fit (the plugin's default is 800x600).
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return 2;
    f.write(R"({"screens": [{"name": "screen-1280x800", "x": 0, "y": 0, "width": 1280, "height": 800,
                "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    f.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    tst_ChartTitle test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_charttitle.moc"
