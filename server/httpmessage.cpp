#include "server/httpmessage.h"

#include "server/log.h"

#include <exception>

namespace Eddy::Server {

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
