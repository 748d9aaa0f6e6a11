#include "app/agent/chatclient.h"

#include "app/agent/log.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"

#include <QUrl>

using nlohmann::json;

namespace Eddy::Agent {

namespace {

QString shortText(const QByteArray &body)
{
    QString s = QString::fromUtf8(body.left(300)).simplified();
    if (body.size() > 300)
        s += QStringLiteral("...");
    return s;
}

// "error": {"message": ...} (OpenAI, llama.cpp, Ollama) or "error": "text".
QString errorMessageOf(const json &j)
{
    if (!j.is_object() || !j.contains("error"))
        return {};
    const json &e = j["error"];
    if (e.is_string())
        return QString::fromStdString(e.get<std::string>());
    if (e.is_object() && e.contains("message") && e["message"].is_string())
        return QString::fromStdString(e["message"].get<std::string>());
    return QString::fromStdString(e.dump());
}

} // namespace

ChatClient::ChatClient(Net::HttpClient *http, QObject *parent)
    : QObject(parent)
    , m_http(http)
{
    qRegisterMetaType<Eddy::Agent::ChatReply>();
}

ChatClient::~ChatClient()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void ChatClient::start(const AgentSettings &settings, const json &messages, const json &tools)
{
    Q_ASSERT(!isRunning());
    m_result = {};
    m_calls.clear();
    m_slotOfIndex.clear();
    m_body.clear();
    m_sse.reset();
    m_isStream = false;
    m_sawDone = false;
    m_aborted = false;
    m_endpoint = settings.chatUrl();

    json body = {{"messages", messages}, {"stream", settings.stream}};
    if (!settings.model.isEmpty())
        body["model"] = settings.model.toStdString();
    if (tools.is_array() && !tools.empty()) {
        body["tools"] = tools;
        // Several calls in one answer are all run, in order; llama-server offers only one per
        // answer unless asked.
        body["parallel_tool_calls"] = true;
    }

    Net::HttpRequest request;
    request.url = QUrl(m_endpoint);
    request.body = QByteArray::fromStdString(body.dump());
    request.headers = {{"Content-Type", "application/json"},
                       {"Accept", settings.stream ? "text/event-stream, application/json"
                                                  : "application/json"}};
    request.bearerToken = settings.apiKey.toUtf8();
    request.timeoutMs = settings.requestTimeoutMs;
    request.maxResponseBytes = 16 * 1024 * 1024;
    qCInfo(lcAgent) << "chat request to" << m_endpoint << "with" << messages.size() << "messages,"
                    << (tools.is_array() ? tools.size() : 0) << "tools";
    m_reply = m_http->post(request);
    connect(m_reply, &Net::HttpReply::readyRead, this, &ChatClient::onReadyRead);
    connect(m_reply, &Net::HttpReply::finished, this, &ChatClient::onFinished);
}

void ChatClient::abort()
{
    if (!m_reply)
        return;
    m_aborted = true;
    m_reply->abort(); // finished() follows
}

void ChatClient::onReadyRead()
{
    if (!m_reply)
        return;
    const QByteArray bytes = m_reply->readAll();
    if (m_reply->statusCode() == 200 && !m_isStream && m_body.isEmpty()
        && m_reply->header("Content-Type").toLower().contains("text/event-stream"))
        m_isStream = true;
    if (!m_isStream) {
        m_body += bytes;
        return;
    }
    for (const Net::SseEvent &event : m_sse.feed(bytes)) {
        if (!m_result.isOk() || m_sawDone)
            break;
        handleChunk(event.data);
    }
}

void ChatClient::handleChunk(const QByteArray &data)
{
    const QByteArray trimmed = data.trimmed();
    if (trimmed == "[DONE]") {
        m_sawDone = true;
        return;
    }
    if (trimmed.isEmpty())
        return;
    const json chunk = json::parse(trimmed.constBegin(), trimmed.constEnd(), nullptr, false);
    if (chunk.is_discarded() || !chunk.is_object()) {
        m_result.error = tr("The model endpoint %1 streamed something that is not a Chat "
                            "Completions chunk (\"%2\"); check that the base URL points at an "
                            "OpenAI-compatible API.").arg(m_endpoint, shortText(trimmed));
        return;
    }
    if (const QString e = errorMessageOf(chunk); !e.isEmpty()) {
        m_result.error = tr("The model endpoint reported an error: %1").arg(e);
        return;
    }
    if (!chunk.contains("choices") || !chunk["choices"].is_array() || chunk["choices"].empty())
        return; // usage-only chunks and keep-alives
    const json &choice = chunk["choices"][0];
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
        m_result.finishReason = QString::fromStdString(choice["finish_reason"].get<std::string>());
    if (!choice.contains("delta") || !choice["delta"].is_object())
        return;
    const json &delta = choice["delta"];
    if (delta.contains("content") && delta["content"].is_string()) {
        const QString text = QString::fromStdString(delta["content"].get<std::string>());
        if (!text.isEmpty()) {
            m_result.content += text;
            emit contentDelta(text);
        }
    }
    if (delta.contains("tool_calls") && delta["tool_calls"].is_array()) {
        int fallbackIndex = 0;
        for (const json &tc : delta["tool_calls"]) {
            if (!tc.is_object())
                continue;
            const int index = tc.contains("index") && tc["index"].is_number_integer()
                                  ? tc["index"].get<int>() : fallbackIndex;
            ++fallbackIndex;
            const std::string id = tc.contains("id") && tc["id"].is_string() ? tc["id"].get<std::string>()
                                                                               : std::string();
            auto slot = m_slotOfIndex.find(index);
            if (slot == m_slotOfIndex.end()
                || (!id.empty() && !m_calls[slot->second].id.empty() && m_calls[slot->second].id != id)) {
                m_calls.push_back({});
                slot = m_slotOfIndex.insert_or_assign(index, m_calls.size() - 1).first;
            }
            PartialCall &call = m_calls[slot->second];
            if (!id.empty())
                call.id = id;
            if (tc.contains("function") && tc["function"].is_object()) {
                const json &f = tc["function"];
                if (f.contains("name") && f["name"].is_string())
                    call.name += f["name"].get<std::string>();
                if (f.contains("arguments") && f["arguments"].is_string())
                    call.arguments += f["arguments"].get<std::string>();
            }
        }
    }
}

void ChatClient::parseWhole(const QByteArray &body)
{
    const json j = json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        m_result.error = tr("The model endpoint %1 answered with something that is not JSON "
                            "(\"%2\"); check that the base URL points at an OpenAI-compatible "
                            "API (it usually ends in /v1).").arg(m_endpoint, shortText(body));
        return;
    }
    if (const QString e = errorMessageOf(j); !e.isEmpty()) {
        m_result.error = tr("The model endpoint reported an error: %1").arg(e);
        return;
    }
    if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()
        || !j["choices"][0].is_object() || !j["choices"][0].contains("message")
        || !j["choices"][0]["message"].is_object()) {
        m_result.error = tr("The model endpoint's answer has no choices[0].message (\"%1\"); "
                            "is it a Chat Completions API?").arg(shortText(body));
        return;
    }
    const json &choice = j["choices"][0];
    const json &message = choice["message"];
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
        m_result.finishReason = QString::fromStdString(choice["finish_reason"].get<std::string>());
    if (message.contains("content") && message["content"].is_string()) {
        m_result.content = QString::fromStdString(message["content"].get<std::string>());
        if (!m_result.content.isEmpty())
            emit contentDelta(m_result.content);
    }
    if (message.contains("tool_calls") && message["tool_calls"].is_array()) {
        for (const json &tc : message["tool_calls"]) {
            if (!tc.is_object() || !tc.contains("function") || !tc["function"].is_object())
                continue;
            PartialCall &call = m_calls.emplace_back();
            call.id = tc.value("id", std::string());
            const json &f = tc["function"];
            call.name = f.value("name", std::string());
            if (f.contains("arguments") && f["arguments"].is_string())
                call.arguments = f["arguments"].get<std::string>();
            else if (f.contains("arguments"))
                call.arguments = f["arguments"].dump(); // some servers send an object
        }
    }
}

