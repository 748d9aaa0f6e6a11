#pragma once

#include <QDialog>
#include <QString>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <functional>

class QLabel;
class QPushButton;

namespace Eddy {

class SchemaForm;

// Who is asking: shown at the top of every elicitation so the user knows which server, sweep and
// case wants an answer (MCP requires showing the server).
struct ElicitationContext
{
    QString serverName;
    QString serverUrl;
    QString tool;
    QString sweep;      // e.g. "Sweep 3 (6 cases)"; empty for a single call
    QString caseLabel;  // e.g. "Case 2: reynolds = 400, grid = 16"
    qint64 taskNumber = 0;
    QString key;        // the input request key (not a secret)
};

// An `elicitation/create` request (form or URL mode) as a dialog: the message, who asks, a
// SchemaForm built from requestedSchema, and Accept / Decline / Cancel. elicitResult() is the
// ElicitResult to send back. URL mode shows the full address and opens it only after consent.
// GUI thread.
class ElicitationDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElicitationDialog)

public:
    // `request` is the InputRequest ({method, params}) or just its params.
    ElicitationDialog(const nlohmann::json &request, const ElicitationContext &context,
                      QWidget *parent = nullptr);
    ~ElicitationDialog() override;

    bool isUrlMode() const { return m_urlMode; }
    QUrl url() const { return m_url; }
    SchemaForm *form() const { return m_form; }
    // {action: accept|decline|cancel, content?}; "cancel" until the user chose otherwise.
    nlohmann::json elicitResult() const { return m_result; }
    const ElicitationContext &context() const { return m_context; }

    // Replaces the consent prompt + QDesktopServices (tests use it so no browser starts).
    // Returns false when the user did not consent.
    void setUrlOpener(std::function<bool(const QUrl &)> opener) { m_opener = std::move(opener); }

    void acceptInput();  // validates; stays open with the messages when something is wrong
    void declineInput();
    void cancelInput();
    void reject() override; // Escape and the window's close button mean "cancel"

Q_SIGNALS:
    void answered(const nlohmann::json &result);

private:
    bool askAndOpenUrl();

    ElicitationContext m_context;
    bool m_urlMode = false;
    QUrl m_url;
    SchemaForm *m_form = nullptr;
    QLabel *m_problems = nullptr;
    QPushButton *m_acceptButton = nullptr;
    nlohmann::json m_result;
    std::function<bool(const QUrl &)> m_opener;
};

} // namespace Eddy
