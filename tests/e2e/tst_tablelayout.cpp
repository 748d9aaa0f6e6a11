#include "app/monitor/engine.h"
#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sweepresultsmodel.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/layoutwait.h"
#include "tests/common/screenmain.h"
#include "tests/common/testserver.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/schemaform.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QTranslator>
#include <QTreeWidget>
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
// then the same window reopened on the same database; then reopened in German with a second
// sweep that varies a boolean and asks about its mesh (issue 14): the case labels, key columns,
// booleans, the inbox's questions and the answer panel at that size; then the same question in
// English once more.
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
    void germanTableShowsCasesAndKeyColumns();
    void germanBooleansReadJaNein();
    void inboxQuestionIsReadable();
    void answerPanelFitsWithoutScrolling();
    void englishAnswerPanelFitsWithoutScrolling();
    void cleanupTestCase();

private:
    bool openWindow();
    void closeWindow();
    // The column's header lies inside the viewport (not hidden, not scrolled away, not cut).
    bool fullyVisible(int column, QString *why) const;
    int variedColumnOf(const QString &name) const;
    // Picks the inbox's open question with a click and checks, in the light and the dark theme,
    // that the whole of it shows in the answer panel without scrolling.
    void verifyAnswerPanelFits();

    // The German sweep's rows (force_mesh_defect = false / true), once listed.
    qint64 germanTask(bool meshDefect) const;

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
    // Its header text in full (the room of a sort arrow counts for the sorted column only).
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int needed = header->fontMetrics().horizontalAdvance(name) + 2 * margin;
    if (header->sortIndicatorSection() == column)
        needed = header->sectionSizeHint(column);
    if (w < needed) {
        *why = QStringLiteral("%1 is cut: %2 px < %3 px").arg(name).arg(w).arg(needed);
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

// Marks only: "yes"/"no" of any context read "ja"/"nein", so that the test shows every boolean
// goes through tr() before the lead has translated each new context.
class YesNoGerman final : public QTranslator
{
public:
    QString translate(const char *, const char *source, const char *, int) const override
    {
        if (qstrcmp(source, "yes") == 0)
            return QStringLiteral("ja");
        if (qstrcmp(source, "no") == 0)
            return QStringLiteral("nein");
        return {};
    }
    bool isEmpty() const override { return false; }
};

qint64 tst_TableLayout::germanTask(bool meshDefect) const
{
    const TaskTableModel *m = m_app->window()->taskModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        const qint64 id = m->taskIdAt(r);
        const Store::TaskRecord *t = m->task(id);
        if (t && t->sweepId && *t->sweepId != m_sweepId
            && t->arguments.contains(meshDefect ? QLatin1String("\"force_mesh_defect\":true")
                                                : QLatin1String("\"force_mesh_defect\":false")))
            return id;
    }
    return 0;
}

