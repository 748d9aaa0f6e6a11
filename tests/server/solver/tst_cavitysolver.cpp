// Unit tests of the cavity solver: mesh check and repair, checkpoint/restore determinism,
// cooperative stop, rejection of bad snapshots, residual behaviour and physical sanity.

#include "server/solver/cavitysolver.h"
#include "server/solver/ghiareference.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace Eddy::Solver;

namespace {

CaseParams smallCase(int grid = 32, int maxIterations = 600)
{
    CaseParams p;
    p.reynolds = 100.0;
    p.grid = grid;
    p.maxIterations = maxIterations;
    p.tolerance = 1e-12; // never reached in these short runs
    p.threads = 1;
    return p;
}

CavitySolver::Outcome runQuietly(CavitySolver &solver, int reportEvery = 100)
{
    return solver.run([](const Progress &) { return true; }, reportEvery);
}

// The snapshot minus the bytes that legitimately differ between runs: accumulated wall time
// (header offset 48, see docs/solver.md) and the trailing checksum that covers it.
std::vector<std::uint8_t> stateBytes(const CavitySolver &solver)
{
    std::vector<std::uint8_t> bytes = solver.checkpoint();
    std::memset(bytes.data() + 48, 0, sizeof(double));
    bytes.resize(bytes.size() - sizeof(std::uint64_t));
    return bytes;
}

} // namespace

class tst_CavitySolver : public QObject
{
    Q_OBJECT

private slots:
    void meshCheck_data();
    void meshCheck();
    void repairMakesFailingMeshPass();
    void forcedDefectOnGoodMesh();
    void checkpointRestoreContinuesIdentically();
    void threadCountDoesNotChangeResults_data();
    void threadCountDoesNotChangeResults();
    void stopViaOnProgress();
    void badRestoreRejected_data();
    void badRestoreRejected();
    void randomlyDamagedSnapshotsAreRejected();
    void residualsDecreaseAndConverge();
    void creepingFlowIsSymmetric();
    void vortexShiftsDownstreamAtRe100();
    void gradedMeshGivesSameFlow();
    void outOfRangeParamsAreClamped();
};

void tst_CavitySolver::meshCheck_data()
{
    QTest::addColumn<int>("grid");
    QTest::addColumn<double>("grading");
    QTest::addColumn<bool>("ok");
    QTest::newRow("uniform 64") << 64 << 1.0 << true;
    QTest::newRow("grading 2 on 64") << 64 << 2.0 << true;
    QTest::newRow("grading 4 on 64") << 64 << 4.0 << true;
    QTest::newRow("grading 4 on 16") << 16 << 4.0 << true;
    QTest::newRow("grading 20 on 64") << 64 << 20.0 << false;
    QTest::newRow("grading 100 on 64") << 64 << 100.0 << false;
    QTest::newRow("grading 20 on 128") << 128 << 20.0 << false;
}

void tst_CavitySolver::meshCheck()
{
    QFETCH(int, grid);
    QFETCH(double, grading);
    QFETCH(bool, ok);
    CaseParams p = smallCase(grid);
    p.grading = grading;
    CavitySolver solver(p);
    const MeshQuality q = solver.checkMesh();
    QCOMPARE(q.ok, ok);
    QVERIFY(q.metric.find("aspect ratio") != std::string::npos);
    QCOMPARE(q.limit, 10.0);
    // With tanh clustering towards all walls, the worst cell is a wall cell in mid-span: as long
    // as the cell next to the wall and as wide as the widest cell, so its aspect ratio = grading.
    QVERIFY2(std::abs(q.worstValue - grading) < 1e-6 * grading,
             qPrintable(QString::number(q.worstValue)));
    QVERIFY(!q.description.empty());
    QVERIFY(!q.location.empty());
    if (ok) {
        QCOMPARE(q.badCells, 0);
        QVERIFY(q.worstValue <= q.limit);
    } else {
        QVERIFY(q.badCells > 0);
        QVERIFY(q.badCells < grid * grid);
        QVERIFY(q.worstValue > q.limit);
        QVERIFY2(q.description.find("aspect ratio") != std::string::npos, q.description.c_str());
        QVERIFY2(q.description.find("cell") != std::string::npos, q.description.c_str());
        QVERIFY2(q.location.find("rows 0-") != std::string::npos, q.location.c_str());
    }
}

