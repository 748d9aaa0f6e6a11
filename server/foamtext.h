#pragma once

// Reading numbers out of OpenFOAM's log lines, shared by FoamLog and CheckMeshReport. Pure.

#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace Eddy::Server::FoamText {

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// The number at the start of s (after spaces, up to a space, comma or parenthesis), or NaN when
// there is none; used is set to where it ended. OpenFOAM writes "nan", "-nan" and "inf" when a
// run blows up; strtod reads them.
inline double numberAt(std::string_view s, std::size_t *used = nullptr)
{
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != ',' && s[j] != ')' && s[j] != '\t')
        ++j;
    const std::string token(s.substr(i, j - i));
    char *end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (used)
        *used = j;
    if (token.empty() || end != token.c_str() + token.size())
        return std::numeric_limits<double>::quiet_NaN();
    return v;
}

// The number after key in s, or NaN.
inline double numberAfter(std::string_view s, std::string_view key)
{
    const auto at = s.find(key);
    return at == std::string_view::npos ? std::numeric_limits<double>::quiet_NaN()
                                        : numberAt(s.substr(at + key.size()));
}

} // namespace Eddy::Server::FoamText
