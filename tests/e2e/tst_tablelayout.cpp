#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/resultview.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

// The task table at 1280x800, as an engineer reviewing a sweep sees it: the real window
// (offscreen, on a 1280x800 screen) against the real eddy-cfd-server and a real SQLite file,
// then the same window reopened on the same database.
class tst_TableLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void windowFitsTheScreen();
    void emptyTableSaysWhatToDo();
    void newSweepIsSelected();
    void keyColumnsVisibleWithoutScrolling();
    void variedColumnSortsAsNumbers();
    void ghiaPointsOverlayTheCentreline();
    void sweepPlotEnlarges();
    void sweepPlotChoiceIsPicked();
    void residualAndLayoutSurviveARestart();
    void cleanupTestCase();

private:
    bool openWindow();
    void closeWindow();
    // The column's header lies inside the viewport (not hidden, not scrolled away, not cut).
    bool fullyVisible(int column, QString *why) const;
    int variedColumnOf(const QString &name) const;

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_sweepId = 0;
};

bool tst_TableLayout::openWindow()
{
    Test::E2eWindowOptions options;
    options.size = QSize(); // no resize: the window picks its own size, as for a user
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    return m_app != nullptr;
}

void tst_TableLayout::closeWindow()
{
    m_app.reset();
}

void tst_TableLayout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_tablelayout"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1280, 800));
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("300")}),
             qPrintable(m_server.errorString()));
    QVERIFY(openWindow());
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
    QCOMPARE(m_app->window()->serverModel()->rowCount(), 1);
}

void tst_TableLayout::windowFitsTheScreen()
{
    QTRY_VERIFY(m_app->window()->isVisible());
    const QRect available = m_app->window()->screen()->availableGeometry();
    QVERIFY2(available.contains(m_app->window()->frameGeometry()),
             qPrintable(QStringLiteral("window %1x%2+%3+%4 outside the screen %5x%6")
                            .arg(m_app->window()->frameGeometry().width())
                            .arg(m_app->window()->frameGeometry().height())
                            .arg(m_app->window()->frameGeometry().x())
                            .arg(m_app->window()->frameGeometry().y())
                            .arg(available.width())
                            .arg(available.height())));
}

void tst_TableLayout::emptyTableSaysWhatToDo()
{
    QCOMPARE(m_app->window()->taskModel()->rowCount(), 0);
    const QLabel *hint
        = m_app->window()->monitor()->findChild<QLabel *>(QStringLiteral("emptyHint"));
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY(hint->text().contains(QLatin1String("New Sweep")));
}

void tst_TableLayout::newSweepIsSelected()
{
    const qint64 serverId
        = m_app->window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    // Reynolds numbers whose text order (100, 1000, 400) differs from their numeric order.
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "layout", "grid": 16, "tolerance": 1e-4, "max_iterations": 20000},
        "vary": {"reynolds": {"list": [1000, 100, 400]}},
        "concurrency": 3})";
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->rowCount(), 3, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->monitor()->selectedTaskIds().size(), 1, 10000);
    const Store::TaskRecord *t
        = m_app->window()->taskModel()->task(m_app->window()->monitor()->selectedTaskIds().first());
    QVERIFY(t && t->sweepId);
    m_sweepId = *t->sweepId;
    QVERIFY(!m_app->window()->monitor()->emptyHint()->isVisible());
}

int tst_TableLayout::variedColumnOf(const QString &name) const
{
    for (int c = TaskTableModel::VariedColumn; c <= TaskTableModel::VariedLastColumn; ++c) {
        if (m_app->window()->taskModel()->variedName(c) == name)
            return c;
    }
    return -1;
}

