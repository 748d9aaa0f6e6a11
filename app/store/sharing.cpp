#include "app/store/sharing.h"
#include "app/store/taskstore_p.h"

#include <QDateTime>
#include <QSet>

namespace Eddy::Store {

// ---------------------------------------------------------------- leases

QString Leases::taskItem(qint64 taskId)
{
    return QStringLiteral("task:%1").arg(taskId);
}

QString Leases::answerItem(qint64 taskId, const QString &key)
{
    return QStringLiteral("answer:%1:%2").arg(taskId).arg(key);
}

bool Leases::acquire(const QString &item, qint64 nowMs, qint64 ttlMs)
{
    // One statement: two processes asking at once are serialised by SQLite's write lock, and
    // the second finds the first's live lease.
    if (!m_acquire.isValid())
        m_acquire = m_db.prepare(QStringLiteral(
            "INSERT INTO leases(item, owner, expires_at) VALUES(?1, ?2, ?3) "
            "ON CONFLICT(item) DO UPDATE SET owner = excluded.owner, expires_at = "
            "excluded.expires_at WHERE leases.owner = excluded.owner OR leases.expires_at < ?4"));
    m_acquire.reset(); // a failed step leaves the statement to be reset before the next bind
    m_acquire.bind(1, item).bind(2, m_owner).bind(3, nowMs + ttlMs).bind(4, nowMs);
    return m_acquire.exec() && m_db.changes() == 1;
}

bool Leases::takeOver(const QString &item, qint64 nowMs, qint64 ttlMs)
{
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO leases(item, owner, expires_at) VALUES(?1, ?2, ?3) "
        "ON CONFLICT(item) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
        "WHERE leases.expires_at < ?4"));
    st.bind(1, item).bind(2, m_owner).bind(3, nowMs + ttlMs).bind(4, nowMs);
    return st.exec() && m_db.changes() == 1;
}

bool Leases::renewAll(qint64 nowMs, qint64 ttlMs, QList<QString> *held)
{
    Statement up = m_db.prepare(QStringLiteral("UPDATE leases SET expires_at = ? WHERE owner = ?"));
    up.bind(1, nowMs + ttlMs).bind(2, m_owner);
    if (!up.exec()) {
        m_db.setError(up.errorString()); // SQLite's words ("attempt to write a readonly database")
        return false;
    }
    if (!held)
        return true;
    Statement st = m_db.prepare(QStringLiteral("SELECT item FROM leases WHERE owner = ?"));
    st.bind(1, m_owner);
    while (true) {
        const auto r = st.step();
        if (r == Statement::StepResult::Done)
            return true;
        if (r == Statement::StepResult::Error) {
            m_db.setError(st.errorString());
            return false;
        }
        held->append(st.text(0));
    }
}

bool Leases::release(const QString &item)
{
    Statement st = m_db.prepare(QStringLiteral("DELETE FROM leases WHERE item = ? AND owner = ?"));
    st.bind(1, item).bind(2, m_owner);
    return st.exec();
}

bool Leases::releaseAll()
{
    Statement st = m_db.prepare(QStringLiteral("DELETE FROM leases WHERE owner = ?"));
    st.bind(1, m_owner);
    return st.exec();
}

bool Leases::pruneFinished()
{
    // Walks the (few) leases, each a primary-key lookup: cheap however many tasks are stored.
    return m_db.exec(QStringLiteral(
        "DELETE FROM leases WHERE item LIKE 'task:%' AND NOT EXISTS (SELECT 1 FROM tasks t "
        "WHERE t.id = CAST(substr(leases.item, 6) AS INTEGER) "
        "AND (t.status IN ('working','input_required') "
        "OR (t.status = 'completed' AND t.result = '' AND t.error = '')));"
        "DELETE FROM leases WHERE item LIKE 'answer:%' AND NOT EXISTS (SELECT 1 FROM "
        "input_requests r "
        "WHERE r.state = 'answering' AND leases.item = 'answer:' || r.task_id || ':' || r.key);"));
}

