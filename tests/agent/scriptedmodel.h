#pragma once

#include "tests/net/httppeer.h"

#include <QList>
#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>

namespace Eddy::Test {

// A Chat Completions endpoint on 127.0.0.1:0 that answers from a per-test script: each request
// is checked and answered by the next step, as SSE chunks (content split in pieces, each tool
// call's arguments split across chunks, "[DONE]" at the end) or as one JSON body. This is the one
// peer of the agent tests that is scripted: no language model runs on the test machines.
class ScriptedModel final : public QObject
{
    Q_OBJECT

public:
    struct Reply
    {
        QString content;
        nlohmann::json toolCalls = nlohmann::json::array(); // [{name, arguments (object)}]
        bool stream = true;      // false: one JSON body even when the client asked to stream
        int status = 200;
        QByteArray raw;          // sent as the body as is when not empty (errors, garbage)
        QByteArray rawType = "application/json";
        bool hang = false;       // send the head and one chunk, then nothing
        bool sameIndex = false;  // stream every call whole at "index" 0, one after the other
        bool repeatIds = false;  // every call has the id "call_0" (servers that number per answer)
    };
    using Step = std::function<Reply(const nlohmann::json &request)>;

    explicit ScriptedModel(QObject *parent = nullptr);
    bool listen();
    QString baseUrl() const; // http://127.0.0.1:PORT/v1
    void push(Step step) { m_script.append(std::move(step)); }
    int remaining() const { return int(m_script.size()); }
    const QList<nlohmann::json> &requests() const { return m_requests; }
    QList<QByteArray> rawBodies() const;
    QStringList failures() const { return m_failures; } // script checks that failed
    void fail(const QString &what) { m_failures << what; }

    static nlohmann::json call(const std::string &name, const nlohmann::json &arguments);
    // The tool names offered in a request.
    static QStringList toolNames(const nlohmann::json &request);

private:
    void answer(const HttpPeer::Request &request, QTcpSocket *socket);

    HttpPeer m_peer;
    QList<Step> m_script;
    QList<nlohmann::json> m_requests;
    QStringList m_failures;
    int m_callCounter = 0;
};

} // namespace Eddy::Test