void tst_CavitySolver::repairMakesFailingMeshPass()
{
    CaseParams p = smallCase(64);
    p.grading = 50.0;
    CavitySolver solver(p);
    QVERIFY(!solver.checkMesh().ok);

    solver.repairMesh(1); // one pass: 50 -> 50^0.75 = 18.8, still too stretched
    QVERIFY(std::abs(solver.params().grading - std::pow(50.0, 0.75)) < 1e-9);
    QVERIFY(!solver.checkMesh().ok);

    solver.repairMesh(4); // 18.8 -> 18.8^(0.75^4) = 2.5
    const MeshQuality q = solver.checkMesh();
    QVERIFY2(q.ok, q.description.c_str());
    QVERIFY(solver.params().grading > 1.0);
    QVERIFY(solver.params().grading < 4.0);
    QCOMPARE(solver.iteration(), 0);

    // The repaired case really runs.
    QCOMPARE(runQuietly(solver), CavitySolver::Outcome::IterationLimit);
    QCOMPARE(solver.iteration(), 600);
    QVERIFY(std::isfinite(solver.result().finalResidual));

    // Zero passes change nothing.
    const double before = solver.params().grading;
    solver.repairMesh(0);
    QCOMPARE(solver.params().grading, before);
}

void tst_CavitySolver::forcedDefectOnGoodMesh()
{
    CavitySolver solver(smallCase(64));
    QVERIFY(solver.checkMesh(false).ok);
    const MeshQuality q = solver.checkMesh(true);
    QVERIFY(!q.ok);
    QCOMPARE(q.badCells, 0);
    QVERIFY2(q.description.find("forced") != std::string::npos, q.description.c_str());
    QVERIFY2(q.description.find("demonstration") != std::string::npos, q.description.c_str());
    QVERIFY2(q.description.find("aspect ratio") != std::string::npos, q.description.c_str());
}

void tst_CavitySolver::checkpointRestoreContinuesIdentically()
{
    // Uninterrupted: 0 -> 600.
    CavitySolver straight(smallCase(32, 600));
    QCOMPARE(runQuietly(straight), CavitySolver::Outcome::IterationLimit);

    // Interrupted: 0 -> 250, snapshot, a new solver (as after a server restart) resumes.
    CavitySolver first(smallCase(32, 250));
    runQuietly(first);
    QCOMPARE(first.iteration(), 250);
    const std::vector<std::uint8_t> snapshot = first.checkpoint();
    QVERIFY(snapshot.size() > 4 * 33 * 33 * sizeof(double));

    CavitySolver resumed(smallCase(32, 600));
    QVERIFY(resumed.restore(snapshot));
    QCOMPARE(resumed.iteration(), 250);
    QCOMPARE(runQuietly(resumed), CavitySolver::Outcome::IterationLimit);
    QCOMPARE(resumed.iteration(), 600);

    QVERIFY(stateBytes(resumed) == stateBytes(straight)); // bitwise identical fields
    const CaseResult a = straight.result(), b = resumed.result();
    QVERIFY(a.uCentreline == b.uCentreline);
    QVERIFY(a.vCentreline == b.vCentreline);
    QCOMPARE(a.vortexPsi, b.vortexPsi);
    QCOMPARE(a.finalResidual, b.finalResidual);

    // And the run did move: the state at 600 differs from the one at 250.
    QVERIFY(stateBytes(first) != stateBytes(straight));
}

void tst_CavitySolver::threadCountDoesNotChangeResults_data()
{
    QTest::addColumn<int>("grid");
    QTest::addColumn<double>("grading");
    QTest::newRow("48 uniform") << 48 << 1.0;
    QTest::newRow("33 uniform (odd)") << 33 << 1.0;
    QTest::newRow("40 graded") << 40 << 3.0;
    QTest::newRow("16 uniform") << 16 << 1.0;
}

