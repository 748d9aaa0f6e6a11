#include "models/enginebridge.h"
#include "models/sweepresultsmodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/charttexts.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/layoutwait.h"
#include "tests/common/screenmain.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/residualchart.h"
#include "widgets/resultview.h"
#include "widgets/sweepresultsview.h"
#include "widgets/taskmonitor.h"
#include "widgets/uitranslations.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QStyle>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

#include <cmath>
#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using Test::drawnTexts;
using Test::isCut;

// The plots as an engineer reads them (issue 24, item 10): the real window (offscreen) against
// the real eddy-cfd-server and a real SQLite file, a sweep of two Reynolds numbers run to the end.
// At 1280x800 in English and in German: the sweep plot's texts whole (its y title was drawn
// "final_resi..."), two cases charted at once named by case and field with a legend that tells
// them apart (it was eight "#..."). In the dark and the light theme: every chart's axis labels,
// titles and background from the palette (the dark theme drew some labels dark grey on dark
// grey, and Result > Plots stayed white). Result > Plots opens on the centreline profile, not on
// "residual_history.iteration" over its index, and at 1600x1000 reads whole.
class tst_Plots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void englishSweepPlotReadsWhole();
    void englishTwoCasesAreToldApart();
    void resultPlotsOpenOnTheProfile();
    void chartsFollowTheDarkAndLightPalette();
    void resultPlotsReadWholeAt1600x1000();
    void resultPlotEnlargedAt1280x800();
    void germanSweepPlotReadsWhole();
    void germanTwoCasesAreToldApart();
    void germanCaseLabelsReadWhole();
    void cleanupTestCase();

private:
    bool openWindow(const QString &lang);
    bool showDockTab(const QString &title);
    void verifySweepPlotWhole(const QString &what);
    void verifyTwoCasesToldApart(const QString &what);
    // Every axis of `chart` in a colour readable on its background, the background the palette's.
    void verifyFollowsPalette(QChart *chart, const QString &what);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
    qint64 m_serverId = 0;
    QList<qint64> m_tasks; // the sweep's two cases
};

namespace {

// WCAG's contrast ratio of two colours (1 to 21).
double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Result > Plots' chart.
QChartView *curveView(ResultView *result)
{
    return result->findChild<QChartView *>();
}

} // namespace

bool tst_Plots::openWindow(const QString &lang)
{
    m_app.reset();
    for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
        qApp->removeTranslator(t);
        delete t;
    }
    installUiTranslations(qApp, lang);
    Test::E2eWindowOptions options;
    options.size = QSize(1280, 800);
    options.waitForSession = true;
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")), options);
    return m_app != nullptr;
}

bool tst_Plots::showDockTab(const QString &title)
{
    for (QTabBar *bar : m_app->window()->findChildren<QTabBar *>()) {
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i) == title && bar->isVisible()) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                return true;
            }
        }
    }
    return false;
}

void tst_Plots::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_plots"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("200")}),
             qPrintable(m_server.errorString()));
    QVERIFY(openWindow(QStringLiteral("en")));
    MainWindow &w = *m_app->window();
    m_serverId = m_app->addServer(m_server.url(), QStringLiteral("Test CFD"));
    QVERIFY(m_serverId > 0);
    // Re 100 converges; Re 400 stops short: the plot's legend then shows both outcomes.
    m_app->bridge()->submitSweep(m_serverId, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "tolerance": 1e-5, "max_iterations": 20000},
        "vary": {"reynolds": {"list": [100, 400]}}, "concurrency": 2})",
                                 w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 2, 240000);
    for (int r = 0; r < w.taskModel()->rowCount(); ++r)
        m_tasks << w.taskModel()->taskIdAt(r);
    QCOMPARE(m_tasks.size(), 2);
}