bool Leases::grant(const QString &item, qint64 nowMs, qint64 ttlMs)
{
    Statement st = m_db.prepare(
        QStringLiteral("INSERT INTO leases(item, owner, expires_at) VALUES(?1, ?2, ?3) "
                       "ON CONFLICT(item) DO UPDATE SET owner = excluded.owner, expires_at = "
                       "excluded.expires_at"));
    st.bind(1, item).bind(2, m_owner).bind(3, nowMs + ttlMs);
    return st.exec();
}

std::optional<QString> Leases::holder(const QString &item, qint64 nowMs)
{
    Statement st = m_db.prepare(
        QStringLiteral("SELECT owner FROM leases WHERE item = ? AND expires_at >= ?"));
    st.bind(1, item).bind(2, nowMs);
    if (st.step() == Statement::StepResult::Row)
        return st.text(0);
    return std::nullopt;
}

QList<QString> Leases::otherOwners(qint64 nowMs)
{
    QList<QString> out;
    Statement st = m_db.prepare(
        QStringLiteral("SELECT DISTINCT owner FROM leases WHERE expires_at >= ? AND owner <> ?"));
    st.bind(1, nowMs).bind(2, m_owner);
    while (st.step() == Statement::StepResult::Row)
        out << st.text(0);
    return out;
}

bool Leases::dropOwner(const QString &owner)
{
    Statement st = m_db.prepare(QStringLiteral("DELETE FROM leases WHERE owner = ?"));
    st.bind(1, owner);
    return st.exec();
}

QList<qint64> Leases::unheldLiveTasks(qint64 nowMs)
{
    QList<qint64> out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT t.id FROM tasks t LEFT JOIN leases l ON l.item = 'task:' || t.id "
        "WHERE (t.status IN ('working','input_required') "
        // completed without its result (its poller was killed before fetching it)
        "OR (t.status = 'completed' AND t.result = '' AND t.error = '')) "
        "AND COALESCE(t.server_task_id, '') <> '' "
        "AND t.server_id NOT IN (SELECT id FROM servers WHERE retired=1) "
        "AND (l.item IS NULL OR l.expires_at < ?) ORDER BY t.id"));
    st.bind(1, nowMs);
    while (st.step() == Statement::StepResult::Row)
        out << st.int64(0);
    return out;
}

QList<QPair<qint64, QString>> Leases::unheldAnswers(qint64 nowMs)
{
    QList<QPair<qint64, QString>> out;
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT r.task_id, r.key FROM input_requests r LEFT JOIN leases l "
        "ON l.item = 'answer:' || r.task_id || ':' || r.key "
        "WHERE r.state = 'answering' AND (l.item IS NULL OR l.expires_at < ?) ORDER BY r.id"));
    st.bind(1, nowMs);
    while (st.step() == Statement::StepResult::Row)
        out.append({st.int64(0), st.text(1)});
    return out;
}

// ---------------------------------------------------------------- adoption

bool adoptSweep(Database &db, qint64 sweepId, qint64 sessionId)
{
    Transaction tx(db);
    if (!tx.isActive())
        return false;
    Statement up = db.prepare(
        QStringLiteral("UPDATE sweeps SET session_id = ? WHERE id = ? AND session_id IS NULL"));
    up.bind(1, sessionId).bind(2, sweepId);
    if (!up.exec())
        return false;
    Statement attach = db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO session_tasks(session_id, task_id, attached_at) "
        "SELECT s.session_id, t.id, ? FROM tasks t JOIN sweeps s ON s.id = t.sweep_id "
        "WHERE t.sweep_id = ?"));
    attach.bind(1, QDateTime::currentMSecsSinceEpoch()).bind(2, sweepId);
    return attach.exec() && tx.commit();
}

// ---------------------------------------------------------------- change feed

bool ChangeFeed::start()
{
    m_version = -1;
    dataChanged();
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT COALESCE((SELECT MAX(seq) FROM change_log), 0), "
        "COALESCE((SELECT MAX(id) FROM progress_samples), 0), "
        "COALESCE((SELECT MAX(id) FROM sweeps), 0), COALESCE((SELECT MAX(id) FROM cases), 0)"));
    if (st.step() != Statement::StepResult::Row)
        return false;
    m_seq = st.int64(0);
    m_sampleId = st.int64(1);
    m_startSweepId = st.int64(2);
    m_startCaseId = st.int64(3);
    return true;
}

