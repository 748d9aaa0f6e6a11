#pragma once

#include <QString>

#include <curl/curl.h>

namespace Eddy::Net {

// The outcome of one HTTP exchange at the transport level: a CURLcode plus a message a user can
// act on. HTTP statuses are not errors here; the MCP layer judges them.
class Error final
{
public:
    enum class Kind { None, Transport, Timeout, TooLarge, Aborted };

    Error() = default;
    Error(Kind kind, CURLcode code, QString message)
        : m_kind(kind), m_code(code), m_message(std::move(message)) {}

    static Error fromCurl(CURLcode code, const char *detail);

    bool isOk() const { return m_kind == Kind::None; }
    Kind kind() const { return m_kind; }
    CURLcode code() const { return m_code; }
    QString message() const { return m_message; }

private:
    Kind m_kind = Kind::None;
    CURLcode m_code = CURLE_OK;
    QString m_message;
};

} // namespace Eddy::Net
