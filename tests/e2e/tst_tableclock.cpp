// The task table's once-a-second clock through the real window (offscreen), the real engine and
// eddy-cfd-server on loopback and a real SQLite file, with the status filter on "Running":
// - the Age of a running task still advances on screen, second by second;
// - the clock re-judges no row (TaskFilterProxyModel::filterChecks);
// - a running task that ends still leaves the filtered view at once.
// The running tasks wait on their mesh question (force_mesh_defect), so nothing but the clock
// changes their rows: what the screen shows of their age moves with the clock alone.
#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "tests/common/e2ewindow.h"
#include "tests/common/testserver.h"
#include "widgets/elicitationdialog.h" // mainwindow.h holds a QPointer to it
#include "widgets/mainwindow.h"
#include "widgets/taskmonitor.h"

#include <QComboBox>
#include <QHash>
#include <QPaintEvent>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

using namespace Eddy;
using Store::TaskStatus;
using json = nlohmann::json;

namespace {

// What the view paints of one column: in each paint event of its viewport, the text of the
// column's cells the event covers, read as the delegate then reads it to paint the cell.
class CellPaints final : public QObject
{
public:
    CellPaints(QTableView *view, int column)
        : m_view(view)
        , m_column(column)
    {
        view->viewport()->installEventFilter(this);
    }
    // The texts painted in the task's cell, each change once, in order.
    QStringList painted(qint64 taskId) const { return m_texts.value(taskId); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != m_view->viewport() || event->type() != QEvent::Paint)
            return false;
        const QRegion region = static_cast<QPaintEvent *>(event)->region();
        const QAbstractItemModel *model = m_view->model();
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex idx = model->index(r, m_column);
            if (!region.intersects(m_view->visualRect(idx)))
                continue;
            QStringList &texts = m_texts[idx.data(TaskTableModel::TaskIdRole).toLongLong()];
            const QString text = idx.data().toString();
            if (texts.isEmpty() || texts.last() != text)
                texts << text;
        }
        return false;
    }

private:
    QTableView *m_view;
    int m_column;
    QHash<qint64, QStringList> m_texts;
};

QList<qint64> shownIds(const QAbstractItemModel *model)
{
    QList<qint64> ids;
    for (int r = 0; r < model->rowCount(); ++r)
        ids << model->index(r, 0).data(TaskTableModel::TaskIdRole).toLongLong();
    return ids;
}

} // namespace

class tst_TableClock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void clockUnderStatusFilter();
    void cleanupTestCase();

private:
    qint64 serverId() const;
    void call(const json &arguments);

    Test::TestServer m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<Test::E2eWindow> m_app;
};

void tst_TableClock::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("EddyTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_tableclock"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("input/openDialogs"), false); // the questions stay asked
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start({QStringLiteral("--poll-interval-ms"),
                             QStringLiteral("200"),
                             QStringLiteral("--workers"),
                             QStringLiteral("4")}),
             qPrintable(m_server.errorString()));
    m_app = Test::E2eWindow::open(m_dir.filePath(QStringLiteral("eddy.sqlite")));
    QVERIFY(m_app);
    QVERIFY(QTest::qWaitForWindowExposed(m_app->window()));
    QTRY_VERIFY_WITH_TIMEOUT(m_app->window()->currentSession().has_value(), 30000);
    QVERIFY(m_app->addServer(m_server.url(), QStringLiteral("Test CFD")));
}

void tst_TableClock::cleanupTestCase()
{
    m_app.reset();
}

qint64 tst_TableClock::serverId() const
{
    return m_app->window()
        ->serverModel()
        ->index(0)
        .data(ServerListModel::ServerIdRole)
        .toLongLong();
}

void tst_TableClock::call(const json &arguments)
{
    m_app->bridge()->callOnce(serverId(),
                              QStringLiteral("run_cfd_case"),
                              QByteArray::fromStdString(arguments.dump()),
                              m_app->window()->currentSession());
}

