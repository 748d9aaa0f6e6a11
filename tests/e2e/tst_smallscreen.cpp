#include "models/enginebridge.h"
#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
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
#include "widgets/sweepeditor.h"
#include "widgets/taskmonitor.h"
#include "widgets/uitranslations.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

#include <memory>

using namespace Eddy;
using Store::TaskStatus;

// What an engineer reads where the window is smallest: the real window on a 1280x800 screen
// (offscreen) at its own size, against the real eddy-cfd-server and a real SQLite file, a
// converged case's residuals shown while a mesh question is open in the answer panel (the inbox
// then takes the height the question needs and the chart keeps its minimum). In German, then the
// same database reopened in English:
// - the residual chart's axis titles are drawn whole ("Residuum" was drawn "Residu...");
// - every status-bar message fits left of the counts (a question's text ran into them, cut
//   mid-word with no "...");
// - the result dock shows a waiting case's "Asked: ... / Answer: Not answered yet." whole, and a
//   tool error's banner too (both were cut mid-line under a chart that only said it had no
//   residuals).
class tst_SmallScreen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void germanTitlesReadWhole();
    void germanStatusMessagesFit();
    void germanSummaryReadsWhole();
    void germanSweepEditorShowsRequiredFields();
    void englishTitlesReadWhole();
    void englishStatusMessagesFit();
    void englishSummaryReadsWhole();
    void englishToolErrorReadsWhole();
    void englishSweepEditorShowsRequiredFields();
    void cleanupTestCase();

private:
    bool openWindow(const QString &lang);
    // The converged case's residuals in the chart, its mesh question open in the panel.
    void showResidualsBesideTheQuestion();
    // The text `chart` draws as the title of its y axis (drawn upright) or its x axis.
    static QString drawnTitle(QChart *chart, bool vertical);
    void verifyTitlesWhole();
    void verifyStatusMessagesFit();
    // A waiting case selected from the inbox: its question and answer in the result dock.
    void showWaitingCase();
    // `label` (in the result dock) shown with every line whole: its visible part reaches down to
    // its last line ("Answer: ..." in the summary).
    void verifyShownWhole(const QLabel *label, const QString &what);
    // New Sweep on this screen: the required arguments (reynolds *, grid *) are in view without
    // scrolling the form, and the window with its Submit button is on the screen.
    void verifySweepEditorShowsRequiredFields(const QString &what);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
    qint64 m_converged = 0;
    QSize m_openedSize; // the window's size on the screen once opened
    // Each status-bar message as shown, with the room QStatusBar gave it then (its message rect:
    // 6 px in from the left, up to 2 px before the first permanent widget shown) and the status
    // bar's tooltip then.
    struct Shown
    {
        QString message;
        int room = 0;
        QString toolTip;
    };
    QList<Shown> m_messages;
};

bool tst_SmallScreen::openWindow(const QString &lang)
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
    if (!m_app)
        return false;
    m_messages.clear();
    m_openedSize = m_app->window()->size();
    QStatusBar *bar = m_app->window()->statusBar();
    connect(bar, &QStatusBar::messageChanged, this, [this, bar](const QString &message) {
        if (message.isEmpty())
            return;
        int right = bar->width() - 12;
        for (const QLabel *count : bar->findChildren<QLabel *>()) {
            if (count->objectName().startsWith(QLatin1String("count_")) && count->isVisible())
                right = std::min(right, count->x() - 2);
        }
        m_messages.append({message, right - 6, bar->toolTip()});
    });
    return true;
}

void tst_SmallScreen::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_smallscreen"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1280, 800));
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
    QVERIFY(openWindow(QStringLiteral("de")));
    MainWindow &w = *m_app->window();
    QCOMPARE(w.taskModel()->headerData(TaskTableModel::CaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Fall")); // the German translation is in
    m_serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(m_serverId > 0);
    // Of the cases without a mesh defect one converges (its residual and u, v, omega) and one
    // stops short; the other two ask about their mesh.
    m_app->bridge()->submitSweep(m_serverId,
                                 R"({"tool": "run_cfd_case",
        "fixed": {"reynolds": 100, "grid": 16, "tolerance": 1e-5},
        "vary": {"force_mesh_defect": {"list": [false, true]}, "max_iterations": {"list": [50, 20000]}},
        "concurrency": 4})",
                                 w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->pendingCount(), 2, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 2, 120000);
    for (int r = 0; r < w.taskModel()->rowCount(); ++r) {
        if (w.taskModel()->outcome(w.taskModel()->taskIdAt(r)) == Monitor::Outcome::Converged)
            m_converged = w.taskModel()->taskIdAt(r);
    }
    QVERIFY(m_converged > 0);
}

