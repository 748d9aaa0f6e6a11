#include "app/mcp/job.h"

#include <QPointer>

#include <utility>

namespace Eddy::Mcp {

Job::Job(QObject *parent)
    : QObject(parent)
{
}

Job::~Job() = default;

void Job::finish(const Error &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    m_abortTarget.reset();
    // Deleted as soon as finished() returns, not by deleteLater: a posted event costs every poll
    // an eventfd write and one more event-loop turn. A slot may have deleted it already.
    QPointer<Job> guard(this);
    emit finished();
    if (guard && m_autoDelete)
        delete this;
}

void Job::abort()
{
    if (m_finished)
        return;
    if (const auto target = std::exchange(m_abortTarget, {}).lock())
        target->abort();
    finish(Error::aborted());
}

} // namespace Eddy::Mcp
