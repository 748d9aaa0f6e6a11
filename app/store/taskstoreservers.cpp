#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"
#include "app/secret.h"

namespace Eddy::Store {

// ---------------------------------------------------------------- server removal

std::optional<ServerUse> TaskStore::serverUse(qint64 id)
{
    Statement st = m_db.prepare(
        QStringLiteral("SELECT COUNT(*), COALESCE(SUM(status IN ('working','input_required')), 0) "
                       "FROM tasks WHERE server_id=?"));
    st.bind(1, id);
    if (st.step() != Statement::StepResult::Row)
        return std::nullopt;
    return ServerUse{int(st.int64(0)), int(st.int64(1))};
}

bool TaskStore::setServerRetired(qint64 id, bool retired)
{
    Statement st = m_db.prepare(QStringLiteral("UPDATE servers SET retired=? WHERE id=?"));
    st.bind(1, qint64(retired ? 1 : 0)).bind(2, id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot bring the server back: %1").arg(st.errorString()));
        return false;
    }
    if (m_db.changes() != 1)
        return false;
    logServerChange(m_db, id);
    return true;
}

bool TaskStore::removeServer(qint64 id, Removal mode)
{
    const auto rec = server(id);
    if (!rec) {
        m_db.setError(QStringLiteral("That server is no longer in the database; nothing was "
                                     "removed."));
        return false;
    }
    const QString name = rec->name.isEmpty() ? rec->url : rec->name;
    if (mode == Removal::RefuseIfUsed) {
        Statement used = m_db.prepare(
            QStringLiteral("SELECT (SELECT COUNT(*) FROM tasks WHERE server_id=?1) + "
                           "(SELECT COUNT(*) FROM sweeps WHERE server_id=?1) + "
                           "(SELECT COUNT(*) FROM cases WHERE server_id=?1)"));
        used.bind(1, id);
        if (used.step() == Statement::StepResult::Row && used.int64(0) > 0) {
            m_db.setError(QStringLiteral("%1 has stored tasks; choose whether to keep them as "
                                         "history or to delete them with the server.")
                              .arg(name));
            return false;
        }
    }
    Transaction tx(m_db);
    if (!tx.isActive())
        return false;
    const qint64 now = nowMs();
    auto run = [this, id, &name](const char *sql, std::optional<qint64> extra = std::nullopt) {
        Statement st = m_db.prepare(QString::fromLatin1(sql));
        st.bind(1, id);
        if (extra)
            st.bind(2, *extra);
        if (st.exec())
            return true;
        m_db.setError(QStringLiteral("Cannot remove %1; nothing was changed: %2")
                          .arg(name, st.errorString()));
        return false;
    };
    if (mode == Removal::KeepTasks) {
        // Every row stays readable; nothing of this server is sent or polled again. Its open
        // questions are closed (an answer being sent stays on record, unsent), so no process
        // lists them as waiting or sends them.
        const bool ok
            = run("UPDATE input_requests SET state='closed', answered_at=COALESCE(answered_at, "
                  "?2) WHERE state IN ('pending','answering') AND task_id IN (SELECT id FROM "
                  "tasks WHERE server_id=?1)",
                  now)
              && run("UPDATE tasks SET status='lost', status_message='No longer followed: its server "
                  "was removed from Eddy.', updated_at=?2, finished_at=COALESCE(finished_at, ?2) "
                  "WHERE server_id=?1 AND status IN ('working','input_required')",
                  now)
              && run("UPDATE cases SET state='rejected', error='Not sent: its server was removed "
                     "from Eddy.' WHERE server_id=?1 AND state IN ('pending','sent')")
              && run("UPDATE servers SET retired=1 WHERE id=?1") && logServerChange(m_db, id);
        return ok && tx.commit();
    }
    const char *const cascade[] = {
        "DELETE FROM session_tasks WHERE task_id IN (SELECT id FROM tasks WHERE server_id=?1)",
        "DELETE FROM task_events WHERE task_id IN (SELECT id FROM tasks WHERE server_id=?1)",
        "DELETE FROM progress_samples WHERE task_id IN (SELECT id FROM tasks WHERE server_id=?1)",
        "DELETE FROM input_requests WHERE task_id IN (SELECT id FROM tasks WHERE server_id=?1)",
        "UPDATE cases SET parent_case_id=NULL WHERE parent_case_id IN "
        "(SELECT id FROM cases WHERE server_id=?1)",
        "UPDATE cases SET task_id=NULL WHERE task_id IN (SELECT id FROM tasks WHERE server_id=?1)",
        "UPDATE tasks SET case_id=NULL WHERE case_id IN (SELECT id FROM cases WHERE server_id=?1)",
        "DELETE FROM cases WHERE server_id=?1",
        "DELETE FROM tasks WHERE server_id=?1",
        // Sweeps of this server (left empty), unlinked from any row of another server first.
        "UPDATE tasks SET sweep_id=NULL WHERE sweep_id IN (SELECT id FROM sweeps WHERE "
        "server_id=?1)",
        "UPDATE cases SET sweep_id=NULL WHERE sweep_id IN (SELECT id FROM sweeps WHERE "
        "server_id=?1)",
        "DELETE FROM sweeps WHERE server_id=?1",
        "DELETE FROM job_adapters WHERE server_id=?1",
        "DELETE FROM servers WHERE id=?1",
    };
    QString ref;
    {
        Statement st = m_db.prepare(QStringLiteral("SELECT token_ref FROM servers WHERE id=?"));
        st.bind(1, id);
        if (st.step() == Statement::StepResult::Row)
            ref = st.text(0);
    }
    for (const char *sql : cascade) {
        if (!run(sql))
            return false;
    }
    // Deleted rows log nothing: the server's entry tells other processes its tasks went too.
    if (!logServerChange(m_db, id) || !tx.commit())
        return false;
    if (!ref.isEmpty() && secretVault())
        secretVault()->remove(ref); // the server's token goes with it
    return true;
}

bool TaskStore::storeRemovedServerTaskEnd(const TaskRecord &t)
{
    Transaction tx(m_db);
    if (!tx.isActive())
        return false;
    const qint64 now = nowMs();
    Statement st = m_db.prepare(
        QStringLiteral("UPDATE tasks SET status=?, status_message=?, error=?, updated_at=?, "
                       "finished_at=COALESCE(finished_at, ?) WHERE id=?"));
    st.bind(1, toText(t.status))
        .bind(2, t.statusMessage + QString(""))
        .bind(3, t.error + QString(""))
        .bind(4, now)
        .bind(5, t.finishedAtMs.value_or(now))
        .bind(6, t.id);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store task %1: %2").arg(t.id).arg(st.errorString()));
        return false;
    }
    if (m_db.changes() == 1) {
        Statement ev = prepareTaskEvent(m_db, t, now);
        if (!ev.exec()) {
            m_db.setError(
                QStringLiteral("Cannot store task %1: %2").arg(t.id).arg(ev.errorString()));
            return false;
        }
    }
    return tx.commit();
}

} // namespace Eddy::Store