void ChatClient::onFinished()
{
    Net::HttpReply *reply = m_reply;
    if (!reply)
        return;
    onReadyRead();
    const int status = reply->statusCode();
    const Net::Error netError = reply->error();
    if (m_aborted) {
        m_result.error = tr("Stopped.");
    } else if (!netError.isOk() && !(m_isStream && m_sawDone)) {
        m_result.error = tr("Cannot reach the model endpoint %1: %2. Start the model server "
                            "(e.g. llama-server --port 8080) or fix the agent's base URL.")
                             .arg(m_endpoint, netError.message());
    } else if (status != 200) {
        const json j = json::parse(m_body.constBegin(), m_body.constEnd(), nullptr, false);
        QString detail = j.is_discarded() ? shortText(m_body) : errorMessageOf(j);
        if (detail.isEmpty())
            detail = shortText(m_body);
        QString hint;
        if (status == 401 || status == 403)
            hint = tr(" Check the agent's API key.");
        else if (status == 404)
            hint = tr(" Check the base URL (it usually ends in /v1) and the model name.");
        m_result.error = tr("The model endpoint %1 answered HTTP %2: %3.%4")
                             .arg(m_endpoint).arg(status).arg(detail, hint);
    } else if (!m_isStream) {
        parseWhole(m_body);
    } else if (m_result.isOk() && !m_sawDone && m_result.finishReason.isEmpty()) {
        m_result.error = tr("The model endpoint %1 ended its stream before [DONE]; try again "
                            "or turn streaming off.").arg(m_endpoint);
    }
    if (m_result.isOk()) {
        size_t n = 0;
        for (PartialCall &call : m_calls) {
            ++n;
            if (call.name.empty())
                continue;
            if (call.id.empty())
                call.id = "call_" + std::to_string(n);
            m_result.toolCalls.push_back(
                {{"id", call.id},
                 {"type", "function"},
                 {"function", {{"name", call.name}, {"arguments", call.arguments.empty() ? "{}" : call.arguments}}}});
        }
        if (m_result.content.isEmpty() && m_result.toolCalls.empty())
            qCInfo(lcAgent) << "the model answered with neither text nor tool calls";
    } else {
        qCInfo(lcAgent).noquote() << m_result.error; // the caller shows it to the user
    }
    m_reply = nullptr;
    reply->disconnect(this);
    reply->deleteLater();
    emit finished(m_result);
}

} // namespace Eddy::Agent
