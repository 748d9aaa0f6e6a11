#include "server/legacysession.h"

#include "server/secrets.h"

#include <chrono>

namespace Eddy::Server {

namespace {
constexpr std::size_t kMaxSessions = 10000;
constexpr std::size_t kMaxPendingPerSession = 1000;
}

std::string LegacySession::open(const std::string &tokenHash)
{
    std::string id = Secrets::randomId();
    if (id.empty())
        return id;
    const std::lock_guard lock(m_mutex);
    if (m_sessions.size() >= kMaxSessions) {
        // Forget the oldest session; its client will get 404 and initialize again.
        auto oldest = m_sessions.begin();
        for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it)
            if (it->second.openedMs < oldest->second.openedMs)
                oldest = it;
        m_sessions.erase(oldest);
    }
    Session s;
    s.tokenHash = tokenHash;
    s.openedMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count();
    m_sessions.emplace(id, std::move(s));
    return id;
}

bool LegacySession::isValid(const std::string &sessionId, const std::string &tokenHash) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_sessions.find(sessionId);
    return it != m_sessions.end() && Secrets::constantTimeEquals(it->second.tokenHash, tokenHash);
}

void LegacySession::close(const std::string &sessionId)
{
    const std::lock_guard lock(m_mutex);
    m_sessions.erase(sessionId);
}

void LegacySession::setLogLevel(const std::string &sessionId, const std::string &level)
{
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_sessions.find(sessionId); it != m_sessions.end())
        it->second.logLevel = level;
}

std::string LegacySession::logLevel(const std::string &sessionId) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_sessions.find(sessionId);
    return it != m_sessions.end() ? it->second.logLevel : std::string("info");
}

std::string LegacySession::registerElicitation(const std::string &sessionId,
                                               const std::string &taskId, const std::string &key)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_sessions.find(sessionId);
    const std::string requestId = "eddy-elicit-" + std::to_string(++m_nextRequest);
    if (it == m_sessions.end())
        return requestId;
    if (it->second.pending.size() >= kMaxPendingPerSession)
        it->second.pending.erase(it->second.pending.begin());
    it->second.pending[requestId] = {taskId, key};
    return requestId;
}

bool LegacySession::resolveElicitation(const std::string &sessionId, const std::string &requestId,
                                       std::string &taskId, std::string &key)
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_sessions.find(sessionId);
    if (it == m_sessions.end())
        return false;
    const auto p = it->second.pending.find(requestId);
    if (p == it->second.pending.end())
        return false;
    taskId = p->second.taskId;
    key = p->second.key;
    it->second.pending.erase(p);
    return true;
}

} // namespace Eddy::Server
