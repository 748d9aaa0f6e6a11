#pragma once

#include <QtGlobal>

namespace Eddy::Cli {

class Invocation;

// eddyctl handles export and import: task references handed to and taken over from other MCP
// clients. They hold task ids, which are bearer secrets. Main thread.
class HandleCommands final
{
    Q_DISABLE_COPY_MOVE(HandleCommands)

public:
    explicit HandleCommands(Invocation &run);

    void run(); // export or import, by the word after "handles"

private:
    void exportHandles();
    void importHandles();

    Invocation &m_run;
    int m_rejected = 0; // import: handles refused
};

} // namespace Eddy::Cli
