#pragma once

#include "app/store/records.h"

#include <QAbstractListModel>
#include <QList>

namespace Eddy {

// The configured MCP servers with their connection state and last error, for the sidebar and
// the server dialog. A thin adapter over ServerRecord; GUI thread.
class ServerListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerListModel)

public:
    // Mirrors Monitor::Engine::ServerState so this layer needs no engine.
    enum class State { Unknown, Online, Unreachable, BackingOff };
    Q_ENUM(State)
    enum Role { ServerIdRole = Qt::UserRole + 1, UrlRole, StateRole, MessageRole, EraRole, DiscoveryRole, ToolsRole };
    Q_ENUM(Role)

    explicit ServerListModel(QObject *parent = nullptr);
    ~ServerListModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    void setServers(const QList<Store::ServerRecord> &servers);
    void setState(qint64 serverId, State state, const QString &message);
    const Store::ServerRecord *server(qint64 serverId) const;
    QList<Store::ServerRecord> servers() const;
    int rowOf(qint64 serverId) const;
    State state(qint64 serverId) const;
    QString displayName(qint64 serverId) const;
    static QString stateText(State state);

private:
    struct Row
    {
        Store::ServerRecord server;
        State state = State::Unknown;
        QString message;
    };
    QList<Row> m_rows;
};

} // namespace Eddy
