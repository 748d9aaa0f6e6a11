#pragma once

// Levelled logging to stderr for eddy-cfd-server (category "eddy.server"). Thread-safe; any
// thread may log. Task ids and tokens go through redact() and never appear whole.

#include <string>
#include <string_view>

namespace Eddy::Server {

class Log final
{
public:
    enum class Level { Error = 0, Warn = 1, Info = 2, Debug = 3 };

    static void setLevel(Level level);
    static Level level();
    // Parses "error", "warn", "info" or "debug"; false on anything else.
    static bool parseLevel(std::string_view text, Level &out);
    static bool enabled(Level level) { return int(level) <= int(level_()); }

    static void write(Level level, std::string_view message);
    static void error(std::string_view message) { write(Level::Error, message); }
    static void warn(std::string_view message) { write(Level::Warn, message); }
    static void info(std::string_view message) { write(Level::Info, message); }
    static void debug(std::string_view message)
    {
        if (enabled(Level::Debug))
            write(Level::Debug, message);
    }

    // A bearer secret (task id, token, session id) shortened to a prefix that cannot be used.
    static std::string redact(std::string_view secret);

private:
    static Level level_();
};

} // namespace Eddy::Server
