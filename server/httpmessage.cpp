#include "server/httpmessage.h"

#include "server/log.h"

#include <cstdint>
#include <exception>
#include <utility>

namespace Eddy::Server {

namespace {

constexpr std::array<unsigned char, 256> lowerTable()
{
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[std::size_t(c)]
            = (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : (unsigned char)(c);
    return t;
}
constexpr std::array<unsigned char, 256> kLower = lowerTable();

// equalsIgnoreCase against a name already in lower case: one table read per byte.
bool equalsLower(std::string_view name, std::string_view lower)
{
    if (name.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (kLower[static_cast<unsigned char>(name[i])] != static_cast<unsigned char>(lower[i]))
            return false;
    return true;
}

} // namespace

HttpRequest::HttpRequest(const HttpRequest &other)
{
    *this = other;
}

HttpRequest::HttpRequest(HttpRequest &&other) noexcept
{
    *this = std::move(other);
}

HttpRequest &HttpRequest::operator=(const HttpRequest &other)
{
    if (this == &other)
        return *this;
    method = other.method;
    path = other.path;
    headers = other.headers;
    body = other.body;
    m_storage = other.m_storage;
    m_known = other.m_known;
    rebase(other.m_storage.data(), other.m_storage.size());
    return *this;
}

HttpRequest &HttpRequest::operator=(HttpRequest &&other) noexcept
{
    if (this == &other)
        return *this;
    // A short string moves by copy (small-string buffer), so the views are re-pointed.
    const char *from = other.m_storage.data();
    const std::size_t size = other.m_storage.size();
    method = std::move(other.method);
    path = std::move(other.path);
    headers = std::move(other.headers);
    body = other.body;
    m_storage = std::move(other.m_storage);
    m_known = other.m_known;
    rebase(from, size);
    other.headers.clear();
    other.body = {};
    other.m_storage.clear();
    other.m_known = filledKnown();
    return *this;
}

void HttpRequest::adopt(std::string_view bytes)
{
    // A reused request gives back what one large request made it hold.
    constexpr std::size_t kKeptBytes = 64 * 1024;
    if (m_storage.capacity() > kKeptBytes && bytes.size() <= kKeptBytes)
        std::string().swap(m_storage);
    m_storage.assign(bytes.data(), bytes.size());
    rebase(bytes.data(), bytes.size());
}

void HttpRequest::rebase(const char *from, std::size_t size)
{
    if (from == m_storage.data())
        return;
    const auto begin = reinterpret_cast<std::uintptr_t>(from);
    const auto fix = [&](std::string_view &v) {
        const auto p = reinterpret_cast<std::uintptr_t>(v.data());
        if (p >= begin && p - begin <= size)
            v = std::string_view(m_storage.data() + (p - begin), v.size());
    };
    for (auto &[name, value] : headers) {
        fix(name);
        fix(value);
    }
    fix(body);
}

void HttpRequest::indexHeaders()
{
    m_known = filledKnown();
    const auto slot = [](std::string_view name) -> int {
        using K = Known;
        // By length first: most names then need no comparison at all.
        switch (name.size()) {
        case 4:
            return equalsLower(name, "host") ? int(K::Host) : -1;
        case 6:
            return equalsLower(name, "origin")   ? int(K::Origin)
                   : equalsLower(name, "accept") ? int(K::Accept)
                                                 : -1;
        case 8:
            return equalsLower(name, "mcp-name") ? int(K::McpName) : -1;
        case 10:
            return equalsLower(name, "connection")   ? int(K::Connection)
                   : equalsLower(name, "mcp-method") ? int(K::McpMethod)
                                                     : -1;
        case 12:
            return equalsLower(name, "content-type") ? int(K::ContentType) : -1;
        case 13:
            return equalsLower(name, "authorization") ? int(K::Authorization) : -1;
        case 14:
            return equalsLower(name, "mcp-session-id") ? int(K::McpSessionId) : -1;
        case 20:
            return equalsLower(name, "mcp-protocol-version") ? int(K::McpProtocolVersion) : -1;
        default:
            return -1;
        }
    };
    for (std::size_t i = 0; i < headers.size() && i < kNone; ++i) {
        const int k = slot(headers[i].first);
        if (k >= 0 && m_known[std::size_t(k)] == kNone)
            m_known[std::size_t(k)] = std::uint16_t(i);
    }
}

std::string HttpRequest::get_header_value(std::string_view name) const
{
    const std::string_view *value = header(name);
    return value ? std::string(*value) : std::string();
}

const std::string_view *HttpRequest::header(std::string_view name) const
{
    for (const auto &[k, v] : headers)
        if (equalsIgnoreCase(k, name))
            return &v;
    return nullptr;
}

void runHandler(const HttpHandler &handler, const HttpRequest &request, HttpResponse &response)
{
    try {
        handler(request, response);
    } catch (const std::exception &e) {
        Log::error(std::string("request handler failed: ") + e.what());
        response = HttpResponse();
        response.status = 500;
    }
}

} // namespace Eddy::Server