bool tst_TableLayout::fullyVisible(int column, QString *why) const
{
    const QTableView *view = m_app->window()->monitor()->view();
    const QHeaderView *header = view->horizontalHeader();
    const QString name
        = m_app->window()->taskModel()->headerData(column, Qt::Horizontal).toString();
    if (view->isColumnHidden(column)) {
        *why = name + QStringLiteral(" is hidden");
        return false;
    }
    const int x = header->sectionViewportPosition(column);
    const int w = header->sectionSize(column);
    if (x < 0 || x + w > view->viewport()->width()) {
        *why = QStringLiteral("%1 spans %2..%3 of a %4 px viewport").arg(name).arg(x).arg(x + w).arg(view->viewport()->width());
        return false;
    }
    if (w < header->sectionSizeHint(column)) {
        *why = QStringLiteral("%1 is cut: %2 px < %3 px").arg(name).arg(w).arg(header->sectionSizeHint(column));
        return false;
    }
    return true;
}

void tst_TableLayout::keyColumnsVisibleWithoutScrolling()
{
    // The sweep's description (its varied names) follows its first rows.
    QTRY_VERIFY2_WITH_TIMEOUT(variedColumnOf(QStringLiteral("reynolds")) >= 0,
                              "no column for the varied parameter reynolds", 10000);
    const int reynolds = variedColumnOf(QStringLiteral("reynolds"));
    const QTableView *view = m_app->window()->monitor()->view();
    QCOMPARE(view->horizontalScrollBar()->value(), 0);
    for (int c : {int(TaskTableModel::CaseColumn), reynolds, int(TaskTableModel::StatusColumn),
                  int(TaskTableModel::ProgressColumn), int(TaskTableModel::ResidualColumn),
                  int(TaskTableModel::EtaColumn)}) {
        QString why;
        QVERIFY2(fullyVisible(c, &why), qPrintable(why));
    }
    // Fixed arguments are in the row's tooltip.
    const QString tip
        = m_app->window()->taskModel()->index(0, reynolds).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLatin1String("grid = 16")) && tip.contains(QLatin1String("reynolds")), qPrintable(tip));
}

void tst_TableLayout::variedColumnSortsAsNumbers()
{
    const int reynolds = variedColumnOf(QStringLiteral("reynolds"));
    QVERIFY(reynolds >= 0);
    QTableView *view = m_app->window()->monitor()->view();
    view->sortByColumn(reynolds, Qt::AscendingOrder);
    const QAbstractItemModel *proxy = view->model();
    QStringList order;
    for (int r = 0; r < proxy->rowCount(); ++r)
        order << proxy->index(r, reynolds).data().toString();
    QCOMPARE(order, (QStringList{QStringLiteral("100"), QStringLiteral("400"), QStringLiteral("1000")}));
    view->sortByColumn(TaskTableModel::CaseColumn, Qt::AscendingOrder);
}

void tst_TableLayout::ghiaPointsOverlayTheCentreline()
{
    QTRY_COMPARE_WITH_TIMEOUT(
        m_app->window()->taskModel()->statusCounts().value(TaskStatus::Completed), 3, 240000);
    const int reynolds = variedColumnOf(QStringLiteral("reynolds"));
    const TaskTableModel *m = m_app->window()->taskModel();
    qint64 re100 = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, reynolds).data().toString() == QLatin1String("100"))
            re100 = m->taskIdAt(r);
    }
    QVERIFY(re100);
    ResultView *result = m_app->window()->resultView();
    m_app->window()->monitor()->selectTask(re100);
    QTRY_VERIFY_WITH_TIMEOUT(result->curveNames().contains(QStringLiteral("u_centreline")), 30000);
    // The reference is drawn over its curve, not listed as a curve of its own.
    QVERIFY2(!result->curveNames().join(QLatin1Char(',')).contains(QLatin1String("reference")),
             qPrintable(result->curveNames().join(QLatin1Char(','))));
    for (const QString &name : {QStringLiteral("u_centreline"), QStringLiteral("v_centreline")}) {
        result->showCurve(int(result->curveNames().indexOf(name)));
        QVERIFY(result->shownCurvePoints() > 2);
        QCOMPARE(result->shownReferencePoints(), 17);
        QVERIFY2(result->shownReferenceName().contains(QLatin1String("Ghia")),
                 qPrintable(result->shownReferenceName()));
    }
}

