#include "app/mcp/jsonscanner.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace Eddy::Mcp {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The four hex digits at `p` (bounds checked by the caller), or -1.
int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const int d = hexValue(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

void appendUtf8(std::string *out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out->push_back(char(cp));
    } else if (cp < 0x800) {
        out->push_back(char(0xC0 | (cp >> 6)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out->push_back(char(0xE0 | (cp >> 12)));
        out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out->push_back(char(0xF0 | (cp >> 18)));
        out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    }
}

} // namespace

JsonScanner::JsonScanner(std::string_view text)
    : m_at(text.data())
    , m_end(text.data() + text.size())
{
    // nlohmann skips a complete UTF-8 byte order mark; a partial one fails as a stray byte.
    if (text.size() >= 3 && std::memcmp(m_at, "\xEF\xBB\xBF", 3) == 0)
        m_at += 3;
}

void JsonScanner::skipWhitespace()
{
    while (m_at != m_end && (*m_at == ' ' || *m_at == '\n' || *m_at == '\r' || *m_at == '\t'))
        ++m_at;
}

char JsonScanner::peek()
{
    skipWhitespace();
    return m_at == m_end ? '\0' : *m_at;
}

bool JsonScanner::consume(char c)
{
    skipWhitespace();
    if (m_at == m_end || *m_at != c)
        return false;
    ++m_at;
    return true;
}

bool JsonScanner::atEnd()
{
    skipWhitespace();
    return m_at == m_end;
}

bool JsonScanner::readString(String *out)
{
    skipWhitespace();
    if (m_at == m_end || *m_at != '"')
        return false;
    const char *begin = ++m_at;
    const char *const escapesBefore = m_lastEscape;
    if (!scanString())
        return false;
    out->raw = std::string_view(begin, size_t(m_at - 1 - begin));
    out->hasEscapes = m_lastEscape != escapesBefore;
    return true;
}

bool JsonScanner::scanString()
{
    for (;;) {
        // Skip the plain printable ASCII run in blocks (byte by byte where SSE2 is missing); what
        // ends it is handled below.
#ifdef __SSE2__
        // Sixteen bytes at a time: one signed compare finds both the control characters and
        // the non-ASCII bytes (negative as signed chars).
        while (m_end - m_at >= 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_at));
            const __m128i special
                = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')),
                                            _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))),
                               _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20)));
            if (const int mask = _mm_movemask_epi8(special)) {
                m_at += std::countr_zero(unsigned(mask));
                break;
            }
            m_at += 16;
        }
#endif
        if (m_at == m_end)
            return false;
        const auto c = static_cast<unsigned char>(*m_at);
        if (c == '"') {
            ++m_at;
            return true;
        }
        if (c == '\\') {
            if (!scanEscape())
                return false;
        } else if (c >= 0x80) {
            if (!scanUtf8())
                return false;
        } else if (c < 0x20) {
            return false;
        } else {
            ++m_at;
        }
    }
}

