#pragma once

// The recursive-descent PollScanner as it was before the single-loop rewrite (commit 8d950cf),
// kept only as the reference the rewrite must match: tst_pollscanner compares the two verdicts
// and fields on many thousand mutated bodies. Header-only, so the test and a fuzz target can
// both include it.

#include "server/pollscanner.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace Eddy::Test::PollScannerReference {

namespace detail {

// Deeper than any poll: hand such bodies to the full parser.
constexpr int kMaxDepth = 32;
// At most 17 characters without an exponent: always finite for nlohmann too (and an integer
// of that length fits in 64 bits).
constexpr std::ptrdiff_t kMaxNumberChars = 17;
constexpr int kMaxIntegerDigits = 15;

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Every member returns false for "not plain", and the scan stops there.
class Cursor final
{
public:
    explicit Cursor(std::string_view text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    {}

    void skipSpace()
    {
        // One comparison for the usual case, a structural character right here.
        while (m_p < m_end && static_cast<unsigned char>(*m_p) <= ' '
               && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    bool atEnd() const { return m_p == m_end; }
    bool consume(char c)
    {
        skipSpace();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool peek(char c)
    {
        skipSpace();
        return m_p < m_end && *m_p == c;
    }

    // A string of printable ASCII without escapes (so its JSON text is its value); the view
    // excludes the quotes.
    bool string(std::string_view &out)
    {
        skipSpace();
        if (m_p >= m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
        skipPlain();
        while (m_p < m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out = std::string_view(start, std::size_t(m_p - start));
                ++m_p;
                return true;
            }
            if (c < 0x20 || c >= 0x80 || c == '\\')
                return false;
            ++m_p;
        }
        return false;
    }

    // A JSON-RPC id, as its raw text: a plain string (with its quotes) or a short integer
    // written the way nlohmann would write it back.
    bool id(std::string_view &out)
    {
        skipSpace();
        const char *start = m_p;
        if (m_p < m_end && *m_p == '"') {
            std::string_view ignored;
            if (!string(ignored))
                return false;
            out = std::string_view(start, std::size_t(m_p - start));
            return true;
        }
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        const char *digits = m_p;
        while (m_p < m_end && isDigit(*m_p))
            ++m_p;
        const std::ptrdiff_t count = m_p - digits;
        if (count == 0 || count > kMaxIntegerDigits || (count > 1 && *digits == '0')
            || (*digits == '0' && digits != start)) // "-0" reads back as "0"
            return false;
        out = std::string_view(start, std::size_t(m_p - start));
        return true;
    }

    // Calls onMember(key) with the cursor before each member's value; onMember parses it.
    template<typename OnMember>
    bool object(int depth, OnMember onMember)
    {
        if (depth > kMaxDepth || !consume('{'))
            return false;
        if (consume('}'))
            return true;
        do {
            std::string_view key;
            if (!string(key) || !consume(':') || !onMember(key))
                return false;
        } while (consume(','));
        return consume('}');
    }

    bool skipValue(int depth)
    {
        skipSpace();
        if (m_p >= m_end || depth > kMaxDepth)
            return false;
        switch (*m_p) {
        case '{':
            return object(depth, [&](std::string_view) { return skipValue(depth + 1); });
        case '[':
            ++m_p;
            if (consume(']'))
                return true;
            do {
                if (!skipValue(depth + 1))
                    return false;
            } while (consume(','));
            return consume(']');
        case '"': {
            std::string_view ignored;
            return string(ignored);
        }
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number();
        }
    }

private:
    // Skips 8 bytes at a time while none of them ends a plain string or disqualifies it (a
    // quote, a backslash, a control character or a non-ASCII byte); the byte loop in string()
    // decides the rest. A string is most of a poll's body.
    void skipPlain()
    {
        constexpr std::uint64_t ones = 0x0101010101010101u;
        constexpr std::uint64_t highs = 0x8080808080808080u;
        const auto hasZero = [](std::uint64_t v) {
            return (v - ones) & ~v & highs;
        };
        while (m_end - m_p >= 8) {
            std::uint64_t w;
            std::memcpy(&w, m_p, sizeof w);
            // Below 0x20 or from 0x80: the subtraction borrows into, or w already has, a high
            // bit (a borrow only ever starts at such a byte, so nothing else is flagged).
            const std::uint64_t special = (((w - 0x20 * ones) | w) & highs)
                                          | hasZero(w ^ ('"' * ones)) | hasZero(w ^ ('\\' * ones));
            if (special)
                return;
            m_p += 8;
        }
    }

    bool literal(std::string_view word)
    {
        if (std::size_t(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

    // No exponents and few digits, so that no number can overflow in the full parser either.
    bool number()
    {
        const char *start = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p >= m_end || !isDigit(*m_p))
            return false;
        if (*m_p == '0')
            ++m_p;
        else
            while (m_p < m_end && isDigit(*m_p))
                ++m_p;
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            if (m_p >= m_end || !isDigit(*m_p))
                return false;
            while (m_p < m_end && isDigit(*m_p))
                ++m_p;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E'))
            return false;
        return m_p - start <= kMaxNumberChars;
    }

    const char *m_p;
    const char *m_end;
};

// A field the scan reads must appear once: nlohmann would keep the last of duplicates.
inline bool firstTime(bool &seen)
{
    if (seen)
        return false;
    seen = true;
    return true;
}

} // namespace detail

inline bool scan(std::string_view body, Server::PollScanner::Fields &out)
{
    using namespace detail;
    out = Server::PollScanner::Fields();
    Cursor c(body);
    bool seenJsonrpc = false, seenId = false, seenMethod = false;
    bool seenTaskId = false, seenVersion = false, seenExtensions = false;

    const auto extensions = [&](std::string_view key) {
        if (key == "io.modelcontextprotocol/tasks")
            return firstTime(out.declaresTasks) && c.peek('{') && c.skipValue(5);
        return c.skipValue(5);
    };
    const auto capabilities = [&](std::string_view key) {
        if (key == "extensions")
            return firstTime(seenExtensions) && c.object(4, extensions);
        return c.skipValue(4);
    };
    const auto meta = [&](std::string_view key) {
        if (key == "io.modelcontextprotocol/protocolVersion")
            return firstTime(seenVersion) && c.string(out.protocolVersion);
        if (key == "io.modelcontextprotocol/clientCapabilities")
            return firstTime(out.hasCapabilities) && c.object(3, capabilities);
        return c.skipValue(3);
    };
    const auto params = [&](std::string_view key) {
        if (key == "taskId")
            return firstTime(seenTaskId) && c.string(out.taskId);
        if (key == "_meta")
            return firstTime(out.hasMeta) && c.object(2, meta);
        return c.skipValue(2);
    };
    const bool plain = c.object(0, [&](std::string_view key) {
        if (key == "jsonrpc")
            return firstTime(seenJsonrpc) && c.string(out.jsonrpc);
        if (key == "id")
            return firstTime(seenId) && c.id(out.id);
        if (key == "method")
            return firstTime(seenMethod) && c.string(out.method);
        if (key == "params")
            return firstTime(out.hasParams) && c.object(1, params);
        return c.skipValue(1);
    });
    c.skipSpace();
    return plain && c.atEnd();
}

} // namespace Eddy::Test::PollScannerReference
