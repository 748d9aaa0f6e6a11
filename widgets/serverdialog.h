#pragma once

#include "app/vocab/records.h"

#include <QDialog>

class QLineEdit;
class QLabel;
class QPlainTextEdit;

namespace Eddy {

// Add or edit an MCP server: URL, display name, bearer token, and, for a known server, what its
// discovery said (name, version, era, capabilities, whether Tasks is offered) and its state.
// GUI thread.
class ServerDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerDialog)

public:
    explicit ServerDialog(QWidget *parent = nullptr);

    // Shows an existing server (the token field stays empty: "unchanged").
    void setServer(const Store::ServerRecord &server, const QString &state, const QString &lastError);
    QString url() const;
    QString name() const;
    // Null when the user left it empty while editing (keep the stored token).
    QString token() const;
    void accept() override; // checks the URL first
    // Human-readable summary of a server/discover result.
    static QString discoverySummary(const QString &era, const QString &discoveryJson, const QString &toolsJson);

private:
    QLineEdit *m_url;
    QLineEdit *m_name;
    QLineEdit *m_token;
    QLabel *m_problem;
    QLabel *m_state;
    QPlainTextEdit *m_discovery;
    bool m_editing = false;
};

} // namespace Eddy
