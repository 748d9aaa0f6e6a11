#pragma once

#include "models/enginebridge.h"

#include <QObject>

#include <functional>
#include <optional>

namespace Eddy {

class TaskTableModel;

// Shows in the window's session what another process (eddyctl, a second Eddy) journals into the
// same database: a sweep submitted into the shown session, or without any session, is listed at
// once; one without a session also joins the shown session for good (stored), as work started
// beside the window belongs to the study on screen. "All sessions" lists everything anyway. The
// tasks then come and change like the window's own (EngineBridge → Engine::changesReady).
class SharedWorkFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedWorkFollower)

public:
    // session: the session the window shows now (empty = all sessions).
    SharedWorkFollower(EngineBridge *bridge,
                       TaskTableModel *tasks,
                       std::function<std::optional<qint64>()> session,
                       QObject *parent = nullptr);

private:
    void onWork(const EngineBridge::SharedWork &work);

    EngineBridge *m_bridge;
    TaskTableModel *m_tasks;
    std::function<std::optional<qint64>()> m_session;
};

} // namespace Eddy
