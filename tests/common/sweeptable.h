#pragma once

#include "models/sweepresultsmodel.h"
#include "widgets/sweepresultsview.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QTableView>
#include <QTest>
#include <QTimer>

// The sweep view's table as an engineer uses it in the scenario tests: the row of a task, rows
// clicked into a selection, an action picked from a row's context menu.
namespace Eddy::Test {

// The table's (sorted, filtered) row of this task, or -1.
inline int sweepTableRow(const SweepResultsView *view, qint64 taskId)
{
    const QAbstractItemModel *proxy = view->table()->model();
    for (int r = 0; r < proxy->rowCount(); ++r)
        if (proxy->index(r, 0).data(SweepResultsModel::TaskIdRole).toLongLong() == taskId)
            return r;
    return -1;
}

// Clicks the rows of these tasks in the sweep table (Ctrl-click after the first).
inline void selectSweepRows(SweepResultsView *view, const QList<qint64> &tasks)
{
    QTableView *table = view->table();
    for (int i = 0; i < tasks.size(); ++i) {
        const int row = sweepTableRow(view, tasks.at(i));
        QVERIFY2(row >= 0, qPrintable(QStringLiteral("task %1 is not in the sweep table").arg(tasks.at(i))));
        const QRect cell = table->visualRect(table->model()->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, i == 0 ? Qt::NoModifier : Qt::ControlModifier,
                          cell.center());
    }
    QCOMPARE(view->selectedTasks().size(), tasks.size());
}

// Opens the sweep table's context menu on this task's row and triggers the action named so
// (fails when the menu has no such action, or it is disabled).
inline void pickFromSweepMenu(SweepResultsView *view, qint64 taskId, const QString &action)
{
    QTableView *table = view->table();
    const int row = sweepTableRow(view, taskId);
    QVERIFY2(row >= 0, qPrintable(QStringLiteral("task %1 is not in the sweep table").arg(taskId)));
    bool found = false;
    bool picked = false;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, &poll, [&] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        poll.stop();
        for (QAction *a : menu->actions()) {
            if (a->objectName() == action) {
                found = true;
                picked = a->isEnabled();
                menu->close();
                if (picked)
                    a->trigger();
                return;
            }
        }
        menu->close();
    });
    poll.start();
    Q_EMIT table->customContextMenuRequested(table->visualRect(table->model()->index(row, 0)).center());
    QVERIFY2(found, qPrintable(QStringLiteral("the sweep table's context menu has no %1").arg(action)));
    QVERIFY2(picked, qPrintable(QStringLiteral("%1 is disabled").arg(action)));
}

} // namespace Eddy::Test
