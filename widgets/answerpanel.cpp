#include "widgets/answerpanel.h"

#include "widgets/schemaform.h"
#include "app/vocab/jsonfield.h"

#include <QApplication>
#include <QDesktopServices>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QShowEvent>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace Eddy {

using json = nlohmann::json;

AnswerPanel::AnswerPanel(QWidget *parent)
    : QWidget(parent)
    , m_pages(new QStackedWidget(this))
    , m_note(new QLabel(this))
    , m_questionPage(new QWidget(this))
    , m_scroll(new QScrollArea(this))
    , m_problems(new QLabel(this))
    , m_guardLabel(new QLabel(this))
    , m_trust(new QLabel(tr("This question comes from the server, not from Eddy. Never enter "
                            "passwords or secrets unless you trust this server."), this))
    , m_accept(new QPushButton(tr("Accept"), this))
    , m_decline(new QPushButton(tr("Decline"), this))
    , m_abort(new QPushButton(tr("Abort This Case..."), this))
    , m_guardTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("AnswerPanel"));
    setFocusPolicy(Qt::ClickFocus);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_pages);

    m_note->setObjectName(QStringLiteral("note"));
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setMargin(12);
    m_pages->addWidget(m_note);

    auto *layout = new QVBoxLayout(m_questionPage);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(4);
    m_scroll->setObjectName(QStringLiteral("questionScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_scroll, 1);

    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #d0312d;"));
    m_problems->setVisible(false);
    layout->addWidget(m_problems);

    m_accept->setObjectName(QStringLiteral("accept"));
    m_accept->setDefault(true);
    m_accept->setAutoDefault(true);
    m_decline->setObjectName(QStringLiteral("decline"));
    m_decline->setAutoDefault(false);
    m_decline->setToolTip(tr("Send \"decline\": you will not give what the server asks for. The server "
                             "decides what happens next; many end the case."));
    m_abort->setObjectName(QStringLiteral("abort"));
    m_abort->setAutoDefault(false);
    m_abort->setToolTip(tr("Ask the server to cancel this case (after a confirmation). The question is "
                           "not answered. A cancelled case can be re-run."));
    m_guardLabel->setObjectName(QStringLiteral("guard"));
    m_guardLabel->setForegroundRole(QPalette::PlaceholderText);
    m_guardLabel->setWordWrap(true);
    // Beside the buttons, not below the form: a question fits at 800 px without scrolling.
    m_trust->setObjectName(QStringLiteral("trust"));
    m_trust->setWordWrap(true);
    m_trust->setForegroundRole(QPalette::PlaceholderText);
    QFont small = m_trust->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_trust->setFont(small);
    m_trust->setMinimumWidth(120);
    m_notes = new QStackedWidget(this);
    m_notes->addWidget(m_guardLabel);
    m_notes->addWidget(m_trust);
    m_notes->setCurrentWidget(m_trust);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_notes, 1);
    buttons->addWidget(m_abort);
    buttons->addSpacing(16); // the destructive choice stands apart from the answers
    buttons->addWidget(m_decline);
    buttons->addWidget(m_accept);
    layout->addLayout(buttons);
    m_pages->addWidget(m_questionPage);

    connect(m_accept, &QPushButton::clicked, this, &AnswerPanel::acceptInput);
    connect(m_decline, &QPushButton::clicked, this, &AnswerPanel::declineInput);
    connect(m_abort, &QPushButton::clicked, this, &AnswerPanel::requestAbort);

    m_guardTimer->setInterval(100);
    connect(m_guardTimer, &QTimer::timeout, this, &AnswerPanel::updateGuard);
    clearQuestion();
}

AnswerPanel::~AnswerPanel() = default;

