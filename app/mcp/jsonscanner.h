#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace Eddy::Mcp {

// A strict, pull-style reader of JSON text for code that walks one known message shape: it
// accepts exactly what nlohmann::json's parser accepts (RFC 8259 grammar, escapes with \u
// surrogate pairs, no raw control characters, well-formed UTF-8 only, a finite number, an
// optional leading UTF-8 BOM) plus a nesting limit, and skips the members the reader does not
// want without building or copying anything. Works on a view of the caller's bytes; any thread.
class JsonScanner final
{
public:
    // Deeper documents are refused, as the client's full parser refuses them.
    static constexpr int kMaxDepth = 512;

    struct String
    {
        std::string_view raw; // between the quotes, escapes as written
        bool hasEscapes = false;
    };
    struct Number
    {
        enum class Kind {
            Integer,     // fits a signed 64-bit integer
            BigUnsigned, // a non-negative integer above INT64_MAX that fits 64 bits unsigned
            Float,       // a fraction or exponent, or an integer that fits neither
        };
        Kind kind = Kind::Integer;
        std::int64_t integer = 0;
        double real = 0;
    };

    explicit JsonScanner(std::string_view text);

    // The next significant byte after whitespace, or '\0' at the end (also returned for a NUL
    // byte, which no JSON value may start with).
    char peek();
    // Consumes `c` if it is the next significant byte.
    bool consume(char c);
    // True when only whitespace is left.
    bool atEnd();
    const char *position() const { return m_at; }

    // Each reads one complete token at the next significant byte; false on anything malformed.
    bool readString(String *out);
    bool readNumber(Number *out);
    bool readLiteral(); // true, false or null
    // A whole value of any type, validated, inside a container `depth` levels deep.
    bool skipValue(int depth);

    // The text of a string read by readString (escapes resolved; its input was validated).
    static std::string decode(const String &s);
    static bool equals(const String &s, std::string_view text);

private:
    void skipWhitespace();
    bool scanString(); // m_at just past the opening quote; leaves it past the closing one
    bool skipKey();    // a member's key and its colon
    bool scanEscape(); // m_at at the backslash
    bool scanUtf8();   // m_at at a byte >= 0x80
    bool scanNumber(Number *out);
    bool finiteFloat(const char *begin, double *value) const;

    const char *m_at;
    const char *m_end;
    const char *m_lastEscape = nullptr; // where scanEscape last ran: did a string have escapes
};

} // namespace Eddy::Mcp
