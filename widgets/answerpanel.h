#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QUrl>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>

class QLabel;
class QPushButton;
class QScrollArea;
class QStackedWidget;
class QTimer;

namespace Eddy {

class SchemaForm;

// Who is asking: shown at the top of every question so the user knows which server, sweep and
// case wants an answer (MCP requires showing the server).
struct ElicitationContext
{
    QString serverName;
    QString serverUrl;
    QString tool;
    QString sweep;      // e.g. "Sweep 3 (6 cases)"; empty for a single call
    QString caseLabel;  // e.g. "Case 2: reynolds = 400, grid = 16"
    qint64 taskNumber = 0; // InboxModel::caseKey(caseId) (< 0) for a question before the task
    QString key;        // the input request key (not a secret)
    // Asked before the server created a task (tools/call answered input_required): the panel
    // says so, shows the call's arguments and offers no "Abort" (there is no task to abort).
    bool beforeTask = false;
    QString arguments; // the call's arguments (JSON text), shown when beforeTask
};

// One `elicitation/create` request (form or URL mode) to answer: the message, who asks, a
// SchemaForm built from requestedSchema, and three explicit buttons: Accept (the form's values),
// Decline (MCP "decline": the user says no; the server decides what follows) and "Abort This
// Case..." (abortRequested(): the owner confirms and cancels the task). Nothing here answers by
// closing or Escape. The buttons and the form ignore input for GuardMs after a question appears
// (the guard shows a countdown), so a click or key meant for what was there before never answers
// it. Lives beside the monitor (the inbox) and inside the opt-in pop-up. GUI thread.
class AnswerPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AnswerPanel)

public:
    static constexpr int GuardMs = 500;

    explicit AnswerPanel(QWidget *parent = nullptr);
    ~AnswerPanel() override;

    // `request` is the InputRequest ({method, params}) or just its params.
    void setQuestion(const nlohmann::json &request, const ElicitationContext &context);
    // No question: shows `note` (or the default hint) instead.
    void clearQuestion(const QString &note = {});
    bool hasQuestion() const { return m_hasQuestion; }
    const ElicitationContext &context() const { return m_context; }
    // The inbox's row key: a task id, or InboxModel::caseKey() (< 0) before the task exists.
    qint64 taskId() const { return m_hasQuestion ? m_context.taskNumber : 0; }
    QString key() const { return m_hasQuestion ? m_context.key : QString(); }
    QString noteText() const;

    bool isUrlMode() const { return m_urlMode; }
    QUrl url() const { return m_url; }
    SchemaForm *form() const { return m_form; }
    // True while the input guard holds the buttons.
    bool isGuarded() const;
    // The panel's height at which the question shows without scrolling, at its current width.
    int heightWithoutScrolling() const;

    // Replaces the consent prompt + QDesktopServices (tests use it so no browser starts).
    // Returns false when the user did not consent.
    void setUrlOpener(std::function<bool(const QUrl &)> opener) { m_opener = std::move(opener); }

    void acceptInput();  // validates; stays with the messages when something is wrong
    void declineInput();
    void requestAbort();

Q_SIGNALS:
    // {action: accept|decline, content?}
    void answered(const nlohmann::json &result);
    void abortRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void startGuard();
    void updateGuard();
    void setInputEnabled(bool on);
    bool askAndOpenUrl();

    ElicitationContext m_context;
    bool m_hasQuestion = false;
    bool m_urlMode = false;
    QUrl m_url;
    QStackedWidget *m_pages;
    QLabel *m_note;
    QWidget *m_questionPage;
    QScrollArea *m_scroll;
    SchemaForm *m_form = nullptr;
    QLabel *m_problems;
    QLabel *m_guardLabel;
    QLabel *m_trust; // "This question comes from the server, not from Eddy..."
    // The guard's countdown and the trust note share one place beside the buttons, as high as
    // the taller of the two, so that the buttons never move when the guard ends.
    QStackedWidget *m_notes = nullptr;
    QPushButton *m_accept;
    QPushButton *m_decline;
    QPushButton *m_abort;
    QTimer *m_guardTimer;
    QElapsedTimer m_guardClock;
    std::function<bool(const QUrl &)> m_opener;
};

} // namespace Eddy
