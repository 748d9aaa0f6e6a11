#pragma once

#include "app/agent/agentsettings.h"
#include "app/vocab/records.h"

#include <QWidget>

class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;

namespace Eddy {

class AgentChatModel;
namespace Agent {
class Agent;
}

// The Agent panel: a chat with streamed text, tool calls as compact cards carrying Eddy's task
// numbers (double-click one to show the task), a stop button and the endpoint settings. The
// Agent is built and owned where the engine is (app/main.cpp) and lives on the engine's thread;
// the panel talks to it through queued calls only. GUI thread.
class AgentPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentPanel)

public:
    // `agent` is not null and lives while the event loop runs (its owner ends it afterwards).
    explicit AgentPanel(Agent::Agent *agent, QWidget *parent = nullptr);
    ~AgentPanel() override;

    AgentChatModel *model() const { return m_model; }
    Agent::Agent *agent() const { return m_agent; } // on the engine thread: queued calls only
    // Opens (or creates) a conversation by name; empty = a new one. The chat shows its history.
    void openConversation(const QString &name);
    void setSettings(const Agent::AgentSettings &settings);
    void send(const QString &prompt);
    void stop();
    bool isBusy() const { return m_busy; }

signals:
    void taskActivated(qint64 taskId);               // a card was double-clicked
    void conversationOpened(qint64 sessionId, const QString &name); // for the session list
    void turnFinished(bool ok, const QString &error);

private:
    void onSend();
    void showSettings();
    void setBusy(bool busy);
    void onConfirmation(qint64 requestId, const QString &tool, const QString &what, bool personOnly);
    void loadHistory();

    Agent::Agent *m_agent; // its owner ends it on the engine thread, after the event loop
    AgentChatModel *m_model;
    QLabel *m_title;
    QLabel *m_status;
    QListView *m_view;
    QPlainTextEdit *m_prompt;
    QPushButton *m_send;
    QPushButton *m_stop;
    Agent::AgentSettings m_settings;
    bool m_busy = false;
};

} // namespace Eddy