void tst_Plots::verifySweepPlotWhole(const QString &what)
{
    MainWindow &w = *m_app->window();
    QCOMPARE(w.size(), QSize(1280, 800));
    w.monitor()->selectTask(m_tasks.first());
    showDockTab(MainWindow::tr("Sweep Results")); // a tab beside the inbox, or the dock alone
    SweepResultsView *view = w.sweepResults();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->withResultsCount(), 2, 30000);
    QTRY_VERIFY(view->chartView()->isVisible());
    for (const QString &y : {QStringLiteral("final_residual"), QStringLiteral("iterations"),
                             QStringLiteral("vortex_centre.psi")}) {
        QVERIFY(view->setPlot(QStringLiteral("reynolds"), y));
        // The chart lays out over the next turns of the event loop; then every text is whole
        // and both quantities are named (on their axes, or above the plot).
        QTRY_VERIFY(drawnTexts(view->chartView()).join(QLatin1Char('\n')).contains(y));
        QVERIFY(Test::waitForLayout(&w));
        const QStringList texts = drawnTexts(view->chartView());
        for (const QString &text : texts)
            QVERIFY2(!isCut(text), qPrintable(QStringLiteral("%1, %2: \"%3\" cut in a %4x%5 plot; drawn: %6")
                                                  .arg(what, y, text)
                                                  .arg(view->chartView()->width())
                                                  .arg(view->chartView()->height())
                                                  .arg(texts.join(QStringLiteral(", ")))));
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(y) && all.contains(QStringLiteral("reynolds")), qPrintable(texts.join(QStringLiteral(", "))));
    }
}

void tst_Plots::verifyTwoCasesToldApart(const QString &what)
{
    MainWindow &w = *m_app->window();
    w.monitor()->selectTasks(m_tasks);
    ResidualChart *chart = w.chart();
    QTRY_VERIFY_WITH_TIMEOUT(chart->series().size() >= 8, 30000); // residual, u, v, omega each
    QVERIFY(Test::waitForLayout(&w));
    // Each line is named by its case, as the table names it, and its field.
    QSet<QString> names;
    for (QAbstractSeries *s : chart->chart()->series()) {
        const QString name = s->name();
        QVERIFY2(name.contains(w.taskModel()->caseLabel(m_tasks.at(0)))
                     != name.contains(w.taskModel()->caseLabel(m_tasks.at(1))),
                 qPrintable(QStringLiteral("%1: %2").arg(what, name)));
        names.insert(name);
    }
    QCOMPARE(names.size(), chart->chart()->series().size());
    // The legend lists the cases, each by what tells it apart from the other, whole.
    QStringList entries;
    for (QLegendMarker *marker : chart->chart()->legend()->markers()) {
        if (marker->isVisible())
            entries << marker->label();
    }
    QCOMPARE(entries.size(), 2);
    QVERIFY2(entries.at(0) != entries.at(1), qPrintable(entries.join(QStringLiteral(", "))));
    // Each entry ends the table's label of exactly one of the two cases, a different one each.
    QSet<qint64> named;
    for (const QString &entry : std::as_const(entries)) {
        QList<qint64> ends;
        for (qint64 id : std::as_const(m_tasks))
            if (w.taskModel()->caseLabel(id).endsWith(entry))
                ends << id;
        QVERIFY2(ends.size() == 1, qPrintable(QStringLiteral("%1: %2 names %3 of the cases")
                                                  .arg(what, entry)
                                                  .arg(ends.size())));
        named.insert(ends.first());
    }
    QCOMPARE(named.size(), 2);
    const QStringList texts = drawnTexts(chart->chartView());
    for (const QString &entry : std::as_const(entries))
        QVERIFY2(texts.contains(entry), qPrintable(QStringLiteral("%1: %2 not drawn whole; drawn: %3")
                                                       .arg(what, entry, texts.join(QStringLiteral(", ")))));
    for (const QString &text : texts)
        QVERIFY2(!isCut(text), qPrintable(QStringLiteral("%1: \"%2\" cut; drawn: %3").arg(what, text, texts.join(QStringLiteral(", ")))));
}

void tst_Plots::englishSweepPlotReadsWhole()
{
    verifySweepPlotWhole(QStringLiteral("English"));
}

void tst_Plots::englishTwoCasesAreToldApart()
{
    verifyTwoCasesToldApart(QStringLiteral("English"));
}

void tst_Plots::resultPlotsOpenOnTheProfile()
{
    MainWindow &w = *m_app->window();
    w.monitor()->selectTask(m_tasks.first());
    ResultView *result = w.resultView();
    QTRY_VERIFY_WITH_TIMEOUT(result->curveNames().contains(QStringLiteral("u_centreline")), 30000);
    QVERIFY(result->curveNames().contains(QStringLiteral("residual_history.iteration")));
    // The profile with the published points over it, not the iteration counter over its index.
    QTRY_VERIFY(result->shownCurvePoints() > 0);
    QCOMPARE(curveView(result)->chart()->series().value(0)->name(), QStringLiteral("u"));
    QVERIFY(result->shownReferencePoints() > 0);
}

