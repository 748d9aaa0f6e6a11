#include "widgets/elicitationdialog.h"

#include "widgets/schemaform.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace Eddy {

using json = nlohmann::json;

namespace {

QString text(const json &j, const char *key)
{
    if (j.is_object()) {
        auto it = j.find(key);
        if (it != j.end() && it->is_string())
            return QString::fromStdString(it->get<std::string>());
    }
    return {};
}

} // namespace

ElicitationDialog::ElicitationDialog(const nlohmann::json &request,
                                     const ElicitationContext &context, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_result({{"action", "cancel"}})
{
    const json params = request.is_object() && request.contains("params") ? request["params"] : request;
    // A missing mode means form (MCP elicitation).
    m_urlMode = text(params, "mode") == QLatin1String("url");
    const QString message = text(params, "message");

    setWindowTitle(tr("Input Needed — %1").arg(context.serverName.isEmpty() ? tr("MCP server") : context.serverName));
    setObjectName(QStringLiteral("ElicitationDialog"));
    auto *layout = new QVBoxLayout(this);

    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(m_urlMode ? QStyle::SP_MessageBoxWarning
                                                    : QStyle::SP_MessageBoxQuestion)
                        .pixmap(32, 32));
    header->addWidget(icon, 0, Qt::AlignTop);
    auto *messageLabel = new QLabel(message.isEmpty() ? tr("The server asks for input.") : message, this);
    messageLabel->setObjectName(QStringLiteral("message"));
    messageLabel->setWordWrap(true);
    messageLabel->setTextFormat(Qt::PlainText); // server text is untrusted: never render it as HTML
    QFont big = messageLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.15);
    messageLabel->setFont(big);
    header->addWidget(messageLabel, 1);
    layout->addLayout(header);

    // Who is asking: the server first, then the sweep and case it concerns.
    auto *who = new QFrame(this);
    who->setObjectName(QStringLiteral("whoIsAsking"));
    who->setFrameShape(QFrame::StyledPanel);
    auto *whoForm = new QFormLayout(who);
    whoForm->setContentsMargins(8, 6, 8, 6);
    const auto addRow = [&](const QString &label, const QString &value) {
        if (value.isEmpty())
            return;
        auto *v = new QLabel(value, who);
        v->setTextFormat(Qt::PlainText);
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->setWordWrap(true);
        whoForm->addRow(label, v);
    };
    addRow(tr("Server:"), context.serverUrl.isEmpty() ? context.serverName
                                                      : tr("%1 (%2)").arg(context.serverName, context.serverUrl));
    addRow(tr("Tool:"), context.tool);
    addRow(tr("Sweep:"), context.sweep);
    addRow(tr("Case:"), context.caseLabel);
    if (context.taskNumber > 0)
        addRow(tr("Task:"), tr("#%1").arg(context.taskNumber));
    layout->addWidget(who);

    if (m_urlMode) {
        m_url = QUrl(text(params, "url"), QUrl::StrictMode);
        auto *explain = new QLabel(tr("The server asks you to open this address in your browser. "
                                      "Check that you trust it; Eddy opens it only when you agree."), this);
        explain->setWordWrap(true);
        layout->addWidget(explain);
        auto *urlEdit = new QLineEdit(text(params, "url"), this);
        urlEdit->setObjectName(QStringLiteral("url"));
        urlEdit->setReadOnly(true);
        urlEdit->setCursorPosition(0);
        layout->addWidget(urlEdit);
    } else {
        m_form = new SchemaForm(this);
        m_form->setSchema(params.value("requestedSchema", json::object()));
        auto *scroll = new QScrollArea(this);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(m_form);
        // Word-wrapped hints report their height late; reserve the form's full height up front.
        scroll->setMinimumHeight(std::min(420, m_form->sizeHint().height() + 40));
        layout->addWidget(scroll, 1);
    }

    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #d0312d;"));
    m_problems->setVisible(false);
    layout->addWidget(m_problems);

    auto *trust = new QLabel(tr("This question comes from the server, not from Eddy. Never enter "
                                "passwords or secrets unless you trust this server."), this);
    trust->setWordWrap(true);
    trust->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(trust);

    auto *buttons = new QDialogButtonBox(this);
    m_acceptButton = buttons->addButton(m_urlMode ? tr("Open URL...") : tr("Accept"),
                                        QDialogButtonBox::AcceptRole);
    m_acceptButton->setObjectName(QStringLiteral("accept"));
    m_acceptButton->setDefault(true);
    auto *decline = buttons->addButton(tr("Decline"), QDialogButtonBox::DestructiveRole);
    decline->setObjectName(QStringLiteral("decline"));
    decline->setToolTip(tr("Tell the server no: the case decides what to do (for example abort)."));
    auto *cancel = buttons->addButton(tr("Cancel"), QDialogButtonBox::RejectRole);
    cancel->setObjectName(QStringLiteral("cancel"));
    cancel->setToolTip(tr("Dismiss without answering the question."));
    connect(m_acceptButton, &QPushButton::clicked, this, &ElicitationDialog::acceptInput);
    connect(decline, &QPushButton::clicked, this, &ElicitationDialog::declineInput);
    connect(cancel, &QPushButton::clicked, this, &ElicitationDialog::cancelInput);
    layout->addWidget(buttons);

    resize(520, m_urlMode ? 300 : 440);
}

ElicitationDialog::~ElicitationDialog() = default;

void ElicitationDialog::acceptInput()
{
    if (m_urlMode) {
        if (!m_url.isValid() || m_url.scheme().isEmpty()) {
            m_problems->setText(tr("The server sent an address that is not a valid URL; decline or cancel."));
            m_problems->setVisible(true);
            return;
        }
        if (!askAndOpenUrl())
            return; // no consent: stay open so the user can decline or cancel
        m_result = json{{"action", "accept"}};
    } else {
        const QStringList problems = m_form->validate();
        if (!problems.isEmpty()) {
            m_problems->setText(tr("Please fix %n field(s) before accepting.", nullptr, static_cast<int>(problems.size())));
            m_problems->setVisible(true);
            return;
        }
        m_result = json{{"action", "accept"}, {"content", m_form->value()}};
    }
    Q_EMIT answered(m_result);
    accept();
}

void ElicitationDialog::declineInput()
{
    m_result = json{{"action", "decline"}};
    Q_EMIT answered(m_result);
    done(QDialog::Rejected);
}

void ElicitationDialog::cancelInput()
{
    reject();
}

void ElicitationDialog::reject()
{
    m_result = json{{"action", "cancel"}};
    Q_EMIT answered(m_result);
    QDialog::reject();
}

bool ElicitationDialog::askAndOpenUrl()
{
    if (m_opener)
        return m_opener(m_url);
    QMessageBox box(QMessageBox::Question, tr("Open Address?"),
                    tr("Open this address in your web browser?\n\n%1\n\nIt was sent by %2.")
                        .arg(m_url.toString(), m_context.serverName),
                    QMessageBox::Open | QMessageBox::Cancel, this);
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() != QMessageBox::Open)
        return false;
    return QDesktopServices::openUrl(m_url);
}

} // namespace Eddy
