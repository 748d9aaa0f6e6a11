#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

namespace Eddy::Store {

// A task handed over by another client: no case journals it (Eddy never called the tool), so it
// is stored as a live task of its server; the same server task id of the same server is one task.
std::optional<qint64> TaskStore::importTask(TaskRecord &task, bool *existed)
{
    if (existed)
        *existed = false;
    if (task.serverTaskId.isEmpty()) {
        m_db.setError(QStringLiteral("A handed-over task needs the server's task id."));
        return std::nullopt;
    }
    Transaction tx(m_db);
    if (!tx.isActive())
        return std::nullopt;
    {
        Statement known = m_db.prepare(QStringLiteral(
            "SELECT id FROM tasks WHERE server_id = ? AND server_task_id = ? ORDER BY id LIMIT 1"));
        known.bind(1, task.serverId).bind(2, task.serverTaskId);
        if (known.step() == Statement::StepResult::Row) {
            task.id = known.int64(0);
            if (existed)
                *existed = true;
            return task.id;
        }
    }
    const qint64 now = nowMs();
    task.firstSeenAtMs = task.firstSeenAtMs ? task.firstSeenAtMs : now;
    task.updatedAtMs = now;
    Statement ins = m_db.prepare(QStringLiteral(
        "INSERT INTO tasks(server_id, tool, arguments, server_task_id, status, status_message, "
        "next_poll_at, first_seen_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?)"));
    ins.bind(1, task.serverId)
        .bind(2, task.tool + QString(""))
        .bind(3, task.arguments.isEmpty() ? QStringLiteral("{}") : task.arguments)
        .bind(4, task.serverTaskId)
        .bind(5, toText(task.status))
        .bind(6, task.statusMessage + QString(""))
        .bind(7, task.nextPollAtMs)
        .bind(8, task.firstSeenAtMs)
        .bind(9, task.updatedAtMs);
    if (!ins.exec()) {
        m_db.setError(
            QStringLiteral("Cannot store the handed-over task: %1").arg(ins.errorString()));
        return std::nullopt;
    }
    task.id = m_db.lastInsertId();
    Statement ev = prepareTaskEvent(m_db, task, now);
    if (!ev.exec() || !tx.commit()) {
        m_db.setError(
            QStringLiteral("Cannot store the handed-over task: %1").arg(m_db.lastError()));
        return std::nullopt;
    }
    return task.id;
}

} // namespace Eddy::Store
