#pragma once

// Task ids that any replica sharing a key can check (--replica-key-file; docs/server-replicas.md,
// "Replicas behind nginx"). A replica id is "<32 hex random>.<32 hex tag>", the tag being the
// first 128 bits of HMAC-SHA-256(key, random part). A replica refuses an id whose tag does not
// verify before it looks anything up, so a forged or altered id costs no store read and no
// Slurm call, and ids stay as unguessable as before (128 random bits) while becoming
// unforgeable without the key.

#include <string>
#include <string_view>

namespace Eddy::Server {

class ReplicaIds final
{
public:
    // HMAC-SHA-256 (RFC 2104) over the project's own SHA-256, as 64 lower-case hex digits.
    static std::string hmacSha256Hex(std::string_view key, std::string_view message);

    // Reads the shared key: the file must be owned by this user, readable by no one else
    // (mode 0600 or 0400) and hold at least 32 bytes. error says what to fix otherwise.
    bool loadKey(const std::string &path, std::string &error);
    bool enabled() const { return !m_key.empty(); }

    // A new id with its tag; empty only if the kernel's random source fails.
    std::string mint() const;
    // True when id has the replica form and its tag verifies (constant-time compare).
    bool verify(std::string_view id) const;

private:
    std::string tag(std::string_view random) const;
    std::string m_key;
};

} // namespace Eddy::Server