void tst_Plots::verifyFollowsPalette(QChart *chart, const QString &what)
{
    const QPalette palette = QApplication::palette();
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const QColor background = chart->backgroundBrush().color();
    QVERIFY2((background.lightness() < 128) == dark,
             qPrintable(QStringLiteral("%1: background %2 in the %3 theme")
                            .arg(what, background.name(), dark ? QStringLiteral("dark") : QStringLiteral("light"))));
    QVERIFY(!chart->axes().isEmpty());
    for (QAbstractAxis *axis : chart->axes()) {
        for (const auto &[part, colour] : {std::pair{QStringLiteral("labels"), axis->labelsBrush().color()},
                                           std::pair{QStringLiteral("title"), axis->titleBrush().color()}}) {
            QVERIFY2(contrast(colour, background) >= 4.5,
                     qPrintable(QStringLiteral("%1: %2 axis %3 %4 on %5 (%6:1)")
                                    .arg(what, axis->titleText(), part, colour.name(), background.name())
                                    .arg(contrast(colour, background), 0, 'f', 1)));
        }
    }
}

void tst_Plots::chartsFollowTheDarkAndLightPalette()
{
    MainWindow &w = *m_app->window();
    SweepResultsView *sweep = w.sweepResults();
    for (const auto theme : {MainWindow::Theme::Dark, MainWindow::Theme::Light, MainWindow::Theme::Dark}) {
        w.applyTheme(theme);
        // The palette reaches the widgets as events.
        const bool dark = theme == MainWindow::Theme::Dark;
        QTRY_VERIFY((w.chart()->chart()->backgroundBrush().color().lightness() < 128) == dark);
        const QString name = theme == MainWindow::Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
        // The residuals of one case, its result's profile, and the sweep plot on a log axis and
        // on a linear one (the axes are swapped in and out).
        w.monitor()->selectTask(m_tasks.first());
        QTRY_VERIFY_WITH_TIMEOUT(w.chart()->series().size() >= 2, 30000);
        verifyFollowsPalette(w.chart()->chart(), name + QStringLiteral(" residual chart"));
        QTRY_VERIFY_WITH_TIMEOUT(w.resultView()->shownCurvePoints() > 0, 30000);
        verifyFollowsPalette(curveView(w.resultView())->chart(), name + QStringLiteral(" result plot"));
        w.resultView()->showCurve(int(w.resultView()->curveNames().indexOf(QStringLiteral("v_centreline"))));
        verifyFollowsPalette(curveView(w.resultView())->chart(), name + QStringLiteral(" result plot, v"));
        QTRY_COMPARE_WITH_TIMEOUT(sweep->model()->withResultsCount(), 2, 30000);
        for (const QString &y : {QStringLiteral("final_residual"), QStringLiteral("iterations"),
                                 QStringLiteral("final_residual")}) {
            QVERIFY(sweep->setPlot(QStringLiteral("reynolds"), y));
            verifyFollowsPalette(sweep->chartView()->chart(), QStringLiteral("%1 sweep plot of %2%3")
                                                                 .arg(name, y, sweep->isLogY() ? QStringLiteral(" (log)") : QString()));
        }
    }
    w.applyTheme(MainWindow::Theme::Light);
}

void tst_Plots::resultPlotsReadWholeAt1600x1000()
{
    MainWindow &w = *m_app->window();
    w.resize(1600, 1000);
    QTRY_COMPARE(w.size(), QSize(1600, 1000));
    w.monitor()->selectTask(m_tasks.first());
    ResultView *result = w.resultView();
    QTRY_VERIFY_WITH_TIMEOUT(result->shownCurvePoints() > 0, 30000);
    auto *tabs = result->findChild<QTabWidget *>();
    QVERIFY(tabs);
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center()); // Plots
    QTRY_VERIFY(curveView(result)->isVisible());
    for (const QString &curve : {QStringLiteral("u_centreline"), QStringLiteral("v_centreline")}) {
        result->showCurve(int(result->curveNames().indexOf(curve)));
        QVERIFY(Test::waitForLayout(&w)); // the chart lays out over the next turns
        const QStringList texts = drawnTexts(curveView(result));
        QVERIFY2(texts.size() >= 6, qPrintable(texts.join(QStringLiteral(", "))));
        for (const QString &text : texts)
            QVERIFY2(!isCut(text), qPrintable(QStringLiteral("%1: \"%2\" cut in a %3x%4 plot; drawn: %5")
                                                  .arg(curve, text)
                                                  .arg(curveView(result)->width())
                                                  .arg(curveView(result)->height())
                                                  .arg(texts.join(QStringLiteral(", ")))));
    }
    w.resize(1280, 800);
}

