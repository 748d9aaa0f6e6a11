#pragma once

#include "app/agent/agentsettings.h"

#include <QtGlobal>

namespace Eddy::Agent {
class Agent;
}

namespace Eddy::Cli {

class Invocation;

// eddyctl sessions, attach and agent: the named sessions, attaching stored tasks to one, and
// one headless agent turn in a conversation. Main thread.
class SessionCommands final
{
    Q_DISABLE_COPY_MOVE(SessionCommands)

public:
    explicit SessionCommands(Invocation &run);

    void sessions();
    void attach();
    void agent();

private:
    Invocation &m_run;
    Agent::Agent *m_agent = nullptr; // owned by the invocation (QObject parent)
    bool m_atLineStart = true;       // agent: streamed text ended with a newline
};

} // namespace Eddy::Cli
