#include "server/toolargs.h"

namespace Eddy::Server::ToolArgs {

using nlohmann::json;

bool onlyKnown(const json &arguments, std::initializer_list<const char *> known,
               const std::string &tool, std::string &error)
{
    for (const auto &[key, value] : arguments.items()) {
        bool ok = false;
        for (const char *k : known)
            ok = ok || key == k;
        if (ok)
            continue;
        std::string list;
        std::size_t i = 0;
        for (const char *k : known) {
            if (i > 0)
                list += i + 1 == known.size() ? " and " : ", ";
            list += k;
            ++i;
        }
        error = "Unknown argument '" + key + "': " + tool + " accepts " + list + ".";
        return false;
    }
    return true;
}

std::string invalid(const json &arguments, const char *arg, const std::string &what)
{
    std::string error = std::string("Invalid argument '") + arg + "': " + what;
    if (arguments.contains(arg))
        error += " (got " + shortJson(arguments.at(arg)) + ")";
    return error + ".";
}

bool optionalName(const json &arguments, const char *arg, json &normalized, std::string &error)
{
    if (!arguments.contains(arg))
        return true;
    const json &v = arguments[arg];
    if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 200) {
        error = invalid(arguments, arg, "must be a non-empty string of at most 200 characters");
        return false;
    }
    normalized[arg] = v;
    return true;
}

json nameSchema(const std::string &description)
{
    return {{"type", "string"}, {"minLength", 1}, {"maxLength", 200}, {"description", description}};
}

std::string shortJson(const json &v, std::size_t max)
{
    std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > max)
        s = s.substr(0, max) + "...";
    return s;
}

} // namespace Eddy::Server::ToolArgs