// At 1280x800 the Plots tab holds a strip of a chart; Enlarge Plot shows it whole in a window of
// its own, and closing that window puts the chart back in the tab.
void tst_Plots::resultPlotEnlargedAt1280x800()
{
    MainWindow &w = *m_app->window();
    QTRY_COMPARE(w.size(), QSize(1280, 800));
    w.monitor()->selectTask(m_tasks.first());
    ResultView *result = w.resultView();
    QTRY_VERIFY_WITH_TIMEOUT(result->shownCurvePoints() > 0, 30000);
    auto *tabs = result->findChild<QTabWidget *>();
    QVERIFY(tabs);
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center()); // Plots
    QTRY_VERIFY(curveView(result)->isVisible());
    QWidget *tab = curveView(result)->parentWidget();
    auto *enlarge = result->findChild<QToolButton *>(QStringLiteral("enlargeCurve"));
    QVERIFY2(enlarge && enlarge->isVisible(), "no Enlarge Plot beside the curve list");
    QTest::mouseClick(enlarge, Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = result->findChild<QDialog *>(QStringLiteral("enlargedCurve")))
                && dialog->isVisible());
    QTRY_COMPARE(curveView(result)->window(), static_cast<QWidget *>(dialog));
    QTRY_VERIFY(curveView(result)->height() >= 300);
    QTRY_VERIFY(drawnTexts(curveView(result)).size() >= 6);
    const QStringList texts = drawnTexts(curveView(result));
    for (const QString &text : texts)
        QVERIFY2(!isCut(text), qPrintable(QStringLiteral("\"%1\" cut in the enlarged %2x%3 plot; drawn: %4")
                                              .arg(text)
                                              .arg(curveView(result)->width())
                                              .arg(curveView(result)->height())
                                              .arg(texts.join(QStringLiteral(", ")))));
    dialog->close();
    QTRY_COMPARE(curveView(result)->parentWidget(), tab);
    QTRY_VERIFY(curveView(result)->isVisible());
}

void tst_Plots::germanSweepPlotReadsWhole()
{
    QVERIFY(openWindow(QStringLiteral("de")));
    QCOMPARE(m_app->window()->taskModel()->headerData(TaskTableModel::CaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Fall")); // the German translation is in
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->taskModel()->task(m_tasks.last()), 30000);
    verifySweepPlotWhole(QStringLiteral("German"));
}

void tst_Plots::germanTwoCasesAreToldApart()
{
    verifyTwoCasesToldApart(QStringLiteral("German"));
}

void tst_Plots::germanCaseLabelsReadWhole()
{
    // As the review had it: three varied parameters over the sweeps shown (issue 24, item 11).
    MainWindow &w = *m_app->window();
    m_app->bridge()->submitSweep(m_serverId, R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "reynolds": 100, "max_iterations": 50},
        "vary": {"grading": {"list": [1, 1.25]}, "force_mesh_defect": {"list": [false]}}, "concurrency": 2})",
                                 w.currentSession());
    QTRY_COMPARE_WITH_TIMEOUT(w.taskModel()->statusCounts().value(TaskStatus::Completed), 4, 120000);
    QVERIFY(Test::waitForLayout(&w)); // the column fit runs after the rows settle
    const QTableView *view = w.monitor()->view();
    const TaskTableModel *m = w.taskModel();
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    const int textWidth = view->columnWidth(TaskTableModel::CaseColumn) - 2 * margin;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString label = m->index(r, TaskTableModel::CaseColumn).data().toString();
        QVERIFY2(view->fontMetrics().horizontalAdvance(label) <= textWidth,
                 qPrintable(QStringLiteral("%1 (%2 px) in a column of %3 px: %4")
                                .arg(label)
                                .arg(view->fontMetrics().horizontalAdvance(label))
                                .arg(textWidth)
                                .arg(view->fontMetrics().elidedText(label, Qt::ElideLeft, textWidth))));
    }
}

void tst_Plots::cleanupTestCase()
{
    m_app.reset();
}

// An offscreen screen of the larger size the review used; the window is 1280x800 on it.
EDDY_TEST_MAIN_ON_SCREEN(tst_Plots, 1600, 1000)

#include "tst_plots.moc"
