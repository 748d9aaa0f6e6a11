#include "server/base64.h"

#include <cstdint>

namespace Eddy::Server {

namespace {

constexpr char s_standard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char s_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::string_view bytes, const char *alphabet, bool pad)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const auto byte = [&](std::size_t k) {
            return std::uint32_t(std::uint8_t(bytes[k]));
        };
        const std::uint32_t v = byte(i) << 16 | (i + 1 < bytes.size() ? byte(i + 1) << 8 : 0)
                                | (i + 2 < bytes.size() ? byte(i + 2) : 0);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        if (i + 1 < bytes.size())
            out += alphabet[(v >> 6) & 63];
        else if (pad)
            out += '=';
        if (i + 2 < bytes.size())
            out += alphabet[v & 63];
        else if (pad)
            out += '=';
    }
    return out;
}

// The value of one character in the alphabet whose last two are `c62` and `c63`; -1 outside it.
int value(char c, char c62, char c63)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == c62)
        return 62;
    if (c == c63)
        return 63;
    return -1;
}

// Decodes `in` (no padding left in it); the bits left over are returned through `bits`.
bool decode(std::string_view in, char c62, char c63, std::string &out, int &bits)
{
    std::uint32_t buffer = 0;
    bits = 0;
    for (char c : in) {
        const int v = value(c, c62, c63);
        if (v < 0)
            return false;
        buffer = (buffer << 6) | std::uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(char((buffer >> bits) & 0xff));
        }
    }
    return true;
}

} // namespace

std::string encodeBase64(std::string_view bytes)
{
    return encode(bytes, s_standard, true);
}

bool decodeBase64(std::string_view in, std::string &out)
{
    out.clear();
    if (in.size() % 4 != 0)
        return false;
    std::size_t padding = 0;
    while (padding < 2 && padding < in.size() && in[in.size() - 1 - padding] == '=')
        ++padding;
    int bits = 0;
    return decode(in.substr(0, in.size() - padding), '+', '/', out, bits);
}

std::string encodeBase64Url(std::string_view bytes)
{
    return encode(bytes, s_url, false);
}

bool decodeBase64Url(std::string_view in, std::string &out)
{
    out.clear();
    int bits = 0;
    return decode(in, '-', '_', out, bits) && bits < 6;
}

} // namespace Eddy::Server