void tst_SmallScreen::showResidualsBesideTheQuestion()
{
    MainWindow &w = *m_app->window();
    QTRY_VERIFY_WITH_TIMEOUT(w.inboxModel()->pendingCount() >= 1, 60000);
    QTableView *inbox = w.inboxView();
    QTRY_VERIFY(inbox->isVisible());
    const QRect cell = inbox->visualRect(
        w.inboxModel()->index(w.inboxModel()->firstPendingRow(), InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(w.answerPanel()->hasQuestion(), 10000);
    QVERIFY(Test::waitForLayout(&w)); // the inbox grows to the question after its layout settles
    w.monitor()->selectTask(m_converged);
    ResidualChart *chart = w.chart();
    QTRY_VERIFY_WITH_TIMEOUT(chart->series().size() >= 2, 30000); // residual and fields
    QTRY_VERIFY_WITH_TIMEOUT(chart->chartView()->isVisible(), 10000);
    QVERIFY(Test::waitForLayout(&w)); // the ranges follow the samples after 100 ms, the layout after that
}

QString tst_SmallScreen::drawnTitle(QChart *chart, bool vertical)
{
    const QAbstractAxis *axis = chart->axes(vertical ? Qt::Vertical : Qt::Horizontal).value(0);
    if (!axis)
        return QStringLiteral("<no axis>");
    const QString title = axis->titleText();
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

void tst_SmallScreen::verifyTitlesWhole()
{
    MainWindow &w = *m_app->window();
    // The chart is as short as the window ever makes it: its minimum, the question beside it.
    QCOMPARE(w.chart()->height(), w.chart()->minimumHeight());
    QChart *chart = w.chart()->chart();
    for (const auto theme : {MainWindow::Theme::Light, MainWindow::Theme::Dark}) {
        w.applyTheme(theme);
        QVERIFY(Test::waitForLayout(&w));
        const QString where = QStringLiteral("%1 theme, a %2x%3 plot in a %4x%5 window")
                                  .arg(theme == MainWindow::Theme::Dark ? QStringLiteral("dark")
                                                                        : QStringLiteral("light"))
                                  .arg(chart->plotArea().width())
                                  .arg(chart->plotArea().height())
                                  .arg(w.width())
                                  .arg(w.height());
        for (const bool vertical : {true, false}) {
            const QAbstractAxis *axis = chart->axes(vertical ? Qt::Vertical : Qt::Horizontal).value(0);
            QVERIFY(axis);
            QVERIFY2(drawnTitle(chart, vertical) == axis->titleText(),
                     qPrintable(QStringLiteral("%1 drawn as %2; %3")
                                    .arg(axis->titleText(), drawnTitle(chart, vertical), where)));
            // Legible: not shrunk below the size of the tick labels beside it.
            QVERIFY2(axis->titleFont().pointSizeF() >= axis->labelsFont().pointSizeF(),
                     qPrintable(QStringLiteral("title %1 pt, labels %2 pt; %3")
                                    .arg(axis->titleFont().pointSizeF())
                                    .arg(axis->labelsFont().pointSizeF())
                                    .arg(where)));
        }
    }
    w.applyTheme(MainWindow::Theme::Light);
}

void tst_SmallScreen::verifyStatusMessagesFit()
{
    // Among them the question's own ("... asks: Mesh defect forced for a demonstration..."),
    // shortened; whole in the tooltip while it shows.
    QVERIFY2(!m_messages.isEmpty(), "no status-bar message was shown");
    bool question = false;
    const QFontMetrics metrics = m_app->window()->statusBar()->fontMetrics();
    for (const Shown &shown : std::as_const(m_messages)) {
        QVERIFY2(metrics.horizontalAdvance(shown.message) <= shown.room,
                 qPrintable(QStringLiteral("%1 px in %2 px: %3")
                                .arg(metrics.horizontalAdvance(shown.message))
                                .arg(shown.room)
                                .arg(shown.message)));
        if (!shown.message.contains(QLatin1String("Mesh defect")))
            continue;
        question = true;
        QVERIFY2(shown.message.endsWith(QChar(0x2026)), qPrintable(shown.message));
        QVERIFY2(shown.toolTip.startsWith(shown.message.chopped(1))
                     && shown.toolTip.endsWith(QLatin1String("Repair or abort to continue the demonstration.")),
                 qPrintable(shown.toolTip));
    }
    QVERIFY2(question, qPrintable(m_messages.value(0).message));
}

void tst_SmallScreen::showWaitingCase()
{
    MainWindow &w = *m_app->window();
    QTableView *inbox = w.inboxView();
    const QRect cell = inbox->visualRect(
        w.inboxModel()->index(w.inboxModel()->firstPendingRow(), InboxModel::MessageColumn));
    QTest::mouseClick(inbox->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(w.answerPanel()->hasQuestion(), 10000);
    const qint64 waiting = w.answerPanel()->taskId();
    w.monitor()->selectTask(waiting);
    QTRY_VERIFY_WITH_TIMEOUT(w.resultView()->answersText().contains(
                                 InboxModel::tr("Not answered yet.")), 10000);
    QVERIFY(Test::waitForLayout(&w)); // the layout settles after the result and the chart's placeholder
}

void tst_SmallScreen::verifyShownWhole(const QLabel *label, const QString &what)
{
    QVERIFY2(label && label->isVisible(), qPrintable(what));
    const MainWindow &w = *m_app->window();
    // The lines end this far down in the label: its height for its width less its bottom margin.
    const int needed = label->heightForWidth(label->width()) - label->contentsMargins().bottom()
                       - label->margin();
    const QRect visible = label->visibleRegion().boundingRect();
    QVERIFY2(visible.top() <= label->contentsMargins().top() + label->margin() && visible.bottom() + 1 >= needed,
             qPrintable(QStringLiteral("%1: lines down to y=%2, visible y=%3..%4 (label %5 px high, result "
                                       "dock %6 px, residuals dock %7 px, window %8x%9): %10")
                            .arg(what)
                            .arg(needed)
                            .arg(visible.top())
                            .arg(visible.bottom() + 1)
                            .arg(label->height())
                            .arg(w.findChild<QWidget *>(QStringLiteral("resultDock"))->height())
                            .arg(w.findChild<QWidget *>(QStringLiteral("chartDock"))->height())
                            .arg(w.width())
                            .arg(w.height())
                            .arg(label->text())));
}

void tst_SmallScreen::germanSummaryReadsWhole()
{
    showWaitingCase();
    const ResultView *result = m_app->window()->resultView();
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("answers")), QStringLiteral("German answers"));
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("banner")), QStringLiteral("German banner"));
    QCOMPARE(m_app->window()->size(), m_openedSize); // the window did not grow past the screen
}

