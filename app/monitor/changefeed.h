#pragma once

#include "app/monitor/changeset.h"
#include "app/vocab/records.h"

#include <QHash>
#include <QList>
#include <QTimer>

#include <algorithm>

namespace Eddy::Monitor {

class Engine;

// The change feed: every change the hub and its parts store leaves here, batched into
// Engine::changesReady(); Engine::requestSnapshot()'s rows leave here as Engine::snapshotChunk()s,
// one chunk per event-loop turn, never interleaved with the change sets. Lives on the engine's
// thread; the engine (its hub) owns it and the feed emits the hub's signals.
class ChangeFeed final
{
    Q_DISABLE_COPY_MOVE(ChangeFeed)

public:
    explicit ChangeFeed(Engine &hub);

    // Engine::setBatchIntervalMs(), Engine::setSnapshotChunkRows().
    void setBatchIntervalMs(int ms) { m_batchIntervalMs = std::max(0, ms); }
    void setSnapshotChunkRows(int rows) { m_snapshotChunkRows = std::max(1, rows); }

    // The change set being gathered: a part adds samples or input requests, then armFlush().
    ChangeSet &pending() { return m_pending; }
    void queueChange(const Store::TaskRecord &task);
    void queueFinished(const Store::TaskRecord &task); // queueChange() + ChangeSet::finished
    void armFlush();
    void flush();        // changesReady() with what is pending, if anything
    void flushIfArmed(); // flush() now when a flush is waiting for its timer
    void close();        // drops the snapshot being delivered, flushes what is waiting

    // Engine::requestSnapshot().
    void requestSnapshot(qint64 snapshotId, const Store::TaskQuery &query);

private:
    void sendSnapshotChunk();

    Engine &m_hub;
    ChangeSet m_pending;
    QHash<qint64, int> m_pendingTaskIndex; // task id -> index in m_pending.tasks
    QTimer m_batchTimer;
    int m_batchIntervalMs = 30;
    qint64 m_lastFlushMs = 0; // steady clock: when changesReady() last went out
    // The snapshot being delivered (empty when none): rows still to send, in order.
    struct SnapshotDelivery
    {
        qint64 id = 0;
        QList<Store::TaskRecord> rows;
        qsizetype next = 0;
        bool sentFirst = false;
    };
    SnapshotDelivery m_snapshot;
    int m_snapshotChunkRows = 2000;
};

} // namespace Eddy::Monitor
