#pragma once

#include "app/cli/invocation.h"

#include <QObject>
#include <QStringList>

#include <memory>

namespace Eddy::Cli {

class HandleCommands;
class ReviewCommands;
class ServerCommands;
class SessionCommands;
class TaskCommands;
class ToolCommands;

// One eddyctl run: reads the command line, hands the command to the class of its group (over
// the run's one Invocation), and ends with an exit code (0 ok, 1 failure, 2 usage) through
// done(). Main thread.
class Ctl final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Ctl)

public:
    explicit Ctl(QStringList arguments, QObject *parent = nullptr);
    ~Ctl() override;
    // Starts the command; done() follows (possibly at once, from the event loop).
    void start();

signals:
    void done(int exitCode);

private:
    void dispatch(const QString &command);

    QStringList m_arguments;
    Invocation m_run;
    // The group of the command being run; it lives as long as the run.
    std::unique_ptr<ToolCommands> m_tools;
    std::unique_ptr<TaskCommands> m_tasks;
    std::unique_ptr<SessionCommands> m_sessions;
    std::unique_ptr<HandleCommands> m_handles;
    std::unique_ptr<ServerCommands> m_servers;
    std::unique_ptr<ReviewCommands> m_review;
};

} // namespace Eddy::Cli