void tst_TableClock::clockUnderStatusFilter()
{
    MainWindow &w = *m_app->window();
    TaskTableModel *tasks = w.taskModel();
    // Three cases that ask about their mesh and wait, and one that converges and ends.
    for (int reynolds : {100, 200, 300})
        call({{"reynolds", reynolds},
              {"grid", 16},
              {"max_iterations", 200},
              {"force_mesh_defect", true}});
    call({{"reynolds", 400}, {"grid", 16}, {"tolerance", 1e-4}});
    QTRY_COMPARE_WITH_TIMEOUT(tasks->rowCount(), 4, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->statusCounts().value(TaskStatus::InputRequired), 3, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(tasks->statusCounts().value(TaskStatus::Completed), 1, 60000);

    // The user picks "Running" and shows the Age column (from the header's menu).
    TaskMonitor *monitor = w.monitor();
    auto *filter = monitor->findChild<QComboBox *>(QStringLiteral("statusFilter"));
    QVERIFY(filter);
    filter->setCurrentIndex(filter->findData(int(TaskMonitor::StatusFilter::Live)));
    const TaskFilterProxyModel *proxy = monitor->proxy();
    QTRY_COMPARE(proxy->rowCount(), 3);
    QTableView *view = monitor->view();
    view->setColumnHidden(TaskTableModel::AgeColumn, false);
    view->scrollTo(proxy->index(0, TaskTableModel::AgeColumn));
    const qint64 watched = proxy->index(0, 0).data(TaskTableModel::TaskIdRole).toLongLong();
    QVERIFY(view->viewport()->rect().intersects(
        view->visualRect(proxy->index(0, TaskTableModel::AgeColumn))));

    // Each clock tick reaches the view as a dataChanged naming the Age column in AgeMsRole;
    // at each, how many rows the filter has judged so far.
    CellPaints paints(view, TaskTableModel::AgeColumn);
    QList<qint64> checksAtTick;
    qsizetype paintedBeforeTicks = -1; // what the cell showed before the first tick's repaint
    connect(
        proxy,
        &QAbstractItemModel::dataChanged,
        &paints,
        [&](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
            if (!roles.contains(TaskTableModel::AgeMsRole)
                || topLeft.column() > TaskTableModel::AgeColumn
                || bottomRight.column() < TaskTableModel::AgeColumn)
                return;
            if (checksAtTick.isEmpty())
                paintedBeforeTicks = paints.painted(watched).size();
            checksAtTick << proxy->filterChecks();
        });
    const int ticks = 7;
    QTRY_VERIFY2_WITH_TIMEOUT(
        checksAtTick.size() >= ticks,
        qPrintable(
            QStringLiteral("%1 clock repaints reached the view in 20 s").arg(checksAtTick.size())),
        20000);
    QList<qint64> judged; // rows judged from one tick to the next
    for (qsizetype i = 1; i < checksAtTick.size(); ++i)
        judged << checksAtTick[i] - checksAtTick[i - 1];
    QString judgedText;
    for (qint64 n : std::as_const(judged))
        judgedText += QString::number(n) + QLatin1Char(' ');
    const QStringList ages = paints.painted(watched);
    qInfo("rows judged between clock ticks: %s; ages painted: %s",
          qPrintable(judgedText),
          qPrintable(ages.join(QStringLiteral(" | "))));
    // A clock that re-judged the rows would judge all four (the hidden one too) every second;
    // these rows are idle, so a second passes without any row judged.
    QVERIFY2(std::count(judged.cbegin(), judged.cend(), qint64(0)) > 0,
             qPrintable(QStringLiteral("rows judged between clock ticks: %1").arg(judgedText)));
    // The age painted in the running task's cell moved with the ticks: at least three new texts
    // in six seconds (a timer may fire a little early, and two ticks then fall in one second).
    QVERIFY2(ages.size() - paintedBeforeTicks >= 3,
             qPrintable(QStringLiteral("ages painted, %1 of them before the first tick: %2")
                            .arg(paintedBeforeTicks)
                            .arg(ages.join(QStringLiteral(" | ")))));

    // A running task that ends leaves the "Running" view at once.
    m_app->bridge()->cancelTasks({watched});
    QTRY_COMPARE_WITH_TIMEOUT(int(tasks->task(watched)->status), int(TaskStatus::Cancelled), 30000);
    QCOMPARE(proxy->rowCount(), 2);
    QVERIFY(!shownIds(proxy).contains(watched));
}

QTEST_MAIN(tst_TableClock)
#include "tst_tableclock.moc"
