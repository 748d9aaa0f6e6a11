#pragma once

#include "app/vocab/records.h"

#include <QAbstractListModel>
#include <QHash>
#include <QList>
#include <QPair>

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

    // Lists the servers that are not retired (removed with their tasks kept as history).
    void setServers(const QList<Store::ServerRecord> &servers);
    // Server id -> the name the task table shows; a removed server's is marked "(removed)".
    static QHash<qint64, QString> taskServerNames(const QList<Store::ServerRecord> &servers);
    // A state reported before the server is listed (the engine polls before the GUI's first
    // snapshot arrives) is kept and applied when setServers() lists it.
    // notMcp: the URL answers HTTP, but not as an MCP server (with State::Unreachable).
    void setState(qint64 serverId, State state, const QString &message, bool notMcp = false);
    const Store::ServerRecord *server(qint64 serverId) const;
    QList<Store::ServerRecord> servers() const;
    int rowOf(qint64 serverId) const;
    State state(qint64 serverId) const;
    QString displayName(qint64 serverId) const;
    static QString stateText(State state);
    // The status-bar sentence for a state change, naming the server ("Local CFD server online").
    static QString stateSentence(const QString &name, State state, const QString &message,
                                 bool notMcp = false);
    // "Local CFD server is back online": the sentence for a server that answers again.
    static QString recoveredSentence(const QString &name);

Q_SIGNALS:
    // A listed server's state changed: stateSentence() of it, for the status bar. Empty when
    // the server the last sentence was about left the list: nothing to say about it any more.
    void stateAnnounced(const QString &sentence);

private:
    struct Row
    {
        Store::ServerRecord server;
        State state = State::Unknown;
        QString message;
        bool notMcp = false;
    };
    QList<Row> m_rows;
    QHash<qint64, Row> m_early; // states of servers not listed yet (their record empty)
    qint64 m_announced = 0;     // the server the last stateAnnounced() was about
};

} // namespace Eddy
