#pragma once

#include "app/agent/agentsettings.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace Eddy {

// The agent's model endpoint (base URL, model, API key, context budget, streaming), whether
// task events start a turn, and the role Eddy's notes are sent in. Saved with QSettings (the file is made owner-only: it may hold the
// API key). GUI thread.
class AgentSettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentSettingsDialog)

public:
    explicit AgentSettingsDialog(QWidget *parent = nullptr);

    void setSettings(const Agent::AgentSettings &settings);
    Agent::AgentSettings settings() const;
    void accept() override; // refuses an unusable URL with a message

    static Agent::AgentSettings load();
    static void save(const Agent::AgentSettings &settings);

private:
    QLineEdit *m_url;
    QLineEdit *m_model;
    QLineEdit *m_key;
    QSpinBox *m_context;
    QCheckBox *m_stream;
    QCheckBox *m_continue;
    QCheckBox *m_notesAsSystem;
    QLabel *m_problem;
};

} // namespace Eddy