void tst_TableLayout::germanTableShowsCasesAndKeyColumns()
{
    closeWindow();
    installUiTranslations(qApp, QStringLiteral("de"));
    auto *yesNo = new YesNoGerman;
    yesNo->setParent(qApp);         // removed with the others for the English part
    qApp->installTranslator(yesNo); // searched first
    QVERIFY(openWindow());
    QCOMPARE(m_app->window()->taskModel()->headerData(TaskTableModel::CaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Fall")); // the German translation is in
    // The Server column the English part turned on goes off again from the header's menu: the
    // default columns are what must fit.
    m_app->window()->monitor()->view()->setColumnHidden(TaskTableModel::ServerColumn, true);
    const qint64 serverId
        = m_app->window()->serverModel()->index(0).data(ServerListModel::ServerIdRole).toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->serverModel()->index(0).data(ServerListModel::ToolsRole)
                                 .toString().contains(QLatin1String("run_cfd_case")), 30000);
    // The screenshots' sweep, small: a boolean and a number varied, one case asks about its mesh.
    const QByteArray spec = R"({"tool": "run_cfd_case",
        "fixed": {"case_name": "deutsch", "grid": 16, "tolerance": 1e-4, "max_iterations": 20000},
        "vary": {"force_mesh_defect": {"list": [false, true]}, "reynolds": {"list": [100]}},
        "concurrency": 2})";
    m_app->bridge()->submitSweep(serverId, spec, m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->rowCount(), 5, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(germanTask(false) && germanTask(true), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(variedColumnOf(QStringLiteral("force_mesh_defect")) >= 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->taskModel()->statusCounts().value(TaskStatus::InputRequired), 1, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->taskModel()->outcome(germanTask(false)) == Monitor::Outcome::Converged,
                             240000);
    QVERIFY(Test::waitForLayout(m_app->window())); // the column fit runs after the rows settle

    const QRect available = m_app->window()->screen()->availableGeometry();
    QVERIFY2(available.contains(m_app->window()->frameGeometry()),
             qPrintable(QStringLiteral("window %1 px wide on a %2 px screen")
                            .arg(m_app->window()->frameGeometry().width()).arg(available.width())));
    const QTableView *view = m_app->window()->monitor()->view();
    QCOMPARE(view->horizontalScrollBar()->value(), 0);
    for (int c : {int(TaskTableModel::StatusColumn), int(TaskTableModel::ProgressColumn),
                  int(TaskTableModel::ResidualColumn), int(TaskTableModel::EtaColumn),
                  variedColumnOf(QStringLiteral("reynolds"))}) {
        QString why;
        QVERIFY2(fullyVisible(c, &why), qPrintable(why));
    }
    // The case column and the boolean's column lie in view (the boolean's name may be cut: its
    // values are short and the header's tooltip names it).
    const QHeaderView *header = view->horizontalHeader();
    for (int c : {int(TaskTableModel::CaseColumn), variedColumnOf(QStringLiteral("force_mesh_defect"))}) {
        QVERIFY(!view->isColumnHidden(c));
        QVERIFY2(header->sectionViewportPosition(c) >= 0
                     && header->sectionViewportPosition(c) + header->sectionSize(c) <= view->viewport()->width(),
                 qPrintable(QString::number(c)));
    }
    // Each case label reads whole: its sweep and the case ("Studie 2 · Fall 1"; the review saw
    // "…studie 1 · Fall 3" at this size).
    const TaskTableModel *m = m_app->window()->taskModel();
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    const int textWidth = view->columnWidth(TaskTableModel::CaseColumn) - 2 * margin;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString label = m->index(r, TaskTableModel::CaseColumn).data().toString();
        QVERIFY2(label.contains(QLatin1String("Fall")), qPrintable(label));
        const QString shown = view->fontMetrics().elidedText(label, Qt::ElideLeft, textWidth);
        QVERIFY2(shown == label, qPrintable(QStringLiteral("%1 shows as %2").arg(label, shown)));
        // The elided label is whole in its tooltip.
        QVERIFY(m->index(r, TaskTableModel::CaseColumn).data(Qt::ToolTipRole).toString().startsWith(label));
    }
    // Painted so: a label too long for the column (a user's narrower one) is elided on the left.
    const QAbstractItemDelegate *caseDelegate = view->itemDelegateForColumn(TaskTableModel::CaseColumn);
    QVERIFY(caseDelegate);
    QCOMPARE(caseDelegate->metaObject()->className(), "Eddy::ElideLeftDelegate");
    // Every outcome shown reads in full.
    QFont bold = view->font();
    bold.setBold(true);
    const int statusWidth = view->columnWidth(TaskTableModel::StatusColumn);
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString text = m->index(r, TaskTableModel::StatusColumn).data().toString();
        // After its marker: 0.6 line heights and 10 px.
        QVERIFY2(QFontMetrics(bold).horizontalAdvance(text) + view->fontMetrics().height() * 6 / 10 + 10
                     <= statusWidth,
                 qPrintable(text));
    }
}

