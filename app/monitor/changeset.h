#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QMetaType>

namespace Eddy::Monitor {

// What changed since the engine's last emission (at most one per batch interval): the latest
// record of every changed task, new progress samples, input requests newly seen or no longer
// open (answered here or elsewhere, closed with their task: an ended task brings the stored
// state of each of its questions) and the ids of the tasks that ended in this batch (their final
// records are in `tasks`). An input request here is a question to announce only when it is open
// and its (task, key) was not seen before. A value type for
// queued signals to the GUI thread, which learns of finishes and questions only from here.
//
// The same type carries a snapshot in chunks (Engine::requestSnapshot → Engine::snapshotChunk):
// then snapshotId is the caller's request id (never 0), tasks are a run of stored rows (results
// left out), inputs are the pending input requests (first chunk only) and snapshotComplete is
// set on the last chunk. A change set from changesReady always has snapshotId 0.
struct ChangeSet
{
    QList<Store::TaskRecord> tasks;
    QList<Store::ProgressSample> samples;
    QList<Store::InputRequestRecord> inputs;
    QList<qint64> finished; // tasks that reached a terminal state (taskFinished() in this batch)
    qint64 snapshotId = 0;
    bool snapshotComplete = false;
    bool isEmpty() const
    {
        return tasks.isEmpty() && samples.isEmpty() && inputs.isEmpty() && finished.isEmpty();
    }
    bool isSnapshot() const { return snapshotId != 0; }
};

} // namespace Eddy::Monitor

Q_DECLARE_METATYPE(Eddy::Monitor::ChangeSet)