void tst_CavitySolver::threadCountDoesNotChangeResults()
{
    QFETCH(int, grid);
    QFETCH(double, grading);
    CaseParams p = smallCase(grid, 300);
    p.grading = grading;
    CavitySolver one(p);
    p.threads = 2;
    CavitySolver two(p);
    runQuietly(one);
    // Two threads, stopped and resumed twice along the way: still the same bits.
    two.run([](const Progress &pr) { return pr.iteration < 70; }, 10);
    QCOMPARE(two.iteration(), 70);
    two.run([](const Progress &pr) { return pr.iteration < 151; }, 1);
    QCOMPARE(two.iteration(), 151);
    runQuietly(two, 7);
    QCOMPARE(two.iteration(), 300);
    QVERIFY(stateBytes(one) == stateBytes(two));
}

void tst_CavitySolver::stopViaOnProgress()
{
    CavitySolver solver(smallCase(32, 100000));
    int calls = 0;
    int lastSeen = -1;
    const auto outcome = solver.run(
        [&](const Progress &p) {
            ++calls;
            lastSeen = p.iteration;
            [&] { QCOMPARE(p.maxIterations, 100000); }();
            return p.iteration < 300;
        },
        100);
    QCOMPARE(outcome, CavitySolver::Outcome::Stopped);
    QCOMPARE(solver.iteration(), 300);
    QCOMPARE(calls, 4); // 100, 200, 300 (answers stop), then the final report
    QCOMPARE(lastSeen, 300);

    // Stopping is not losing: the solver continues from where it stopped.
    solver.run([](const Progress &p) { return p.iteration < 400; }, 50);
    QCOMPARE(solver.iteration(), 400);
}

void tst_CavitySolver::badRestoreRejected_data()
{
    QTest::addColumn<QString>("damage");
    QTest::newRow("empty") << "empty";
    QTest::newRow("truncated") << "truncated";
    QTest::newRow("flipped byte") << "flip";
    QTest::newRow("wrong magic") << "magic";
    QTest::newRow("other grid") << "grid";
    QTest::newRow("other reynolds") << "reynolds";
    QTest::newRow("other lid velocity") << "lid";
    QTest::newRow("garbage") << "garbage";
}

void tst_CavitySolver::badRestoreRejected()
{
    QFETCH(QString, damage);
    CaseParams p = smallCase(32, 100);
    std::vector<std::uint8_t> snapshot;
    if (damage == "grid" || damage == "reynolds" || damage == "lid") {
        CaseParams other = p;
        if (damage == "grid")
            other.grid = 40;
        else if (damage == "reynolds")
            other.reynolds = 400.0;
        else
            other.lidVelocity = 2.0;
        CavitySolver source(other);
        runQuietly(source);
        snapshot = source.checkpoint();
    } else {
        CavitySolver source(p);
        runQuietly(source);
        snapshot = source.checkpoint();
        if (damage == "empty")
            snapshot.clear();
        else if (damage == "truncated")
            snapshot.resize(snapshot.size() / 2);
        else if (damage == "flip")
            snapshot[snapshot.size() / 2] ^= 0x10;
        else if (damage == "magic")
            snapshot[0] = 'X';
        else
            snapshot.assign(5000, 0xAB);
    }

    CaseParams target = p;
    target.maxIterations = 150;
    CavitySolver solver(target);
    runQuietly(solver);
    const std::vector<std::uint8_t> before = stateBytes(solver);
    QVERIFY(!solver.restore(snapshot));
    // A rejected snapshot leaves the solver exactly as it was, still able to run.
    QVERIFY(stateBytes(solver) == before);
    QCOMPARE(solver.iteration(), 150);
}

