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

bool Review::write(const std::function<bool(Store::TaskStore &)> &write)
{
    if (!writable())
        return false;
    if (write(m_engine.store()))
        return true;
    m_error = m_engine.store().lastError();
    return false;
}

bool Review::writeCase(qint64 caseId, const std::function<bool(Store::TaskStore &)> &write)
{
    if (!this->write(write))
        return false;
    caseChanged(caseId);
    return true;
}

bool Review::writeSweep(qint64 sweepId, const std::function<bool(Store::TaskStore &)> &write)
{
    if (!this->write(write))
        return false;
    sweepChanged(sweepId);
    return true;
}

bool Review::setCaseNote(qint64 caseId, const QString &note)
{
    return writeCase(caseId, [&](Store::TaskStore &s) { return s.setCaseNote(caseId, note); });
}

bool Review::setCaseTags(qint64 caseId, const QStringList &tags)
{
    return writeCase(caseId, [&](Store::TaskStore &s) { return s.setCaseTags(caseId, tags); });
}

bool Review::setSweepNote(qint64 sweepId, const QString &note)
{
    return writeSweep(sweepId, [&](Store::TaskStore &s) { return s.setSweepNote(sweepId, note); });
}

bool Review::setSweepTags(qint64 sweepId, const QStringList &tags)
{
    return writeSweep(sweepId, [&](Store::TaskStore &s) { return s.setSweepTags(sweepId, tags); });
}

bool Review::setBaseline(qint64 sweepId, std::optional<qint64> caseId)
{
    return writeSweep(sweepId, [&](Store::TaskStore &s) { return s.setSweepBaseline(sweepId, caseId); });
}

std::optional<qint64> Review::baselineCase(qint64 sweepId)
{
    return m_engine.isOpen() ? m_engine.store().sweepBaselineCase(sweepId) : std::nullopt;
}

bool Review::setPaused(qint64 sweepId, bool paused)
{
    qCInfo(lcMonitor, "sweep %lld: pausing submission: %s", sweepId, paused ? "on" : "off");
    return writeSweep(sweepId, [&](Store::TaskStore &s) { return s.setSweepPaused(sweepId, paused); });
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
