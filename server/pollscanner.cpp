#include "server/pollscanner.h"

#include "server/spells.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// One loop over the tokens with an explicit nesting counter, not a recursive descent: a poll
// comes every few milliseconds and finds the caches cold, so the code is kept to a few cache
// lines and the common path (a compact body) to a few instructions per byte.
//
// Bounds: the body must end, after white space, with the top object's '}'. That byte ends every
// white space, number and literal run below, so those loops need no end check; only strings
// (which may contain '}') are bounded by the body's real end. Every token but a '}' is
// followed by at least that '}', so the cursor never passes it; closing a '}' checks whether it
// was the last one.

namespace Eddy::Server {

namespace {

// Deeper than any poll: hand such bodies to the full parser. A value nested in more than
// kMaxDepth containers (the top object counts) is refused.
constexpr unsigned kMaxDepth = 32;
// At most 17 characters without an exponent: always finite for nlohmann too (and an integer
// of that length fits in 64 bits).
constexpr std::ptrdiff_t kMaxNumberChars = 17;
constexpr std::ptrdiff_t kMaxIntegerDigits = 15;

// The members the scan reads: strings (and the id), then objects. Each one names one bit of
// the duplicates mask.
enum Field : unsigned {
    None,
    Jsonrpc,
    Method,
    TaskId,
    Version,
    Id,
    Params, // the first object
    Meta,
    Capabilities,
    Extensions,
    Tasks,
};

constexpr bool seenField(unsigned seen, Field field)
{
    return (seen >> field) & 1;
}

// The objects the fields live in, by their nesting depth (the top object is 1). Each is
// entered only through the field of the one before: params, _meta, clientCapabilities,
// extensions.
constexpr unsigned kTop = 1, kParams = 2, kMeta = 3, kCapabilities = 4, kExtensions = 5;

inline bool isDigit(char c)
{
    return unsigned(c - '0') < 10u;
}

inline bool isSpace(char c)
{
    constexpr std::uint64_t space
        = (1ull << ' ') | (1ull << '\t') | (1ull << '\n') | (1ull << '\r');
    const auto u = static_cast<unsigned char>(c);
    return u <= ' ' && (space >> u) & 1;
}

// Stops at the body's last '}' at the latest.
inline const char *skipSpace(const char *p)
{
    while (isSpace(*p))
        ++p;
    return p;
}

// The same out of line, for where a compact body has no white space.
[[gnu::noinline, gnu::cold]] const char *skipSomeSpace(const char *p)
{
    return skipSpace(p);
}

// The field named by the key whose text starts at k, when that key is a member of the known
// object at depth `in`, with `close` at the key's closing quote; otherwise None. Each name is
// compared with its closing quote, so a match is the whole (plain) key; any other key is read
// as a string that names no field.
inline Field knownKey(unsigned in, const char *k, const char *end, const char *&close)
{
    const auto is = [&]<std::size_t N>(const char(&quoted)[N], Field field) {
        if (end - k < std::ptrdiff_t(N - 1) || !spells(k, quoted))
            return None;
        close = k + N - 2;
        return field;
    };
    switch (in) {
    case kTop:
        switch (*k) {
        case 'i':
            return is("id\"", Id);
        case 'j':
            return is("jsonrpc\"", Jsonrpc);
        case 'm':
            return is("method\"", Method);
        case 'p':
            return is("params\"", Params);
        default:
            return None;
        }
    case kParams:
        return *k == 't' ? is("taskId\"", TaskId) : *k == '_' ? is("_meta\"", Meta) : None;
    case kMeta:
        // Both start with "io.modelcontextprotocol/".
        if (end - k < 25)
            return None;
        if (k[24] == 'p')
            return is("io.modelcontextprotocol/protocolVersion\"", Version);
        if (k[24] == 'c')
            return is("io.modelcontextprotocol/clientCapabilities\"", Capabilities);
        return None;
    case kCapabilities:
        return *k == 'e' ? is("extensions\"", Extensions) : None;
    case kExtensions:
        return *k == 'i' ? is("io.modelcontextprotocol/tasks\"", Tasks) : None;
    default:
        return None;
    }
}

// Bit i set: byte i of the 16 at p ends or disqualifies a plain string (a quote, a backslash,
// a control character or a byte from 0x80).
inline unsigned specialBytes(const char *p)
{
    using Bytes = signed char __attribute__((vector_size(16)));
    Bytes v;
    std::memcpy(&v, p, sizeof v);
    // Signed: a control character and a byte from 0x80 are both below ' '.
    const Bytes hit = (v == '"') | (v == '\\') | (v < ' ');
#if defined(__SSE2__) && !defined(EDDY_POLLSCANNER_GENERIC)
    return unsigned(_mm_movemask_epi8(reinterpret_cast<__m128i>(hit)));
#else
    std::uint64_t half[2];
    std::memcpy(half, &hit, sizeof half);
    if constexpr (std::endian::native == std::endian::big) {
        half[0] = __builtin_bswap64(half[0]);
        half[1] = __builtin_bswap64(half[1]);
    }
    // One bit per byte: the top bit of each byte, gathered into the top byte by a multiply.
    constexpr std::uint64_t tops = 0x8080808080808080u, gather = 0x0002040810204081u;
    const unsigned lo = unsigned(((half[0] & tops) * gather) >> 56);
    const unsigned hi = unsigned(((half[1] & tops) * gather) >> 56);
    return lo | hi << 8;
#endif
}

// The closing quote of the plain string whose text starts at p: printable ASCII (0x20-0x7f)
// without a backslash. Null when the string has anything else or does not end before `end`.
// Sixteen bytes at a time while p <= wide, then byte by byte.
inline const char *plainStringEnd(const char *p, const char *wide, const char *end)
{
    while (p <= wide) {
        if (const unsigned special = specialBytes(p)) {
            p += std::countr_zero(special);
            return *p == '"' ? p : nullptr;
        }
        p += 16;
    }
    for (; p < end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"')
            return p;
        if (c < 0x20 || c >= 0x80 || c == '\\')
            return nullptr;
    }
    return nullptr;
}

} // namespace

[[gnu::hot]] bool PollScanner::scan(std::string_view body, Fields &out)
{
    out = Fields();
    const char *p = body.data();
    const char *const end = p + body.size();
    const char *last = end; // the top object's '}'
    while (last != p && isSpace(last[-1]))
        --last;
    if (last == p || *--last != '}')
        return false;
    // Where 16 bytes can still be read (a string's text starts at the third byte at the
    // earliest, so a short body never reads that way).
    const char *const wide = body.size() >= 16 ? end - 16 : p;
    p = skipSpace(p);
    if (*p != '{')
        return false;
    ++p;

    unsigned depth = 1;       // containers open around the cursor
    unsigned known = kTop;    // depth of the innermost open object whose fields are read
    std::uint64_t arrays = 0; // bit i: the container i levels out is an array
    unsigned seen = 0;        // the fields read so far, by bit
    const char *q = nullptr;
    // At c, perhaps after white space.
    const auto at = [&p](char c) {
        if (*p != c)
            p = skipSomeSpace(p);
        return *p == c;
    };

    // Each step tests for the token a compact body has there first, and skips white space
    // only when that fails.
objectStart: // just after a '{'
    p = skipSpace(p);
    if (*p == '}')
        goto close;
    if (depth > kMaxDepth)
        return false;
key: // at a member's key, or white space before it
    if (!at('"'))
        return false;
    if (depth == known) {
        if (const Field field = knownKey(known, p + 1, end, q); field != None) {
            // nlohmann keeps the last of duplicates: let it decide.
            if (seenField(seen, field))
                return false;
            seen |= 1u << field;
            p = q + 1;
            if (!at(':'))
                return false;
            ++p;
            if (field >= Params) {
                if (!at('{'))
                    return false;
                if (field != Tasks)
                    known = depth + 1;
                ++p;
                ++depth;
                arrays <<= 1;
                goto objectStart;
            }
            if (!at('"')) {
                if (field != Id)
                    return false;
                // A short integer written the way nlohmann writes it back ("-0" reads back
                // as "0").
                const char *start = p;
                if (*p == '-')
                    ++p;
                const char *digits = p;
                while (isDigit(*p))
                    ++p;
                const std::ptrdiff_t count = p - digits;
                if (count == 0 || count > kMaxIntegerDigits || (*digits == '0' && p != start + 1))
                    return false;
                out.id = std::string_view(start, std::size_t(p - start));
                goto next;
            }
            if (!(q = plainStringEnd(p + 1, wide, end)))
                return false;
            const std::string_view text(p + 1, std::size_t(q - p - 1));
            switch (field) {
            case Jsonrpc:
                out.jsonrpc = text;
                break;
            case Method:
                out.method = text;
                break;
            case TaskId:
                out.taskId = text;
                break;
            case Version:
                out.protocolVersion = text;
                break;
            default:
                out.id = std::string_view(p, text.size() + 2);
                break;
            }
            p = q + 1;
            goto next;
        }
    }
    if (!(q = plainStringEnd(p + 1, wide, end)))
        return false;
    p = q + 1;
    if (!at(':'))
        return false;
    ++p;
    goto value;

arrayStart: // just after a '['
    p = skipSpace(p);
    if (*p == ']')
        goto close;
    if (depth > kMaxDepth)
        return false;
value: // at a value nobody reads, or white space before it
    if (*p == '{') {
        ++p;
        ++depth;
        arrays <<= 1;
        goto objectStart;
    }
    if (*p == '"') {
        if (!(q = plainStringEnd(p + 1, wide, end)))
            return false;
        p = q + 1;
        goto next;
    }
    switch (*p) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
        ++p;
        goto value;
    case '[':
        ++p;
        ++depth;
        arrays = arrays << 1 | 1;
        goto arrayStart;
    case 't':
        if (end - p < 4 || !spells(p, "true"))
            return false;
        p += 4;
        goto next;
    case 'f':
        if (end - p < 5 || !spells(p, "false"))
            return false;
        p += 5;
        goto next;
    case 'n':
        if (end - p < 4 || !spells(p, "null"))
            return false;
        p += 4;
        goto next;
    default: {
        // Few digits and no exponent (the 'e' fails as whatever follows a value), so that no
        // number can overflow in the full parser.
        const char *start = p;
        if (*p == '-')
            ++p;
        if (!isDigit(*p))
            return false;
        if (*p == '0')
            ++p;
        else
            while (isDigit(*p))
                ++p;
        if (*p == '.') {
            ++p;
            if (!isDigit(*p))
                return false;
            while (isDigit(*p))
                ++p;
        }
        if (p - start > kMaxNumberChars)
            return false;
        goto next;
    }
    }

next: // after a value
    if (*p == ',') {
        ++p;
        if (arrays & 1)
            goto value;
        goto key;
    }
    if (*p == '}') {
        if (arrays & 1)
            return false;
        goto close;
    }
    if (*p == ']') {
        if (!(arrays & 1))
            return false;
        goto close;
    }
    if (!isSpace(*p))
        return false;
    p = skipSpace(p);
    goto next;

close: // at the '}' or ']' that closes the innermost container
    if (p == last) {
        if (depth != 1)
            return false;
        out.hasParams = seenField(seen, Params);
        out.hasMeta = seenField(seen, Meta);
        out.hasCapabilities = seenField(seen, Capabilities);
        out.declaresTasks = seenField(seen, Tasks);
        return true;
    }
    if (depth == known)
        --known;
    if (--depth == 0)
        return false; // the top object ended before the body
    arrays >>= 1;
    ++p;
    goto next;
}

} // namespace Eddy::Server
