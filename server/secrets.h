#pragma once

// Unguessable identifiers and one-way token fingerprints. Task ids are bearer secrets (any
// holder may poll the task), so they come from the kernel CSPRNG, never from a seeded PRNG.

#include <string>
#include <string_view>

namespace Eddy::Server {

class Secrets final
{
public:
    // 128 bits from getrandom(2) as 32 lower-case hex digits; empty only if the kernel fails.
    static std::string randomId();
    // SHA-256 of the token in hex: what a task stores to remember who created it.
    static std::string sha256Hex(std::string_view data);
    // Compares without an early exit, so a token cannot be guessed byte by byte from timing.
    static bool constantTimeEquals(std::string_view a, std::string_view b);
};

} // namespace Eddy::Server
