#pragma once

#include <QString>

#include <optional>

namespace Eddy::Cli {

class Invocation;

// eddyctl discover, tools, call and adapter: what one server says about itself and its tools,
// one journalled call of a tool, and the server's job adapter. Main thread.
class ToolCommands final
{
    Q_DISABLE_COPY_MOVE(ToolCommands)

public:
    explicit ToolCommands(Invocation &run);

    void discover();
    void tools();
    void call();
    void adapter();

private:
    // The server of the command's only word URL (added when new), the database opened; fail()
    // (or finish) when not.
    std::optional<qint64> urlArgument(const QString &usage);

    Invocation &m_run;
    bool m_wait = false;    // call: until the task ends (--wait, or a streamed call)
    qint64 m_waitTask = -1; // call: the task the call became
};

} // namespace Eddy::Cli
