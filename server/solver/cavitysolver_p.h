#pragma once

// Private to server/solver: the state of one CavitySolver, shared by cavitysolver.cpp (mesh,
// kernels, run, results) and snapshot.cpp (its bytes for a checkpoint).

#include "server/solver/cavitysolver.h"

#include <cstdint>
#include <vector>

namespace Eddy::Solver {

struct CavitySolver::Impl
{
    CaseParams params;
    int n = 0;      // cells per side
    int s = 0;      // row stride = nodes per side
    int threads = 1;
    std::vector<double> x, y;
    // Per-line finite-difference weights of the non-uniform grid (index = node).
    std::vector<double> d1x, d1y;                            // 1 / (t[i+1] - t[i-1])
    std::vector<double> d2xm, d2xc, d2xp, d2ym, d2yc, d2yp; // second derivative
    std::vector<double> idiag;                               // 1 / Poisson diagonal, per node
    std::vector<double> psi, omega, omegaNext, u, v;         // fields, row-major [j * s + i]
    double nu = 0.0, dt = 0.0, sor = 1.0;
    int iteration = 0;
    double residualU = 0.0, residualV = 0.0, residualOmega = 0.0;
    double wallSeconds = 0.0;
    std::vector<HistoryPoint> history; // reserved to kMaxHistory + 1: no allocation per step
    int historyStride = 1;

    void record();
    void setMesh(std::vector<double> nx, std::vector<double> ny);
    void resetFields();
    struct Team;
    void step(Team *team);
    void sweepRows(int lo, int hi, bool downwards, std::int64_t generation, Team *team, int self,
                   double m[3]);
    double nodeU(int i, int j) const;
    double nodeV(int i, int j) const;
    double sample(bool wantU, double px, double py) const;
};

} // namespace Eddy::Solver
