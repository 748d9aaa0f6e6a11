#include "models/serverlistmodel.h"

#include <QColor>

namespace Eddy {

ServerListModel::ServerListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

ServerListModel::~ServerListModel() = default;

int ServerListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QString ServerListModel::stateText(State state)
{
    switch (state) {
    case State::Unknown: return tr("Connecting");
    case State::Online: return tr("Online");
    case State::Unreachable: return tr("Unreachable");
    case State::BackingOff: return tr("Backing off");
    }
    return {};
}

QString ServerListModel::stateSentence(const QString &name, State state, const QString &message,
                                       bool notMcp)
{
    switch (state) {
    case State::Unreachable:
        if (notMcp)
            return tr("%1 is not an MCP server: %2").arg(name, message);
        return message.isEmpty() ? tr("%1 is unreachable.").arg(name)
                                 : tr("%1 is unreachable: %2").arg(name, message);
    case State::BackingOff: return tr("%1 asks Eddy to slow down; polling less often.").arg(name);
    case State::Online: return tr("%1 online").arg(name);
    case State::Unknown: return tr("Connecting to %1...").arg(name);
    }
    return {};
}

QString ServerListModel::recoveredSentence(const QString &name)
{
    return tr("%1 is back online").arg(name);
}

QString ServerListModel::displayName(qint64 serverId) const
{
    const Store::ServerRecord *s = server(serverId);
    if (!s)
        return tr("Server %1").arg(serverId);
    return s->name.isEmpty() ? s->url : s->name;
}

QVariant ServerListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole: return r.server.name.isEmpty() ? r.server.url : r.server.name;
    case Qt::ToolTipRole: {
        const QString state = r.state == State::Unreachable && r.notMcp
                                  ? tr("Not an MCP server")
                                  : stateText(r.state);
        QString tip = tr("%1\n%2").arg(r.server.url, state);
        if (!r.message.isEmpty())
            tip = tr("%1: %2").arg(tip, r.message);
        return tip;
    }
    case Qt::DecorationRole:
        switch (r.state) {
        case State::Online: return QColor(0x3a, 0xa6, 0x55);
        case State::Unreachable: return QColor(0xd0, 0x31, 0x2d);
        case State::BackingOff: return QColor(0xe0, 0x9b, 0x12);
        case State::Unknown: return QColor(0x8a, 0x8a, 0x8a);
        }
        return {};
    case ServerIdRole: return r.server.id;
    case UrlRole: return r.server.url;
    case StateRole: return int(r.state);
    case MessageRole: return r.message;
    case EraRole: return r.server.era;
    case DiscoveryRole: return r.server.discovery;
    case ToolsRole: return r.server.tools;
    default: return {};
    }
}

void ServerListModel::setServers(const QList<Store::ServerRecord> &servers)
{
    QHash<qint64, Row> kept;
    for (const Row &r : m_rows)
        kept.insert(r.server.id, r);
    beginResetModel();
    m_rows.clear();
    for (const auto &s : servers) {
        if (s.retired) // only the rows of its kept tasks name it
            continue;
        Row r;
        r.server = s;
        r.server.token.clear(); // the GUI never needs the secret once it is stored
        if (const auto it = kept.constFind(s.id); it != kept.constEnd()) {
            r.state = it->state;
            r.message = it->message;
            r.notMcp = it->notMcp;
        }
        m_rows.push_back(r);
    }
    endResetModel();
    QList<qint64> applied;
    for (auto it = m_early.cbegin(); it != m_early.cend(); ++it) {
        if (rowOf(it.key()) >= 0)
            applied << it.key();
    }
    for (qint64 id : std::as_const(applied)) {
        const Row early = m_early.take(id);
        setState(id, early.state, early.message, early.notMcp);
    }
    if (m_announced && rowOf(m_announced) < 0) {
        // Removed: its last state (an error, often) no longer describes anything listed.
        m_announced = 0;
        Q_EMIT stateAnnounced(QString());
    }
}

QHash<qint64, QString> ServerListModel::taskServerNames(const QList<Store::ServerRecord> &servers)
{
    QHash<qint64, QString> names;
    for (const auto &s : servers) {
        const QString name = s.name.isEmpty() ? s.url : s.name;
        names.insert(s.id, s.retired ? tr("%1 (removed)").arg(name) : name);
    }
    return names;
}

void ServerListModel::setState(qint64 serverId, State state, const QString &message, bool notMcp)
{
    notMcp = notMcp && state == State::Unreachable;
    const int row = rowOf(serverId);
    if (row < 0) {
        Row early;
        early.state = state;
        early.message = message;
        early.notMcp = notMcp;
        m_early.insert(serverId, early);
        return;
    }
    Row &r = m_rows[row];
    if (r.state == state && r.message == message && r.notMcp == notMcp)
        return; // asked again (a re-check, F5) and nothing changed: nothing new to say
    const bool recovered = state == State::Online
                           && (r.state == State::Unreachable || r.state == State::BackingOff);
    r.state = state;
    r.message = message;
    r.notMcp = notMcp;
    Q_EMIT dataChanged(index(row), index(row));
    m_announced = serverId;
    Q_EMIT stateAnnounced(recovered ? recoveredSentence(displayName(serverId))
                                    : stateSentence(displayName(serverId), state, message, notMcp));
}

const Store::ServerRecord *ServerListModel::server(qint64 serverId) const
{
    const int row = rowOf(serverId);
    return row < 0 ? nullptr : &m_rows[row].server;
}

QList<Store::ServerRecord> ServerListModel::servers() const
{
    QList<Store::ServerRecord> out;
    for (const Row &r : m_rows)
        out << r.server;
    return out;
}

int ServerListModel::rowOf(qint64 serverId) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].server.id == serverId)
            return i;
    }
    return -1;
}

ServerListModel::State ServerListModel::state(qint64 serverId) const
{
    const int row = rowOf(serverId);
    return row < 0 ? State::Unknown : m_rows[row].state;
}

} // namespace Eddy
