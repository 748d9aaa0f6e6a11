#include "server/replicaids.h"

#include "server/secrets.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Eddy::Server {

namespace {

constexpr std::size_t kBlock = 64;
constexpr std::size_t kRandomHex = 32;
constexpr std::size_t kTagHex = 32;

std::string fromHex(const std::string &hex)
{
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::string out;
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(char((nibble(hex[i]) << 4) | nibble(hex[i + 1])));
    return out;
}

bool isLowerHex(std::string_view s)
{
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

} // namespace

std::string ReplicaIds::hmacSha256Hex(std::string_view key, std::string_view message)
{
    std::string k(key);
    if (k.size() > kBlock)
        k = fromHex(Secrets::sha256Hex(k));
    k.resize(kBlock, '\0');
    std::string inner(kBlock, '\0'), outer(kBlock, '\0');
    for (std::size_t i = 0; i < kBlock; ++i) {
        inner[i] = char(k[i] ^ 0x36);
        outer[i] = char(k[i] ^ 0x5c);
    }
    inner.append(message);
    outer += fromHex(Secrets::sha256Hex(inner));
    return Secrets::sha256Hex(outer);
}

bool ReplicaIds::loadKey(const std::string &path, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot open the replica key file '" + path + "': " + std::strerror(errno)
                + "; create it with: head -c 32 /dev/urandom > FILE; chmod 600 FILE";
        return false;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        error = "the replica key file '" + path + "' is not a regular file";
        return false;
    }
    if ((st.st_mode & 077) != 0 || st.st_uid != ::geteuid()) {
        ::close(fd);
        error = "the replica key file '" + path
                + "' must be owned by this user and readable by no one else; run: chmod 600 "
                + path;
        return false;
    }
    std::string key;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        key.append(buffer, std::size_t(n));
    }
    ::close(fd);
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r'))
        key.pop_back();
    if (key.size() < 32) {
        error = "the replica key file '" + path
                + "' holds fewer than 32 bytes; create it with: head -c 32 /dev/urandom > FILE";
        return false;
    }
    m_key = std::move(key);
    return true;
}

std::string ReplicaIds::tag(std::string_view random) const
{
    return hmacSha256Hex(m_key, random).substr(0, kTagHex);
}

std::string ReplicaIds::mint() const
{
    const std::string random = Secrets::randomId();
    if (random.empty())
        return {};
    return random + "." + tag(random);
}

bool ReplicaIds::verify(std::string_view id) const
{
    if (m_key.empty() || id.size() != kRandomHex + 1 + kTagHex || id[kRandomHex] != '.')
        return false;
    const std::string_view random = id.substr(0, kRandomHex);
    const std::string_view given = id.substr(kRandomHex + 1);
    if (!isLowerHex(random) || !isLowerHex(given))
        return false;
    return Secrets::constantTimeEquals(tag(random), given);
}

} // namespace Eddy::Server
