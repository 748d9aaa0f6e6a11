// Validation against Ghia, Ghia & Shin (1982): Re = 100 on their 129 x 129 node grid (128 cells
// per side). Every tabulated u on the vertical centreline and v on the horizontal centreline must
// lie within 1% of the lid velocity of the published value.

#include "server/solver/cavitysolver.h"
#include "server/solver/ghiareference.h"

#include <QtTest>

#include <cmath>

using namespace Eddy::Solver;

class tst_GhiaValidation : public QObject
{
    Q_OBJECT

private slots:
    void re100Grid129();
};

void tst_GhiaValidation::re100Grid129()
{
    CaseParams p;
    p.reynolds = 100.0;
    p.grid = 128; // cells per side = Ghia's 129 x 129 grid points
    p.maxIterations = 200000;
    p.tolerance = 1e-6;
    CavitySolver solver(p);
    QVERIFY(solver.checkMesh().ok);
    Progress last;
    const auto outcome = solver.run(
        [&](const Progress &pr) {
            last = pr;
            return true;
        },
        5000);
    QCOMPARE(outcome, CavitySolver::Outcome::Converged);

    const CaseResult r = solver.result();
    GhiaTable ghia;
    QVERIFY(ghiaReference(100, ghia));
    QCOMPARE(r.yCentreline.size(), ghia.y.size());
    QCOMPARE(r.xCentreline.size(), ghia.x.size());

    double worstU = 0.0, worstV = 0.0;
    qInfo("Re = 100, grid 129 x 129: %d iterations, residual %.2e, %.1f s",
          r.iterations, r.finalResidual, r.wallSeconds);
    qInfo("     y     u        u_ghia    du      |     x     v        v_ghia    dv");
    for (std::size_t k = 0; k < ghia.y.size(); ++k) {
        QCOMPARE(r.yCentreline[k], ghia.y[k]);
        QCOMPARE(r.xCentreline[k], ghia.x[k]);
        const double du = r.uCentreline[k] - ghia.u[k];
        const double dv = r.vCentreline[k] - ghia.v[k];
        worstU = std::max(worstU, std::abs(du));
        worstV = std::max(worstV, std::abs(dv));
        qInfo("  %.4f  %+.5f  %+.5f  %+.5f  |  %.4f  %+.5f  %+.5f  %+.5f", ghia.y[k],
              r.uCentreline[k], ghia.u[k], du, ghia.x[k], r.vCentreline[k], ghia.v[k], dv);
    }
    qInfo("max |u - u_ghia| = %.5f, max |v - v_ghia| = %.5f (limit 0.01 = 1%% of the lid)",
          worstU, worstV);
    qInfo("primary vortex at (%.4f, %.4f), psi = %.6f (Ghia: (0.6172, 0.7344), -0.103423)",
          r.vortexX, r.vortexY, r.vortexPsi);
    QVERIFY2(worstU <= 0.01, qPrintable(QString::number(worstU)));
    QVERIFY2(worstV <= 0.01, qPrintable(QString::number(worstV)));
    QVERIFY(std::abs(r.vortexX - 0.6172) < 0.01);
    QVERIFY(std::abs(r.vortexY - 0.7344) < 0.01);
    QVERIFY(std::abs(r.vortexPsi + 0.103423) < 0.001);
    QVERIFY(r.converged);
    QCOMPARE(last.iteration, r.iterations);
}

QTEST_GUILESS_MAIN(tst_GhiaValidation)
#include "tst_ghiavalidation.moc"
