#pragma once

// Whether the bytes at p spell a string literal, compared a few machine words at a time against
// constants instead of through a memcmp call. Used on the kept-alive poll's path, where every
// check finds its code cold: the body scanner's keys and literals, the handler's header values.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace Eddy::Server {

namespace SpellsDetail {

inline std::uint64_t load64(const char *p)
{
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline std::uint32_t load32(const char *p)
{
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template<std::size_t N, std::size_t... I>
inline std::uint64_t chunkDiff(const char *p, const char (&lit)[N], std::index_sequence<I...>)
{
    return ((load64(p + 8 * I) ^ load64(lit + 8 * I)) | ... | 0);
}

} // namespace SpellsDetail

// The n = N - 1 bytes at p (all readable) equal lit's: the last load overlaps the ones before.
template<std::size_t N>
[[gnu::always_inline]] inline bool spells(const char *p, const char (&lit)[N])
{
    using namespace SpellsDetail;
    constexpr std::size_t n = N - 1;
    if constexpr (n < 4) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return ((p[I] == lit[I]) && ... && true);
        }(std::make_index_sequence<n>());
    } else if constexpr (n < 8) {
        return ((load32(p) ^ load32(lit)) | (load32(p + n - 4) ^ load32(lit + n - 4))) == 0;
    } else {
        return (chunkDiff(p, lit, std::make_index_sequence<n / 8>())
                | (load64(p + n - 8) ^ load64(lit + n - 8)))
               == 0;
    }
}

} // namespace Eddy::Server
