#include "widgets/agentpanel.h"

#include "app/agent/agent.h"
#include "models/agentchatmodel.h"
#include "widgets/agentsettingsdialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace Eddy {

AgentPanel::AgentPanel(Agent::Agent *agent, QWidget *parent)
    : QWidget(parent)
    , m_agent(agent)
    , m_model(new AgentChatModel(this))
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_view(new QListView(this))
    , m_prompt(new QPlainTextEdit(this))
    , m_send(new QPushButton(tr("Send"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
{
    m_view->setModel(m_model);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(false);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_prompt->setPlaceholderText(tr("Ask the agent, e.g. run Re 100 to 1000 in five steps on a 64 grid "
                                    "and tell me which converge (Ctrl+Return sends)"));
    m_prompt->setMaximumHeight(80);
    m_status->setWordWrap(true);
    m_stop->setEnabled(false);

    auto *newButton = new QPushButton(tr("New Conversation"), this);
    auto *settingsButton = new QPushButton(tr("Settings..."), this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(newButton);
    top->addWidget(settingsButton);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_prompt, 1);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_send);
    buttons->addWidget(m_stop);
    bottom->addLayout(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    layout->addLayout(bottom);

    connect(m_send, &QPushButton::clicked, this, &AgentPanel::onSend);
    connect(m_stop, &QPushButton::clicked, this, &AgentPanel::stop);
    connect(newButton, &QPushButton::clicked, this, [this] { openConversation({}); });
    connect(settingsButton, &QPushButton::clicked, this, &AgentPanel::showSettings);
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_prompt);
    connect(shortcut, &QShortcut::activated, this, &AgentPanel::onSend);
    connect(m_view, &QListView::doubleClicked, this, [this](const QModelIndex &index) {
        const auto ids = index.data(AgentChatModel::TaskIdsRole).value<QList<qint64>>();
        if (!ids.isEmpty())
            emit taskActivated(ids.first());
    });

    // The agent's signals arrive queued from the engine thread.
    connect(m_agent, &Agent::Agent::contentDelta, this, [this](const QString &text) {
        m_model->appendDelta(text);
        m_view->scrollToBottom();
    });
    connect(m_agent, &Agent::Agent::messageStored, this, [this](const Store::AgentMessageRecord &m) {
        if (m.role != QLatin1String("user")) // the prompt was shown when sent
            m_model->addMessage(m);
        m_view->scrollToBottom();
    });
    connect(m_agent, &Agent::Agent::toolCallStarted, this, [this](const QString &tool, const QString &) {
        m_status->setText(tr("Running %1...").arg(tool));
    });
    connect(m_agent, &Agent::Agent::toolCardReady, this,
            [this](const QString &tool, const QString &card, const QList<qint64> &ids, bool ok,
                   const QString &callId) {
        m_model->addCard(tool, card, ids, ok, callId);
        m_status->clear();
        m_view->scrollToBottom();
    });
    connect(m_agent, &Agent::Agent::confirmationRequested, this, &AgentPanel::onConfirmation);
    connect(m_agent, &Agent::Agent::compacted, this, [this](int n) {
        m_status->setText(tr("Compacted %n older message(s) into a summary.", nullptr, n));
    });
    connect(m_agent, &Agent::Agent::turnFinished, this, [this](bool ok, const QString &error) {
        setBusy(false);
        m_model->endTurn();
        if (!ok)
            m_model->addError(error);
        m_status->clear();
        emit turnFinished(ok, error);
    });
    connect(m_agent, &Agent::Agent::conversationOpened, this, [this](qint64 id, const QString &name) {
        m_title->setText(tr("Conversation: %1").arg(name));
        loadHistory();
        emit conversationOpened(id, name);
    });

    setSettings(AgentSettingsDialog::load());
    if (!m_settings.isConfigured())
        m_status->setText(tr("No model endpoint yet: open Settings... and give a base URL such as "
                             "http://127.0.0.1:8080/v1 (llama.cpp) or http://127.0.0.1:11434/v1 (Ollama)."));
    m_title->setText(tr("No conversation"));
}

// The agent is not ours: its owner ends it on the engine thread (maybe already gone by now, so it
// is not touched here; Qt drops the connections of whichever side goes first).
AgentPanel::~AgentPanel() = default;

void AgentPanel::setSettings(const Agent::AgentSettings &settings)
{
    m_settings = settings;
    QMetaObject::invokeMethod(m_agent, [agent = m_agent, settings] { agent->setSettings(settings); });
}

void AgentPanel::openConversation(const QString &name)
{
    QPointer<AgentPanel> self(this);
    QMetaObject::invokeMethod(m_agent, [agent = m_agent, name, self] {
        if (!agent->openConversation(name)) {
            const QString error = agent->errorString();
            QMetaObject::invokeMethod(self, [self, error] {
                if (self)
                    self->m_model->addError(error);
            });
        }
    });
}

void AgentPanel::loadHistory()
{
    QPointer<AgentPanel> self(this);
    QMetaObject::invokeMethod(m_agent, [agent = m_agent, self] {
        const QList<Store::AgentMessageRecord> history = agent->messages();
        QMetaObject::invokeMethod(self, [self, history] {
            if (!self)
                return;
            self->m_model->clear();
            for (const auto &m : history)
                self->m_model->addMessage(m);
            self->m_view->scrollToBottom();
        });
    });
}

void AgentPanel::send(const QString &prompt)
{
    if (m_busy || prompt.trimmed().isEmpty())
        return;
    Store::AgentMessageRecord shown;
    shown.role = QStringLiteral("user");
    shown.content = prompt.trimmed();
    m_model->addMessage(shown);
    setBusy(true);
    QMetaObject::invokeMethod(m_agent, [agent = m_agent, prompt = shown.content] { agent->send(prompt); });
}

void AgentPanel::onSend()
{
    const QString text = m_prompt->toPlainText();
    if (text.trimmed().isEmpty())
        return;
    m_prompt->clear();
    send(text);
}

void AgentPanel::stop()
{
    QMetaObject::invokeMethod(m_agent, [agent = m_agent] { agent->stop(); });
}

void AgentPanel::setBusy(bool busy)
{
    m_busy = busy;
    m_send->setEnabled(!busy);
    m_stop->setEnabled(busy);
    if (busy)
        m_status->setText(tr("The agent is answering..."));
}

void AgentPanel::showSettings()
{
    AgentSettingsDialog dialog(this);
    dialog.setSettings(m_settings);
    if (dialog.exec() != QDialog::Accepted)
        return;
    AgentSettingsDialog::save(dialog.settings());
    setSettings(dialog.settings());
    m_status->clear();
}

void AgentPanel::onConfirmation(qint64 requestId, const QString &tool, const QString &what, bool personOnly)
{
    QMessageBox box(this);
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(personOnly ? tr("Send the Agent's Answer?") : tr("Allow the Agent's Call?"));
    box.setText(personOnly ? tr("The agent proposes an answer to a task's question. Send it?")
                           : tr("The agent wants to run %1, which needs your confirmation.").arg(tool));
    box.setInformativeText(what);
    box.setStandardButtons(QMessageBox::Yes | QMessageBox::No);
    box.setDefaultButton(QMessageBox::No);
    const bool allowed = box.exec() == QMessageBox::Yes;
    QMetaObject::invokeMethod(m_agent, [agent = m_agent, requestId, allowed] { agent->confirm(requestId, allowed); });
}

} // namespace Eddy
