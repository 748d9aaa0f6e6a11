#include "app/monitor/review.h"
#include "app/monitor/engine.h"
#include "app/monitor/log.h"

namespace Eddy::Monitor {

Review::Review(Engine &engine) : m_engine(engine)
{
    qRegisterMetaType<QList<Eddy::Store::CaseRecord>>();
    qRegisterMetaType<Eddy::Store::SweepRecord>();
}

Review::~Review() = default;

bool Review::writable()
{
    m_error.clear();
    if (!m_engine.isOpen()) {
        m_error = QStringLiteral("The database is not open.");
        return false;
    }
    if (m_engine.isReadOnly()) {
        m_error = Engine::readOnlyMessage();
        return false;
    }
    return true;
}

bool Review::done(bool ok)
{
    if (!ok)
        m_error = m_engine.store().lastError();
    return ok;
}

bool Review::setCaseNote(qint64 caseId, const QString &note)
{
    if (!writable() || !done(m_engine.store().setCaseNote(caseId, note)))
        return false;
    caseChanged(caseId);
    return true;
}

bool Review::setCaseTags(qint64 caseId, const QStringList &tags)
{
    if (!writable() || !done(m_engine.store().setCaseTags(caseId, tags)))
        return false;
    caseChanged(caseId);
    return true;
}

bool Review::setSweepNote(qint64 sweepId, const QString &note)
{
    if (!writable() || !done(m_engine.store().setSweepNote(sweepId, note)))
        return false;
    sweepChanged(sweepId);
    return true;
}

bool Review::setSweepTags(qint64 sweepId, const QStringList &tags)
{
    if (!writable() || !done(m_engine.store().setSweepTags(sweepId, tags)))
        return false;
    sweepChanged(sweepId);
    return true;
}

bool Review::setBaseline(qint64 sweepId, std::optional<qint64> caseId)
{
    if (!writable() || !done(m_engine.store().setSweepBaseline(sweepId, caseId)))
        return false;
    sweepChanged(sweepId);
    return true;
}

std::optional<qint64> Review::baselineCase(qint64 sweepId)
{
    return m_engine.isOpen() ? m_engine.store().sweepBaselineCase(sweepId) : std::nullopt;
}

bool Review::setPaused(qint64 sweepId, bool paused)
{
    if (!writable() || !done(m_engine.store().setSweepPaused(sweepId, paused)))
        return false;
    qCInfo(lcMonitor, "sweep %lld: submission %s", sweepId, paused ? "paused" : "resumed");
    sweepChanged(sweepId);
    return true;
}

QList<Store::CaseRecord> Review::annotatedCases()
{
    return m_engine.isOpen() ? m_engine.store().annotatedCases() : QList<Store::CaseRecord>();
}

void Review::load()
{
    const QList<qint64> paused = m_engine.store().pausedSweepIds();
    const QSet<qint64> now(paused.cbegin(), paused.cend());
    const bool resumed = !(m_paused - now).isEmpty();
    m_paused = now;
    if (!m_paused.isEmpty())
        qCInfo(lcMonitor, "%d sweep(s) paused: their unsent cases wait until resumed",
               int(m_paused.size()));
    if (resumed)
        m_engine.pumpSubmissions();
}

void Review::clear()
{
    m_paused.clear();
}

void Review::followShared(const QList<qint64> &caseIds, const QList<qint64> &sweepIds, bool reload)
{
    QList<Store::CaseRecord> cases;
    for (qint64 id : caseIds)
        if (const auto c = m_engine.store().caseRecord(id))
            cases << *c;
    if (!cases.isEmpty())
        Q_EMIT caseReviewChanged(cases);
    for (qint64 id : sweepIds)
        sweepChanged(id);
    if (reload)
        load();
}

void Review::caseChanged(qint64 caseId)
{
    if (const auto c = m_engine.store().caseRecord(caseId))
        Q_EMIT caseReviewChanged({*c});
}

void Review::sweepChanged(qint64 sweepId)
{
    const auto s = m_engine.store().sweep(sweepId);
    if (!s)
        return;
    const bool wasPaused = m_paused.contains(sweepId);
    if (s->isPaused())
        m_paused.insert(sweepId);
    else
        m_paused.remove(sweepId);
    Q_EMIT sweepReviewChanged(*s);
    if (wasPaused && !s->isPaused()) {
        m_engine.pumpSubmissions();
        m_engine.checkIdle();
    } else if (!wasPaused && s->isPaused()) {
        m_engine.checkIdle(); // a sweep whose only work left is paused leaves the engine idle
    }
}

} // namespace Eddy::Monitor