void tst_TableLayout::sweepPlotEnlarges()
{
    QTRY_COMPARE_WITH_TIMEOUT(
        m_app->window()->taskModel()->statusCounts().value(TaskStatus::Completed), 3, 240000);
    SweepResultsView *results = m_app->window()->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->sweepId(), m_sweepId, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->withResultsCount(), 3, 30000);
    auto *enlarge = results->findChild<QToolButton *>(QStringLiteral("enlargePlot"));
    QVERIFY(enlarge);
    const int before = results->chartView()->width();
    QTest::mouseClick(enlarge, Qt::LeftButton);
    auto *dialog = results->findChild<QDialog *>(QStringLiteral("enlargedPlot"));
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QTRY_VERIFY2(results->chartView()->width() >= 800 && results->chartView()->width() > before,
                 qPrintable(QString::number(results->chartView()->width())));
    QCOMPARE(results->plottedPoints().size(), 3);
    dialog->close();
    QTRY_VERIFY(results->chartView()->window() == m_app->window());
    QVERIFY(results->chartView()->isVisible());
}

void tst_TableLayout::sweepPlotChoiceIsPicked()
{
    // Picked with the keyboard as a user would: the y combo moves to "iterations".
    QComboBox *y = m_app->window()->sweepResults()->yCombo();
    QVERIFY2(y->findText(QStringLiteral("iterations")) >= 0, qPrintable(y->currentText()));
    y->setFocus();
    const int target = y->findText(QStringLiteral("iterations"));
    for (int i = 0; i < 50 && y->currentIndex() != target; ++i)
        QTest::keyClick(y, y->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(y->currentText(), QStringLiteral("iterations"));
}

void tst_TableLayout::residualAndLayoutSurviveARestart()
{
    QTRY_COMPARE_WITH_TIMEOUT(
        m_app->window()->taskModel()->statusCounts().value(TaskStatus::Completed), 3, 240000);
    // A column the user turned on from the header's menu stays on.
    QTableView *view = m_app->window()->monitor()->view();
    QVERIFY(view->isColumnHidden(TaskTableModel::ServerColumn));
    view->setColumnHidden(TaskTableModel::ServerColumn, false);

    closeWindow();
    QVERIFY(openWindow());
    const TaskTableModel *m = m_app->window()->taskModel();
    QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 3, 30000);
    for (int r = 0; r < m->rowCount(); ++r) {
        const QModelIndex residual = m->index(r, TaskTableModel::ResidualColumn);
        QVERIFY2(!residual.data().toString().isEmpty(),
                 qPrintable(m->task(m->taskIdAt(r))->statusMessage));
        QVERIFY(residual.data(TaskTableModel::ResidualRole).toDouble() > 0);
    }
    QVERIFY(!m_app->window()->monitor()->view()->isColumnHidden(TaskTableModel::ServerColumn));
    QVERIFY(variedColumnOf(QStringLiteral("reynolds")) >= 0);
    // Every outcome reads in full: the delegate paints it bold beside a dot.
    QFont bold = m_app->window()->monitor()->view()->font();
    bold.setBold(true);
    const int statusWidth
        = m_app->window()->monitor()->view()->columnWidth(TaskTableModel::StatusColumn);
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString text = m->index(r, TaskTableModel::StatusColumn).data().toString();
        QVERIFY2(QFontMetrics(bold).horizontalAdvance(text) + QFontMetrics(bold).height() < statusWidth,
                 qPrintable(text));
    }

    // The sweep plot comes back with the pair chosen before the restart.
    m_app->window()->monitor()->selectTask(m->taskIdAt(0));
    SweepResultsView *results = m_app->window()->sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->sweepId(), m_sweepId, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(results->model()->withResultsCount(), 3, 30000);
    QCOMPARE(results->yCombo()->currentText(), QStringLiteral("iterations"));
    QCOMPARE(results->xCombo()->currentText(), QStringLiteral("reynolds"));
}

void tst_TableLayout::cleanupTestCase()
{
    closeWindow();
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
    tst_TableLayout test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_tablelayout.moc"
