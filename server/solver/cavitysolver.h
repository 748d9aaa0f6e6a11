#pragma once

// The contract between the reference server (server/) and its solver (server/solver/).
// No Qt, no I/O: the server owns threads, storage and the protocol; the solver owns numbers.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace Eddy::Solver {

struct CaseParams
{
    double reynolds = 100.0;     // > 0
    int grid = 64;               // cells per side, 8..1024
    int maxIterations = 20000;   // solver iterations (pseudo-time steps)
    double tolerance = 1e-6;     // converged when the largest field residual drops below it
    double lidVelocity = 1.0;    // u on the moving lid
    double grading = 1.0;        // >= 1: ratio of the largest to the smallest cell (wall clustering)
    int threads = 0;             // worker threads for the kernels; 0 = automatic (2 on big grids)
};

// Outcome of the mesh-quality check run before the first iteration.
struct MeshQuality
{
    bool ok = true;
    std::string metric;          // e.g. "aspect ratio" or "expansion ratio"
    double worstValue = 0.0;     // worst value of the metric over all cells
    double limit = 0.0;          // the check's limit for the metric
    int badCells = 0;            // how many cells break the limit
    std::string location;        // where, in words: "cells 0-3 along every wall"
    std::string description;     // one sentence an engineer can act on, naming cells and metric
};

// Residuals are rates of change per unit of convective time L/U, relative to the lid scales:
// max |du/dt| / (U^2/L) and likewise for v; residualOmega is the vorticity's, the field this
// stream function-vorticity solver marches (max |domega/dt| / (U/L)^2). See docs/solver.md.
struct Progress
{
    int iteration = 0;
    int maxIterations = 0;
    double residual = 0.0;       // max of the three below
    double residualU = 0.0;
    double residualV = 0.0;
    double residualOmega = 0.0;
};

// One point of the residual history (iteration and the three field residuals).
struct HistoryPoint
{
    int iteration = 0;
    double u = 0.0, v = 0.0, omega = 0.0;
};

// Results at the published sample points of Ghia, Ghia & Shin (1982), table I and II.
struct CaseResult
{
    std::vector<double> yCentreline;  // y of each sample on the vertical centreline x = 0.5
    std::vector<double> uCentreline;  // u/U_lid at those points
    std::vector<double> xCentreline;  // x of each sample on the horizontal centreline y = 0.5
    std::vector<double> vCentreline;  // v/U_lid at those points
    double vortexX = 0.0;             // primary vortex centre (minimum of the stream function)
    double vortexY = 0.0;
    double vortexPsi = 0.0;           // stream function there
    int iterations = 0;
    double finalResidual = 0.0;
    bool converged = false;
    double wallSeconds = 0.0;         // solver time only
    double residualU = 0.0, residualV = 0.0, residualOmega = 0.0; // at the last iteration
    // The residuals over the whole run, down-sampled to at most kMaxHistory points: every
    // stride-th iteration, the stride doubling whenever the list fills; the last iteration is
    // always the last point. Survives checkpoint/restore.
    std::vector<HistoryPoint> history;
    // The velocity magnitude |u|/U_lid sampled at the centres of a fieldSize x fieldSize uniform
    // grid over the cavity, row-major from the bottom wall up (for the result's picture).
    int fieldSize = 0;
    std::vector<double> speed;
};

constexpr int kMaxHistory = 1000;

class CavitySolver
{
public:
    explicit CavitySolver(const CaseParams &params);
    ~CavitySolver();
    CavitySolver(const CavitySolver &) = delete;
    CavitySolver &operator=(const CavitySolver &) = delete;

    const CaseParams &params() const;

    // Checks the (graded) mesh; forceDefect reports a defect even on a good mesh (demos, tests).
    MeshQuality checkMesh(bool forceDefect = false) const;
    // Smooths the grading with the given number of passes so the mesh passes the check: each pass
    // replaces the grading g by g^0.75 (params().grading shows the result). Passes compose, so
    // replaying the same passes after a restart gives the same mesh. The fields restart from rest.
    void repairMesh(int smoothingPasses);

    // Iterates from the current state until converged, maxIterations, or onProgress returns
    // false (cancel/shutdown). onProgress is called every reportEvery iterations and once at the
    // end; it runs on the calling thread. Allocates nothing per iteration.
    enum class Outcome { Converged, IterationLimit, Stopped };
    Outcome run(const std::function<bool(const Progress &)> &onProgress, int reportEvery = 100);

    int iteration() const;

    // A self-contained snapshot of the state (fields, iteration, mesh) for resuming after a
    // server restart; restore() returns false on a snapshot that does not fit these params (grid,
    // Reynolds number, lid velocity) or is damaged, and then leaves the solver untouched. A
    // restored snapshot brings its own (possibly repaired) mesh; a resumed run continues bit for
    // bit as if it had never stopped.
    std::vector<std::uint8_t> checkpoint() const;
    bool restore(const std::vector<std::uint8_t> &snapshot);

    CaseResult result() const;

private:
    friend class Snapshot; // server/solver/snapshot.h: checkpoint() and restore()
    struct Impl;
    Impl *d;
};

} // namespace Eddy::Solver
