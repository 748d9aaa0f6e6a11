#include "server/httpmessage.h"

#include "server/log.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <exception>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// A header name in lower case (letters and '-'), compared case-insensitively with a name of the
// same length a word at a time: a letter position matches either case (bit 0x20 forced on), any
// other position matches exactly. Words overlap at the end instead of a byte loop.
template<std::size_t N>
struct LowerName
{
    static constexpr std::size_t size = N - 1;
    static constexpr std::size_t width = size >= 8 ? 8 : 4;
    static constexpr std::size_t words = (size + width - 1) / width;
    static_assert(size >= 4);

    std::string_view text;
    std::array<std::uint64_t, words> value{};
    std::array<std::uint64_t, words> mask{};

    constexpr LowerName(const char (&s)[N])
        : text(s, size)
    {
        for (std::size_t w = 0; w < words; ++w) {
            for (std::size_t i = 0; i < width; ++i) {
                const auto c = static_cast<unsigned char>(s[offset(w) + i]);
                value[w] |= std::uint64_t(c) << (8 * i);
                if (c >= 'a' && c <= 'z')
                    mask[w] |= std::uint64_t(0x20) << (8 * i);
            }
        }
    }
    static constexpr std::size_t offset(std::size_t w)
    {
        return w + 1 < words ? w * width : size - width;
    }
    // p holds size bytes.
    bool matches(const char *p) const
    {
        if constexpr (std::endian::native != std::endian::little) {
            return equalsLower(std::string_view(p, size), text);
        } else {
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t x = 0;
                std::memcpy(&x, p + offset(w), width);
                if ((x | mask[w]) != value[w])
                    return false;
            }
            return true;
        }
    }
};

constexpr LowerName kHost("host");
constexpr LowerName kOrigin("origin");
constexpr LowerName kAccept("accept");
constexpr LowerName kMcpName("mcp-name");
constexpr LowerName kConnection("connection");
constexpr LowerName kMcpMethod("mcp-method");
constexpr LowerName kContentType("content-type");
constexpr LowerName kAuthorization("authorization");
constexpr LowerName kMcpSessionId("mcp-session-id");
constexpr LowerName kContentLength("content-length");
constexpr LowerName kTransferEncoding("transfer-encoding");
constexpr LowerName kMcpProtocolVersion("mcp-protocol-version");

// The first ':' or '\r' in [p, end), or end.
inline const char *findColonOrCr(const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i colon = _mm_set1_epi8(':');
    const __m128i cr = _mm_set1_epi8('\r');
    for (; end - p >= 16; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const int m
            = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, cr)));
        if (m != 0)
            return p + __builtin_ctz(unsigned(m));
    }
#endif
    while (p < end && *p != ':' && *p != '\r')
        ++p;
    return p;
}

// The first '\r' in [p, end), or end.
inline const char *findCr(const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i cr = _mm_set1_epi8('\r');
    for (; end - p >= 16; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const int m = _mm_movemask_epi8(_mm_cmpeq_epi8(v, cr));
        if (m != 0)
            return p + __builtin_ctz(unsigned(m));
    }
#endif
    while (p < end && *p != '\r')
        ++p;
    return p;
}

// The first "\r\n" at or after p, or null when [p, end) holds none yet.
inline const char *findCrLf(const char *p, const char *end)
{
    while (true) {
        p = findCr(p, end);
        if (end - p < 2)
            return nullptr;
        if (p[1] == '\n')
            return p;
        ++p;
    }
}

inline bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// Above ' ': a byte that trimming keeps at either end.
inline bool isText(char c)
{
    return static_cast<unsigned char>(c) > ' ';
}

// Without surrounding spaces and tabs (and a stray '\r' at the end).
inline std::string_view trimmed(const char *from, const char *to)
{
    // Each test first asks whether the byte is at most ' ' (so are tab and '\r'): one compare
    // for a byte that is not whitespace.
    while (from < to && static_cast<unsigned char>(*from) <= ' ' && isBlank(*from))
        ++from;
    while (to > from && static_cast<unsigned char>(to[-1]) <= ' '
           && (isBlank(to[-1]) || to[-1] == '\r'))
        --to;
    return std::string_view(from, std::size_t(to - from));
}