void tst_SmallScreen::englishSummaryReadsWhole()
{
    showWaitingCase();
    const ResultView *result = m_app->window()->resultView();
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("answers")), QStringLiteral("English answers"));
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("banner")), QStringLiteral("English banner"));
    QCOMPARE(m_app->window()->size(), m_openedSize);
}

void tst_SmallScreen::englishToolErrorReadsWhole()
{
    // The waiting case aborted at its question, as an engineer does from the answer panel: the
    // tool reports an error.
    MainWindow &w = *m_app->window();
    showWaitingCase();
    const qint64 aborted = w.answerPanel()->taskId();
    QTRY_VERIFY_WITH_TIMEOUT(!w.answerPanel()->isGuarded(), 10000);
    auto *action = qobject_cast<QComboBox *>(w.answerPanel()->form()->editor("action"));
    QVERIFY(action);
    action->setCurrentIndex(action->count() - 1); // "Abort this case"
    w.answerPanel()->acceptInput();
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->outcome(aborted), Monitor::Outcome::ToolError, 30000);
    w.monitor()->selectTask(aborted);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::ToolError, 10000);
    QVERIFY(Test::waitForLayout(&w));
    const ResultView *result = w.resultView();
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("banner")), QStringLiteral("tool-error banner"));
    verifyShownWhole(result->findChild<QLabel *>(QStringLiteral("answers")), QStringLiteral("aborted case's answers"));
    QCOMPARE(w.size(), m_openedSize);
    // Then the converged case with its residuals: the chart takes its height back and the window
    // stays on the screen.
    w.monitor()->selectTask(m_converged);
    QTRY_VERIFY_WITH_TIMEOUT(w.chart()->series().size() >= 2, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(w.resultView()->outcome(), ResultView::Outcome::Success, 10000);
    QVERIFY(Test::waitForLayout(&w));
    QCOMPARE(w.chart()->height(), w.chart()->minimumHeight());
    QCOMPARE(w.size(), m_openedSize);
}

