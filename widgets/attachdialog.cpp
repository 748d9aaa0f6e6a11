#include "widgets/attachdialog.h"

#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "models/tasktablemodel.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Eddy {

AttachDialog::AttachDialog(EngineBridge *bridge, ServerListModel *servers, QWidget *parent)
    : QDialog(parent)
    , m_bridge(bridge)
    , m_server(new QComboBox(this))
    , m_tool(new QLineEdit(this))
    , m_argument(new QLineEdit(this))
    , m_status(new QComboBox(this))
    , m_from(new QDateEdit(this))
    , m_results(new QTableWidget(0, 5, this))
    , m_count(new QLabel(this))
{
    setWindowTitle(tr("Attach Earlier Tasks"));
    m_server->addItem(tr("Any server"), qint64(0));
    for (const auto &s : servers->servers())
        m_server->addItem(s.name.isEmpty() ? s.url : s.name, s.id);
    m_tool->setPlaceholderText(tr("any tool"));
    m_argument->setPlaceholderText(tr("name = value, e.g. reynolds = 400"));
    m_status->addItem(tr("Any status"), -1);
    for (auto s : {Store::TaskStatus::Working, Store::TaskStatus::InputRequired, Store::TaskStatus::Completed,
                   Store::TaskStatus::Failed, Store::TaskStatus::Cancelled})
        m_status->addItem(TaskTableModel::statusText(s), int(s));
    m_from->setCalendarPopup(true);
    m_from->setDate(QDate::currentDate().addMonths(-1));
    m_from->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));

    auto *form = new QFormLayout;
    form->addRow(tr("Server:"), m_server);
    form->addRow(tr("Tool:"), m_tool);
    form->addRow(tr("Argument:"), m_argument);
    form->addRow(tr("Status:"), m_status);
    form->addRow(tr("Since:"), m_from);
    auto *searchButton = new QPushButton(tr("Search"), this);
    connect(searchButton, &QPushButton::clicked, this, &AttachDialog::search);

    m_results->setHorizontalHeaderLabels({tr("Task"), tr("Tool"), tr("Arguments"), tr("Status"), tr("Seen")});
    m_results->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_results->verticalHeader()->hide();
    m_results->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_results->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Attach Selected"));
    connect(buttons, &QDialogButtonBox::accepted, this, &AttachDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AttachDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(searchButton, 0, Qt::AlignRight);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_count);
    layout->addWidget(buttons);
    connect(m_bridge, &EngineBridge::searchReady, this, &AttachDialog::showResults);
    resize(720, 480);
}

Store::TaskQuery AttachDialog::query() const
{
    Store::TaskQuery q;
    const qint64 server = m_server->currentData().toLongLong();
    if (server > 0)
        q.serverId = server;
    q.tool = m_tool->text().trimmed();
    const QString arg = m_argument->text().trimmed();
    if (arg.contains(QLatin1Char('='))) {
        q.arguments << qMakePair(arg.section(QLatin1Char('='), 0, 0).trimmed(),
                                 arg.section(QLatin1Char('='), 1).trimmed());
    }
    const int status = m_status->currentData().toInt();
    if (status >= 0)
        q.status = static_cast<Store::TaskStatus>(status);
    q.fromMs = m_from->date().startOfDay().toMSecsSinceEpoch();
    q.limit = 1000;
    return q;
}

void AttachDialog::search()
{
    m_count->setText(tr("Searching..."));
    m_bridge->requestSearch(query());
}

void AttachDialog::showResults(const QList<Store::TaskRecord> &tasks)
{
    m_results->setRowCount(static_cast<int>(tasks.size()));
    for (int r = 0; r < tasks.size(); ++r) {
        const auto &t = tasks[r];
        auto *id = new QTableWidgetItem(QString::number(t.id));
        id->setData(Qt::UserRole, t.id);
        m_results->setItem(r, 0, id);
        m_results->setItem(r, 1, new QTableWidgetItem(t.tool));
        m_results->setItem(r, 2, new QTableWidgetItem(t.arguments));
        m_results->setItem(r, 3, new QTableWidgetItem(TaskTableModel::statusText(t.status, t.isToolError)));
        m_results->setItem(r, 4, new QTableWidgetItem(QDateTime::fromMSecsSinceEpoch(t.firstSeenAtMs).toString(Qt::ISODate)));
    }
    m_count->setText(tr("%n task(s) found.", nullptr, static_cast<int>(tasks.size())));
}

QList<qint64> AttachDialog::selectedTaskIds() const
{
    QList<qint64> ids;
    for (const QModelIndex &idx : m_results->selectionModel()->selectedRows())
        ids << m_results->item(idx.row(), 0)->data(Qt::UserRole).toLongLong();
    return ids;
}

} // namespace Eddy
