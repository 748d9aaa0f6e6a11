#include "models/agentchatmodel.h"

namespace Eddy {

AgentChatModel::AgentChatModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

AgentChatModel::~AgentChatModel() = default;

int AgentChatModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant AgentChatModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Item &it = m_items.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (it.kind) {
        case Kind::User:
            return tr("You: %1").arg(it.text);
        case Kind::Assistant:
            return tr("Agent: %1").arg(it.text);
        case Kind::ToolCard:
            return tr("[%1] %2").arg(it.ok ? tr("tool") : tr("tool failed"), it.text);
        case Kind::Note:
            return tr("Note: %1").arg(it.text);
        case Kind::Error:
            return tr("Error: %1").arg(it.text);
        }
        return {};
    case Qt::ToolTipRole:
        if (it.kind == Kind::ToolCard && !it.taskIds.isEmpty())
            return tr("Double-click to show task #%1 in the monitor.").arg(it.taskIds.first());
        return {};
    case KindRole:
        return QVariant::fromValue(it.kind);
    case TaskIdsRole:
        return QVariant::fromValue(it.taskIds);
    case OkRole:
        return it.ok;
    case CallIdRole:
        return it.callId;
    default:
        return {};
    }
}

void AgentChatModel::append(const Item &item)
{
    const int row = int(m_items.size());
    beginInsertRows({}, row, row);
    m_items.append(item);
    endInsertRows();
}

void AgentChatModel::addMessage(const Store::AgentMessageRecord &m)
{
    if (m.role == QLatin1String("user")) {
        endTurn();
        append({Kind::User, m.content, {}, true, {}});
    } else if (m.role == QLatin1String("assistant")) {
        if (m.content.isEmpty()) {
            endTurn();
            return;
        }
        if (m_streaming >= 0) {
            m_items[m_streaming].text = m.content;
            const QModelIndex i = index(m_streaming);
            emit dataChanged(i, i, {Qt::DisplayRole});
            m_streaming = -1;
            return;
        }
        append({Kind::Assistant, m.content, {}, true, {}});
    } else if (m.role == QLatin1String("system")) {
        endTurn();
        append({Kind::Note, m.content, {}, true, {}});
    }
}

void AgentChatModel::appendDelta(const QString &text)
{
    if (m_streaming < 0) {
        append({Kind::Assistant, text, {}, true, {}});
        m_streaming = int(m_items.size()) - 1;
        return;
    }
    m_items[m_streaming].text += text;
    const QModelIndex i = index(m_streaming);
    emit dataChanged(i, i, {Qt::DisplayRole});
}

void AgentChatModel::addCard(const QString &tool, const QString &card, const QList<qint64> &taskIds, bool ok,
                             const QString &callId)
{
    endTurn();
    append({Kind::ToolCard, card.isEmpty() ? tool : card, taskIds, ok, callId});
}

void AgentChatModel::addError(const QString &text)
{
    endTurn();
    append({Kind::Error, text, {}, false, {}});
}

void AgentChatModel::endTurn()
{
    m_streaming = -1;
}

void AgentChatModel::clear()
{
    beginResetModel();
    m_items.clear();
    m_streaming = -1;
    endResetModel();
}

} // namespace Eddy
