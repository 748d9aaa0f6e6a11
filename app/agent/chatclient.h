#pragma once

#include "app/agent/agentsettings.h"
#include "app/net/sseparser.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <nlohmann/json.hpp>

#include <map>
#include <vector>

namespace Eddy::Net {
class HttpClient;
class HttpReply;
}

namespace Eddy::Agent {

// One assistant answer: text and/or tool calls ([{id, type, function: {name, arguments}}]).
struct ChatReply
{
    QString content;
    nlohmann::json toolCalls = nlohmann::json::array();
    QString finishReason;
    QString error;      // empty = ok; else one sentence a user can act on
    bool isOk() const { return error.isEmpty(); }
};

// One Chat Completions request over Eddy's libcurl transport: streams content deltas as they
// arrive (SSE "data:" chunks up to "[DONE]", tool-call deltas assembled by index) and also takes
// a plain JSON answer (a server that ignores "stream", or stream off). Exactly one finished()
// per start(). Lives on the thread of its HttpClient.
class ChatClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatClient)

public:
    explicit ChatClient(Net::HttpClient *http, QObject *parent = nullptr);
    ~ChatClient() override;

    void start(const AgentSettings &settings, const nlohmann::json &messages,
               const nlohmann::json &tools);
    void abort(); // finished() follows with an error "stopped"
    bool isRunning() const { return !m_reply.isNull(); }

signals:
    void contentDelta(const QString &text);
    void finished(const Eddy::Agent::ChatReply &reply);

private:
    void onReadyRead();
    void onFinished();
    void handleChunk(const QByteArray &data);
    void parseWhole(const QByteArray &body);
    void finish();

    Net::HttpClient *m_http = nullptr;
    QPointer<Net::HttpReply> m_reply;
    Net::SseParser m_sse;
    QByteArray m_body;        // non-streamed body (JSON answer or an error page)
    QString m_endpoint;       // for messages
    bool m_isStream = false;
    bool m_sawDone = false;
    bool m_aborted = false;
    ChatReply m_result;
    struct PartialCall
    {
        std::string id;
        std::string name;
        std::string arguments;
    };
    // Calls in order of appearance; m_slotOfIndex maps a delta's "index" to its call. A new id
    // at an index that already has a call with another id starts a new call (servers that send
    // every parallel call at index 0, or without an index).
    std::vector<PartialCall> m_calls;
    std::map<int, size_t> m_slotOfIndex;
};

} // namespace Eddy::Agent

Q_DECLARE_METATYPE(Eddy::Agent::ChatReply)