void tst_SmallScreen::verifySweepEditorShowsRequiredFields(const QString &what)
{
    MainWindow &w = *m_app->window();
    w.showSweepEditor();
    SweepEditor *editor = w.sweepEditor();
    QWidget *window = editor->window();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QVERIFY(Test::waitForLayout(window));
    const QRect screen = window->screen()->availableGeometry();
    const QRect frame = window->frameGeometry();
    QVERIFY2(screen.contains(frame),
             qPrintable(QStringLiteral("%1: the editor window (%2, %3) %4x%5 is off the screen")
                            .arg(what)
                            .arg(frame.x())
                            .arg(frame.y())
                            .arg(frame.width())
                            .arg(frame.height())));
    auto *submit = editor->findChild<QPushButton *>(QStringLiteral("submit"));
    QVERIFY(submit && submit->isVisible());
    QVERIFY(window->rect().contains(QRect(submit->mapTo(window, QPoint(0, 0)), submit->size())));
    for (const char *name : {"reynolds", "grid"}) {
        QWidget *field = editor->form()->editor(name);
        QVERIFY(field);
        QScrollArea *scroll = nullptr;
        for (QWidget *p = field->parentWidget(); p && !scroll; p = p->parentWidget())
            scroll = qobject_cast<QScrollArea *>(p);
        QVERIFY(scroll);
        const QRect shown(field->mapTo(scroll->viewport(), QPoint(0, 0)), field->size());
        QVERIFY2(scroll->viewport()->rect().contains(shown),
                 qPrintable(QStringLiteral("%1: %2 at y %3..%4 is outside the form's view, %5 high")
                                .arg(what, QLatin1String(name))
                                .arg(shown.top())
                                .arg(shown.bottom())
                                .arg(scroll->viewport()->height())));
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    }
    editor->markClean();
    window->hide();
}

void tst_SmallScreen::germanSweepEditorShowsRequiredFields()
{
    verifySweepEditorShowsRequiredFields(QStringLiteral("German"));
}

void tst_SmallScreen::englishSweepEditorShowsRequiredFields()
{
    verifySweepEditorShowsRequiredFields(QStringLiteral("English"));
}

void tst_SmallScreen::germanTitlesReadWhole()
{
    showResidualsBesideTheQuestion();
    QCOMPARE(m_app->window()->chart()->chart()->axes(Qt::Vertical).value(0)->titleText(),
             QStringLiteral("Residuum"));
    verifyTitlesWhole();
}

void tst_SmallScreen::germanStatusMessagesFit()
{
    verifyStatusMessagesFit();
}

void tst_SmallScreen::englishTitlesReadWhole()
{
    QVERIFY(openWindow(QStringLiteral("en")));
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->taskModel()->task(m_converged), 30000);
    // A second case that asks: its question is announced in this window too.
    m_app->bridge()->callOnce(m_serverId,
                              QStringLiteral("run_cfd_case"),
                              R"({"reynolds":400,"grid":16,"max_iterations":200,"force_mesh_defect":true})",
                              m_app->window()->currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(m_app->window()->inboxModel()->pendingCount(), 3, 60000);
    showResidualsBesideTheQuestion();
    QCOMPARE(m_app->window()->chart()->chart()->axes(Qt::Vertical).value(0)->titleText(),
             QStringLiteral("Residual"));
    verifyTitlesWhole();
}

void tst_SmallScreen::englishStatusMessagesFit()
{
    verifyStatusMessagesFit();
}

void tst_SmallScreen::cleanupTestCase()
{
    m_app.reset();
}

// An offscreen screen of the size the layout must fit.
EDDY_TEST_MAIN_ON_SCREEN(tst_SmallScreen, 1280, 800)

#include "tst_smallscreen.moc"
