#include "widgets/elicitationdialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace Eddy {

ElicitationDialog::ElicitationDialog(const nlohmann::json &request, const ElicitationContext &context,
                                     QWidget *parent)
    : QDialog(parent)
    , m_panel(new AnswerPanel(this))
{
    setObjectName(QStringLiteral("ElicitationDialog"));
    setWindowTitle(tr("Input Needed — %1").arg(context.serverName.isEmpty() ? tr("MCP server") : context.serverName));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_panel, 1);
    auto *bottom = new QHBoxLayout;
    auto *hint = new QLabel(tr("Later, Escape or closing this window leave the question open in the inbox."), this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    bottom->addWidget(hint, 1);
    auto *later = new QPushButton(tr("Later"), this);
    later->setObjectName(QStringLiteral("later"));
    later->setAutoDefault(false);
    later->setToolTip(tr("Close without answering; the question waits in the inbox"));
    connect(later, &QPushButton::clicked, this, &ElicitationDialog::reject);
    bottom->addWidget(later);
    layout->addLayout(bottom);
    m_panel->setQuestion(request, context);
    connect(m_panel, &AnswerPanel::answered, this, [this](const nlohmann::json &result) {
        m_result = result;
        Q_EMIT answered(result);
        done(result.value("action", std::string()) == "accept" ? QDialog::Accepted : QDialog::Rejected);
    });
    connect(m_panel, &AnswerPanel::abortRequested, this, &ElicitationDialog::abortRequested);
    resize(560, 460);
}

ElicitationDialog::~ElicitationDialog() = default;

void ElicitationDialog::reject()
{
    QDialog::reject(); // nothing is sent: the question stays open
}

} // namespace Eddy
