#pragma once

#include "app/store/records.h"

#include <QAbstractTableModel>
#include <QList>

#include <functional>

namespace Eddy {

// The input inbox: every pending question of any task, oldest first, with who asks. Rows leave
// when the answer is sent. A thin adapter over InputRequestRecord; GUI thread.
class InboxModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InboxModel)

public:
    enum Column { MessageColumn, CaseColumn, ServerColumn, WaitingColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role { TaskIdRole = Qt::UserRole + 1, KeyRole, RequestRole, StateRole };
    Q_ENUM(Role)

    // Looks up a task's case label and server name (the task model knows them).
    using Describe = std::function<QPair<QString, QString>(qint64 taskId)>;

    explicit InboxModel(QObject *parent = nullptr);
    ~InboxModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setDescribe(Describe describe) { m_describe = std::move(describe); }
    void setRequests(const QList<Store::InputRequestRecord> &requests);
    // Adds pending requests not yet listed (the same key twice is one row); returns how many.
    int addRequests(const QList<Store::InputRequestRecord> &requests);
    bool removeRequest(qint64 taskId, const QString &key);
    // Drops every question of a task that ended: nobody can answer it any more.
    void removeTask(qint64 taskId);
    void refreshDescriptions();

    const Store::InputRequestRecord *request(int row) const;
    int rowOf(qint64 taskId, const QString &key) const;
    static QString messageOf(const Store::InputRequestRecord &request);

    void setNow(qint64 epochMs) { m_fixedNow = epochMs; }

Q_SIGNALS:
    void countChanged(int count);

private:
    QList<Store::InputRequestRecord> m_rows;
    Describe m_describe;
    qint64 m_fixedNow = 0;
};

} // namespace Eddy