void tst_CavitySolver::randomlyDamagedSnapshotsAreRejected()
{
    CavitySolver source(smallCase(16, 50));
    runQuietly(source, 10);
    const std::vector<std::uint8_t> good = source.checkpoint();
    std::mt19937 rng(20261129); // fixed seed: the same damage every run
    CavitySolver target(smallCase(16, 60));
    const std::vector<std::uint8_t> before = stateBytes(target);
    for (int k = 0; k < 400; ++k) {
        std::vector<std::uint8_t> bad = good;
        switch (k % 4) {
        case 0: // truncated anywhere
            bad.resize(rng() % bad.size());
            break;
        case 1: // one to five flipped bits
            for (int f = 0; f < 1 + int(rng() % 5); ++f)
                bad[rng() % bad.size()] ^= std::uint8_t(1u << (rng() % 8));
            break;
        case 2: // an inserted byte
            bad.insert(bad.begin() + std::ptrdiff_t(rng() % bad.size()), std::uint8_t(rng()));
            break;
        default: // noise of the right length
            for (auto &b : bad)
                b = std::uint8_t(rng());
        }
        QVERIFY2(!target.restore(bad), qPrintable(QStringLiteral("damage %1").arg(k)));
    }
    QVERIFY(stateBytes(target) == before);
    QVERIFY(target.restore(good)); // and the undamaged one still fits
    QCOMPARE(target.iteration(), 50);
    QCOMPARE(runQuietly(target), CavitySolver::Outcome::IterationLimit);
    QCOMPARE(target.iteration(), 60);
}

void tst_CavitySolver::residualsDecreaseAndConverge()
{
    CaseParams p = smallCase(32, 20000);
    p.tolerance = 1e-5;
    CavitySolver solver(p);
    QList<Progress> history;
    const auto outcome = solver.run(
        [&](const Progress &pr) {
            history.append(pr);
            return true;
        },
        250);
    QCOMPARE(outcome, CavitySolver::Outcome::Converged);
    QVERIFY(history.size() > 4);
    const Progress &early = history.at(1);
    QVERIFY(early.residualU > 0.0 && early.residualV > 0.0 && early.residualOmega > 0.0);
    QCOMPARE(early.residual, std::max({early.residualU, early.residualV, early.residualOmega}));
    // Broadly monotone: every report 1000 iterations later is lower.
    for (int k = 4; k < history.size() - 1; ++k)
        QVERIFY2(history.at(k).residual < history.at(k - 4).residual,
                 qPrintable(QStringLiteral("iteration %1").arg(history.at(k).iteration)));
    const Progress &last = history.last();
    QVERIFY(last.residual < p.tolerance);
    QVERIFY(last.residual < early.residual * 1e-3);
    const CaseResult r = solver.result();
    QVERIFY(r.converged);
    QCOMPARE(r.iterations, last.iteration);
    QCOMPARE(r.finalResidual, last.residual);
    QVERIFY(r.wallSeconds > 0.0);
}

void tst_CavitySolver::creepingFlowIsSymmetric()
{
    // At Re = 0.01 inertia is negligible: Stokes flow is mirror-symmetric about x = 0.5.
    CaseParams p = smallCase(32, 50000);
    p.reynolds = 0.01;
    p.tolerance = 1e-6;
    CavitySolver solver(p);
    QCOMPARE(runQuietly(solver, 1000), CavitySolver::Outcome::Converged);
    const CaseResult r = solver.result();
    QVERIFY2(std::abs(r.vortexX - 0.5) < 0.01, qPrintable(QString::number(r.vortexX)));
    QVERIFY(r.vortexY > 0.7 && r.vortexY < 0.8);
    QVERIFY(r.vortexPsi < -0.09 && r.vortexPsi > -0.11);
    const int n = int(r.xCentreline.size());
    double peak = 0.0;
    for (int k = 0; k < n; ++k)
        peak = std::max(peak, std::abs(r.vCentreline[k]));
    QVERIFY(peak > 0.05); // there is flow across the centreline...
    // ...and v(x) = -v(1 - x). The sample points are not mirror images, so compare through the
    // symmetric pair that is: x = 0 and 1, and 0.5 where v must vanish.
    const int mid = 8;
    QCOMPARE(r.xCentreline[mid], 0.5);
    QVERIFY2(std::abs(r.vCentreline[mid]) < 1e-3 * peak,
             qPrintable(QString::number(r.vCentreline[mid])));
    // u on the vertical centreline: lid value on top, no slip below, backflow in between.
    QCOMPARE(r.uCentreline.back(), 1.0);
    QCOMPARE(r.uCentreline.front(), 0.0);
    QVERIFY(*std::min_element(r.uCentreline.begin(), r.uCentreline.end()) < -0.1);
}

