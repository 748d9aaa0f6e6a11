#pragma once

#include "app/vocab/outcome.h"
#include "app/monitor/progressanalyzer.h"
#include "app/vocab/records.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace Eddy {

// Every task of the shown session (or of all sessions) as one table row: a thin adapter over the
// store's TaskRecord plus the latest progress parsed from its samples. Fed by the engine's
// change sets on the GUI thread; a progress tick costs one dataChanged for one row, never a reset.
class TaskTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskTableModel)

public:
    // Up to this many varied parameters of the shown sweeps get a column each.
    static constexpr int MaxVariedColumns = 4;
    enum Column {
        CaseColumn,
        VariedColumn, // the first varied parameter; empty slots have no header and stay hidden
        VariedLastColumn = VariedColumn + MaxVariedColumns - 1,
        ParametersColumn,
        StatusColumn,
        MessageColumn,
        ProgressColumn,
        ResidualColumn,
        EtaColumn,
        AgeColumn,
        ServerColumn,
        ExpiresColumn,
        // How the server runs the call: an MCP task, a streamed tools/call or a job followed
        // through the server's job adapter. Last, so layouts saved before it keep their order;
        // hidden until a row is not a task (TaskMonitor shows it then).
        PatternColumn,
        // The engineer's tags and note on the task's case (setCaseReviews()).
        NotesColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        TaskIdRole = Qt::UserRole + 1,
        StatusRole,          // int(Store::TaskStatus)
        ProgressRole,        // 0..1, or -1 when unknown
        ResidualRole,        // double, or invalid
        EtaMsRole,           // qint64, or invalid
        AgeMsRole,           // qint64
        ExpiresInMsRole,     // qint64, or invalid
        CancelRequestedRole, // bool
        IsLiveRole,          // bool
        IsToolErrorRole,     // bool
        OutcomeRole,         // int(Monitor::Outcome)
        SweepIdRole,         // qint64, or invalid
        ServerIdRole,        // qint64
        SortRole,            // a value that sorts naturally for the column
        SearchTextRole,      // everything a search should match, lower case
        PatternRole,         // QString: "task", "streamed" or "job" (patternName)
        NoteRole,            // QString: the note on the task's case
        TagsRole,            // QStringList: the tags on the task's case
        CaseIdRole           // qint64, or invalid for a task without a case
    };
    Q_ENUM(Role)

    // The latest numbers parsed from a task's status messages.
    struct Progress
    {
        std::optional<double> iteration;
        std::optional<double> maxIterations;
        std::optional<double> percent;
        std::optional<double> residual;
        std::optional<double> queuePosition;
        // The monitor's one progress/ETA rule, fed the same samples.
        Monitor::ProgressRate rate;
        std::optional<double> fraction() const { return rate.fraction(); }
        std::optional<qint64> etaMs() const { return rate.etaMs(); }
    };

    explicit TaskTableModel(QObject *parent = nullptr);
    ~TaskTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Replaces every row (a session switch or the first load). A long list is listed in pages,
    // newest first: the first page at once, each further page in its own event-loop turn, so
    // no single main-thread block grows with the number of stored tasks. allTasksListed()
    // follows the last page (at once for a short list).
    void setTasks(const QList<Store::TaskRecord> &tasks);
    // Rows per page (default 1,000); a list of at most two pages is listed at once.
    void setPageSize(int rows) { m_pageSize = std::max(1, rows); }
    bool isListing() const { return m_listingChunks || m_pendingNext < m_pendingOrder.size(); }
    // The same for a list that arrives in chunks (the engine's snapshot): beginListing() empties
    // the table, addListed() appends a chunk (a task already listed keeps its row), endListing()
    // ends it with allTasksListed(). Each call's work grows with its chunk, not the whole list.
    void beginListing();
    void addListed(const QList<Store::TaskRecord> &tasks);
    void endListing();
    // Updates known rows in place and appends new tasks that belong to the shown session.
    void applyTasks(const QList<Store::TaskRecord> &tasks);
    // Folds new progress samples into the progress, residual and ETA columns.
    void applySamples(const QList<Store::ProgressSample> &samples);
    // Stored residual samples asked for with storedResidualsNeeded(): each fills the Residual
    // column of a row that has seen no residual sample since it was listed.
    void applyStoredResiduals(const QList<Store::ProgressSample> &samples);
    // One engine change set: tasks, then samples, with one dataChanged per contiguous range of
    // changed rows (not one per kind of change).
    void applyChanges(const QList<Store::TaskRecord> &tasks, const QList<Store::ProgressSample> &samples);
    // The clock moved: the time columns (ETA, age, expires in) read differently, yet no row's
    // data changed. Emits clockTicked(), not dataChanged: a dataChanged over every row would make
    // a QSortFilterProxyModel re-judge every row each second (Qt 6.4 does so whatever roles are
    // named). The filters never read the clock, and the time columns sort by values that hold
    // until the row changes (first seen, expiry, the ETA as of its last sample), never by now():
    // a tick hides, shows and reorders nothing.
    void tick();
    // What the clock changes: these columns (Server, between them, does not) in these roles.
    static constexpr Column FirstClockColumn = EtaColumn;
    static constexpr Column LastClockColumn = ExpiresColumn;
    static QList<int> clockRoles()
    {
        return {Qt::DisplayRole, EtaMsRole, AgeMsRole, ExpiresInMsRole};
    }

    // Which new tasks belong here: all, or those of the session's sweeps and single calls.
    void setShowAllSessions(bool all) { m_allSessions = all; }
    bool showsAllSessions() const { return m_allSessions; }
    void acceptSweep(qint64 sweepId) { m_sessionSweeps.insert(sweepId); }
    void acceptCase(qint64 caseId) { m_sessionCases.insert(caseId); }
    void clearAccepted();

    void setServerNames(const QHash<qint64, QString> &names);
    // Sweep label ("Sweep 3") and the names of its varied parameters (shown in Parameters).
    void setSweepInfo(qint64 sweepId, const QString &label, const QStringList &variedNames);
    // The parameter shown in a varied column (empty for an unused slot); the names in order.
    QString variedName(int column) const;
    QStringList variedNames() const { return m_varied; }
    // Every argument of a task, one "name = value" per line (the row's tooltip).
    QString argumentsText(qint64 taskId) const;
    void setCaseIndex(qint64 caseId, int index);
    bool hasCaseIndex(qint64 caseId) const { return m_caseIndex.contains(caseId); }
    // Many at once (a snapshot's): taken as is when none are known yet.
    void setCaseIndexes(const QHash<qint64, int> &caseIndex);
    bool hasSweepInfo(qint64 sweepId) const { return m_sweeps.contains(sweepId); }

    // The engineer's notes and tags on cases (Store::CaseRecord::note/tags, from the snapshot and
    // the engine's Review): each given case's replace what was known of it. Shown in the Notes
    // column, part of the search text, and what TaskFilterProxyModel's tag filter reads.
    void setCaseReviews(const QList<Store::CaseRecord> &cases);
    QString caseNote(qint64 caseId) const { return m_reviews.value(caseId).note; }
    QStringList caseTags(qint64 caseId) const { return m_reviews.value(caseId).tags; }
    QStringList allTags() const; // every tag on a known case, sorted
    bool hasReviews() const { return !m_reviews.isEmpty(); }
    // A row's argument as a number (numbers only), for TaskFilterProxyModel's ranges.
    std::optional<double> numericArgument(int row, const QString &name) const;
    // Every numeric argument name of the listed rows' varied parameters, in column order.
    QStringList rangeNames() const { return m_varied; }

    const Store::TaskRecord *task(qint64 taskId) const;
    const Progress *progress(qint64 taskId) const;
    int rowOf(qint64 taskId) const { return m_index.value(taskId, -1); }
    qint64 taskIdAt(int row) const;
    QString caseLabel(qint64 taskId) const;
    QString parametersText(qint64 taskId) const;
    QList<qint64> taskIds() const;
    // How many rows are in each status: the status bar's live counts.
    QHash<Store::TaskStatus, int> statusCounts() const { return m_counts; }
    // How many rows have each outcome (completed split into converged, not converged, tool error).
    QHash<Monitor::Outcome, int> outcomeCounts() const { return m_outcomeCounts; }
    Monitor::Outcome outcome(qint64 taskId) const;

    // Rows that are not MCP tasks (streamed calls and jobs): while none are listed the Pattern
    // column has nothing to tell.
    int otherPatternRows() const { return m_otherPatternRows; }
    // "Task", "Streamed call", "Job" for a TaskRecord::pattern, and what each pattern promises.
    static QString patternText(Pattern pattern);
    static QString patternToolTip(Pattern pattern);

    static QString statusText(Store::TaskStatus status, bool toolError = false);
    static QColor statusColor(Store::TaskStatus status); // the palette colour of the status alone
    static QString durationText(qint64 ms);

    // For tests and benches: the clock the time columns use (epoch ms); 0 = the real clock.
    void setNow(qint64 epochMs) { m_fixedNow = epochMs; }

