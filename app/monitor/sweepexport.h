#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy::Store {
class TaskStore;
}

namespace Eddy::Monitor {

// A sweep as CSV: the one code path behind the GUI's Export CSV and `eddyctl export`. Rows in
// case order; columns case, task, outcome, is_error, status, every argument (varied first, in
// the spec's order, then the fixed ones by name; idempotency_key left out), then every scalar
// of structuredContent seen in any case (nested objects flattened with dots, arrays left out),
// then answer (the answers given to the case's questions), note and tags (space-separated).
// Pure apart from rows(), which reads the store; any thread that owns the store.
class SweepExport final
{
public:
    struct Row
    {
        Store::CaseRecord c;
        std::optional<Store::TaskRecord> task; // the case's latest attempt, when there is one
        QString answer; // InputInbox::answerSummary() of the attempt's questions
    };

    // The sweep's cases in order, each with its latest task (results included).
    static QList<Row> rows(Store::TaskStore &store, qint64 sweepId);
    // One case per design point (case index): its latest attempt, the re-run journalled last
    // (highest case id). Earlier attempts stay in the store as the new one's lineage.
    static QList<Store::CaseRecord> latestAttempts(const QList<Store::CaseRecord> &cases);
    // The varied parameter names of a sweep spec ({"vary": {...}}), in the spec's order.
    static QStringList variedNames(const QString &specJson);

    // The export's columns and cells, row for row: what csv() writes and the report's table shows.
    struct Table
    {
        QStringList argumentColumns; // varied first, in the spec's order, then the fixed ones
        QStringList resultColumns;   // scalars of structuredContent, in order of appearance
        struct Line
        {
            QString outcome;         // OutcomeText::key(), "not_submitted" before any task
            bool isError = false;
            QString status;
            QStringList arguments;   // per argumentColumns ("" when the case has none)
            QStringList results;     // per resultColumns
        };
        QList<Line> lines;
    };
    static Table table(const QList<Row> &rows, const QStringList &variedNames);

    static QString csv(const QList<Row> &rows, const QStringList &variedNames);
};

} // namespace Eddy::Monitor
