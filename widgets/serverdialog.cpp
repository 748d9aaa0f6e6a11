#include "widgets/serverdialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace Eddy {

using json = nlohmann::json;

ServerDialog::ServerDialog(QWidget *parent)
    : QDialog(parent)
    , m_url(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_token(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_state(new QLabel(this))
    , m_discovery(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Add Server"));
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("http://127.0.0.1:8080/mcp"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(tr("e.g. Cluster head node"));
    m_token->setObjectName(QStringLiteral("token"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("optional bearer token"));
    m_problem->setStyleSheet(QStringLiteral("color: #d0312d;"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    m_state->setWordWrap(true);
    m_state->hide();
    m_discovery->setReadOnly(true);
    m_discovery->hide();
    m_discovery->setMinimumHeight(120);

    auto *form = new QFormLayout;
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Token:"), m_token);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Save"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ServerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ServerDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_state);
    layout->addWidget(m_discovery, 1);
    layout->addWidget(buttons);
    resize(480, 220);
}

QString ServerDialog::discoverySummary(const QString &era, const QString &discoveryJson, const QString &toolsJson)
{
    QStringList lines;
    const json d = json::parse(discoveryJson.toStdString(), nullptr, false);
    if (d.is_object()) {
        json info = d.value("serverInfo", json::object());
        if (!info.is_object() || info.empty()) {
            const json meta = d.value("_meta", json::object());
            if (meta.is_object())
                info = meta.value("io.modelcontextprotocol/serverInfo", json::object());
        }
        if (info.is_object() && info.contains("name"))
            lines << tr("Name: %1 %2").arg(QString::fromStdString(info.value("name", std::string())),
                                           QString::fromStdString(info.value("version", std::string())));
        if (d.contains("supportedVersions") && d["supportedVersions"].is_array()) {
            QStringList v;
            for (const auto &x : d["supportedVersions"])
                if (x.is_string())
                    v << QString::fromStdString(x.get<std::string>());
            lines << tr("Supported versions: %1").arg(v.join(QStringLiteral(", ")));
        }
        const json caps = d.value("capabilities", json::object());
        if (caps.is_object()) {
            QStringList c;
            for (auto it = caps.begin(); it != caps.end(); ++it)
                if (it.key() != "extensions")
                    c << QString::fromStdString(it.key());
            lines << tr("Capabilities: %1").arg(c.isEmpty() ? tr("none") : c.join(QStringLiteral(", ")));
            const bool tasks = caps.value("extensions", json::object()).is_object()
                               && caps["extensions"].contains("io.modelcontextprotocol/tasks");
            lines << (tasks ? tr("Tasks: offered (long-running calls return task handles)")
                            : tr("Tasks: not offered"));
        }
    }
    if (!era.isEmpty())
        lines << tr("Protocol: %1").arg(era);
    json tools = json::parse(toolsJson.toStdString(), nullptr, false);
    if (tools.is_object() && tools.contains("tools"))
        tools = tools["tools"];
    if (tools.is_array()) {
        QStringList names;
        for (const auto &t : tools)
            if (t.is_object() && t.value("name", json()).is_string())
                names << QString::fromStdString(t["name"].get<std::string>());
        lines << tr("Tools: %1").arg(names.join(QStringLiteral(", ")));
    }
    if (lines.isEmpty())
        lines << tr("Not discovered yet.");
    return lines.join(QLatin1Char('\n'));
}

void ServerDialog::setServer(const Store::ServerRecord &server, const QString &state, const QString &lastError)
{
    m_editing = true;
    setWindowTitle(tr("Server Details"));
    m_url->setText(server.url);
    m_name->setText(server.name);
    m_token->setPlaceholderText(tr("unchanged (type a new token to replace it)"));
    m_state->setText(lastError.isEmpty() ? tr("State: %1").arg(state) : tr("State: %1 — %2").arg(state, lastError));
    m_state->show();
    m_discovery->setPlainText(discoverySummary(server.era, server.discovery, server.tools));
    m_discovery->show();
    resize(520, 380);
}

QString ServerDialog::url() const
{
    return m_url->text().trimmed();
}

QString ServerDialog::name() const
{
    return m_name->text().trimmed();
}

QString ServerDialog::token() const
{
    if (m_editing && m_token->text().isEmpty())
        return QString();
    return m_token->text().isEmpty() ? QLatin1String("") : m_token->text();
}

void ServerDialog::accept()
{
    const QUrl u(url(), QUrl::StrictMode);
    if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) || u.host().isEmpty()) {
        m_problem->setText(tr("Enter the server's MCP endpoint as an http:// or https:// URL, e.g. http://127.0.0.1:8080/mcp."));
        m_problem->show();
        m_url->setFocus();
        return;
    }
    QDialog::accept();
}

} // namespace Eddy
