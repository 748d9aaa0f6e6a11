#pragma once

#include "app/mcp/job.h"

#include <QSignalSpy>

#include <memory>

namespace Eddy::Test {

// Waits (spinning the event loop) until an Mcp::Job finished or `ms` passed, and hands the job
// back owned, so a test can read its result after finished() without racing its deleteLater.
template <typename J>
std::unique_ptr<J> finish(J *job, int ms = 90000)
{
    job->setAutoDelete(false);
    std::unique_ptr<J> owned(job);
    if (!job->isFinished()) {
        QSignalSpy spy(job, &Mcp::Job::finished);
        spy.wait(ms);
    }
    return owned;
}

} // namespace Eddy::Test
