// Hundreds of questions arriving in the window at once (found by bench/soak: with 10,000 asking
// cases submitted by eddyctl beside the window, its main thread did nothing but measure the
// inbox's columns for minutes: one measure per new row, each over a thousand rows). The real
// window (offscreen) on a real SQLite file, the real eddyctl submitting into it, eddy-cfd-server on
// loopback: the inbox lists every question, and the work of fitting its columns is counted as
// the number of rows the case column's delegate measures, which must not grow with the square
// of the questions.
#include "ctlsupport.h"
#include "models/inboxmodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h"
#include "widgets/mainwindow.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <atomic>

using namespace Eddy;
using nlohmann::json;

namespace {

constexpr int s_questions = 400;

// The case column's delegate, counting the rows it is asked to measure.
class CountingDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        ++measured;
        return QStyledItemDelegate::sizeHint(option, index);
    }
    mutable std::atomic<qint64> measured{0};
};

} // namespace

class tst_InboxBurst : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void manyQuestionsAtOnceAreMeasuredOncePerBurst();
    void theClockDoesNotMeasureTheInbox();

private:
    // Opens the real window on `db` with the inbox's case column counting what it measures.
    std::unique_ptr<Test::E2eWindow> openCounting(const QString &db, CountingDelegate **counting);
    // eddyctl submits `count` cases into `db` (Reynolds numbers from `firstReynolds`), each of
    // which stops at the mesh question.
    void submitAskingSweep(const QString &db, const QString &name, int firstReynolds, int count, int concurrency);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
};

void tst_InboxBurst::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_inboxburst"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("1000"),
                             QStringLiteral("--workers"), QStringLiteral("2")}),
             qPrintable(m_server.errorString()));
}

std::unique_ptr<Test::E2eWindow> tst_InboxBurst::openCounting(const QString &db, CountingDelegate **counting)
{
    Test::E2eWindowOptions options;
    options.waitForSession = true;
    auto app = Test::E2eWindow::open(db, options);
    if (app) {
        QTableView *inbox = app->window()->inboxView();
        *counting = new CountingDelegate(inbox);
        inbox->setItemDelegateForColumn(InboxModel::CaseColumn, *counting);
    }
    return app;
}

void tst_InboxBurst::submitAskingSweep(const QString &db, const QString &name, int firstReynolds, int count, int concurrency)
{
    json reynolds = json::array();
    for (int i = 0; i < count; ++i)
        reynolds.push_back(firstReynolds + i);
    const json spec{{"tool", "run_cfd_case"},
                    {"fixed", {{"grid", 8}, {"max_iterations", 100}, {"force_mesh_defect", true}}},
                    {"vary", {{"reynolds", {{"list", reynolds}}}}},
                    {"concurrency", concurrency}};
    const QString specPath = m_dir.filePath(name + QStringLiteral("-spec.json"));
    QVERIFY(Test::writeFile(specPath, QByteArray::fromStdString(spec.dump())));
    const Test::CtlRun submit = Test::runCtl({QStringLiteral("--db"), db, QStringLiteral("sweep"),
                                              QStringLiteral("submit"), m_server.url(), specPath});
    QVERIFY2(submit.code == 0, submit.err.constData());
}

void tst_InboxBurst::manyQuestionsAtOnceAreMeasuredOncePerBurst()
{
    const QString db = m_dir.filePath(QStringLiteral("burst.sqlite"));
    CountingDelegate *counting = nullptr;
    const auto app = openCounting(db, &counting);
    QVERIFY(app);
    MainWindow &w = *app->window();
    submitAskingSweep(db, QStringLiteral("burst"), 100, s_questions, 32);
    if (QTest::currentTestFailed())
        return;

    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->rowCount(), s_questions, 120000);
    // Let the last fit run (it is queued behind the insertion), then count.
    QTRY_VERIFY_WITH_TIMEOUT(counting->measured > 0, 10000);
    QCoreApplication::processEvents();
    const qint64 measured = counting->measured;
    // One measure per row over every row listed so far would be about s_questions² / 2 rows;
    // a measure per burst of questions over at most s_inboxFitRows rows stays far below this.
    const qint64 bound = qint64(s_questions) * 25;
    qInfo("%d questions: the case column measured %lld rows (at most %lld)", s_questions, qint64(measured), bound);
    QVERIFY2(measured <= bound,
             qPrintable(QStringLiteral("the inbox's case column measured %1 rows while %2 questions "
                                       "arrived (at most %3)")
                            .arg(measured)
                            .arg(s_questions)
                            .arg(bound)));
}

// The window's clock repaints the inbox's waiting times every second. Found by bench/soak: each
// repaint also measured the inbox's columns (up to s_inboxFitRows rows, an answered row's summary
// parsed from JSON each time), 4-5 ms of the main thread every second over a full inbox, and the
// window's stall p99 rose with the answered questions. With the questions unchanged, a few
// seconds of the clock measure the columns at most once (the minute's refit for the waiting
// times may fall in them).
void tst_InboxBurst::theClockDoesNotMeasureTheInbox()
{
    constexpr int questions = 12;
    const QString db = m_dir.filePath(QStringLiteral("clock.sqlite"));
    CountingDelegate *counting = nullptr;
    const auto app = openCounting(db, &counting);
    QVERIFY(app);
    MainWindow &w = *app->window();
    submitAskingSweep(db, QStringLiteral("clock"), 2000, questions, questions);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(w.inboxModel()->rowCount(), questions, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(counting->measured > 0, 10000); // the fit for the arrivals

    // Every question waits for its answer now: the inbox changes only by the clock's repaints.
    QSignalSpy repaints(w.inboxModel(), &QAbstractItemModel::dataChanged);
    QCoreApplication::processEvents();
    repaints.clear();
    const qint64 before = counting->measured;
    QTRY_VERIFY_WITH_TIMEOUT(repaints.count() >= 4, 10000);
    QCoreApplication::processEvents();
    const qint64 measured = counting->measured - before;
    qInfo("%lld clock repaints of %d questions: the case column measured %lld rows", qint64(repaints.count()),
          questions, measured);
    QCOMPARE(w.inboxModel()->rowCount(), questions);
    QVERIFY2(measured <= questions,
             qPrintable(QStringLiteral("%1 repaints of the clock measured %2 rows of the inbox's %3: its columns were "
                                       "measured for the clock")
                            .arg(repaints.count())
                            .arg(measured)
                            .arg(questions)));
}

QTEST_MAIN(tst_InboxBurst)
#include "tst_inboxburst.moc"
