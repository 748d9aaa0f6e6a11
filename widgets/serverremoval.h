#pragma once

#include <QCoreApplication>

class QWidget;

namespace Eddy {

class EngineBridge;
class ServerListModel;

// Server > Remove Server...: counts the server's stored tasks (and the running ones) through the
// bridge, then asks once in a box named "removeServerConfirm". Without tasks: "confirmRemove" or
// "keepServer". With tasks: "removeKeepTasks" (the default: the server is retired, its tasks kept
// as history and its running ones no longer watched), "removeDeleteTasks" (names the count;
// deletes them with it) or "keepServer". The bundled local server's box says what happens at
// the next start. Failures come back from the engine as operation failures (status bar).
class ServerRemoval final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::ServerRemoval)

public:
    static void
    ask(QWidget *parent, EngineBridge *bridge, const ServerListModel *servers, qint64 serverId);

private:
    struct Target
    {
        qint64 id = 0;
        QString name;
        QString url;
        int tasks = 0;
        int live = 0;
    };
    static void confirm(QWidget *parent, EngineBridge *bridge, const Target &target);
};

} // namespace Eddy
