#pragma once

#include "app/vocab/records.h"

#include <QAbstractListModel>
#include <QList>
#include <QString>

namespace Eddy {

// The agent chat as a list: user prompts, assistant text (the last one grows as it streams),
// tool cards with Eddy's task numbers, and notes (task events, summaries, errors). A thin
// adapter over plain items; GUI thread.
class AgentChatModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentChatModel)

public:
    enum class Kind { User, Assistant, ToolCard, Note, Error };
    Q_ENUM(Kind)
    enum Role { KindRole = Qt::UserRole + 1, TaskIdsRole, OkRole, CallIdRole };
    Q_ENUM(Role)

    struct Item
    {
        Kind kind = Kind::Note;
        QString text;
        QList<qint64> taskIds;
        bool ok = true;
        QString callId; // a tool card: the model's tool_call_id it answers
    };

    explicit AgentChatModel(QObject *parent = nullptr);
    ~AgentChatModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // A stored message (a conversation being loaded, or a note); tool messages are not shown
    // (their card is), assistant messages with only tool calls neither.
    void addMessage(const Store::AgentMessageRecord &message);
    // Streamed text: grows the open assistant item, or opens one.
    void appendDelta(const QString &text);
    // The stored assistant message replaces the streamed text of the open item.
    void addCard(const QString &tool, const QString &card, const QList<qint64> &taskIds, bool ok,
                 const QString &callId = {});
    void addError(const QString &text);
    void endTurn(); // the next delta opens a new assistant item
    void clear();
    Item item(int row) const { return m_items.value(row); }

private:
    void append(const Item &item);

    QList<Item> m_items;
    int m_streaming = -1; // row of the assistant item receiving deltas
};

} // namespace Eddy