void AnswerPanel::setQuestion(const nlohmann::json &request, const ElicitationContext &context)
{
    m_context = context;
    m_hasQuestion = true;
    const json params = request.is_object() && request.contains("params") ? request["params"] : request;
    // A missing mode means form (MCP elicitation).
    m_urlMode = Json::string(params, "mode") == QLatin1String("url");
    m_url = m_urlMode ? QUrl(Json::string(params, "url"), QUrl::StrictMode) : QUrl();
    const QString message = Json::string(params, "message");

    // The content is rebuilt for each question (the old form goes with its scroll widget).
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->setSpacing(2);
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(content);
    icon->setPixmap(style()->standardIcon(m_urlMode ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxQuestion)
                        .pixmap(24, 24));
    header->addWidget(icon, 0, Qt::AlignTop);
    auto *messageLabel = new QLabel(message.isEmpty() ? tr("The server asks for input.") : message, content);
    messageLabel->setObjectName(QStringLiteral("message"));
    messageLabel->setWordWrap(true);
    messageLabel->setTextFormat(Qt::PlainText); // server text is untrusted: never render it as HTML
    messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = messageLabel->font();
    bold.setBold(true);
    messageLabel->setFont(bold);
    header->addWidget(messageLabel, 1);
    layout->addLayout(header);

    // Who is asking: the server first, then the sweep and case it concerns; one wrapped
    // paragraph (five lines of it pushed the form out of view at 800 px).
    QStringList who;
    const auto addRow = [&](const QString &label, const QString &value) {
        if (!value.isEmpty())
            who << tr("<b>%1</b> %2").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    };
    addRow(tr("Server:"), context.serverUrl.isEmpty() ? context.serverName
                                                      : tr("%1 (%2)").arg(context.serverName, context.serverUrl));
    addRow(tr("Tool:"), context.tool);
    addRow(tr("Sweep:"), context.sweep);
    addRow(tr("Case:"), context.caseLabel);
    if (context.taskNumber > 0)
        addRow(tr("Task:"), tr("#%1").arg(context.taskNumber));
    if (context.beforeTask) {
        QString args = context.arguments;
        if (args.size() > 400)
            args = args.left(399) + QChar(0x2026);
        addRow(tr("Arguments:"), args);
        addRow(tr("Task:"), tr("none yet — the server asks before the task starts"));
    }
    auto *whoLabel = new QLabel(who.join(QStringLiteral(" &nbsp;·&nbsp; ")), content);
    whoLabel->setObjectName(QStringLiteral("whoIsAsking"));
    whoLabel->setTextFormat(Qt::RichText); // every value escaped above
    whoLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    whoLabel->setWordWrap(true);
    whoLabel->setFrameShape(QFrame::StyledPanel);
    whoLabel->setMargin(2);
    whoLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QFont smaller = whoLabel->font();
    smaller.setPointSizeF(smaller.pointSizeF() * 0.9);
    whoLabel->setFont(smaller);
    // The form beside who is asking, not below it: a question fits at 800 px without scrolling.
    auto *body = new QHBoxLayout;
    body->setSpacing(8);
    layout->addLayout(body);

    m_form = nullptr;
    if (m_urlMode) {
        auto *explain = new QLabel(tr("The server asks you to open this address in your browser. "
                                      "Check that you trust it; Eddy opens it only when you agree."), content);
        explain->setWordWrap(true);
        layout->addWidget(explain);
        layout->addWidget(whoLabel);
        auto *urlEdit = new QLineEdit(Json::string(params, "url"), content);
        urlEdit->setObjectName(QStringLiteral("url"));
        urlEdit->setReadOnly(true);
        urlEdit->setCursorPosition(0);
        layout->addWidget(urlEdit);
    } else {
        m_form = new SchemaForm(content);
        m_form->setSchema(params.value("requestedSchema", json::object()));
        m_form->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum); // never squeezed
        m_form->layout()->setContentsMargins(0, 0, 0, 0); // the panel has its own
        // Half each: narrower, who is asking grew taller than the form and set the height.
        body->addWidget(m_form, 1, Qt::AlignTop);
        body->addWidget(whoLabel, 1);
    }
    layout->addStretch(1);
    m_scroll->setWidget(content); // deletes the previous question's widgets
    if (content->hasHeightForWidth())
        content->setMinimumHeight(content->heightForWidth(m_scroll->viewport()->width()));

    m_accept->setText(m_urlMode ? tr("Open URL...") : tr("Accept"));
    m_accept->setToolTip(m_urlMode ? tr("Open the address in your browser (after you confirm) and tell the "
                                        "server you did")
                                   : tr("Send the values of the form to the server"));
    m_abort->setVisible(!context.beforeTask); // no task yet: Decline is the way to say no
    m_problems->clear();
    m_problems->setVisible(false);
    m_pages->setCurrentWidget(m_questionPage);
    startGuard();
}

