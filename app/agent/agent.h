#pragma once

#include "app/agent/agentsettings.h"
#include "app/agent/agenttools.h"
#include "app/agent/chatclient.h"
#include "app/vocab/records.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Net {
class HttpClient;
}
namespace Eddy::Monitor {
class Engine;
}

namespace Eddy::Agent {

// One agent conversation: a session of kind "agent" whose messages live in the database. A turn
// sends the stored context to the model, runs every tool call of an answer in order (one after
// the other, with the user's confirmation where needed), stores every message and repeats until
// the model answers in text. Task events of the session become short notes. Lives on the engine's
// thread (eddyctl and tests: the main thread; the GUI: the engine thread, through queued calls).
class Agent final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Agent)

public:
    // Who says yes to destructive calls: the user through confirmationRequested()/confirm()
    // (GUI), or a fixed answer (eddyctl: deny, or allow with --yes). answer_input is only ever
    // sent under Ask: a person must see it.
    enum class ConfirmationPolicy { Ask, AllowAll, DenyAll };
    Q_ENUM(ConfirmationPolicy)

    explicit Agent(Monitor::Engine *engine, QObject *parent = nullptr);
    ~Agent() override;

    AgentSettings settings() const { return m_settings; }
    void setConfirmationPolicy(ConfirmationPolicy policy) { m_policy = policy; }
    AgentTools &tools() { return *m_tools; }

    qint64 sessionId() const { return m_sessionId; }
    QString sessionName() const { return m_sessionName; }
    bool isBusy() const { return m_busy; }
    // Estimated tokens of the next request (messages + tools, about 4 characters a token).
    int estimatedTokens();
    QList<Store::AgentMessageRecord> messages(); // what the model sees, oldest first
    // The Chat Completions "messages" array the next request would send.
    nlohmann::json wireMessages();

public slots:
    void setSettings(const Eddy::Agent::AgentSettings &settings) { m_settings = settings; }
    // Opens the conversation `name`, creating it (kind "agent") when new; an empty name starts a
    // new one. False + errorString() when the database refuses or `name` is a workbench session.
    bool openConversation(const QString &name);
    // Attaches earlier tasks to this conversation (the GUI's attach) and notes them for the model.
    int attachTasks(const Eddy::Store::TaskQuery &query);
    // Starts a turn. turnFinished() follows, also when the model is unconfigured or unreachable.
    void send(const QString &prompt);
    void stop();
    void confirm(qint64 requestId, bool allowed);

public:
    QString errorString() const { return m_error; }

signals:
    void conversationOpened(qint64 sessionId, const QString &name);
    void messageStored(const Eddy::Store::AgentMessageRecord &message);
    void contentDelta(const QString &text);
    // `callId` is the model's tool_call_id: it relates a card to its call (several calls of one
    // answer run in order, each with its own card).
    void toolCallStarted(const QString &tool, const QString &arguments, const QString &callId);
    void toolCardReady(const QString &tool, const QString &card, const QList<qint64> &taskIds, bool ok,
                       const QString &callId);
    void confirmationRequested(qint64 requestId, const QString &tool, const QString &what, bool personOnly);
    void compacted(int messageCount);
    void turnFinished(bool ok, const QString &error);

private:
    struct PendingCall
    {
        QString id;
        QString name;
        QString argumentsText;
    };

    void startTurn();
    void ensureToolsThenRequest();
    void request();
    void onReply(const ChatReply &reply);
    void uniqueCallIds(nlohmann::json &toolCalls);
    void runNextCall();
    void runCall(const PendingCall &call, const nlohmann::json &arguments);
    void onToolFinished(qint64 seq, const ToolOutcome &outcome);
    void storeToolMessage(const PendingCall &call, const QString &content);
    void finishTurn(bool ok, const QString &error);
    bool store(Store::AgentMessageRecord &m);
    void maybeCompact(int extraChars);
    QString summaryFromDatabase(const QList<Store::AgentMessageRecord> &old);
    void addNote(const QString &text);
    void flushNotes();
    bool isOwnTask(qint64 taskId);
    QString systemPrompt() const;

    QPointer<Monitor::Engine> m_engine;
    Net::HttpClient *m_http = nullptr; // child
    ChatClient *m_chat = nullptr;      // child
    AgentTools *m_tools = nullptr;     // child
    AgentSettings m_settings;
    ConfirmationPolicy m_policy = ConfirmationPolicy::Ask;
    qint64 m_sessionId = 0;
    QString m_sessionName;
    QString m_error;
    bool m_busy = false;
    bool m_stopRequested = false;
    int m_rounds = 0;
    qint64 m_seq = 0;
    QList<PendingCall> m_calls;       // tool calls of the last answer still to run
    std::optional<PendingCall> m_running;
    std::optional<std::pair<qint64, nlohmann::json>> m_awaiting; // confirmation id, arguments
    QStringList m_notes;              // task events that arrived during a turn
    bool m_eventTurnQueued = false;
    int m_toolWaits = 0;              // servers whose tools are being listed before a request
};

} // namespace Eddy::Agent