bool ChangeFeed::dataChanged()
{
    Statement st = m_db.prepare(QStringLiteral("PRAGMA data_version"));
    if (st.step() != Statement::StepResult::Row)
        return true; // cannot tell: look
    const qint64 v = st.int64(0);
    const bool changed = v != m_version;
    m_version = v;
    return changed;
}

std::optional<ChangeFeed::Changes> ChangeFeed::read()
{
    Changes out;
    // One read transaction: the log and the samples as of one commit.
    if (!m_db.exec(QStringLiteral("BEGIN")))
        return std::nullopt;
    struct End
    {
        Database &db;
        ~End() { db.exec(QStringLiteral("COMMIT")); }
    } end{m_db};
    {
        // AUTOINCREMENT never reuses a number and a rolled-back insert takes none: a hole
        // before the first row left means rows this reader never saw were pruned.
        Statement first = m_db.prepare(QStringLiteral("SELECT MIN(seq) FROM change_log"));
        if (first.step() == Statement::StepResult::Row && !first.isNull(0)
            && first.int64(0) > m_seq + 1)
            out.gap = true;
    }
    constexpr int kinds = 8;
    QSet<qint64> seen[kinds];
    QList<qint64> *lists[kinds] = {&out.tasks,   &out.cases,   &out.sweeps,      &out.sessions,
                                   &out.inputs,  &out.servers, &out.jobAdapters, &out.caseNotes};
    static const QLatin1String names[kinds] = {QLatin1String("tasks"),
                                               QLatin1String("cases"),
                                               QLatin1String("sweeps"),
                                               QLatin1String("sessions"),
                                               QLatin1String("input_requests"),
                                               QLatin1String("servers"),
                                               QLatin1String("job_adapters"),
                                               QLatin1String("case_notes")};
    Statement st = m_db.prepare(
        QStringLiteral("SELECT seq, tbl, row_id FROM change_log WHERE seq > ? ORDER BY seq"));
    st.bind(1, m_seq);
    qint64 seq = m_seq;
    while (true) {
        const auto r = st.step();
        if (r == Statement::StepResult::Error)
            return std::nullopt;
        if (r == Statement::StepResult::Done)
            break;
        seq = st.int64(0);
        const QString table = st.text(1);
        const qint64 id = st.int64(2);
        for (int i = 0; i < kinds; ++i) {
            if (table == names[i]) {
                if (!seen[i].contains(id)) {
                    seen[i].insert(id);
                    lists[i]->append(id);
                }
                break;
            }
        }
    }
    Statement samples = m_db.prepare(QStringLiteral(
        "SELECT id, task_id, at, series, x, y FROM progress_samples WHERE id > ? ORDER BY id"));
    samples.bind(1, m_sampleId);
    qint64 sampleId = m_sampleId;
    while (true) {
        const auto r = samples.step();
        if (r == Statement::StepResult::Error)
            return std::nullopt;
        if (r == Statement::StepResult::Done)
            break;
        sampleId = samples.int64(0);
        ProgressSample s;
        s.taskId = samples.int64(1);
        s.atMs = samples.int64(2);
        s.series = samples.text(3);
        s.x = samples.real(4);
        s.y = samples.real(5);
        out.samples << s;
    }
    m_seq = seq;
    m_sampleId = sampleId;
    return out;
}

bool ChangeFeed::prune(int maxAgeSeconds)
{
    Statement st = m_db.prepare(QStringLiteral(
        "DELETE FROM change_log WHERE at < CAST(strftime('%s','now') AS INTEGER) - ?"));
    st.bind(1, maxAgeSeconds);
    return st.exec();
}

std::optional<InputRequestRecord> ChangeFeed::inputRequest(qint64 id)
{
    Statement st = m_db.prepare(QStringLiteral("SELECT %1 FROM input_requests WHERE id = ?")
                                    .arg(QLatin1String(s_inputColumns)));
    st.bind(1, id);
    if (st.step() != Statement::StepResult::Row)
        return std::nullopt;
    return readInput(st);
}

} // namespace Eddy::Store
