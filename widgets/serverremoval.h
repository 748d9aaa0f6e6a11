#pragma once

#include <QCoreApplication>

class QWidget;

namespace Eddy {

class EngineBridge;
class ServerListModel;

// Server > Remove Server...: asks once (a box named "removeServerConfirm" with "confirmRemove" and
// "keepServer" buttons), then removes the server through the bridge. The store refuses a server
// that still has stored tasks (they stay, with their results); the engine reports that refusal as
// an operation failure, shown in the status bar.
class ServerRemoval final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::ServerRemoval)

public:
    static void
    ask(QWidget *parent, EngineBridge *bridge, const ServerListModel *servers, qint64 serverId);
};

} // namespace Eddy