Q_SIGNALS:
    // tick(): a view repaints its shown rows' clock columns. TaskFilterProxyModel turns this into
    // a dataChanged over its own rows; a view on this model directly connects it itself.
    void clockTicked();
    void countsChanged();
    void allTasksListed();
    void reviewsChanged(); // setCaseReviews() changed notes or tags
    // New tasks arrived whose sweep has no label yet: the owner may look the sweep up.
    void sweepInfoNeeded(qint64 sweepId);
    // Rows shown without their samples (listed from the database) whose status message has a
    // residual: the owner looks up their last stored residual (applyStoredResiduals()). Asked
    // once per row, when a view first needs the row's Residual column.
    void storedResidualsNeeded(const QList<qint64> &taskIds);

private:
    struct Row
    {
        Store::TaskRecord task;
        Progress progress;
        // From the result's structuredContent.converged, taken before the result is dropped.
        std::optional<bool> converged;
        Monitor::Outcome outcome = Monitor::Outcome::Working;
        // Derived lazily on the first data() call that needs them (a view shows only a screenful;
        // deriving 100,000 rows up front blocked the GUI for seconds) and dropped on every change.
        mutable QString parameters;
        mutable QString search;
        mutable QString allArguments;         // "name = value" lines: the tooltip
        mutable QHash<QString, QVariant> args; // scalar arguments by name: the varied columns
        // The residual of the final status message ("converged at iteration 812 of 20000,
        // residual 9.9e-07"): the column's value for a task listed without its samples until
        // its last stored residual sample arrives. The server rounds the message (9.97e-07
        // reads 1.0e-6, at the tolerance): the column must read what it read while Eddy
        // watched the task, after a restart too.
        mutable std::optional<double> messageResidual;
        mutable bool storedResidualAsked = false;
        mutable bool derived = false;
    };

    qint64 now() const;
    bool accepts(const Store::TaskRecord &task) const;
    void fillDerived(const Row &row) const;
    const Row &derived(int row) const;
    void count(Store::TaskStatus status, int delta);
    void countPattern(Pattern pattern, int delta);
    // Takes what the outcome needs from a record that still has its result, then recounts.
    void takeConvergence(Row &row, const Store::TaskRecord &task);
    bool refreshOutcome(Row &row); // true when it changed
    void appendRow(const Store::TaskRecord &task);
    void appendListed(const QList<const Store::TaskRecord *> &tasks);
    void noteListed(const Store::TaskRecord &task); // its sweep and case belong to the session
    void clearRows();
    void listNextPage(quint64 generation);
    void emitRowsChanged(QList<int> rows, int firstColumn, int lastColumn);
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;
    QString notesText(const Store::TaskRecord &t) const; // "[tag, tag] note"
    std::optional<double> residualOf(const Row &row) const;
    QVariant variedValue(const Row &row, int column, bool forSort) const;
    void noteVaried(const QStringList &names); // adds new names (up to MaxVariedColumns)

    QList<Row> m_rows;
    QHash<qint64, int> m_index;
    QHash<qint64, QString> m_serverNames;
    struct SweepInfo
    {
        QString label;
        QStringList varied;
    };
    QHash<qint64, SweepInfo> m_sweeps;
    QStringList m_varied; // the varied columns' parameters, in the sweeps' order
    QHash<qint64, int> m_caseIndex;
    QHash<qint64, int> m_caseRow; // case id -> row
    struct CaseReview
    {
        QString note;
        QStringList tags;
    };
    QHash<qint64, CaseReview> m_reviews; // case id -> its note and tags (only cases with either)
    // Not listed yet: the list given to setTasks (shared, not copied) and the order to list it
    // in, newest first, from m_pendingNext on.
    QList<Store::TaskRecord> m_pendingSource;
    QList<qsizetype> m_pendingOrder;
    qsizetype m_pendingNext = 0;
    quint64 m_generation = 0;                // bumped by setTasks: drops a stale page
    bool m_listingChunks = false;            // between beginListing() and endListing()
    int m_pageSize = 1000;
    QSet<qint64> m_sessionSweeps;
    QSet<qint64> m_sessionCases;
    QSet<qint64> m_askedSweeps;
    mutable QList<qint64> m_residualsWanted; // storedResidualsNeeded() on the next turn
    QHash<Store::TaskStatus, int> m_counts;
    QHash<Monitor::Outcome, int> m_outcomeCounts;
    int m_otherPatternRows = 0;
    bool m_allSessions = false;
    qint64 m_fixedNow = 0;
    // While applyChanges runs: rows changed as a whole, and rows changed on the status side.
    bool m_deferChanges = false;
    QList<int> m_pendingAll;
    QList<int> m_pendingStatus;
};

} // namespace Eddy
