#include "tests/server/mcptestclient.h"

#include <curl/curl.h>

#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>
#include <cctype>

namespace Eddy::Test {

using nlohmann::json;

namespace {

std::size_t appendBody(char *data, std::size_t size, std::size_t n, void *user)
{
    static_cast<std::string *>(user)->append(data, size * n);
    return size * n;
}

std::size_t appendHeader(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *headers = static_cast<std::map<std::string, std::string> *>(user);
    std::string line(data, size * n);
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        std::string value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' '))
            value.erase(0, 1);
        while (!value.empty() && (value.back() == '\r' || value.back() == '\n'))
            value.pop_back();
        (*headers)[name] = value;
    }
    return size * n;
}

struct CurlInit
{
    CurlInit() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

void ensureCurl()
{
    static CurlInit init;
}

HttpReply perform(const std::string &url, const std::string &httpMethod, const std::string *body,
                  const std::vector<std::string> &headers)
{
    ensureCurl();
    HttpReply reply;
    CURL *curl = curl_easy_init();
    curl_slist *list = nullptr;
    for (const std::string &h : headers)
        list = curl_slist_append(list, h.c_str());
    // Suppress curl's own Expect/Content-Type defaults so the test controls every header.
    list = curl_slist_append(list, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 120000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, appendHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body->size()));
    } else if (httpMethod != "GET") {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, httpMethod.c_str());
    }
    const CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
        reply.curlError = curl_easy_strerror(rc);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    reply.json = json::parse(reply.body, nullptr, false);
    return reply;
}

} // namespace

const json &HttpReply::result() const
{
    static const nlohmann::json null;
    if (json.is_object() && json.contains("result"))
        return json["result"];
    return null;
}

int HttpReply::errorCode() const
{
    if (json.is_object() && json.contains("error") && json["error"].is_object())
        return json["error"].value("code", 0);
    return 0;
}

McpTestClient::McpTestClient(const QString &url)
    : m_url(url.toStdString())
{}

HttpReply McpTestClient::post(const std::string &body, const std::vector<std::string> &headers) const
{
    return perform(m_url, "POST", &body, headers);
}

HttpReply McpTestClient::send(const std::string &path, const std::string &httpMethod,
                              const std::vector<std::string> &headers) const
{
    return perform(path.empty() ? m_url : path, httpMethod, nullptr, headers);
}

json McpTestClient::meta(bool withTasks, const std::string &version)
{
    json caps = {{"elicitation", {{"form", json::object()}}}};
    if (withTasks)
        caps["extensions"] = {{"io.modelcontextprotocol/tasks", json::object()}};
    return {{"io.modelcontextprotocol/protocolVersion", version},
            {"io.modelcontextprotocol/clientCapabilities", caps},
            {"io.modelcontextprotocol/clientInfo", {{"name", "tst_server"}, {"version", "1"}}}};
}

std::vector<std::string> McpTestClient::headersFor(const std::string &method, const json &params,
                                                   const std::string &version) const
{
    std::vector<std::string> h = {"Content-Type: application/json",
                                  "Accept: application/json, text/event-stream",
                                  "MCP-Protocol-Version: " + version, "Mcp-Method: " + method};
    if (method == "tools/call" && params.contains("name") && params["name"].is_string())
        h.push_back("Mcp-Name: " + params["name"].get<std::string>());
    if (method.rfind("tasks/", 0) == 0 && params.contains("taskId") && params["taskId"].is_string())
        h.push_back("Mcp-Name: " + params["taskId"].get<std::string>());
    if (!m_token.empty())
        h.push_back("Authorization: Bearer " + m_token);
    return h;
}

HttpReply McpTestClient::request(const std::string &method, json params, bool withTasks)
{
    if (!params.contains("_meta"))
        params["_meta"] = meta(withTasks);
    const json message = {{"jsonrpc", "2.0"}, {"id", m_nextId++}, {"method", method}, {"params", params}};
    return post(message.dump(), headersFor(method, params));
}

json McpTestClient::callTool(const json &arguments)
{
    return request("tools/call", {{"name", "run_cfd_case"}, {"arguments", arguments}}).result();
}

std::string McpTestClient::createTask(const json &arguments)
{
    const json r = callTool(arguments);
    if (r.value("resultType", "") != "task" || !r.contains("taskId"))
        return {};
    return r["taskId"].get<std::string>();
}

HttpReply McpTestClient::getTask(const std::string &taskId)
{
    return request("tasks/get", {{"taskId", taskId}});
}

bool McpTestClient::isTerminal(const json &task)
{
    const std::string s = task.value("status", "");
    return s == "completed" || s == "failed" || s == "cancelled";
}

