#include "app/mcp/job.h"

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
    m_abortHook = nullptr;
    emit finished();
    if (m_autoDelete)
        deleteLater();
}

void Job::abort()
{
    if (m_finished)
        return;
    if (auto hook = std::move(m_abortHook))
        hook();
    finish(Error::aborted());
}

} // namespace Eddy::Mcp
