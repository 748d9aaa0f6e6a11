#include "tests/agent/scriptedmodel.h"

#include <QTcpSocket>

using nlohmann::json;

namespace Eddy::Test {

ScriptedModel::ScriptedModel(QObject *parent)
    : QObject(parent)
{
    m_peer.setHandler([this](const HttpPeer::Request &r, QTcpSocket *s) { answer(r, s); });
}

bool ScriptedModel::listen()
{
    return m_peer.listen();
}

QString ScriptedModel::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_peer.url().port());
}

QList<QByteArray> ScriptedModel::rawBodies() const
{
    QList<QByteArray> out;
    for (const auto &r : m_peer.requests())
        out << r.body;
    return out;
}

json ScriptedModel::call(const std::string &name, const json &arguments)
{
    return {{"name", name}, {"arguments", arguments}};
}

QStringList ScriptedModel::toolNames(const json &request)
{
    QStringList out;
    for (const json &t : request.value("tools", json::array()))
        out << QString::fromStdString(t["function"]["name"].get<std::string>());
    return out;
}

void ScriptedModel::answer(const HttpPeer::Request &request, QTcpSocket *socket)
{
    const json body = json::parse(request.body.toStdString(), nullptr, false);
    if (request.path != "/v1/chat/completions")
        fail(QStringLiteral("request to %1").arg(QString::fromUtf8(request.path)));
    if (body.is_discarded()) {
        fail(QStringLiteral("request body is not JSON"));
        socket->write(HttpPeer::response(400, R"({"error":{"message":"not json"}})"));
        return;
    }
    m_requests << body;
    // The wire shape every chat template accepts: one system message, first; never two user
    // messages in a row (templates that want user and assistant to alternate reject both).
    const json messages = body.value("messages", json::array());
    for (size_t i = 0; i < messages.size(); ++i) {
        if (i > 0 && messages[i].value("role", std::string()) == "system")
            fail(QStringLiteral("request %1: a system message at position %2").arg(m_requests.size()).arg(i));
        if (i > 0 && messages[i].value("role", std::string()) == "user"
            && messages[i - 1].value("role", std::string()) == "user")
            fail(QStringLiteral("request %1: two user messages in a row at %2").arg(m_requests.size()).arg(i));
    }
    if (m_script.isEmpty()) {
        fail(QStringLiteral("unexpected request %1").arg(m_requests.size()));
        socket->write(HttpPeer::response(500, R"({"error":{"message":"script ended"}})"));
        return;
    }
    const Reply reply = m_script.takeFirst()(body);
    if (!reply.raw.isEmpty() || reply.status != 200) {
        socket->write(HttpPeer::response(reply.status, reply.raw, reply.rawType));
        return;
    }
    json calls = json::array();
    for (const json &c : reply.toolCalls)
        calls.push_back({{"id", reply.repeatIds ? std::string("call_0") : "call_" + std::to_string(++m_callCounter)},
                         {"name", c["name"]},
                         {"arguments", c["arguments"].dump()}});
    const bool stream = body.value("stream", false) && reply.stream;
    if (!stream) {
        json message = {{"role", "assistant"}, {"content", reply.content.toStdString()}};
        if (!calls.empty()) {
            json tc = json::array();
            for (const json &c : calls)
                tc.push_back({{"id", c["id"]}, {"type", "function"},
                              {"function", {{"name", c["name"]}, {"arguments", c["arguments"]}}}});
            message["tool_calls"] = tc;
        }
        const json out = {{"id", "chatcmpl-1"}, {"object", "chat.completion"},
                          {"choices", {{{"index", 0}, {"message", message},
                                        {"finish_reason", calls.empty() ? "stop" : "tool_calls"}}}}};
        socket->write(HttpPeer::response(200, QByteArray::fromStdString(out.dump())));
        return;
    }
    const auto event = [](const json &delta, const json &finish = nullptr) {
        const json chunk = {{"id", "chatcmpl-1"}, {"object", "chat.completion.chunk"},
                            {"choices", {{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}}}};
        return HttpPeer::chunk("data: " + QByteArray::fromStdString(chunk.dump()) + "\n\n");
    };
    socket->write(HttpPeer::chunkedHead(200, "text/event-stream"));
    socket->write(event({{"role", "assistant"}, {"content", ""}}));
    if (reply.hang) {
        socket->write(event({{"content", "Thinking"}}));
        return;
    }
    // Content in pieces of a few characters, as a model streams it.
    const std::string text = reply.content.toStdString();
    for (size_t i = 0; i < text.size(); i += 7)
        socket->write(event({{"content", text.substr(i, 7)}}));
    if (reply.sameIndex) {
        // Each call whole, all at index 0: only the id tells them apart.
        for (const json &c : calls)
            socket->write(event({{"tool_calls", {{{"index", 0}, {"id", c["id"]}, {"type", "function"},
                                                  {"function", {{"name", c["name"]}, {"arguments", c["arguments"]}}}}}}}));
    }
    // Each call's head first, then its arguments in two halves, calls interleaved by index.
    for (size_t i = 0; i < calls.size() && !reply.sameIndex; ++i)
        socket->write(event({{"tool_calls", {{{"index", i}, {"id", calls[i]["id"]}, {"type", "function"},
                                              {"function", {{"name", calls[i]["name"]}, {"arguments", ""}}}}}}}));
    for (int half = 0; half < 2 && !reply.sameIndex; ++half)
        for (size_t i = 0; i < calls.size(); ++i) {
            const std::string args = calls[i]["arguments"].get<std::string>();
            const size_t mid = args.size() / 2;
            const std::string part = half == 0 ? args.substr(0, mid) : args.substr(mid);
            socket->write(event({{"tool_calls", {{{"index", i}, {"function", {{"arguments", part}}}}}}}));
        }
    socket->write(event(json::object(), calls.empty() ? "stop" : "tool_calls"));
    socket->write(HttpPeer::chunk("data: [DONE]\n\n"));
    socket->write(HttpPeer::chunk({}));
}

} // namespace Eddy::Test