void AnswerPanel::clearQuestion(const QString &note)
{
    // Keep the keyboard focus here: handed to the next widget (the inbox list) it could pick the
    // next question by itself.
    if (isAncestorOf(QApplication::focusWidget()))
        setFocus(Qt::OtherFocusReason);
    m_hasQuestion = false;
    m_form = nullptr;
    m_guardTimer->stop();
    m_note->setText(note.isEmpty() ? tr("No question selected.\nQuestions from the servers wait in the list; "
                                        "select one to answer it here while its case stays in view.")
                                   : note);
    m_pages->setCurrentWidget(m_note);
    delete m_scroll->takeWidget();
}

QString AnswerPanel::noteText() const
{
    return m_hasQuestion ? QString() : m_note->text();
}

bool AnswerPanel::isGuarded() const
{
    return m_guardTimer->isActive();
}

void AnswerPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // A question that was there while the panel was hidden is new to the eye now.
    if (m_hasQuestion && !event->spontaneous())
        startGuard();
}

void AnswerPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // A resizable scroll widget is squeezed to its minimum size hint, which for wrapped labels
    // beside a form is less than they need at this width: they overlapped. Hold it at its
    // height for the width (the panel scrolls instead).
    if (QWidget *content = m_scroll->widget(); content && content->hasHeightForWidth())
        content->setMinimumHeight(content->heightForWidth(m_scroll->viewport()->width()));
}

int AnswerPanel::heightWithoutScrolling() const
{
    if (!m_hasQuestion || !m_scroll->widget())
        return sizeHint().height();
    QWidget *content = m_scroll->widget();
    const int width = m_scroll->viewport()->width();
    const int contentHeight = content->hasHeightForWidth() ? content->heightForWidth(width)
                                                            : content->sizeHint().height();
    // Everything but the scroll area's viewport stays as it is.
    return height() - m_scroll->viewport()->height() + contentHeight;
}

void AnswerPanel::startGuard()
{
    m_guardClock.start();
    setInputEnabled(false);
    m_guardTimer->start();
    updateGuard();
}

void AnswerPanel::updateGuard()
{
    const qint64 left = GuardMs - m_guardClock.elapsed();
    if (left <= 0) {
        m_guardTimer->stop();
        m_guardLabel->clear();
        m_notes->setCurrentWidget(m_trust);
        setInputEnabled(true);
        return;
    }
    m_notes->setCurrentWidget(m_guardLabel); // in the trust note's place while it counts down
    m_guardLabel->setText(tr("Read the question: the buttons unlock in %1 s")
                              .arg(QLocale().toString(std::max<qint64>(left, 100) / 1000.0, 'f', 1)));
}

void AnswerPanel::setInputEnabled(bool on)
{
    m_accept->setEnabled(on);
    m_decline->setEnabled(on);
    m_abort->setEnabled(on);
    if (QWidget *content = m_scroll->widget()) {
        for (QWidget *w : content->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
            if (w == m_form || qobject_cast<QLineEdit *>(w))
                w->setEnabled(on);
        }
    }
}

void AnswerPanel::acceptInput()
{
    if (!m_hasQuestion || isGuarded())
        return;
    json result;
    if (m_urlMode) {
        if (!m_url.isValid() || m_url.scheme().isEmpty()) {
            m_problems->setText(tr("The server sent an address that is not a valid URL; decline, or abort the case."));
            m_problems->setVisible(true);
            return;
        }
        if (!askAndOpenUrl())
            return; // no consent: the question stays
        result = json{{"action", "accept"}};
    } else {
        const QStringList problems = m_form->validate();
        if (!problems.isEmpty()) {
            m_problems->setText(tr("Please fix %n field(s) before accepting.", nullptr, static_cast<int>(problems.size())));
            m_problems->setVisible(true);
            return;
        }
        result = json{{"action", "accept"}, {"content", m_form->value()}};
    }
    Q_EMIT answered(result);
}

void AnswerPanel::declineInput()
{
    if (!m_hasQuestion || isGuarded())
        return;
    Q_EMIT answered(json{{"action", "decline"}});
}

void AnswerPanel::requestAbort()
{
    if (!m_hasQuestion || isGuarded() || m_context.beforeTask)
        return;
    Q_EMIT abortRequested();
}

bool AnswerPanel::askAndOpenUrl()
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
