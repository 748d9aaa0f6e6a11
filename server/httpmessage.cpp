#include "server/httpmessage.h"

#include "server/log.h"

#include <exception>

namespace Eddy::Server {

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = char(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

bool HttpRequest::has_header(std::string_view name) const
{
    for (const auto &[k, v] : headers)
        if (equalsIgnoreCase(k, name))
            return true;
    return false;
}

std::string HttpRequest::get_header_value(std::string_view name) const
{
    const std::string *value = header(name);
    return value ? *value : std::string();
}

const std::string *HttpRequest::header(std::string_view name) const
{
    for (const auto &[k, v] : headers)
        if (equalsIgnoreCase(k, name))
            return &v;
    return nullptr;
}

void runHandler(const HttpHandler &handler, const HttpRequest &request, HttpResponse &response)
{
    try {
        handler(request, response);
    } catch (const std::exception &e) {
        Log::error(std::string("request handler failed: ") + e.what());
        response = HttpResponse();
        response.status = 500;
    }
}

} // namespace Eddy::Server
