#include "models/inboxmodel.h"

#include "models/tasktablemodel.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

namespace Eddy {

InboxModel::InboxModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

InboxModel::~InboxModel() = default;

int InboxModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int InboxModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InboxModel::messageOf(const Store::InputRequestRecord &request)
{
    const auto j = nlohmann::json::parse(request.request.toStdString(), nullptr, false);
    if (j.is_object()) {
        const auto params = j.value("params", nlohmann::json::object());
        if (params.is_object() && params.value("message", nlohmann::json()).is_string())
            return QString::fromStdString(params["message"].get<std::string>());
        if (j.value("method", nlohmann::json()).is_string())
            return tr("The server asks: %1").arg(QString::fromStdString(j["method"].get<std::string>()));
    }
    return tr("The server asks for input.");
}

QVariant InboxModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MessageColumn: return tr("Question");
    case CaseColumn: return tr("Case");
    case ServerColumn: return tr("Server");
    case WaitingColumn: return tr("Waiting");
    default: return {};
    }
}

QVariant InboxModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Store::InputRequestRecord &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case MessageColumn: return messageOf(r);
        case CaseColumn: return m_describe ? m_describe(r.taskId).first : tr("Task %1").arg(r.taskId);
        case ServerColumn: return m_describe ? m_describe(r.taskId).second : QString();
        case WaitingColumn: {
            const qint64 now = m_fixedNow ? m_fixedNow : QDateTime::currentMSecsSinceEpoch();
            return TaskTableModel::durationText(now - r.firstSeenAtMs);
        }
        default: return {};
        }
    case TaskIdRole: return r.taskId;
    case KeyRole: return r.key;
    case RequestRole: return r.request;
    case StateRole: return int(r.state);
    default: return {};
    }
}

int InboxModel::rowOf(qint64 taskId, const QString &key) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].taskId == taskId && m_rows[i].key == key)
            return i;
    }
    return -1;
}

void InboxModel::setRequests(const QList<Store::InputRequestRecord> &requests)
{
    beginResetModel();
    m_rows.clear();
    for (const auto &r : requests) {
        if (r.state == Store::InputState::Pending && rowOf(r.taskId, r.key) < 0)
            m_rows.push_back(r);
    }
    endResetModel();
    Q_EMIT countChanged(rowCount());
}

int InboxModel::addRequests(const QList<Store::InputRequestRecord> &requests)
{
    int added = 0;
    for (const auto &r : requests) {
        if (r.state != Store::InputState::Pending || rowOf(r.taskId, r.key) >= 0)
            continue;
        const int row = rowCount();
        beginInsertRows({}, row, row);
        m_rows.push_back(r);
        endInsertRows();
        ++added;
    }
    if (added)
        Q_EMIT countChanged(rowCount());
    return added;
}

bool InboxModel::removeRequest(qint64 taskId, const QString &key)
{
    const int row = rowOf(taskId, key);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    Q_EMIT countChanged(rowCount());
    return true;
}

void InboxModel::removeTask(qint64 taskId)
{
    bool removed = false;
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (m_rows[row].taskId != taskId)
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        removed = true;
    }
    if (removed)
        Q_EMIT countChanged(rowCount());
}

void InboxModel::refreshDescriptions()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const Store::InputRequestRecord *InboxModel::request(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

} // namespace Eddy