void tst_TableLayout::germanBooleansReadJaNein()
{
    const TaskTableModel *m = m_app->window()->taskModel();
    const int defect = variedColumnOf(QStringLiteral("force_mesh_defect"));
    QVERIFY(defect >= 0);
    const qint64 clean = germanTask(false);
    const qint64 asking = germanTask(true);
    const QModelIndex cleanCell = m->index(m->rowOf(clean), defect);
    const QModelIndex askingCell = m->index(m->rowOf(asking), defect);
    // The table's cells, the row's tooltip and the Parameters column.
    QCOMPARE(cleanCell.data().toString(), QStringLiteral("nein"));
    QCOMPARE(askingCell.data().toString(), QStringLiteral("ja"));
    for (const QModelIndex &cell : {cleanCell, m->index(m->rowOf(clean), TaskTableModel::CaseColumn)}) {
        const QString tip = cell.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("force_mesh_defect = nein")) && !tip.contains(QLatin1String("false")),
                 qPrintable(tip));
    }
    QVERIFY2(m->parametersText(asking).contains(QLatin1String("force_mesh_defect = ja")),
             qPrintable(m->parametersText(asking)));
    // The result panel: "converged" of the finished case.
    m_app->window()->monitor()->selectTask(clean);
    QTreeWidget *tree = m_app->window()->resultView()->tree();
    QTreeWidgetItem *converged = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto found = tree->findItems(QStringLiteral("converged"), Qt::MatchExactly, 0);
            converged = found.isEmpty() ? nullptr : found.first();
            return converged != nullptr;
        }(),
        30000);
    QCOMPARE(converged->text(1), QStringLiteral("ja"));
    // The sweep table below.
    SweepResultsView *results = m_app->window()->sweepResults();
    QTRY_VERIFY_WITH_TIMEOUT(results->model()->sweepId() != m_sweepId && results->model()->rowCount() == 2, 30000);
    QStringList shown;
    for (int r = 0; r < results->model()->rowCount(); ++r) {
        for (int c = 0; c < results->model()->columnCount(); ++c)
            shown << results->model()->index(r, c).data().toString();
    }
    QVERIFY2(shown.contains(QLatin1String("ja")) && shown.contains(QLatin1String("nein"))
                 && !shown.contains(QLatin1String("true")) && !shown.contains(QLatin1String("false")),
             qPrintable(shown.join(QLatin1Char('|'))));
}

void tst_TableLayout::inboxQuestionIsReadable()
{
    QTableView *inbox = m_app->window()->inboxView();
    const InboxModel *model = qobject_cast<const InboxModel *>(inbox->model());
    QVERIFY(model);
    QTRY_COMPARE_WITH_TIMEOUT(model->pendingCount(), 1, 60000);
    auto *dock = m_app->window()->findChild<QDockWidget *>(QStringLiteral("inboxDock"));
    QVERIFY(dock);
    dock->raise();
    QTRY_VERIFY(inbox->isVisible());
    QVERIFY(Test::waitForLayout(m_app->window()));
    const int row = model->firstPendingRow();
    const QHeaderView *header = inbox->horizontalHeader();
    const int question = header->sectionSize(InboxModel::MessageColumn);
    const int width = inbox->viewport()->width();
    // The question takes the room: the widest column, near half the list or more.
    for (int c = 0; c < model->columnCount(); ++c) {
        if (c != InboxModel::MessageColumn && !inbox->isColumnHidden(c))
            QVERIFY2(header->sectionSize(c) < question,
                     qPrintable(QStringLiteral("column %1: %2 px, question %3 px").arg(c).arg(header->sectionSize(c)).arg(question)));
    }
    QVERIFY2(question * 100 >= width * 45,
             qPrintable(QStringLiteral("question %1 px of a %2 px list").arg(question).arg(width)));
    QVERIFY2(header->sectionViewportPosition(InboxModel::MessageColumn) >= 0
                 && header->sectionViewportPosition(InboxModel::MessageColumn) + question <= width,
             "the question column is not in view");
    // One line, elided at its end; whole in the tooltip.
    const QModelIndex cell = model->index(row, InboxModel::MessageColumn);
    const QString text = cell.data().toString();
    QVERIFY(!text.contains(QLatin1Char('\n')));
    QVERIFY2(cell.data(Qt::ToolTipRole).toString().contains(InboxModel::messageOf(*model->request(row))),
             qPrintable(cell.data(Qt::ToolTipRole).toString()));
    QCOMPARE(inbox->textElideMode(), Qt::ElideRight);
    // Its case keeps the case number in view.
    const QString label = model->index(row, InboxModel::CaseColumn).data().toString();
    const int margin = inbox->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, inbox) + 1;
    const QString shown = inbox->fontMetrics().elidedText(
        label, Qt::ElideLeft, header->sectionSize(InboxModel::CaseColumn) - 2 * margin);
    QVERIFY2(shown.endsWith(label.section(QLatin1Char(' '), 1)), qPrintable(shown));
    QVERIFY(inbox->itemDelegateForColumn(InboxModel::CaseColumn));
    QCOMPARE(inbox->itemDelegateForColumn(InboxModel::CaseColumn)->metaObject()->className(),
             "Eddy::ElideLeftDelegate");
}

