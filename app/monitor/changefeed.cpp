#include "app/monitor/changefeed.h"
#include "app/monitor/engine_p.h"

namespace Eddy::Monitor {

ChangeFeed::ChangeFeed(Engine &hub)
    : m_hub(hub)
    , m_batchTimer(&hub) // a child of the hub: moves to the engine's thread with it
{
    m_batchTimer.setSingleShot(true);
    QObject::connect(&m_batchTimer, &QTimer::timeout, &hub, [this] { flush(); });
}

void ChangeFeed::queueFinished(const Store::TaskRecord &task)
{
    queueChange(task);
    if (!m_pending.finished.contains(task.id))
        m_pending.finished << task.id;
    // With the end, how each of its questions ended as stored: closed by the end, or answered
    // (perhaps by another process this one has not heard from yet).
    for (const Store::InputRequestRecord &r : m_hub.m_store.inputRequests(task.id)) {
        const auto same = [&r](const Store::InputRequestRecord &q) { return q.id == r.id; };
        if (r.state != Store::InputState::Pending
            && std::none_of(m_pending.inputs.cbegin(), m_pending.inputs.cend(), same))
            m_pending.inputs << r;
    }
}

void ChangeFeed::queueChange(const Store::TaskRecord &task)
{
    if (auto it = m_pendingTaskIndex.constFind(task.id); it != m_pendingTaskIndex.constEnd())
        m_pending.tasks[*it] = task;
    else {
        m_pendingTaskIndex.insert(task.id, int(m_pending.tasks.size()));
        m_pending.tasks << task;
    }
    armFlush();
}

void ChangeFeed::armFlush()
{
    // Leading edge: the first change after a quiet interval goes out on the next event-loop turn
    // (which still gathers what this turn stores with it: samples, input requests); a burst is
    // batched, at most one emission per interval. Held while a snapshot is being delivered.
    if (m_batchTimer.isActive() || m_snapshot.id != 0)
        return;
    const qint64 sinceLast = steadyMs() - m_lastFlushMs;
    m_batchTimer.start(int(std::clamp<qint64>(m_batchIntervalMs - sinceLast, 0, m_batchIntervalMs)));
}

void ChangeFeed::flush()
{
    if (m_pending.isEmpty())
        return;
    ChangeSet out;
    std::swap(out, m_pending);
    m_pendingTaskIndex.clear();
    m_lastFlushMs = steadyMs();
    emit m_hub.changesReady(out);
}

void ChangeFeed::flushIfArmed()
{
    if (m_batchTimer.isActive()) {
        m_batchTimer.stop();
        flush();
    }
}

void ChangeFeed::close()
{
    m_snapshot = SnapshotDelivery();
    flushIfArmed();
}

void ChangeFeed::requestSnapshot(qint64 snapshotId, const Store::TaskQuery &query)
{
    if (snapshotId == 0) {
        emit m_hub.operationFailed(QStringLiteral("A snapshot needs a non-zero id to tag its chunks."));
        return;
    }
    // Changes made so far go out first: every chunk is at least as new as they are.
    m_batchTimer.stop();
    flush();
    m_snapshot = SnapshotDelivery();
    m_snapshot.id = snapshotId;
    if (m_hub.isOpen()) {
        m_snapshot.rows = m_hub.m_store.tasks(query);
        for (Store::TaskRecord &t : m_snapshot.rows) {
            t.converged = convergedOf(t.result); // the table's outcome needs it
            t.result.clear(); // fetched on demand: a snapshot of 100,000 tasks must stay small
        }
    }
    sendSnapshotChunk();
}

void ChangeFeed::sendSnapshotChunk()
{
    if (m_snapshot.id == 0)
        return;
    ChangeSet chunk;
    chunk.snapshotId = m_snapshot.id;
    if (!m_snapshot.sentFirst && m_hub.isOpen())
        chunk.inputs = m_hub.m_store.pendingInputRequests();
    m_snapshot.sentFirst = true;
    const qsizetype n = std::min<qsizetype>(m_snapshotChunkRows, m_snapshot.rows.size() - m_snapshot.next);
    chunk.tasks = m_snapshot.rows.mid(m_snapshot.next, n);
    m_snapshot.next += n;
    chunk.snapshotComplete = m_snapshot.next >= m_snapshot.rows.size();
    const qint64 id = m_snapshot.id;
    if (chunk.snapshotComplete)
        m_snapshot = SnapshotDelivery();
    emit m_hub.snapshotChunk(chunk);
    if (!chunk.snapshotComplete) {
        // The next chunk on the next turn: queued work (pushes, poll replies) runs in between.
        QMetaObject::invokeMethod(&m_hub, [this, id] {
            if (m_snapshot.id == id)
                sendSnapshotChunk();
        }, Qt::QueuedConnection);
    } else if (!m_pending.isEmpty()) {
        armFlush(); // changes held during the delivery follow the complete chunk
    }
}

} // namespace Eddy::Monitor
