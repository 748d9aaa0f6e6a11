#pragma once

#include "app/store/records.h"

#include <QList>
#include <QMetaType>

namespace Eddy::Monitor {

// What changed since the engine's last emission (at most one per batch interval): the latest
// record of every changed task, new progress samples and newly seen input requests. A value
// type for queued signals to the GUI thread.
struct ChangeSet
{
    QList<Store::TaskRecord> tasks;
    QList<Store::ProgressSample> samples;
    QList<Store::InputRequestRecord> inputs;
    bool isEmpty() const { return tasks.isEmpty() && samples.isEmpty() && inputs.isEmpty(); }
};

} // namespace Eddy::Monitor

Q_DECLARE_METATYPE(Eddy::Monitor::ChangeSet)
