#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <functional>

#include <optional>

namespace Eddy::Store {
class TaskStore;
}

namespace Eddy::Monitor {

class Engine;

// Review of past sweeps (docs/sweeps.md "Reviewing past sweeps"): the engineer's notes and tags
// on cases and sweeps, a sweep's baseline case, and the pause of a sweep's submission. The
// engine's one door to the store's review columns, for the window's bridge and eddyctl alike.
// Every write here, and every such write another process makes to the same database (read by
// Sharing from the change log), is reported by caseReviewChanged()/sweepReviewChanged(). A
// paused sweep's unsent cases stay unsent (Engine::pumpSubmissions asks isPaused()); resuming
// sends them. Made by the engine, lives on its thread; writes refuse on a read-only database.
class Review final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Review)

public:
    explicit Review(Engine &engine);
    ~Review() override;

    // Each returns false + lastError() (nothing stored) for an unknown case or sweep, a bad tag
    // (Store::tagProblem) or a read-only database.
    bool setCaseNote(qint64 caseId, const QString &note);
    bool setCaseTags(qint64 caseId, const QStringList &tags); // replaces them
    bool setSweepNote(qint64 sweepId, const QString &note);
    bool setSweepTags(qint64 sweepId, const QStringList &tags);
    // The sweep's baseline (Store::TaskStore::setSweepBaseline); nullopt: back to its first case.
    bool setBaseline(qint64 sweepId, std::optional<qint64> caseId);
    std::optional<qint64> baselineCase(qint64 sweepId); // the marked one, else the first case
    // Pausing keeps the sweep's unsent cases unsent (journalled: after a restart too, and in
    // every process on the database); resuming sends each of them once.
    bool setPaused(qint64 sweepId, bool paused);
    bool isPaused(qint64 sweepId) const { return m_paused.contains(sweepId); }
    QList<qint64> pausedSweeps() const { return m_paused.values(); }
    // Every case with a note or tags.
    QList<Store::CaseRecord> annotatedCases();
    QString lastError() const { return m_error; }

    // The engine's calls: on open (the paused sweeps), on close, and for what another process
    // wrote (cases whose note or tags changed, sweeps that changed; reload: read them all).
    void load();
    void clear();
    void followShared(const QList<qint64> &caseIds, const QList<qint64> &sweepIds, bool reload);

Q_SIGNALS:
    // Cases whose note or tags changed (as stored now).
    void caseReviewChanged(const QList<Eddy::Store::CaseRecord> &cases);
    // A sweep whose note, tags, baseline or pause changed (as stored now).
    void sweepReviewChanged(const Eddy::Store::SweepRecord &sweep);

private:
    bool writable();
    // A write of the store (false + lastError() when refused); the two others then report it.
    bool write(const std::function<bool(Store::TaskStore &)> &write);
    bool writeCase(qint64 caseId, const std::function<bool(Store::TaskStore &)> &write);
    bool writeSweep(qint64 sweepId, const std::function<bool(Store::TaskStore &)> &write);
    void caseChanged(qint64 caseId);
    void sweepChanged(qint64 sweepId);

    Engine &m_engine;
    QSet<qint64> m_paused;
    QString m_error;
};

} // namespace Eddy::Monitor
