#pragma once

#include "app/vocab/records.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy::Cli {

class Invocation;

// Reviewing past sweeps from the command line: eddyctl note, tag, baseline, pause and resume
// (each written through the engine's Review, so an open window shows it as it shows any other
// process's change), the sweep report, and thinning old runs' progress samples. Main thread.
class ReviewCommands final
{
    Q_DISABLE_COPY_MOVE(ReviewCommands)

public:
    explicit ReviewCommands(Invocation &run);

    void note();
    void tag();
    void baseline();
    void pause(bool paused);
    void report();
    void samples();

private:
    struct Target
    {
        std::optional<Store::SweepRecord> sweep;     // "sweep SWEEP"
        std::optional<Store::CaseRecord> caseRecord; // TASK: its case
        QString what;                                // "task 12", "sweep 3"
        QStringList words;                           // what follows the target
    };
    // TASK (its case) or "sweep SWEEP", read from the opened database; fail() when not there.
    std::optional<Target> reviewTarget(const QString &usage);
    // SWEEP, the word after the command; fail() when it is not a number.
    std::optional<qint64> sweepArgument();

    Invocation &m_run;
};

} // namespace Eddy::Cli
