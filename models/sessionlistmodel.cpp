#include "models/sessionlistmodel.h"

namespace Eddy {

SessionListModel::SessionListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

SessionListModel::~SessionListModel() = default;

int SessionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sessions.size()) + 1;
}

QVariant SessionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() == 0) {
        switch (role) {
        case Qt::DisplayRole: return tr("All sessions");
        case Qt::ToolTipRole: return tr("Every task in the database");
        case SessionIdRole: return AllSessions;
        default: return {};
        }
    }
    const Store::SessionRecord &s = m_sessions[index.row() - 1];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return s.name;
    case Qt::ToolTipRole:
        return s.kind == QLatin1String("agent") ? tr("Agent conversation, %n task(s)", nullptr, s.taskCount)
                                                : tr("%n task(s)", nullptr, s.taskCount);
    case SessionIdRole: return s.id;
    case TaskCountRole: return s.taskCount;
    case KindRole: return s.kind;
    default: return {};
    }
}

void SessionListModel::setSessions(const QList<Store::SessionRecord> &sessions)
{
    beginResetModel();
    m_sessions = sessions;
    endResetModel();
}

int SessionListModel::rowOf(qint64 sessionId) const
{
    if (sessionId == AllSessions)
        return 0;
    for (int i = 0; i < m_sessions.size(); ++i) {
        if (m_sessions[i].id == sessionId)
            return i + 1;
    }
    return -1;
}

qint64 SessionListModel::sessionIdAt(int row) const
{
    if (row <= 0 || row > m_sessions.size())
        return AllSessions;
    return m_sessions[row - 1].id;
}

QString SessionListModel::name(qint64 sessionId) const
{
    const int row = rowOf(sessionId);
    return row < 0 ? QString() : data(index(row), Qt::DisplayRole).toString();
}

} // namespace Eddy
