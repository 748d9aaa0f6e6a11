// The OpenFOAM log readers without OpenFOAM: FoamLog on real icoFoam and simpleFoam log excerpts
// (residuals per field, Courant number, continuity, execution time, convergence, a blow-up) and
// the statusMessage it makes; CheckMeshReport on real checkMesh output of a good and a failing
// mesh. The excerpts are OpenFOAM v1912's own output (Debian 12).

#include "server/checkmeshreport.h"
#include "server/foamlog.h"

#include <QtTest>

#include <chrono>
#include <cmath>

using Eddy::Server::CheckMeshReport;
using Eddy::Server::FoamLog;

namespace {

// icoFoam, tutorial cavity: the first step and the start of the second.
const char *const kIcoFoam = R"(Starting time loop

Time = 0.005

Courant Number mean: 0 max: 0
smoothSolver:  Solving for Ux, Initial residual = 1, Final residual = 8.90511e-06, No Iterations 19
smoothSolver:  Solving for Uy, Initial residual = 0, Final residual = 0, No Iterations 0
DICPCG:  Solving for p, Initial residual = 1, Final residual = 0.0492854, No Iterations 12
time step continuity errors : sum local = 0.000466513, global = -1.79995e-19, cumulative = -1.79995e-19
DICPCG:  Solving for p, Initial residual = 0.590864, Final residual = 2.65225e-07, No Iterations 35
time step continuity errors : sum local = 2.74685e-09, global = -2.6445e-19, cumulative = -4.44444e-19
ExecutionTime = 0 s  ClockTime = 0 s

Time = 0.01

Courant Number mean: 0.0976825 max: 0.585607
smoothSolver:  Solving for Ux, Initial residual = 0.160686, Final residual = 6.83031e-06, No Iterations 19
smoothSolver:  Solving for Uy, Initial residual = 0.260828, Final residual = 9.65939e-06, No Iterations 18
DICPCG:  Solving for p, Initial residual = 0.428925, Final residual = 0.0103739, No Iterations 22
time step continuity errors : sum local = 0.000110788, global = 3.77194e-19, cumulative = -6.72498e-20
DICPCG:  Solving for p, Initial residual = 0.30209, Final residual = 5.26569e-07, No Iterations 33
time step continuity errors : sum local = 6.61987e-09, global = -2.74872e-19, cumulative = -3.42122e-19
ExecutionTime = 0.01 s  ClockTime = 0 s

Time = 0.015
)";

// simpleFoam, tutorial pitzDaily: the last two iterations and the end.
const char *const kSimpleFoam = R"(Time = 281

smoothSolver:  Solving for Ux, Initial residual = 0.00012297, Final residual = 1.19576e-05, No Iterations 5
smoothSolver:  Solving for Uy, Initial residual = 0.00100116, Final residual = 6.98274e-05, No Iterations 6
GAMG:  Solving for p, Initial residual = 0.000792438, Final residual = 7.0396e-05, No Iterations 5
time step continuity errors : sum local = 0.00336158, global = -0.000238994, cumulative = 1.03076
smoothSolver:  Solving for epsilon, Initial residual = 0.000122041, Final residual = 6.91595e-06, No Iterations 3
smoothSolver:  Solving for k, Initial residual = 0.000224151, Final residual = 1.40606e-05, No Iterations 4
ExecutionTime = 5.8 s  ClockTime = 9 s

Time = 282

smoothSolver:  Solving for Ux, Initial residual = 0.000118356, Final residual = 1.15546e-05, No Iterations 5
smoothSolver:  Solving for Uy, Initial residual = 0.000975505, Final residual = 6.74704e-05, No Iterations 6
GAMG:  Solving for p, Initial residual = 0.000787109, Final residual = 6.59467e-05, No Iterations 5
time step continuity errors : sum local = 0.00314713, global = -0.000234334, cumulative = 1.03052
smoothSolver:  Solving for epsilon, Initial residual = 0.00011874, Final residual = 6.88843e-06, No Iterations 3
smoothSolver:  Solving for k, Initial residual = 0.000218376, Final residual = 1.36587e-05, No Iterations 4
ExecutionTime = 5.82 s  ClockTime = 9 s


SIMPLE solution converged in 282 iterations

streamLine streamlines write:
    seeded 10 particles
End
)";

