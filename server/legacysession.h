#pragma once

// 2025-11-25 sessions: the Mcp-Session-Id handed out by initialize, the token that opened it,
// and the server-to-client elicitation requests sent on its tasks/result streams, so that the
// client's POSTed JSON-RPC response finds its task. In memory only: after a restart a client
// gets 404 and initializes again, as the 2025-11-25 transport prescribes. Thread-safe.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace Eddy::Server {

class LegacySession final
{
public:
    // Opens a session for this token; returns its id (empty if the CSPRNG failed).
    std::string open(const std::string &tokenHash);
    // True when the session exists and belongs to the token.
    bool isValid(const std::string &sessionId, const std::string &tokenHash) const;
    void close(const std::string &sessionId);
    // logging/setLevel: the least level of notifications/message the client wants ("info"
    // until it sets one).
    void setLogLevel(const std::string &sessionId, const std::string &level);
    std::string logLevel(const std::string &sessionId) const;

    // Remembers an elicitation/create request sent for (taskId, key); returns its JSON-RPC id.
    std::string registerElicitation(const std::string &sessionId, const std::string &taskId,
                                    const std::string &key);
    // Looks up (and forgets) the request a client response answers.
    bool resolveElicitation(const std::string &sessionId, const std::string &requestId,
                            std::string &taskId, std::string &key);

private:
    struct Pending
    {
        std::string taskId;
        std::string key;
    };
    struct Session
    {
        std::string tokenHash;
        std::int64_t openedMs = 0;
        std::string logLevel = "info";
        std::map<std::string, Pending> pending;
    };

    mutable std::mutex m_mutex;
    std::map<std::string, Session> m_sessions;
    std::uint64_t m_nextRequest = 0;
};

} // namespace Eddy::Server
