#pragma once

#include "app/vocab/records.h"

#include <QAbstractListModel>
#include <QList>

namespace Eddy {

// The sessions (named studies) for the sidebar; row 0 is "All sessions" (id AllSessions).
// A thin adapter over SessionRecord; GUI thread.
class SessionListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionListModel)

public:
    static constexpr qint64 AllSessions = -1;
    enum Role { SessionIdRole = Qt::UserRole + 1, TaskCountRole, KindRole };
    Q_ENUM(Role)

    explicit SessionListModel(QObject *parent = nullptr);
    ~SessionListModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    void setSessions(const QList<Store::SessionRecord> &sessions);
    int rowOf(qint64 sessionId) const;
    qint64 sessionIdAt(int row) const;
    QString name(qint64 sessionId) const;

private:
    QList<Store::SessionRecord> m_sessions;
};

} // namespace Eddy