// checkMesh on the cavity with its vertex (1 1 0) moved to (9 1 0): fails.
const char *const kCheckMeshFailed = R"(Mesh stats
    points:           882
    internal points:  0
    faces:            1640
    internal faces:   760
    cells:            400
    faces per cell:   6
Checking geometry...
    Overall domain bounding box (0 0 0) (0.9 0.1 0.01)
    Max aspect ratio = 16.6 OK.
    Minimum face area = 3e-05. Maximum face area = 0.00045.  Face area magnitudes OK.
    Mesh non-orthogonality Max: 82.6942 average: 70.0381
   *Number of severely non-orthogonal (> 70 degrees) faces: 507.
    Non-orthogonality check OK.
  <<Writing 507 non-orthogonal faces to set nonOrthoFaces
    Face pyramids OK.
 ***Max skewness = 8.23333, 11 highly skew faces detected which may impair the quality of the results
  <<Writing 11 skew faces to set skewFaces
    Coupled point location match (average 0) OK.

Failed 1 mesh checks.

End
)";

// ... moved to (4 1 0): severely non-orthogonal faces, but it passes.
const char *const kCheckMeshOk = R"(    cells:            400
    Mesh non-orthogonality Max: 71.1255 average: 52.7881
   *Number of severely non-orthogonal (> 70 degrees) faces: 58.
    Non-orthogonality check OK.
  <<Writing 58 non-orthogonal faces to set nonOrthoFaces
    Face pyramids OK.
    Max skewness = 2.99302 OK.
    Coupled point location match (average 0) OK.

Mesh OK.

End
)";

} // namespace

class tst_FoamLog : public QObject
{
    Q_OBJECT

private slots:
    void transientStepsAndMessage();
    void chunksSplitMidLine();
    void steadyConvergedAndHistory();
    void blowUpAndFatalError();
    void checkMeshFailed();
    void checkMeshPassed();
    void parsingCost();
};

void tst_FoamLog::transientStepsAndMessage()
{
    FoamLog log;
    log.feed(kIcoFoam);
    QCOMPARE(log.steps(), 3);
    QCOMPARE(log.firstTime(), 0.005);
    // The step at 0.015 is under way (half its fields solved): the latest finished one is 0.01.
    log.feed("Courant Number mean: 0.12 max: 0.7\nsmoothSolver:  Solving for Ux, Initial residual "
             "= 0.04, Final residual = 9e-06, No Iterations 15\n");
    const FoamLog::Step &s = log.latest();
    QCOMPARE(s.time, 0.01);
    QCOMPARE(s.residuals.size(), std::size_t(3));
    QCOMPARE(s.residuals[0].first, std::string("Ux"));
    QCOMPARE(s.residuals[2].first, std::string("p"));
    QCOMPARE(s.residuals[2].second, 0.428925); // the first p solve of the step, not the second
    QCOMPARE(s.courantMax, 0.585607);
    QCOMPARE(s.continuity, 6.61987e-09); // the step's last continuity line
    QCOMPARE(s.executionSeconds, 0.01);
    QCOMPARE(log.progress(false, 0.5, 0.005),
             std::string("time = 0.01 of 0.5 (2%), residual 4.3e-1 (Ux 1.6e-1, Uy 2.6e-1, "
                         "p 4.3e-1), Courant max 0.586, continuity 6.6e-9, execution 0.01 s"));
    QVERIFY(!log.ended());
    QVERIFY(log.fatal().empty());
}

void tst_FoamLog::chunksSplitMidLine()
{
    // The solver writes as it goes: a read may end in the middle of a line.
    const std::string text = kIcoFoam;
    FoamLog whole, pieces;
    whole.feed(text);
    for (std::size_t i = 0; i < text.size(); i += 7)
        pieces.feed(std::string_view(text).substr(i, 7));
    QCOMPARE(pieces.progress(false, 0.5, 0.005), whole.progress(false, 0.5, 0.005));
    QCOMPARE(pieces.steps(), whole.steps());
}