json McpTestClient::waitForTask(const std::string &taskId,
                                const std::function<bool(const json &)> &pred, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    json last;
    while (true) {
        last = getTask(taskId).result();
        if (pred(last) || deadline.hasExpired())
            return last;
        QThread::msleep(40);
    }
}

std::vector<std::string> McpTestClient::legacyHeaders(const std::string &sessionId) const
{
    std::vector<std::string> h = {"Content-Type: application/json",
                                  "Accept: application/json, text/event-stream"};
    if (!sessionId.empty()) {
        h.push_back("Mcp-Session-Id: " + sessionId);
        h.push_back("MCP-Protocol-Version: 2025-11-25");
    }
    if (!m_token.empty())
        h.push_back("Authorization: Bearer " + m_token);
    return h;
}

std::string McpTestClient::initialize()
{
    const json message = {{"jsonrpc", "2.0"}, {"id", m_nextId++}, {"method", "initialize"},
                          {"params", {{"protocolVersion", "2025-11-25"},
                                      {"capabilities", {{"elicitation", {{"form", json::object()}}}}},
                                      {"clientInfo", {{"name", "tst_server"}, {"version", "1"}}}}}};
    const HttpReply r = post(message.dump(), legacyHeaders({}));
    const auto it = r.headers.find("mcp-session-id");
    return it == r.headers.end() ? std::string() : it->second;
}

HttpReply McpTestClient::legacy(const std::string &sessionId, const std::string &method, json params)
{
    return legacyRaw(sessionId, {{"jsonrpc", "2.0"}, {"id", m_nextId++}, {"method", method}, {"params", params}});
}

HttpReply McpTestClient::legacyRaw(const std::string &sessionId, const json &message)
{
    return post(message.dump(), legacyHeaders(sessionId));
}

// ---- SseReader ----

namespace {

std::size_t sseWrite(char *data, std::size_t size, std::size_t n, void *user);
int sseProgress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

} // namespace

SseReader::~SseReader()
{
    stop();
}

void SseReader::start(const std::string &url, const std::string &body,
                      const std::vector<std::string> &headers)
{
    ensureCurl();
    m_thread = std::thread([this, url, body, headers] {
        CURL *curl = curl_easy_init();
        curl_slist *list = nullptr;
        for (const std::string &h : headers)
            list = curl_slist_append(list, h.c_str());
        list = curl_slist_append(list, "Expect:");
        std::map<std::string, std::string> responseHeaders;
        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, sseWrite);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, this);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, appendHeader);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &responseHeaders);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, sseProgress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, this);
        curl_easy_perform(curl);
        curl_slist_free_all(list);
        curl_easy_cleanup(curl);
        {
            const std::lock_guard lock(m_mutex);
            m_contentType = responseHeaders["content-type"];
            m_headers = responseHeaders;
        }
        m_finished = true;
    });
}

void SseReader::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

void SseReader::deliver(const char *data, std::size_t size)
{
    const std::lock_guard lock(m_mutex);
    m_raw.append(data, size);
    m_buffer.append(data, size);
    std::size_t end;
    while ((end = m_buffer.find("\n\n")) != std::string::npos) {
        const std::string event = m_buffer.substr(0, end);
        m_buffer.erase(0, end + 2);
        std::string payload;
        std::size_t start = 0;
        while (start < event.size()) {
            std::size_t nl = event.find('\n', start);
            if (nl == std::string::npos)
                nl = event.size();
            const std::string line = event.substr(start, nl - start);
            if (line.rfind("data:", 0) == 0)
                payload += line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5);
            start = nl + 1;
        }
        if (!payload.empty())
            m_events.push_back(json::parse(payload, nullptr, false));
    }
}

std::vector<json> SseReader::events() const
{
    const std::lock_guard lock(m_mutex);
    return m_events;
}

std::string SseReader::contentType() const
{
    const std::lock_guard lock(m_mutex);
    return m_contentType;
}

std::string SseReader::header(const std::string &name) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_headers.find(name);
    return it == m_headers.end() ? std::string() : it->second;
}

std::string SseReader::rawText() const
{
    const std::lock_guard lock(m_mutex);
    return m_raw;
}

json SseReader::waitForEvent(const std::function<bool(const json &)> &pred, int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        for (const json &e : events())
            if (pred(e))
                return e;
        QThread::msleep(20);
    }
    return nullptr;
}

namespace {

std::size_t sseWrite(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *reader = static_cast<SseReader *>(user);
    reader->deliver(data, size * n);
    return size * n;
}

int sseProgress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    return static_cast<SseReader *>(user)->shouldStop() ? 1 : 0;
}

} // namespace

} // namespace Eddy::Test
