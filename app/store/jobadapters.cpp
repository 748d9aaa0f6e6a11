#include "app/store/statement.h"
#include "app/store/taskstore.h"
#include "app/store/taskstore_p.h"

namespace Eddy::Store {

bool TaskStore::setJobAdapter(qint64 serverId, const QString &adapterJson)
{
    // With a change log row in the same transaction: a running Eddy or eddyctl watch on this file
    // reads it (ChangeFeed) and retunes the jobs it follows at once.
    Transaction tx(m_db);
    Statement st = m_db.prepare(QStringLiteral(
        "INSERT INTO job_adapters(server_id, adapter, updated_at) VALUES(?,?,?) "
        "ON CONFLICT(server_id) DO UPDATE SET adapter = excluded.adapter, "
        "updated_at = excluded.updated_at"));
    st.bind(1, serverId).bind(2, adapterJson + QString("")).bind(3, nowMs());
    if (!tx.isActive() || !st.exec()) {
        m_db.setError(QStringLiteral("Cannot store the job adapter of server %1: %2")
                          .arg(serverId)
                          .arg(st.errorString()));
        return false;
    }
    return logChange(m_db, QLatin1String("job_adapters"), serverId) && tx.commit();
}

std::optional<QString> TaskStore::jobAdapter(qint64 serverId)
{
    m_db.setError(QString());
    Statement st = m_db.prepare(
        QStringLiteral("SELECT adapter FROM job_adapters WHERE server_id = ?"));
    st.bind(1, serverId);
    const Statement::StepResult r = st.step();
    if (r == Statement::StepResult::Row)
        return st.text(0);
    if (r == Statement::StepResult::Error)
        m_db.setError(QStringLiteral("Cannot read the job adapter of server %1: %2")
                          .arg(serverId)
                          .arg(st.errorString()));
    return std::nullopt;
}

} // namespace Eddy::Store