void tst_FoamLog::steadyConvergedAndHistory()
{
    FoamLog log;
    log.feed(kSimpleFoam);
    QVERIFY(log.ended());
    QVERIFY(log.converged());
    QCOMPARE(log.convergedIterations(), 282);
    const FoamLog::Step &s = log.latest();
    QCOMPARE(s.time, 282.0);
    QCOMPARE(s.residuals.size(), std::size_t(5));
    QCOMPARE(s.residuals[3].first, std::string("epsilon"));
    QCOMPARE(s.residuals[4].first, std::string("k"));
    QCOMPARE(log.progress(true, 2000, 1),
             std::string("iteration 282 of 2000, residual 9.8e-4 (Ux 1.2e-4, Uy 9.8e-4, "
                         "p 7.9e-4, epsilon 1.2e-4, k 2.2e-4), continuity 3.1e-3, "
                         "execution 5.82 s"));
    QCOMPARE(log.history().size(), std::size_t(2));
    QCOMPARE(log.history()[1].time, 282.0);
}

void tst_FoamLog::blowUpAndFatalError()
{
    FoamLog log;
    log.feed("Time = 0.02\n\nCourant Number mean: 1.72612 max: 10.3678\n"
             "smoothSolver:  Solving for Ux, Initial residual = nan, Final residual = nan, "
             "No Iterations 1000\n"
             "DICPCG:  Solving for p, Initial residual = 0.996361, Final residual = 0.0412532, "
             "No Iterations 9\n");
    QVERIFY(std::isinf(log.latest().largestResidual()));
    QVERIFY(log.progress(false, 0.5, 0.005).find("residual inf (Ux nan, p 1.0e0)")
            != std::string::npos);
    log.feed("\n--> FOAM FATAL ERROR: \nMaximum number of iterations exceeded\n\n"
             "    From function ...\n");
    QCOMPARE(log.fatal(), std::string("FOAM FATAL ERROR: Maximum number of iterations exceeded"));
}

void tst_FoamLog::checkMeshFailed()
{
    const CheckMeshReport r = CheckMeshReport::parse(kCheckMeshFailed);
    QVERIFY(r.complete);
    QVERIFY(!r.ok);
    QCOMPARE(r.failedChecks, 1);
    QCOMPARE(r.cells, 400LL);
    QCOMPARE(r.maxNonOrthogonality, 82.6942);
    QCOMPARE(r.averageNonOrthogonality, 70.0381);
    QCOMPARE(r.severelyNonOrthogonalFaces, 507LL);
    QCOMPARE(r.maxSkewness, 8.23333);
    QCOMPARE(r.highlySkewFaces, 11LL);
    QCOMPARE(r.failures.size(), std::size_t(1));
    QCOMPARE(r.failures[0].check, std::string("Max skewness"));
    QCOMPARE(r.summary(),
             std::string("checkMesh failed 1 check (Max skewness) on 400 cells: max "
                         "non-orthogonality 82.7 (average 70.0, 507 severely non-orthogonal "
                         "faces), max skewness 8.23 (11 highly skew faces)."));
    const CheckMeshReport back = CheckMeshReport::fromJson(r.toJson());
    QCOMPARE(back.summary(), r.summary());
}

void tst_FoamLog::checkMeshPassed()
{
    const CheckMeshReport r = CheckMeshReport::parse(kCheckMeshOk);
    QVERIFY(r.complete);
    QVERIFY(r.ok);
    QCOMPARE(r.failedChecks, 0);
    QCOMPARE(r.severelyNonOrthogonalFaces, 58LL);
    QCOMPARE(r.maxSkewness, 2.99302);
    QVERIFY(r.failures.empty());
    // A log cut off before the verdict is no verdict.
    QVERIFY(!CheckMeshReport::parse("    cells:            400\n").complete);
}

void tst_FoamLog::parsingCost()
{
    // What following a solver costs the server: 15,000 icoFoam steps (about 7 MB of log).
    std::string big;
    for (int i = 0; i < 5000; ++i)
        big += kIcoFoam;
    FoamLog log;
    const auto start = std::chrono::steady_clock::now();
    log.feed(big);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now()
                                                                - start)
                          .count();
    qInfo("parsed %.1f MB of solver log in %.0f ms", big.size() / 1e6, ms);
    QCOMPARE(log.steps(), 15000);
    QVERIFY(log.history().size() <= FoamLog::kMaxHistory);
    QVERIFY(log.history().size() >= FoamLog::kMaxHistory / 2);
}

QTEST_GUILESS_MAIN(tst_FoamLog)
#include "tst_foamlog.moc"
