#pragma once

#include "app/vocab/records.h"

#include <QList>

namespace Eddy::Cli {

class Invocation;

// eddyctl servers [remove NAME|URL | set NAME|URL]: the stored servers, removing one (its tasks
// kept as history unless --delete-tasks) and changing one's address, name or token. Main thread.
class ServerCommands final
{
    Q_DISABLE_COPY_MOVE(ServerCommands)

public:
    explicit ServerCommands(Invocation &run);

    void run();

private:
    void setServer(const Store::ServerRecord &server, const QList<Store::ServerRecord> &servers);

    Invocation &m_run;
};

} // namespace Eddy::Cli