void tst_CavitySolver::vortexShiftsDownstreamAtRe100()
{
    CaseParams p = smallCase(48, 30000);
    p.tolerance = 1e-5;
    CavitySolver solver(p);
    QCOMPARE(runQuietly(solver, 1000), CavitySolver::Outcome::Converged);
    const CaseResult r = solver.result();
    // Inertia carries the vortex downstream of the lid's direction of travel (Ghia: 0.6172, 0.7344).
    QVERIFY2(std::abs(r.vortexX - 0.6172) < 0.02, qPrintable(QString::number(r.vortexX)));
    QVERIFY2(std::abs(r.vortexY - 0.7344) < 0.02, qPrintable(QString::number(r.vortexY)));
    QVERIFY2(std::abs(r.vortexPsi + 0.1034) < 0.003, qPrintable(QString::number(r.vortexPsi)));
    // A reversed lid mirrors the flow: v at x = 0.5 flips sign.
    CaseParams q = p;
    q.lidVelocity = -1.0;
    CavitySolver mirrored(q);
    QCOMPARE(runQuietly(mirrored, 1000), CavitySolver::Outcome::Converged);
    const CaseResult m = mirrored.result();
    QVERIFY2(std::abs(m.vortexX - (1.0 - r.vortexX)) < 1e-3,
             qPrintable(QString::number(m.vortexX)));
    QVERIFY(std::abs(m.vortexY - r.vortexY) < 1e-3);
    QVERIFY(std::abs(m.vortexPsi + r.vortexPsi) < 1e-4); // counter-clockwise: psi maximum
    QVERIFY(std::abs(m.vCentreline[8] + r.vCentreline[8]) < 1e-3);
}

void tst_CavitySolver::gradedMeshGivesSameFlow()
{
    CaseParams p = smallCase(64, 200000);
    p.grading = 3.0;
    p.tolerance = 1e-5;
    CavitySolver solver(p);
    QVERIFY(solver.checkMesh().ok);
    QCOMPARE(runQuietly(solver, 1000), CavitySolver::Outcome::Converged);
    const CaseResult r = solver.result();
    GhiaTable ghia;
    QVERIFY(ghiaReference(100, ghia));
    double worst = 0.0;
    for (std::size_t k = 0; k < ghia.y.size(); ++k) {
        worst = std::max(worst, std::abs(r.uCentreline[k] - ghia.u[k]));
        worst = std::max(worst, std::abs(r.vCentreline[k] - ghia.v[k]));
    }
    QVERIFY2(worst < 0.02, qPrintable(QString::number(worst)));
}

void tst_CavitySolver::outOfRangeParamsAreClamped()
{
    CaseParams p;
    p.grid = 0;
    p.reynolds = std::nan("");
    p.grading = -5.0;
    p.maxIterations = -1;
    CavitySolver solver(p);
    QCOMPARE(solver.params().grid, 8);
    QCOMPARE(solver.params().reynolds, 100.0);
    QCOMPARE(solver.params().grading, 1.0);
    QCOMPARE(runQuietly(solver), CavitySolver::Outcome::IterationLimit);
    QCOMPARE(solver.iteration(), 0);
    QVERIFY(solver.checkMesh().ok);

    GhiaTable table;
    QVERIFY(!ghiaReference(123, table));
    QVERIFY(ghiaReference(1000, table));
    QCOMPARE(table.u.size(), std::size_t(17));
    QCOMPARE(table.v.size(), std::size_t(17));
}

QTEST_GUILESS_MAIN(tst_CavitySolver)
#include "tst_cavitysolver.moc"
