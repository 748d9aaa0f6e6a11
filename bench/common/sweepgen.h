// Completed sweeps written straight through the store API, for the benchmarks that need a
// database of past work (bench_sweep's 1,000-case sweep, bench_year's year of sweeps). Each
// case has a completed task whose result looks like run_cfd_case's (scalars, a residual
// history), progress samples as polling stores them, and every `questionEvery`-th case a mesh
// question answered by a user. Header-only; the thread that owns the store.
#pragma once

#include "app/store/taskstore.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QUuid>

#include <cmath>
#include <optional>

namespace Bench {

struct SweepShape
{
    int cases = 1000;
    qint64 createdAtMs = 0;    // 0: now
    int historyPoints = 500;   // points per field of the result's residual_history
    int samplesPerTask = 120;  // polls that stored progress (each: iteration and 3 residuals)
    int sampleIntervalMs = 1000;
    int questionEvery = 10;    // every n-th case asked a mesh question (0: none)
};

// The 4 varied parameters: 10 Reynolds numbers x 5 grids x 4 tolerances x 5 gradings = 1,000.
inline QString sweepSpec()
{
    return QStringLiteral(R"({"tool":"run_cfd_case","fixed":{"max_iterations":20000},"vary":{)"
                          R"("reynolds":{"list":[100,200,300,400,500,600,700,800,900,1000]},)"
                          R"("grid":{"list":[16,24,32,48,64]},"tolerance":{"list":[1e-4,1e-5,1e-6,1e-7]},)"
                          R"("grading":{"list":[1.0,1.25,1.5,1.75,2.0]}},"mode":"grid","concurrency":4})");
}

// Writes one sweep; its id, or nullopt with the store's error in *error.
inline std::optional<qint64> writeSweep(Eddy::Store::TaskStore &store, qint64 serverId,
                                        std::optional<qint64> sessionId, const SweepShape &shape,
                                        QString *error)
{
    using namespace Eddy::Store;
    static const double tolerances[] = {1e-4, 1e-5, 1e-6, 1e-7};
    SweepRecord sweep;
    sweep.serverId = serverId;
    sweep.sessionId = sessionId;
    sweep.tool = QStringLiteral("run_cfd_case");
    sweep.spec = sweepSpec();
    sweep.createdAtMs = shape.createdAtMs;
    QList<CaseRecord> cases;
    for (int i = 0; i < shape.cases; ++i) {
        CaseRecord c;
        c.serverId = serverId;
        c.index = i;
        c.tool = sweep.tool;
        c.createdAtMs = shape.createdAtMs;
        c.idempotencyKey = QUuid::createUuid().toString(QUuid::WithoutBraces);
        c.arguments = QStringLiteral(R"({"reynolds":%1,"grid":%2,"tolerance":%3,"grading":%4,"max_iterations":20000,)"
                                     R"("idempotency_key":"%5"})")
                          .arg(100 * (1 + i % 10))
                          .arg(QList<int>{16, 24, 32, 48, 64}.at((i / 10) % 5))
                          .arg(tolerances[(i / 50) % 4])
                          .arg(1.0 + 0.25 * ((i / 200) % 5))
                          .arg(c.idempotencyKey);
        cases << c;
    }
    if (!store.journalSweep(sweep, cases)) {
        *error = store.lastError();
        return std::nullopt;
    }
    const qint64 start = shape.createdAtMs ? shape.createdAtMs : QDateTime::currentMSecsSinceEpoch();
    for (int i = 0; i < cases.size(); ++i) {
        const CaseRecord &c = cases[i];
        const bool converged = i % 7 != 3;
        const int iterations = 800 + (i * 37) % 4000;
        QString iter, u, v, w;
        for (int p = 0; p < shape.historyPoints; ++p) {
            const int it = 1 + p * iterations / std::max(1, shape.historyPoints);
            const double r = std::exp(-double(it) / (converged ? 300.0 : 3000.0));
            const QString sep = p ? QStringLiteral(",") : QString();
            iter += sep + QString::number(it);
            u += sep + QString::number(r, 'g', 6);
            v += sep + QString::number(r * 0.7, 'g', 6);
            w += sep + QString::number(r * 40, 'g', 6);
        }
        TaskRecord t;
        t.serverId = serverId;
        t.sweepId = sweep.id;
        t.caseId = c.id;
        t.tool = c.tool;
        t.arguments = c.arguments;
        t.serverTaskId = QUuid::createUuid().toString(QUuid::Id128);
        t.status = TaskStatus::Completed;
        t.statusMessage = converged ? QStringLiteral("converged after %1 iterations").arg(iterations)
                                    : QStringLiteral("stopped at the iteration limit");
        t.createdAt = QDateTime::fromMSecsSinceEpoch(start, Qt::UTC).toString(Qt::ISODate);
        t.lastUpdatedAt = t.createdAt;
        t.result = QStringLiteral(R"({"content":[{"type":"text","text":"done"}],"structuredContent":{)"
                                  R"("iterations":%1,"final_residual":%2,"converged":%3,)"
                                  R"("vortex_centre":{"x":%4,"y":%5,"psi":%6},)"
                                  R"("residual_history":{"iteration":[%7],"u":[%8],"v":[%9],"ω":[%10]}}})")
                       .arg(iterations)
                       .arg(converged ? 1e-7 : 3e-3)
                       .arg(converged ? QStringLiteral("true") : QStringLiteral("false"))
                       .arg(0.5 + 0.001 * (i % 50))
                       .arg(0.6 + 0.001 * (i % 30))
                       .arg(-0.1 - 0.0001 * i)
                       .arg(iter, u, v, w);
        t.firstSeenAtMs = start + i;
        t.updatedAtMs = start + i + qint64(shape.samplesPerTask) * shape.sampleIntervalMs;
        t.finishedAtMs = t.updatedAtMs;
        if (!store.recordTaskForCase(c.id, t)) {
            *error = store.lastError();
            return std::nullopt;
        }
        QList<ProgressSample> samples;
        for (int s = 0; s < shape.samplesPerTask; ++s) {
            const qint64 at = t.firstSeenAtMs + qint64(s) * shape.sampleIntervalMs;
            const double it = double(1 + s * iterations / std::max(1, shape.samplesPerTask));
            const double r = std::exp(-it / (converged ? 300.0 : 3000.0));
            samples << ProgressSample{t.id, at, QStringLiteral("iteration"), it, it}
                    << ProgressSample{t.id, at, QStringLiteral("residual.u"), it, r}
                    << ProgressSample{t.id, at, QStringLiteral("residual.v"), it, r * 0.7}
                    << ProgressSample{t.id, at, QStringLiteral("residual.ω"), it, r * 40};
        }
        if (!store.storeTaskUpdate(t, true, samples)) {
            *error = store.lastError();
            return std::nullopt;
        }
        if (shape.questionEvery > 0 && i % shape.questionEvery == 0) {
            const QString key = QStringLiteral("mesh-1");
            if (!store.recordInputRequest(t.id, key,
                                          QStringLiteral(R"({"method":"elicitation/create","params":{"mode":"form",)"
                                                         R"("message":"12 cells fail the skewness check. Repair or abort?"}})"))
                || !store.beginAnswer(t.id, key, QStringLiteral(R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})"),
                                      QStringLiteral("ada"))
                || !store.finishAnswer(t.id, key, true)) {
                *error = store.lastError();
                return std::nullopt;
            }
        }
    }
    return sweep.id;
}

} // namespace Bench
