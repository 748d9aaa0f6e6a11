#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

// Review of past sweeps (schema 9): notes and tags on cases and sweeps, a sweep's baseline case
// and the pause of its submission. Plain column writes; other processes hear of a case's through
// the change log ("case_notes") and of a sweep's through its update trigger ("sweeps").

namespace Eddy::Store {

namespace {

// The first tag that is not one (tagProblem), or '' when all are.
QString badTag(const QStringList &tags)
{
    for (const QString &t : tags)
        if (const QString problem = tagProblem(t); !problem.isEmpty())
            return problem;
    return {};
}

// One column of one row, its value bound by bindValue (as parameter 1, the row id as 2); false
// + the database error when it fails or the row does not exist.
template<typename BindValue>
bool setColumn(Database &db, const QString &sql, const QString &what, qint64 id, BindValue bindValue)
{
    Statement st = db.prepare(sql);
    bindValue(st);
    st.bind(2, id);
    if (!st.exec()) {
        db.setError(QStringLiteral("Cannot store the %1: %2").arg(what, st.errorString()));
        return false;
    }
    if (db.changes() != 1) {
        db.setError(QStringLiteral("Cannot store the %1: there is no such row (id %2) in the "
                                   "database.")
                        .arg(what)
                        .arg(id));
        return false;
    }
    return true;
}

auto text(const QString &value)
{
    return [value](Statement &st) { st.bind(1, value + QString("")); };
}

} // namespace

bool TaskStore::setCaseNote(qint64 caseId, const QString &note)
{
    Transaction tx(m_db);
    return tx.isActive()
           && setColumn(m_db, QStringLiteral("UPDATE cases SET note = ? WHERE id = ?"),
                        QStringLiteral("case's note"), caseId, text(note))
           && logChange(m_db, QLatin1String("case_notes"), caseId) && tx.commit();
}

bool TaskStore::setCaseTags(qint64 caseId, const QStringList &tags)
{
    if (const QString problem = badTag(tags); !problem.isEmpty()) {
        m_db.setError(QStringLiteral("The tags were not stored: %1.").arg(problem));
        return false;
    }
    Transaction tx(m_db);
    return tx.isActive()
           && setColumn(m_db, QStringLiteral("UPDATE cases SET tags = ? WHERE id = ?"),
                        QStringLiteral("case's tags"), caseId, text(tagsText(tags)))
           && logChange(m_db, QLatin1String("case_notes"), caseId) && tx.commit();
}

bool TaskStore::setSweepNote(qint64 sweepId, const QString &note)
{
    return setColumn(m_db, QStringLiteral("UPDATE sweeps SET note = ? WHERE id = ?"),
                     QStringLiteral("sweep's note"), sweepId, text(note));
}

bool TaskStore::setSweepTags(qint64 sweepId, const QStringList &tags)
{
    if (const QString problem = badTag(tags); !problem.isEmpty()) {
        m_db.setError(QStringLiteral("The tags were not stored: %1.").arg(problem));
        return false;
    }
    return setColumn(m_db, QStringLiteral("UPDATE sweeps SET tags = ? WHERE id = ?"),
                     QStringLiteral("sweep's tags"), sweepId, text(tagsText(tags)));
}

bool TaskStore::setSweepBaseline(qint64 sweepId, std::optional<qint64> caseId)
{
    if (caseId) {
        const auto c = caseRecord(*caseId);
        if (!c || c->sweepId != sweepId) {
            m_db.setError(QStringLiteral("Case %1 is not a case of sweep %2: a sweep's baseline "
                                         "must be one of its own cases.")
                              .arg(*caseId)
                              .arg(sweepId));
            return false;
        }
    }
    return setColumn(m_db, QStringLiteral("UPDATE sweeps SET baseline_case_id = ? WHERE id = ?"),
                     QStringLiteral("sweep's baseline"), sweepId,
                     [caseId](Statement &st) { st.bind(1, caseId); });
}

std::optional<qint64> TaskStore::sweepBaselineCase(qint64 sweepId)
{
    Statement st = m_db.prepare(QStringLiteral(
        "SELECT COALESCE(s.baseline_case_id, (SELECT c.id FROM cases c WHERE c.sweep_id = s.id "
        "ORDER BY c.idx, c.id LIMIT 1)) FROM sweeps s WHERE s.id = ?"));
    st.bind(1, sweepId);
    if (st.step() != Statement::StepResult::Row)
        return std::nullopt;
    return st.optInt64(0);
}

bool TaskStore::setSweepPaused(qint64 sweepId, bool paused)
{
    const std::optional<qint64> at = paused ? std::optional<qint64>(nowMs()) : std::nullopt;
    return setColumn(m_db,
                     paused ? QStringLiteral("UPDATE sweeps SET paused_at = COALESCE(paused_at, ?) "
                                             "WHERE id = ?")
                            : QStringLiteral("UPDATE sweeps SET paused_at = ? WHERE id = ?"),
                     QStringLiteral("sweep's pause"), sweepId,
                     [at](Statement &st) { st.bind(1, at); });
}

QList<qint64> TaskStore::pausedSweepIds()
{
    QList<qint64> out;
    Statement st = m_db.prepare(QStringLiteral("SELECT id FROM sweeps WHERE paused_at IS NOT NULL "
                                               "ORDER BY id"));
    while (st.step() == Statement::StepResult::Row)
        out << st.int64(0);
    return out;
}

} // namespace Eddy::Store