void tst_TableLayout::verifyAnswerPanelFits()
{
    QTableView *inbox = m_app->window()->inboxView();
    const InboxModel *model = qobject_cast<const InboxModel *>(inbox->model());
    const int row = model->firstPendingRow();
    QVERIFY(row >= 0);
    // Picked as a user does: a click on the question.
    const QRect cell = inbox->visualRect(model->index(row, InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    AnswerPanel *panel = m_app->window()->answerPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->hasQuestion() && !panel->isGuarded(), 10000);
    QVERIFY(Test::waitForLayout(m_app->window())); // the inbox grows to the question after its layout settles
    auto *scroll = panel->findChild<QScrollArea *>(QStringLiteral("questionScroll"));
    QVERIFY(scroll);
    for (const auto theme : {MainWindow::Theme::Light, MainWindow::Theme::Dark}) {
        m_app->window()->applyTheme(theme);
        QVERIFY(Test::waitForLayout(m_app->window()));
        const QString where = QStringLiteral("%1 theme, a %2x%3 panel in a %4x%5 window")
                                  .arg(theme == MainWindow::Theme::Dark ? QStringLiteral("dark")
                                                                        : QStringLiteral("light"))
                                  .arg(panel->width())
                                  .arg(panel->height())
                                  .arg(m_app->window()->width())
                                  .arg(m_app->window()->height());
        // Unscrolled, the whole question lies in view: the message, each field and its wrapped
        // description in full, who is asking; the panel needs no scroll bar at all.
        QVERIFY2(scroll->verticalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("the panel scrolls by %1 px (%2)")
                                .arg(scroll->verticalScrollBar()->maximum())
                                .arg(where)));
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        auto *who = panel->findChild<QLabel *>(QStringLiteral("whoIsAsking"));
        QVERIFY(who && who->isVisible());
        QVERIFY2(who->text().startsWith(AnswerPanel::tr("<b>%1</b> %2")
                                            .arg(AnswerPanel::tr("Server:"), QString())
                                            .trimmed()),
                 qPrintable(who->text()));
        const QList<QLabel *> hints = panel->form()->findChildren<QLabel *>(QStringLiteral("hint"));
        QCOMPARE(hints.size(), 2); // the reference server's mesh question describes both fields
        QList<QWidget *> parts{panel->findChild<QLabel *>(QStringLiteral("message")),
                               who,
                               panel->form()->editor("action"),
                               panel->form()->editor("smoothing_passes")};
        for (QLabel *hint : hints)
            parts << hint;
        for (QWidget *part : parts) {
            QVERIFY(part && part->isVisible());
            const QRect r(part->mapTo(scroll->viewport(), QPoint(0, 0)), part->size());
            const QString what = qobject_cast<QLabel *>(part)
                                     ? qobject_cast<QLabel *>(part)->text().left(40)
                                     : part->objectName();
            QVERIFY2(scroll->viewport()->rect().contains(r),
                     qPrintable(QStringLiteral("\"%1\" at %2..%3 of a %4 px panel view (%5)")
                                    .arg(what)
                                    .arg(r.top())
                                    .arg(r.bottom())
                                    .arg(scroll->viewport()->height())
                                    .arg(where)));
            // Every wrapped line of it: the label is as tall as its text at its width.
            if (auto *label = qobject_cast<QLabel *>(part); label && label->wordWrap()) {
                QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                         qPrintable(QStringLiteral("\"%1\" is cut: %2 px of %3 px (%4)")
                                        .arg(what)
                                        .arg(label->height())
                                        .arg(label->heightForWidth(label->width()))
                                        .arg(where)));
            }
        }
        const QRect windowRect = m_app->window()->rect();
        for (const char *name : {"accept", "decline", "abort"}) {
            auto *button = panel->findChild<QPushButton *>(QLatin1String(name));
            QVERIFY(button);
            QVERIFY2(button->isVisible(), name);
            const QRect r(button->mapTo(m_app->window(), QPoint(0, 0)), button->size());
            QVERIFY2(windowRect.contains(r)
                         && panel->rect().contains(
                             QRect(button->mapTo(panel, QPoint(0, 0)), button->size())),
                     name);
        }
        // The form's descriptions wrap inside the panel.
        for (QLabel *hint : hints) {
            QVERIFY(hint->wordWrap());
            QVERIFY2(hint->mapTo(scroll->viewport(), QPoint(hint->width(), 0)).x()
                         <= scroll->viewport()->width(),
                     qPrintable(hint->text()));
        }
        // The table keeps most of the window, the chart its 180 px while it draws residuals (the
        // waiting case has none: then the room for its placeholder, the result dock the rest).
        QVERIFY2(m_app->window()->monitor()->view()->height() >= m_app->window()->height() / 3,
                 qPrintable(QString::number(m_app->window()->monitor()->view()->height())));
        const ResidualChart *chart = m_app->window()->chart();
        const int chartNeeds = chart->series().isEmpty() ? chart->minimumHeight() : 180;
        QVERIFY2(chart->height() >= chartNeeds,
                 qPrintable(QStringLiteral("%1 px of %2").arg(chart->height()).arg(chartNeeds)));
        // The list beside the panel still reads: its question column is the widest.
        const QHeaderView *header = inbox->horizontalHeader();
        for (int c = 0; c < model->columnCount(); ++c) {
            if (c != InboxModel::MessageColumn && !inbox->isColumnHidden(c))
                QVERIFY2(header->sectionSize(c) < header->sectionSize(InboxModel::MessageColumn),
                         qPrintable(QStringLiteral("column %1: %2 px, question %3 px")
                                        .arg(c)
                                        .arg(header->sectionSize(c))
                                        .arg(header->sectionSize(InboxModel::MessageColumn))));
        }
    }
    m_app->window()->applyTheme(MainWindow::Theme::Light);
}

