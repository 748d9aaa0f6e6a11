#pragma once

// The plain HTTP request and response the endpoint handler works on, independent of the
// socket code in HttpServer. A response is either a complete body or a stream (SSE), whose
// provider is called repeatedly on a dedicated thread until it calls done() or fails.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Eddy::Server {

// Writes to a streamed response; the HTTP layer adds the chunked framing.
class StreamSink final
{
public:
    std::function<bool(const char *data, std::size_t size)> write;
    std::function<void()> done;
};

// A request head (request line and header lines up to the empty line) parsed where its bytes lie.
struct HttpHead
{
    enum class Result {
        Incomplete, // no empty line yet: wait for more bytes
        Bad,        // malformed request line, header line or Content-Length: answer 400
        Complete
    };
    std::size_t size = 0;          // through the empty line: where the body begins
    std::size_t contentLength = 0; // Content-Length (repeats agree); 0 without one
    bool chunked = false; // a Transfer-Encoding header was present
};

struct HttpRequest;
// Parses the head at the start of bytes in one pass: fills request's method and path (query
// string dropped) and its headers with their Known slots, as views into bytes.
HttpHead::Result parseHead(std::string_view bytes, HttpRequest &request, HttpHead &head);

struct HttpRequest
{
    // The headers a request is routed and checked by, found once while parsing (indexHeaders)
    // so that each check is one array read instead of a scan of every header.
    enum class Known : unsigned char {
        Host,
        Origin,
        ContentType,
        Accept,
        Connection,
        Authorization,
        McpSessionId,
        McpMethod,
        McpName,
        McpProtocolVersion,
        ContentLength,
        TransferEncoding,
        Count
    };
    // Which Known header name is (case-insensitive); Known::Count for any other name.
    static Known knownOf(std::string_view name);

    std::string method;  // "POST", "GET", ...
    std::string path;    // without the query string
    bool http10 = false; // the request line says HTTP/1.0 (which needs no Host)
    // Names and values (surrounding whitespace trimmed) and the body are views: into storage
    // when the request owns its bytes (adopt()), or into memory that outlives the handler
    // call. Copies and moves keep views into storage pointing into their own storage.
    std::vector<std::pair<std::string_view, std::string_view>> headers;
    std::string_view body;

    HttpRequest() = default;
    HttpRequest(const HttpRequest &other);
    HttpRequest(HttpRequest &&other) noexcept;
    HttpRequest &operator=(const HttpRequest &other);
    HttpRequest &operator=(HttpRequest &&other) noexcept;

    // Copies bytes (which headers and body point into) into storage and points them there.
    void adopt(std::string_view bytes);
    // Fills the Known slots from headers; call after headers are complete.
    void indexHeaders();

    // Header names compare case-insensitively, as HTTP says.
    bool has_header(std::string_view name) const { return header(name) != nullptr; }
    std::string get_header_value(std::string_view name) const;
    // The first value of a header without copying it; null when absent.
    const std::string_view *header(std::string_view name) const;
    const std::string_view *header(Known name) const
    {
        const std::uint16_t i = m_known[std::size_t(name)];
        return i == kNone ? nullptr : &headers[i].second;
    }
    // The second Host header, null when there is at most one: a request with more than one is
    // invalid (RFC 9112 3.2). Found while parsing, so the usual request pays one array read.
    const std::string_view *repeatedHost() const
    {
        const std::uint16_t i = m_known[kRepeatedHost];
        return i == kNone ? nullptr : &headers[i].second;
    }

private:
    friend HttpHead::Result parseHead(std::string_view bytes, HttpRequest &request, HttpHead &head);
    // A request has fewer headers than this: its head is at most 64 KiB.
    static constexpr std::uint16_t kNone = 0xffff;
    // The slot after the Known ones: the index of a second Host header.
    static constexpr std::size_t kRepeatedHost = std::size_t(Known::Count);
    // Header i is named k: the first of each Known name fills its slot, a second Host the
    // kRepeatedHost one.
    void noteKnown(Known k, std::uint16_t i)
    {
        std::uint16_t &slot = m_known[std::size_t(k)];
        if (slot == kNone)
            slot = i;
        else if (k == Known::Host && m_known[kRepeatedHost] == kNone)
            m_known[kRepeatedHost] = i;
    }
    // Re-points views that point into [from, from + size) at the same offsets in storage.
    void rebase(const char *from, std::size_t size);

    std::string m_storage;
    using KnownSlots = std::array<std::uint16_t, kRepeatedHost + 1>;
    KnownSlots m_known = filledKnown();

    static constexpr KnownSlots filledKnown()
    {
        KnownSlots a{};
        for (auto &v : a)
            v = kNone;
        return a;
    }
};

struct HttpResponse
{
    using Provider = std::function<bool(std::size_t offset, StreamSink &sink)>;
    using Releaser = std::function<void(bool success)>;

    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    // A part of the body kept elsewhere and sent from there instead of copied (a task's stored
    // rendering): the body is body[0, sharedAt) + *shared + body[sharedAt, end). A front end
    // that needs the body in one piece calls flatten().
    std::shared_ptr<const std::string> shared;
    std::size_t sharedAt = 0;
    std::string contentType;
    Provider provider; // set: the body is streamed
    Releaser releaser; // called once when the stream ends

    void set_header(const std::string &name, const std::string &value)
    {
        headers.emplace_back(name, value);
    }
    void set_content(std::string content, const std::string &type)
    {
        shared.reset();
        body = std::move(content);
        contentType = type;
    }
    void set_chunked_content_provider(const std::string &type, Provider p, Releaser r = nullptr)
    {
        contentType = type;
        provider = std::move(p);
        releaser = std::move(r);
    }
    bool isStream() const { return static_cast<bool>(provider); }
    std::size_t bodySize() const { return body.size() + (shared ? shared->size() : 0); }
    void flatten()
    {
        if (shared)
            body.insert(std::min(sharedAt, body.size()), *shared);
        shared.reset();
    }
};

// Inline: every request compares each header name with several others.
inline bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = char(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

using HttpHandler = std::function<void(const HttpRequest &, HttpResponse &)>;
// Runs handler for both front ends; an exception costs one request (a 500), never the
// process and its running cases.
void runHandler(const HttpHandler &handler, const HttpRequest &request, HttpResponse &response);

} // namespace Eddy::Server
