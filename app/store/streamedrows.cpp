#include "app/store/statement.h"
#include "app/store/taskstore.h"

namespace Eddy::Store {

bool TaskStore::promoteStreamedToTask(qint64 taskId, const QString &serverTaskId)
{
    Statement st = m_db.prepare(
        QStringLiteral("UPDATE tasks SET pattern = 'task', stream_owner = '', server_task_id = ? "
                       "WHERE id = ? AND pattern = 'streamed'"));
    st.bind(1, serverTaskId).bind(2, taskId);
    if (!st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the task handle of task %1: %2")
                          .arg(taskId)
                          .arg(st.errorString()));
        return false;
    }
    return true;
}

} // namespace Eddy::Store
