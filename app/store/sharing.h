#pragma once

#include "app/store/database.h"
#include "app/vocab/records.h"

#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace Eddy::Store {

// Several processes on one database file (the GUI, eddyctl, a second Eddy): the SQL of the two
// pieces that let them share it (docs/design.md, "Several processes on one database").
//
// Leases: one owner (a process, by a random id) holds an item for a while and renews it on a
// timer; an item whose lease ran out (its holder was killed) is taken over by the next process
// that asks. Items are "task:ID" (whoever holds it polls the task) and "answer:ID:KEY" (whoever
// holds it sends that answer). Times are epoch ms on this machine. Keeps acquire()'s statement
// prepared: destroy the Leases before the Database closes (a statement still open leaves the
// file without its clean-shutdown mark).
class Leases final
{
    Q_DISABLE_COPY_MOVE(Leases)

public:
    Leases(Database &db, const QString &owner)
        : m_db(db)
        , m_owner(owner)
    {}

    QString owner() const { return m_owner; }
    static QString taskItem(qint64 taskId);
    static QString answerItem(qint64 taskId, const QString &key);

    // Takes the item when nobody holds it, its lease ran out, or this owner holds it already
    // (then renewed). True when this owner holds it afterwards.
    bool acquire(const QString &item, qint64 nowMs, qint64 ttlMs);
    // Takes the item only when nobody holds it or its lease ran out: false when this owner
    // already holds it (for work that must not be started twice by one owner either).
    bool takeOver(const QString &item, qint64 nowMs, qint64 ttlMs);
    // Gives the item to this owner whoever held it: for work this owner has just won otherwise
    // (in the same transaction), e.g. the answer it moved from pending to answering.
    bool grant(const QString &item, qint64 nowMs, qint64 ttlMs);
    // Renews every lease of this owner; returns the items it still holds (false on error).
    bool renewAll(qint64 nowMs, qint64 ttlMs, QList<QString> *held);
    bool release(const QString &item);
    bool releaseAll();
    // Drops leases of finished tasks and of answers no longer being sent (any owner's).
    bool pruneFinished();
    // The owner of a live lease, when there is one.
    std::optional<QString> holder(const QString &item, qint64 nowMs);

    // Owners other than this one with a live lease.
    QList<QString> otherOwners(qint64 nowMs);
    // Drops every lease of `owner` (a process known to be gone).
    bool dropOwner(const QString &owner);

    // Tasks still to be polled (live, or completed with the result not fetched yet; with a server
    // task id) that nobody holds, by id.
    QList<qint64> unheldLiveTasks(qint64 nowMs);
    // Answers stored as being sent ("answering") that nobody holds: the sender went away.
    QList<QPair<qint64, QString>> unheldAnswers(qint64 nowMs);

private:
    Database &m_db;
    QString m_owner;
    // Prepared once: Engine::open acquires every live task's lease (10,000 at a time), and
    // preparing the upsert each time was about half of that.
    Statement m_acquire;
};

// A sweep journalled without a session becomes part of `sessionId`: the sweep row (only while it
// has none, so the first process to adopt it wins) and the tasks it has so far; its later tasks
// join through the sweep. One transaction; true also when another session had it already.
bool adoptSweep(Database &db, qint64 sweepId, qint64 sessionId);

// What other connections wrote: `PRAGMA data_version` says whether anything was committed by
// another connection since the last look (a few microseconds when nothing was); the change log
// (filled by triggers, and by TaskStore::setJobAdapter for a server's job adapter; ordered by
// commit) says which rows; samples are read by rowid.
class ChangeFeed final
{
public:
    explicit ChangeFeed(Database &db)
        : m_db(db)
    {}

    struct Changes
    {
        QList<qint64> tasks; // ids, each once, in first-change order
        QList<qint64> cases;
        QList<qint64> sweeps;
        QList<qint64> sessions;
        QList<qint64> inputs;          // input_requests ids
        // Servers added, edited, retired, brought back or deleted (logged by the store's
        // server writes, not by a trigger: no schema change; older readers skip the kind).
        QList<qint64> servers;
        QList<qint64> jobAdapters;     // server ids whose job adapter was stored
        QList<qint64> caseNotes;       // case ids whose note or tags were stored
        QList<ProgressSample> samples; // new rows, every task's
        // The log was pruned past this reader's position (it slept for minutes): reload.
        bool gap = false;
        bool isEmpty() const
        {
            return tasks.isEmpty() && cases.isEmpty() && sweeps.isEmpty() && sessions.isEmpty()
                   && inputs.isEmpty() && servers.isEmpty() && jobAdapters.isEmpty()
                   && caseNotes.isEmpty() && samples.isEmpty() && !gap;
        }
    };

    // Starts from now: what is already stored is not a change.
    bool start();
    // True when another connection committed since the last call.
    bool dataChanged();
    // Everything logged after the last read (also this connection's own writes).
    std::optional<Changes> read();
    // Drops log rows older than maxAgeSeconds (every reader has long read them).
    bool prune(int maxAgeSeconds);
    // The highest sweep and case ids when start() ran: rows up to them were there before.
    qint64 startSweepId() const { return m_startSweepId; }
    qint64 startCaseId() const { return m_startCaseId; }
    // One input request by rowid.
    std::optional<InputRequestRecord> inputRequest(qint64 id);

private:
    Database &m_db;
    qint64 m_version = -1;
    qint64 m_seq = 0;
    qint64 m_sampleId = 0;
    qint64 m_startSweepId = 0;
    qint64 m_startCaseId = 0;
};

} // namespace Eddy::Store