bool JsonScanner::scanEscape()
{
    m_lastEscape = m_at;
    if (m_end - m_at < 2)
        return false;
    switch (m_at[1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
        m_at += 2;
        return true;
    case 'u':
        break;
    default:
        return false;
    }
    if (m_end - m_at < 6)
        return false;
    const int first = hex4(m_at + 2);
    if (first < 0)
        return false;
    m_at += 6;
    if (first >= 0xDC00 && first <= 0xDFFF)
        return false; // a low surrogate with no high one before it
    if (first < 0xD800 || first > 0xDBFF)
        return true;
    // A high surrogate must be followed by an escaped low one.
    if (m_end - m_at < 6 || m_at[0] != '\\' || m_at[1] != 'u')
        return false;
    const int second = hex4(m_at + 2);
    if (second < 0xDC00 || second > 0xDFFF)
        return false;
    m_at += 6;
    return true;
}

bool JsonScanner::scanUtf8()
{
    // RFC 3629's well-formed sequences: no overlong forms, no surrogates, nothing above U+10FFFF.
    const auto lead = static_cast<unsigned char>(*m_at);
    int tail = 0;
    unsigned char low = 0x80, high = 0xBF; // the range of the byte after the lead
    if (lead >= 0xC2 && lead <= 0xDF) {
        tail = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        tail = 2;
        if (lead == 0xE0)
            low = 0xA0;
        else if (lead == 0xED)
            high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        tail = 3;
        if (lead == 0xF0)
            low = 0x90;
        else if (lead == 0xF4)
            high = 0x8F;
    } else {
        return false;
    }
    if (m_end - m_at <= tail)
        return false;
    for (int i = 1; i <= tail; ++i) {
        const auto c = static_cast<unsigned char>(m_at[i]);
        if (c < (i == 1 ? low : 0x80) || c > (i == 1 ? high : 0xBF))
            return false;
    }
    m_at += tail + 1;
    return true;
}

bool JsonScanner::readNumber(Number *out)
{
    skipWhitespace();
    return scanNumber(out);
}

bool JsonScanner::scanNumber(Number *out)
{
    const char *begin = m_at;
    const bool negative = m_at != m_end && *m_at == '-';
    if (negative)
        ++m_at;
    const char *intBegin = m_at;
    if (m_at == m_end || !isDigit(*m_at))
        return false;
    if (*m_at == '0')
        ++m_at;
    else
        while (m_at != m_end && isDigit(*m_at))
            ++m_at;
    const char *intEnd = m_at;
    bool isFloat = false;
    ptrdiff_t exponentDigits = 0;
    if (m_at != m_end && *m_at == '.') {
        ++m_at;
        if (m_at == m_end || !isDigit(*m_at))
            return false;
        while (m_at != m_end && isDigit(*m_at))
            ++m_at;
        isFloat = true;
    }
    if (m_at != m_end && (*m_at == 'e' || *m_at == 'E')) {
        ++m_at;
        if (m_at != m_end && (*m_at == '+' || *m_at == '-'))
            ++m_at;
        if (m_at == m_end || !isDigit(*m_at))
            return false;
        const char *digits = m_at;
        while (m_at != m_end && isDigit(*m_at))
            ++m_at;
        exponentDigits = m_at - digits;
        isFloat = true;
    }

    // Only a long exponent or more than 200 integer digits can leave the double range (1e299 is
    // finite): a skipped number needs no conversion otherwise.
    if (!out && exponentDigits <= 2 && intEnd - intBegin <= 200)
        return true;
    if (!isFloat) {
        // Like nlohmann: an integer that fits 64 bits (signed when negative) stays an integer,
        // anything longer is read as a double.
        std::uint64_t magnitude = 0;
        bool fits = true;
        for (const char *p = intBegin; p != intEnd && fits; ++p) {
            const std::uint64_t digit = std::uint64_t(*p - '0');
            fits = magnitude <= (std::numeric_limits<std::uint64_t>::max() - digit) / 10;
            magnitude = magnitude * 10 + digit;
        }
        constexpr auto kMaxSigned = std::uint64_t(std::numeric_limits<std::int64_t>::max());
        if (fits && (!negative || magnitude <= kMaxSigned + 1)) {
            if (out) {
                out->kind = negative || magnitude <= kMaxSigned ? Number::Kind::Integer
                                                                : Number::Kind::BigUnsigned;
                out->integer = negative ? std::int64_t(0 - magnitude) : std::int64_t(magnitude);
            }
            return true;
        }
    }
    double value = 0;
    if (!finiteFloat(begin, &value))
        return false;
    if (out) {
        out->kind = Number::Kind::Float;
        out->real = value;
    }
    return true;
}

// The double of the number in [begin, m_at), false when it overflows (nlohmann refuses a number
// that reads as infinity; one that underflows reads as zero).
bool JsonScanner::finiteFloat(const char *begin, double *value) const
{
    const auto [end, error] = std::from_chars(begin, m_at, *value);
    if (error == std::errc())
        return end == m_at;
    if (error != std::errc::result_out_of_range)
        return false;
    // Out of range one way or the other: the decimal exponent of the first significant digit
    // tells which. Values this far apart cannot be confused by the estimate.
    const char *p = begin + (*begin == '-' ? 1 : 0);
    std::int64_t magnitude = 0;
    const char *digits = p;
    while (p != m_at && isDigit(*p))
        ++p;
    if (!(p - digits == 1 && *digits == '0')) {
        magnitude = (p - digits) - 1;
    } else if (p != m_at && *p == '.') {
        ++p;
        const char *fraction = p;
        while (p != m_at && *p == '0')
            ++p;
        magnitude = -(p - fraction) - 1;
    }
    while (p != m_at && *p != 'e' && *p != 'E')
        ++p;
    if (p != m_at) {
        ++p;
        const bool negativeExponent = *p == '-';
        if (*p == '-' || *p == '+')
            ++p;
        std::int64_t exponent = 0;
        for (; p != m_at; ++p)
            exponent = std::min<std::int64_t>(exponent * 10 + (*p - '0'), 1'000'000'000);
        magnitude += negativeExponent ? -exponent : exponent;
    }
    if (magnitude > 0)
        return false;
    *value = *begin == '-' ? -0.0 : 0.0;
    return true;
}

bool JsonScanner::readLiteral()
{
    skipWhitespace();
    const size_t left = size_t(m_end - m_at);
    for (std::string_view literal :
         {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
        if (left >= literal.size() && std::memcmp(m_at, literal.data(), literal.size()) == 0) {
            m_at += literal.size();
            return true;
        }
    }
    return false;
}

bool JsonScanner::skipValue(int depth)
{
    const int base = depth;
    std::bitset<kMaxDepth + 1> inObject; // per open container: object or array
    for (;;) {
        // A value is expected here.
        bool closed = false;
        switch (peek()) {
        case '{':
        case '[': {
            const bool object = *m_at == '{';
            if (++depth > kMaxDepth)
                return false;
            inObject[size_t(depth)] = object;
            ++m_at;
            if (consume(object ? '}' : ']')) {
                --depth;
                closed = true;
            } else if (object && !skipKey()) {
                return false;
            }
            break;
        }
        case '"':
            ++m_at;
            if (!scanString())
                return false;
            closed = true;
            break;
        case 't':
        case 'f':
        case 'n':
            if (!readLiteral())
                return false;
            closed = true;
            break;
        default:
            if (!scanNumber(nullptr))
                return false;
            closed = true;
            break;
        }
        if (!closed)
            continue;
        // A value has ended: close containers until one goes on with another member.
        for (;;) {
            if (depth == base)
                return true;
            const bool object = inObject[size_t(depth)];
            skipWhitespace();
            if (m_at == m_end)
                return false;
            if (*m_at == ',') {
                ++m_at;
                if (object && !skipKey())
                    return false;
                break;
            }
            if (*m_at != (object ? '}' : ']'))
                return false;
            ++m_at;
            --depth;
        }
    }
}

bool JsonScanner::skipKey()
{
    skipWhitespace();
    if (m_at == m_end || *m_at != '"')
        return false;
    ++m_at;
    return scanString() && consume(':');
}

std::string JsonScanner::decode(const String &s)
{
    std::string out;
    out.reserve(s.raw.size());
    const char *p = s.raw.data();
    const char *end = p + s.raw.size();
    while (p != end) {
        const char *escape = static_cast<const char *>(std::memchr(p, '\\', size_t(end - p)));
        if (!escape) {
            out.append(p, size_t(end - p));
            break;
        }
        out.append(p, size_t(escape - p));
        const char kind = escape[1];
        p = escape + 2;
        switch (kind) {
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'n':
            out.push_back('\n');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'u': {
            std::uint32_t cp = std::uint32_t(hex4(p));
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) { // validated: an escaped low surrogate follows
                cp = 0x10000 + ((cp - 0xD800) << 10) + (std::uint32_t(hex4(p + 2)) - 0xDC00);
                p += 6;
            }
            appendUtf8(&out, cp);
            break;
        }
        default:
            out.push_back(kind);
            break; // '"', '\\', '/'
        }
    }
    return out;
}

bool JsonScanner::equals(const String &s, std::string_view text)
{
    return s.hasEscapes ? decode(s) == text : s.raw == text;
}

} // namespace Eddy::Mcp
