#pragma once

#include "app/vocab/records.h"

#include <QSet>
#include <QString>

#include <optional>

namespace Eddy::Cli {

class Invocation;

// eddyctl sweep submit, tasks, watch, answer, cancel, result and export: submitting a sweep,
// following the stored tasks, and what one task or sweep holds. Main thread.
class TaskCommands final
{
    Q_DISABLE_COPY_MOVE(TaskCommands)

public:
    explicit TaskCommands(Invocation &run);

    void sweepSubmit();
    void tasks();
    void watch();
    void answer();
    void cancel();
    void result();
    void exportSweep();

private:
    // TASK (the first word after the command) of a command that takes `argCount` words; fail()
    // when not.
    std::optional<qint64> taskArgument(qsizetype argCount, const QString &usage);
    // A command's only word TASK, read from the opened database; fail() when not there.
    std::optional<Store::TaskRecord> storedTaskArgument(const QString &usage);
    // watch: paused sweeps with unsent cases, and how to resume them.
    void tellPausedSweeps();

    Invocation &m_run;
    QSet<qint64> m_expectCases; // sweep submit: cases whose submission is awaited
    int m_rejected = 0;
};

} // namespace Eddy::Cli