void tst_TableLayout::answerPanelFitsWithoutScrolling()
{
    // German (the longer labels) at the window's own size on a 1280x800 screen.
    QCOMPARE(m_app->window()
                 ->taskModel()
                 ->headerData(TaskTableModel::CaseColumn, Qt::Horizontal)
                 .toString(),
             QStringLiteral("Fall"));
    verifyAnswerPanelFits();
}

void tst_TableLayout::englishAnswerPanelFitsWithoutScrolling()
{
    // The same question, reopened in English.
    closeWindow();
    for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
        qApp->removeTranslator(t);
        delete t;
    }
    installUiTranslations(qApp, QStringLiteral("en"));
    QVERIFY(openWindow());
    QCOMPARE(m_app->window()
                 ->taskModel()
                 ->headerData(TaskTableModel::CaseColumn, Qt::Horizontal)
                 .toString(),
             QStringLiteral("Case"));
    const InboxModel *model
        = qobject_cast<const InboxModel *>(m_app->window()->inboxView()->model());
    QTRY_COMPARE_WITH_TIMEOUT(model->pendingCount(), 1, 60000);
    auto *dock = m_app->window()->findChild<QDockWidget *>(QStringLiteral("inboxDock"));
    QVERIFY(dock);
    dock->raise();
    QTRY_VERIFY(m_app->window()->inboxView()->isVisible());
    QVERIFY(Test::waitForLayout(m_app->window()));
    verifyAnswerPanelFits();
}

void tst_TableLayout::cleanupTestCase()
{
    closeWindow();
}

// An offscreen screen of the size the layout must fit.
EDDY_TEST_MAIN_ON_SCREEN(tst_TableLayout, 1280, 800)

#include "tst_tablelayout.moc"
