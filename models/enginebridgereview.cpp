#include "models/enginebridge.h"

#include "app/monitor/review.h"

// EngineBridge's review writes (Monitor::Review): queued to the engine's thread; what they
// stored comes back by Review's signals, connected in the constructor.

namespace Eddy {

namespace {

// Runs `write` with the engine's Review on its thread; a refusal comes back as reviewFailed().
template<typename Write>
void onReview(EngineBridge *bridge, Monitor::Engine *engine, Write write)
{
    if (!engine)
        return;
    QMetaObject::invokeMethod(engine, [bridge, engine, write] {
        Monitor::Review &review = *engine->review();
        if (!write(review))
            Q_EMIT bridge->reviewFailed(review.lastError());
    });
}

} // namespace

void EngineBridge::setCaseNote(const QList<qint64> &caseIds, const QString &note)
{
    onReview(this, m_engine, [caseIds, note](Monitor::Review &review) {
        return std::all_of(caseIds.cbegin(), caseIds.cend(),
                           [&](qint64 id) { return review.setCaseNote(id, note); });
    });
}

void EngineBridge::setCaseTags(const QList<qint64> &caseIds, const QStringList &tags)
{
    onReview(this, m_engine, [caseIds, tags](Monitor::Review &review) {
        return std::all_of(caseIds.cbegin(), caseIds.cend(),
                           [&](qint64 id) { return review.setCaseTags(id, tags); });
    });
}

void EngineBridge::setSweepNote(qint64 sweepId, const QString &note)
{
    onReview(this, m_engine, [sweepId, note](Monitor::Review &review) { return review.setSweepNote(sweepId, note); });
}

void EngineBridge::setSweepTags(qint64 sweepId, const QStringList &tags)
{
    onReview(this, m_engine, [sweepId, tags](Monitor::Review &review) { return review.setSweepTags(sweepId, tags); });
}

void EngineBridge::setBaseline(qint64 sweepId, std::optional<qint64> caseId)
{
    onReview(this, m_engine, [sweepId, caseId](Monitor::Review &review) {
        return review.setBaseline(sweepId, caseId);
    });
}

void EngineBridge::setSweepPaused(qint64 sweepId, bool paused)
{
    onReview(this, m_engine, [sweepId, paused](Monitor::Review &review) {
        return review.setPaused(sweepId, paused);
    });
}

} // namespace Eddy
