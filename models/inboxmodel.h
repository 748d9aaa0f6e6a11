#pragma once

#include "app/vocab/records.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <functional>
#include <optional>

namespace Eddy {

// The input inbox: every question of the shown tasks in the order they were asked, with who
// asks. An answered one stays as the record of what was answered, by whom and when (greyed, its
// answer in the tooltip); one whose task ended first stays closed, saying why. Rows
// never move: answering one leaves every other row where it was. A thin adapter over
// InputRequestRecord; GUI thread.
//
// A question asked before the task exists (tools/call answered input_required) is listed the
// same way, keyed by the negative case id (taskKey(), "task id" -caseId): no task number exists
// to name it, so its case (server, tool, arguments, sweep position) is kept with it.
class InboxModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InboxModel)

public:
    enum Column { MessageColumn, CaseColumn, ServerColumn, WaitingColumn, AnswerColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        TaskIdRole = Qt::UserRole + 1,
        KeyRole,
        RequestRole,
        StateRole,
        AnswerTextRole,
        BeforeTaskRole
    };
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
    // The status a task ended in, when that closed its open questions; nullopt while it runs, or
    // when its server was removed from Eddy (which closed them instead).
    using EndedAs = std::function<std::optional<Store::TaskStatus>(qint64 taskId)>;
    void setEndedAs(EndedAs endedAs) { m_endedAs = std::move(endedAs); }
    // Open and answered questions, listed by the order they were asked (store id).
    void setRequests(const QList<Store::InputRequestRecord> &requests);
    // Adds open requests not yet listed (the same key twice is one row); returns how many. A
    // listed row not answered yet takes a record that comes answered, being answered (by another
    // process on the database) or closed.
    int addRequests(const QList<Store::InputRequestRecord> &requests);
    bool removeRequest(qint64 taskId, const QString &key);
    // Pre-task questions: the row's task id is caseKey(caseId). Adds an open question of a case
    // (the same key twice is one row); returns whether a row was added.
    static qint64 caseKey(qint64 caseId) { return -caseId; }
    static bool isCaseKey(qint64 taskId) { return taskId < 0; }
    bool addCaseQuestion(const Store::CaseRecord &caseRecord,
                         const QString &key,
                         const QString &request);
    // The case of a pre-task question's row key (nullptr when unknown).
    const Store::CaseRecord *caseOf(qint64 taskId) const;
    // Lists an answered or closed question not listed yet (answered elsewhere while its task
    // ended here) where setRequests() lists it after a restart: in the order asked. Whether it
    // was added.
    bool addRecord(const Store::InputRequestRecord &request);
    // Closes the open questions of a task that ended, as the store does when it stores the end;
    // the stored record, when it comes (addRequests), takes their place.
    void closeTask(qint64 taskId, qint64 atMs);
    // Drops the open questions of a pre-task call whose round ended. Answered ones stay.
    void removeTask(qint64 taskId);
    // The answer is on its way (state Answering) / arrived (Answered) / failed (open again).
    void setAnswering(qint64 taskId, const QString &key, const QString &answerJson, const QString &answeredBy,
                      qint64 atMs);
    void setAnswerSent(qint64 taskId, const QString &key, bool ok);
    void refreshDescriptions();

    const Store::InputRequestRecord *request(int row) const;
    int rowOf(qint64 taskId, const QString &key) const;
    int pendingCount() const;
    int firstPendingRow() const;
    // Open questions of a task, in the order asked.
    QList<const Store::InputRequestRecord *> pendingOf(qint64 taskId) const;
    static QString messageOf(const Store::InputRequestRecord &request);
    // What was answered, by whom and when ("Action: Repair the mesh and continue; Smoothing
    // passes: 5 — by alice, 01/12/2026 14:40"); "Not answered yet." for an open question; for a
    // closed one why (`endedAs`: see EndedAs).
    static QString answerText(const Store::InputRequestRecord &request,
                              std::optional<Store::TaskStatus> endedAs = std::nullopt);
    // Why a closed question was never answered, when its task's end closed it ("its case was
    // cancelled before an answer was given"); empty otherwise (its server was removed).
    static QString closedWhy(const Store::InputRequestRecord &request,
                             std::optional<Store::TaskStatus> endedAs);
    // Just the answer, short ("Repair the mesh and continue, 5"; "Declined").
    static QString answerSummary(const Store::InputRequestRecord &request);

    void setNow(qint64 epochMs) { m_fixedNow = epochMs; }

Q_SIGNALS:
    void countChanged(int pending);

private:
    void emitRow(int row);
    std::optional<Store::TaskStatus> endedAs(qint64 taskId) const;

    QList<Store::InputRequestRecord> m_rows;
    QHash<qint64, Store::CaseRecord> m_cases; // case id -> its record, for pre-task questions
    Describe m_describe;
    EndedAs m_endedAs;
    qint64 m_fixedNow = 0;
};

} // namespace Eddy
