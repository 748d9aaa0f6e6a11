#pragma once

#include "app/vocab/outcome.h"
#include "app/vocab/records.h"

#include <QFont>
#include <QHash>
#include <QSet>
#include <QWidget>

#include <optional>

class QComboBox;
class QHeaderView;
class QLineEdit;
class QTableView;
class QToolButton;
class QLabel;

namespace Eddy {

class ReviewFilterButton;
class TaskTableModel;
class TaskFilterProxyModel;

// The central task monitor: a sortable, filterable table of every task of the session with a
// status filter, a search field and multi-select cancel ("cancel requested" until the server
// agrees). Reads a TaskTableModel it does not own. GUI thread.
class TaskMonitor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskMonitor)

public:
    enum class StatusFilter { All, Live, NeedsInput, Completed, Failed, Cancelled };
    Q_ENUM(StatusFilter)
    static constexpr int MinCaseEms = 11;   // the Case column never gets narrower by itself
    static constexpr int VariedCapEms = 6;  // a varied name may be cut down to this when tight
    // What a column's header text needs, without the room a sort arrow takes (only the sorted
    // column shows one).
    static int headerTextWidth(const QHeaderView *header, int column);

    explicit TaskMonitor(TaskTableModel *model, QWidget *parent = nullptr);
    ~TaskMonitor() override;

    QTableView *view() const { return m_view; }
    TaskFilterProxyModel *proxy() const { return m_proxy; }
    QLineEdit *searchField() const { return m_search; }
    ReviewFilterButton *filterButton() const { return m_filterButton; }

    void setStatusFilter(StatusFilter filter);
    StatusFilter statusFilter() const;
    void setSearchText(const QString &text);

    QList<qint64> selectedTaskIds() const;
    // Failed, cancelled, expired, lost or ended with a tool error (aborted): Re-run applies.
    static bool isRerunnable(const Store::TaskRecord &task);
    // Re-run Failed and Unconverged applies: rerunnable, or completed without converging.
    bool isFailedOrUnconverged(qint64 taskId) const;
    // Sweeps whose submission is paused (their rows' menu offers Resume instead of Pause).
    void setSweepPaused(qint64 sweepId, bool paused);
    bool isSweepPaused(qint64 sweepId) const { return m_pausedSweeps.contains(sweepId); }
    // How many shown rows have each outcome (all rows when nothing is filtered).
    QHash<Monitor::Outcome, int> shownOutcomeCounts() const;
    void selectTask(qint64 taskId);
    // Selects the listed ones of these tasks (a reload keeps the selection), the first current.
    void selectTasks(const QList<qint64> &taskIds);
    // Selects and shows the first row of this sweep as soon as one is listed (a new sweep).
    void selectSweepWhenListed(qint64 sweepId);
    // The columns shown on a first start; the rest are in the header's context menu.
    static bool shownByDefault(int column);
    // The hint shown over an empty table.
    QLabel *emptyHint() const { return m_emptyHint; }
    // Cancels the selected live tasks (after asking when more than one is selected).
    void cancelSelected();

    QByteArray saveState() const;
    void restoreState(const QByteArray &state);

Q_SIGNALS:
    void selectionChanged(const QList<qint64> &taskIds);
    void cancelRequested(const QList<qint64> &taskIds);
    void rerunRequested(const QList<qint64> &taskIds);
    void relaunchRequested(qint64 taskId);
    void rerunFailedRequested(const QList<qint64> &taskIds);
    void noteRequested(const QList<qint64> &taskIds);
    void tagsRequested(const QList<qint64> &taskIds);
    void pauseRequested(qint64 sweepId, bool paused);
    void shownRowsChanged(); // the rows shown changed (filtered, added, removed)
    void activated(qint64 taskId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateActions();
    void showContextMenu(const QPoint &pos);
    void showHeaderMenu(const QPoint &pos);
    void applyDefaultColumns();
    void syncVariedColumns(); // a varied slot is shown while it names a parameter
    // The Pattern column shows once the table lists a row that is not a task (a streamed call
    // or a job); hidden again by the user, it stays hidden.
    void syncPatternColumn();
    // The sizing rule of the Case and varied columns (soon after rows, names or the width
    // change): the case label in full when the key columns (Status, Progress, Residual, ETA)
    // still fit beside it, else narrower down to MinCaseEms, elided on the left so the case
    // number stays; a varied column whose name is much wider than its values gives up to
    // VariedCapEms first (its name in the header's tooltip). A column the user resized is left
    // as it is until Default Columns.
    void scheduleFit();
    void fitColumns();
    int caseLabelWidth() const; // the widest case label of the rows in view
    // A text's width in the view's font, measured once (a fit after every sort or filter
    // measured the same case labels and values again, shaping each).
    int textWidth(const QString &text) const;
    void checkPendingSweep();
    void updateEmptyHint();

    TaskTableModel *m_model;
    TaskFilterProxyModel *m_proxy;
    QTableView *m_view;
    QComboBox *m_filter;
    QLineEdit *m_search;
    QToolButton *m_cancel;
    QToolButton *m_rerun;
    ReviewFilterButton *m_filterButton;
    QSet<qint64> m_pausedSweeps;
    bool m_notesShown = false;
    QLabel *m_shown;
    QLabel *m_emptyHint;
    std::optional<qint64> m_pendingSweep;
    QHash<int, int> m_defaultWidth; // by column, from applyDefaultColumns()
    QSet<int> m_userSized;          // columns the user resized since Default Columns
    bool m_fitting = false;         // our own resizes are not the user's
    bool m_fitQueued = false;
    mutable QHash<QString, int> m_textWidths; // in m_textWidthFont
    QFont m_textWidthFont;
    bool m_confirmCancel = true;
    bool m_patternShown = false;

public:
    // Tests and scripts cancel without the confirmation prompt.
    void setConfirmCancel(bool on) { m_confirmCancel = on; }
};

} // namespace Eddy
