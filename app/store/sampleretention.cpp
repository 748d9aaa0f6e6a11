#include "app/store/sampleretention.h"

#include "app/store/taskstore.h"

#include <algorithm>

namespace Eddy::Store {

namespace {

// The samples of runs finished before the cutoff, numbered per task and series in the order
// they were stored: a sample goes unless it is every keepOneIn-th, the first or the last.
const char *const s_thinned =
    "SELECT id FROM (SELECT ps.id AS id,"
    " ROW_NUMBER() OVER (PARTITION BY ps.task_id, ps.series ORDER BY ps.id) AS rn,"
    " COUNT(*) OVER (PARTITION BY ps.task_id, ps.series) AS n"
    " FROM tasks t JOIN progress_samples ps ON ps.task_id = t.id"
    " WHERE t.finished_at IS NOT NULL AND t.finished_at < ?1)"
    " WHERE (rn - 1) % ?2 <> 0 AND rn <> n";

} // namespace

std::optional<SampleThinning> SampleRetention::plan(TaskStore &store, qint64 finishedBeforeMs, int keepOneIn)
{
    Database &db = store.database();
    SampleThinning out;
    Statement st = db.prepare(QStringLiteral(
        "SELECT COUNT(DISTINCT t.id), COUNT(ps.id) FROM tasks t JOIN progress_samples ps ON ps.task_id = t.id"
        " WHERE t.finished_at IS NOT NULL AND t.finished_at < ?"));
    st.bind(1, finishedBeforeMs);
    if (st.step() != Statement::StepResult::Row)
        return std::nullopt;
    out.runs = st.int64(0);
    out.samples = st.int64(1);
    Statement count = db.prepare(QStringLiteral("SELECT COUNT(*) FROM (%1)").arg(QLatin1String(s_thinned)));
    count.bind(1, finishedBeforeMs).bind(2, qint64(std::max(1, keepOneIn)));
    if (count.step() != Statement::StepResult::Row)
        return std::nullopt;
    out.removable = count.int64(0);
    Statement all = db.prepare(QStringLiteral("SELECT COUNT(*) FROM progress_samples"));
    if (all.step() != Statement::StepResult::Row)
        return std::nullopt;
    out.total = all.int64(0);
    return out;
}

std::optional<qint64> SampleRetention::thin(TaskStore &store, qint64 finishedBeforeMs, int keepOneIn)
{
    Database &db = store.database();
    Transaction tx(db);
    Statement st = db.prepare(
        QStringLiteral("DELETE FROM progress_samples WHERE id IN (%1)").arg(QLatin1String(s_thinned)));
    st.bind(1, finishedBeforeMs).bind(2, qint64(std::max(1, keepOneIn)));
    if (!st.exec())
        return std::nullopt;
    const qint64 removed = db.changes();
    if (!tx.commit())
        return std::nullopt;
    return removed;
}

} // namespace Eddy::Store
