#include "widgets/agentsettingsdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Eddy {

AgentSettingsDialog::AgentSettingsDialog(QWidget *parent)
    : QDialog(parent)
    , m_url(new QLineEdit(this))
    , m_model(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_context(new QSpinBox(this))
    , m_stream(new QCheckBox(tr("Stream the answer as it is written"), this))
    , m_continue(new QCheckBox(tr("Let the agent continue on task events"), this))
    , m_notesAsSystem(new QCheckBox(tr("Send Eddy's notes as system messages"), this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("Agent Settings"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080/v1"));
    m_url->setToolTip(tr("llama.cpp: http://127.0.0.1:8080/v1, Ollama: http://127.0.0.1:11434/v1"));
    m_model->setPlaceholderText(tr("e.g. qwen2.5-7b-instruct (local servers may ignore it)"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("empty for local servers"));
    m_context->setRange(256, 2000000);
    m_context->setSingleStep(1024);
    m_context->setSuffix(tr(" tokens"));
    m_notesAsSystem->setToolTip(tr("Off: task events and summaries go to the model as user messages "
                                   "marked [Eddy], which every chat template accepts. On: as system "
                                   "messages, which some templates (Gemma, some Mistral ones) reject "
                                   "after the first message."));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: palette(highlight)"));
    auto *form = new QFormLayout;
    form->addRow(tr("Base URL:"), m_url);
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("API key:"), m_key);
    form->addRow(tr("Context budget:"), m_context);
    form->addRow(QString(), m_stream);
    form->addRow(QString(), m_continue);
    form->addRow(QString(), m_notesAsSystem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &AgentSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AgentSettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setSettings(Agent::AgentSettings());
}

void AgentSettingsDialog::setSettings(const Agent::AgentSettings &s)
{
    m_url->setText(s.baseUrl);
    m_model->setText(s.model);
    m_key->setText(s.apiKey);
    m_context->setValue(s.contextTokens);
    m_stream->setChecked(s.stream);
    m_continue->setChecked(s.continueOnTaskEvents);
    m_notesAsSystem->setChecked(s.notesAsSystem);
}

Agent::AgentSettings AgentSettingsDialog::settings() const
{
    Agent::AgentSettings s;
    s.baseUrl = m_url->text().trimmed();
    s.model = m_model->text().trimmed();
    s.apiKey = m_key->text();
    s.contextTokens = m_context->value();
    s.stream = m_stream->isChecked();
    s.continueOnTaskEvents = m_continue->isChecked();
    s.notesAsSystem = m_notesAsSystem->isChecked();
    return s;
}

void AgentSettingsDialog::accept()
{
    const QString problem = settings().problem();
    if (!problem.isEmpty()) {
        m_problem->setText(problem);
        return;
    }
    QDialog::accept();
}

Agent::AgentSettings AgentSettingsDialog::load()
{
    QSettings q;
    q.beginGroup(QStringLiteral("agent"));
    Agent::AgentSettings s;
    s.baseUrl = q.value(QStringLiteral("baseUrl")).toString();
    s.model = q.value(QStringLiteral("model")).toString();
    s.apiKey = q.value(QStringLiteral("apiKey")).toString();
    s.contextTokens = q.value(QStringLiteral("contextTokens"), s.contextTokens).toInt();
    s.stream = q.value(QStringLiteral("stream"), s.stream).toBool();
    s.continueOnTaskEvents = q.value(QStringLiteral("continueOnTaskEvents"), false).toBool();
    s.notesAsSystem = q.value(QStringLiteral("notesAsSystem"), false).toBool();
    return Agent::AgentSettings::fromEnvironment(s);
}

void AgentSettingsDialog::save(const Agent::AgentSettings &s)
{
    QSettings q;
    q.beginGroup(QStringLiteral("agent"));
    q.setValue(QStringLiteral("baseUrl"), s.baseUrl);
    q.setValue(QStringLiteral("model"), s.model);
    q.setValue(QStringLiteral("apiKey"), s.apiKey);
    q.setValue(QStringLiteral("contextTokens"), s.contextTokens);
    q.setValue(QStringLiteral("stream"), s.stream);
    q.setValue(QStringLiteral("continueOnTaskEvents"), s.continueOnTaskEvents);
    q.setValue(QStringLiteral("notesAsSystem"), s.notesAsSystem);
    q.endGroup();
    q.sync();
    // The key is a secret like a server token: the file is for the owner only.
    if (q.format() == QSettings::NativeFormat || q.format() == QSettings::IniFormat)
        QFile::setPermissions(q.fileName(), QFile::ReadOwner | QFile::WriteOwner);
}

} // namespace Eddy
