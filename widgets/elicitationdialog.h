#pragma once

#include "widgets/answerpanel.h"

#include <QDialog>

namespace Eddy {

// The opt-in pop-up for one question: an AnswerPanel (Accept, Decline, "Abort This Case...",
// with its input guard) plus "Later". Later, Escape and the window's close button close the
// pop-up and answer nothing: the question stays open in the inbox. GUI thread.
class ElicitationDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElicitationDialog)

public:
    // `request` is the InputRequest ({method, params}) or just its params.
    ElicitationDialog(const nlohmann::json &request, const ElicitationContext &context,
                      QWidget *parent = nullptr);
    ~ElicitationDialog() override;

    AnswerPanel *panel() const { return m_panel; }
    bool isUrlMode() const { return m_panel->isUrlMode(); }
    QUrl url() const { return m_panel->url(); }
    SchemaForm *form() const { return m_panel->form(); }
    // The answer sent ({action: accept|decline, content?}); null while none was given.
    nlohmann::json elicitResult() const { return m_result; }
    const ElicitationContext &context() const { return m_panel->context(); }
    void setUrlOpener(std::function<bool(const QUrl &)> opener) { m_panel->setUrlOpener(std::move(opener)); }

    void acceptInput() { m_panel->acceptInput(); }
    void declineInput() { m_panel->declineInput(); }
    // Later, Escape and the close button: closes without answering.
    void reject() override;

Q_SIGNALS:
    void answered(const nlohmann::json &result);
    void abortRequested();

private:
    AnswerPanel *m_panel;
    nlohmann::json m_result;
};

} // namespace Eddy