inline void assignIfChanged(std::string &s, std::string_view v)
{
    // A poll's method and path are those of the last poll: no copy then.
    if (s.size() != v.size() || std::memcmp(s.data(), v.data(), v.size()) != 0)
        s.assign(v);
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
    http10 = other.http10;
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
    http10 = other.http10;
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

namespace {

// HttpRequest::knownOf, inlined into parseHead.
[[gnu::always_inline]] inline HttpRequest::Known knownName(std::string_view name)
{
    using K = HttpRequest::Known;
    const char *p = name.data();
    // By length first: most names then need no comparison at all.
    switch (name.size()) {
    case 4:
        return kHost.matches(p) ? K::Host : K::Count;
    case 6:
        return kOrigin.matches(p) ? K::Origin : kAccept.matches(p) ? K::Accept : K::Count;
    case 8:
        return kMcpName.matches(p) ? K::McpName : K::Count;
    case 10:
        return kConnection.matches(p)  ? K::Connection
               : kMcpMethod.matches(p) ? K::McpMethod
                                       : K::Count;
    case 12:
        return kContentType.matches(p) ? K::ContentType : K::Count;
    case 13:
        return kAuthorization.matches(p) ? K::Authorization : K::Count;
    case 14:
        return kContentLength.matches(p)  ? K::ContentLength
               : kMcpSessionId.matches(p) ? K::McpSessionId
                                          : K::Count;
    case 17:
        return kTransferEncoding.matches(p) ? K::TransferEncoding : K::Count;
    case 20:
        return kMcpProtocolVersion.matches(p) ? K::McpProtocolVersion : K::Count;
    default:
        return K::Count;
    }
}

} // namespace

HttpRequest::Known HttpRequest::knownOf(std::string_view name)
{
    return knownName(name);
}

void HttpRequest::indexHeaders()
{
    m_known = filledKnown();
    for (std::size_t i = 0; i < headers.size() && i < kNone; ++i) {
        const Known k = knownOf(headers[i].first);
        if (k != Known::Count)
            noteKnown(k, std::uint16_t(i));
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

[[gnu::hot]] HttpHead::Result parseHead(std::string_view bytes, HttpRequest &request, HttpHead &head)
{
    // One pass: each line's colon and end are found once (a vector compare per 16 bytes), and
    // each name is classified by its length and a word compare or two. Lines end at "\r\n"
    // only; a lone '\r' or '\n' is part of its line. Nothing is decided before the empty line
    // has arrived: a malformed head answers 400 only once it is whole.
    const char *const begin = bytes.data();
    const char *const end = begin + bytes.size();
    request.headers.clear();
    request.m_known = HttpRequest::filledKnown();
    request.http10 = false;
    head = HttpHead();
    const char *eol = findCrLf(begin, end);
    if (!eol)
        return HttpHead::Result::Incomplete;
    bool bad = false;
    {
        const std::string_view line(begin, std::size_t(eol - begin));
        std::size_t sp1 = 0;
        while (sp1 < line.size() && line[sp1] != ' ')
            ++sp1;
        if (sp1 == line.size())
            sp1 = std::string_view::npos;
        // The usual version needs no search for the last space.
        constexpr std::string_view kHttp11 = " HTTP/1.1";
        const std::size_t sp2 = line.size() >= kHttp11.size()
                                        && std::memcmp(line.data() + line.size() - kHttp11.size(),
                                                       kHttp11.data(),
                                                       kHttp11.size())
                                               == 0
                                    ? line.size() - kHttp11.size()
                                    : line.rfind(' ');
        if (sp1 == std::string_view::npos || sp2 == sp1) {
            bad = true;
        } else {
            assignIfChanged(request.method, line.substr(0, sp1));
            std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
            request.http10 = line.substr(sp2 + 1) == "HTTP/1.0";
            for (std::size_t i = 0; i < target.size(); ++i) {
                if (target[i] == '?') {
                    target = target.substr(0, i);
                    break;
                }
            }
            assignIfChanged(request.path, target);
        }
    }
    bool haveLength = false;
    const char *p = eol + 2;
    while (true) {
        const char *q = p;
        while (true) {
            q = findColonOrCr(q, end);
            if (end - q < 2)
                return HttpHead::Result::Incomplete;
            if (*q == ':' || q[1] == '\n')
                break;
            ++q; // a lone '\r' in the name
        }
        if (*q == '\r') {
            if (q == p) { // the empty line
                head.size = std::size_t(q + 2 - begin);
                break;
            }
            bad = true; // a header line without a colon
            p = q + 2;
            continue;
        }
        const char *e = findCrLf(q + 1, end);
        if (!e)
            return HttpHead::Result::Incomplete;
        if (q == p) {
            bad = true; // nothing before the colon
        } else if (!bad) {
            // The usual "Name: value" needs one look at each end instead of trimming loops.
            const char *v = q + 1 < e && q[1] == ' ' ? q + 2 : q + 1;
            const std::string_view value = v < e && isText(*v) && isText(e[-1])
                                               ? std::string_view(v, std::size_t(e - v))
                                               : trimmed(v, e);
            const std::string_view name = isText(*p) && isText(q[-1])
                                              ? std::string_view(p, std::size_t(q - p))
                                              : trimmed(p, q);
            const HttpRequest::Known k = knownName(name);
            if (k != HttpRequest::Known::Count && request.headers.size() < HttpRequest::kNone)
                request.noteKnown(k, std::uint16_t(request.headers.size()));
            request.headers.emplace_back(name, value);
            if (k == HttpRequest::Known::ContentLength) {
                // Digits only (no sign, no list). Repeats must agree (RFC 9112 6.3): lengths
                // that differ frame the body two ways, and a proxy in front may have taken the
                // other one (request smuggling).
                std::size_t length = 0;
                bad = value.empty() || value.size() > 12;
                for (std::size_t i = 0; i < value.size() && !bad; ++i) {
                    const unsigned d = unsigned(static_cast<unsigned char>(value[i])) - '0';
                    bad = d > 9;
                    length = length * 10 + d;
                }
                bad = bad || (haveLength && length != head.contentLength);
                haveLength = true;
                head.contentLength = length;
            } else if (k == HttpRequest::Known::TransferEncoding) {
                head.chunked = true;
            }
        }
        p = e + 2;
    }
    return bad ? HttpHead::Result::Bad : HttpHead::Result::Complete;
}

[[gnu::hot]] void runHandler(const HttpHandler &handler, const HttpRequest &request, HttpResponse &response)
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
