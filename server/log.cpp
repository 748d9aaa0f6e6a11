#include "server/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace Eddy::Server {

namespace {
std::atomic<int> s_level{int(Log::Level::Info)};
std::mutex s_writeMutex;
} // namespace

void Log::setLevel(Level level)
{
    s_level.store(int(level));
}

Log::Level Log::level()
{
    return level_();
}

Log::Level Log::level_()
{
    return Level(s_level.load(std::memory_order_relaxed));
}

bool Log::parseLevel(std::string_view text, Level &out)
{
    if (text == "error")
        out = Level::Error;
    else if (text == "warn" || text == "warning")
        out = Level::Warn;
    else if (text == "info")
        out = Level::Info;
    else if (text == "debug")
        out = Level::Debug;
    else
        return false;
    return true;
}

void Log::write(Level level, std::string_view message)
{
    if (!enabled(level))
        return;
    static const char *const names[] = {"error", "warn", "info", "debug"};
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const int millis = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               now.time_since_epoch()).count() % 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
    const std::lock_guard lock(s_writeMutex);
    std::fprintf(stderr, "%s.%03d eddy.server %s: %.*s\n", stamp, millis, names[int(level)],
                 int(message.size()), message.data());
    std::fflush(stderr);
}

std::string Log::redact(std::string_view secret)
{
    // Six characters identify a task among a user's own for debugging, yet are useless to guess.
    if (secret.size() <= 6)
        return "…";
    return std::string(secret.substr(0, 6)) + "…";
}

} // namespace Eddy::Server
