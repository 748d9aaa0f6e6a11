// Lid-driven cavity in the stream function-vorticity formulation on a tanh-graded grid.
// Pseudo-time marching: explicit vorticity transport (2nd-order central differences on the
// non-uniform grid, Thom wall vorticity) followed by a red-black SOR sweep on the stream-function
// Poisson equation, all in one streaming pass over the rows (see docs/solver.md). Every kernel is deterministic whatever the thread count, so a run resumed
// from a checkpoint repeats an uninterrupted run bit for bit. No Qt, no I/O, no exceptions out.

#include "server/solver/cavitysolver_p.h"
#include "server/solver/ghiareference.h"
#include "server/solver/snapshot.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <thread>

namespace Eddy::Solver {

namespace {

constexpr double kAspectLimit = 10.0;  // mesh check: largest acceptable cell aspect ratio
constexpr double kRepairFactor = 0.75; // each repair pass multiplies log(grading) by this
constexpr int kSorSweeps = 1; // SOR sweeps per step: more do not cut the step count (measured)

double clampFinite(double value, double lo, double hi, double fallback)
{
    if (!std::isfinite(value))
        return fallback;
    return std::clamp(value, lo, hi);
}

// Node coordinates on [0, 1] clustered towards both ends: x = (1 + tanh(b(2s-1))/tanh(b)) / 2.
// b is found by bisection so that the largest/smallest cell ratio equals `grading` exactly.
std::vector<double> gradedNodes(int n, double grading)
{
    std::vector<double> x(n + 1);
    auto build = [&](double b) {
        for (int i = 0; i <= n; ++i) {
            const double s = double(i) / n;
            x[i] = b < 1e-12 ? s : 0.5 * (1.0 + std::tanh(b * (2.0 * s - 1.0)) / std::tanh(b));
        }
        x[0] = 0.0;
        x[n] = 1.0;
    };
    auto ratio = [&](double b) {
        build(b);
        double lo = 1e300, hi = 0.0;
        for (int i = 0; i < n; ++i) {
            const double h = x[i + 1] - x[i];
            lo = std::min(lo, h);
            hi = std::max(hi, h);
        }
        return hi / lo;
    };
    if (grading <= 1.0 + 1e-12) {
        build(0.0);
        return x;
    }
    double lo = 0.0, hi = 1.0;
    while (ratio(hi) < grading && hi < 40.0)
        hi *= 2.0;
    for (int k = 0; k < 200 && hi - lo > 1e-14; ++k) {
        const double mid = 0.5 * (lo + hi);
        (ratio(mid) < grading ? lo : hi) = mid;
    }
    build(0.5 * (lo + hi));
    return x;
}

// Quadratic Lagrange weights through the three nodes t[k-1..k+1] evaluated at s.
void lagrange3(const std::vector<double> &t, int k, double s, double w[3])
{
    const double a = t[k - 1], b = t[k], c = t[k + 1];
    w[0] = (s - b) * (s - c) / ((a - b) * (a - c));
    w[1] = (s - a) * (s - c) / ((b - a) * (b - c));
    w[2] = (s - a) * (s - b) / ((c - a) * (c - b));
}

// Index k of the middle node of the three-node stencil nearest to s (1 <= k <= n-1).
int stencilCentre(const std::vector<double> &t, double s)
{
    const int n = int(t.size()) - 1;
    const auto it = std::lower_bound(t.begin(), t.end(), s);
    int k = int(it - t.begin());
    if (k > 0 && k <= n && s - t[k - 1] < t[k] - s)
        --k;
    return std::clamp(k, 1, n - 1);
}

// The hot loops, compiled twice (AVX2 and baseline x86-64) and picked at load time. Built with
// -ffp-contract=off (see CMakeLists.txt), so both variants produce the same bits.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define EDDY_SOLVER_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define EDDY_SOLVER_KERNEL
#endif

struct RowCoefficients
{
    const double *x1;              // 1 / (x[i+1] - x[i-1]): first derivative in x, per column
    const double *x2m, *x2c, *x2p; // second derivative in x, per column
};

// One row of the explicit vorticity step: omega' = omega + dt (nu lap(omega) - u.grad(omega)),
// with u = dpsi/dy, v = -dpsi/dx stored for the residuals. m receives max |du|, |dv|, |domega|.
EDDY_SOLVER_KERNEL void vorticityRow(int n, std::size_t stride, const double *pc, const double *wc,
                                     double *wo, double *ur, double *vr, const RowCoefficients &c,
                                     double y1, double y2m, double y2c, double y2p, double dt,
                                     double nu, double m[3])
{
    const double *pm = pc - stride, *pp = pc + stride;
    const double *wm = wc - stride, *wp = wc + stride;
    const double *x1 = c.x1, *x2m = c.x2m, *x2c = c.x2c, *x2p = c.x2p;
    double lu = 0.0, lv = 0.0, lw = 0.0;
#pragma omp simd reduction(max : lu, lv, lw)
    for (int i = 1; i < n; ++i) {
        const double un = y1 * (pp[i] - pm[i]);
        const double vn = x1[i] * (pc[i - 1] - pc[i + 1]);
        const double wx = x1[i] * (wc[i + 1] - wc[i - 1]);
        const double wy = y1 * (wp[i] - wm[i]);
        const double lap = x2m[i] * wc[i - 1] + x2p[i] * wc[i + 1] + x2c[i] * wc[i]
                           + y2m * wm[i] + y2p * wp[i] + y2c * wc[i];
        const double next = wc[i] + dt * (nu * lap - un * wx - vn * wy);
        lu = std::max(lu, std::abs(un - ur[i]));
        lv = std::max(lv, std::abs(vn - vr[i]));
        lw = std::max(lw, std::abs(next - wc[i]));
        ur[i] = un;
        vr[i] = vn;
        wo[i] = next;
    }
    m[0] = lu;
    m[1] = lv;
    m[2] = lw;
}

// One colour of one row of SOR on lap(psi) = -omega, starting at column i0, every other column.
// (A unit-stride variant computing both colours and keeping one was 1.6x slower.)
EDDY_SOLVER_KERNEL void sorRow(int i0, int n, std::size_t stride, double *pc, const double *rhs,
                               const double *dg, const double *x2m, const double *x2p, double y2m,
                               double y2p, double f)
{
    const double *pm = pc - stride, *pp = pc + stride;
    for (int i = i0; i < n; i += 2) {
        const double gs = (x2m[i] * pc[i - 1] + x2p[i] * pc[i + 1] + y2m * pm[i] + y2p * pp[i]
                           + rhs[i])
                          * dg[i];
        pc[i] += f * (gs - pc[i]);
    }
}

} // namespace

void CavitySolver::Impl::setMesh(std::vector<double> nx, std::vector<double> ny)
{
    x = std::move(nx);
    y = std::move(ny);
    auto weights = [this](const std::vector<double> &t, std::vector<double> &d1,
                          std::vector<double> &m2, std::vector<double> &c2,
                          std::vector<double> &p2) {
        for (auto *w : {&d1, &m2, &c2, &p2})
            w->assign(s, 0.0);
        for (int i = 1; i < n; ++i) {
            const double hm = t[i] - t[i - 1], hp = t[i + 1] - t[i];
            // First derivatives are central in the mapped coordinate, (f[i+1] - f[i-1]) /
            // (t[i+1] - t[i-1]): second order on the smooth tanh grid and, unlike three-point
            // Lagrange weights, without a diagonal term, which made convection amplify on
            // coarse graded grids at high Reynolds numbers.
            d1[i] = 1.0 / (hm + hp);
            m2[i] = 2.0 / (hm * (hm + hp));
            p2[i] = 2.0 / (hp * (hm + hp));
            c2[i] = -(m2[i] + p2[i]);
        }
    };
    weights(x, d1x, d2xm, d2xc, d2xp);
    weights(y, d1y, d2ym, d2yc, d2yp);
    idiag.assign(std::size_t(s) * s, 0.0);
    for (int j = 1; j < n; ++j)
        for (int i = 1; i < n; ++i)
            idiag[std::size_t(j) * s + i] = -1.0 / (d2xc[i] + d2yc[j]);
    double diffusionLimit = std::numeric_limits<double>::max();
    for (int j = 1; j < n; ++j)
        for (int i = 1; i < n; ++i)
            diffusionLimit = std::min(diffusionLimit, -1.0 / (nu * (d2xc[i] + d2yc[j])));
    // Explicit central convection-diffusion is stable for dt <= 2 nu / |u|^2 and dt below the
    // diffusion limit; both get a safety margin (|u| <= lid speed in a cavity).
    const double lid = std::abs(params.lidVelocity);
    const double convectionLimit = lid > 0.0 ? nu / (lid * lid) : diffusionLimit;
    dt = std::min(0.9 * diffusionLimit, convectionLimit);
    // Optimal SOR factor of the uniform grid; near-optimal on mildly graded ones.
    sor = 2.0 / (1.0 + std::sin(std::numbers::pi / n));
}

void CavitySolver::Impl::resetFields()
{
    const std::size_t cells = std::size_t(s) * s;
    for (auto *f : {&psi, &omega, &omegaNext, &u, &v})
        f->assign(cells, 0.0);
    for (int i = 0; i <= n; ++i)
        u[std::size_t(n) * s + i] = params.lidVelocity;
    iteration = 0;
    residualU = residualV = residualOmega = 0.0;
    wallSeconds = 0.0;
    history.clear();
    history.reserve(kMaxHistory + 1);
    historyStride = 1;
}

void CavitySolver::Impl::record()
{
    if (iteration % historyStride != 0)
        return;
    history.push_back({iteration, residualU, residualV, residualOmega});
    if (int(history.size()) <= kMaxHistory)
        return;
    // Full: keep the points on multiples of twice the stride, then record half as often.
    historyStride *= 2;
    std::size_t kept = 0;
    for (const HistoryPoint &h : history) {
        if (h.iteration % historyStride == 0)
            history[kept++] = h;
    }
    history.resize(kept);
}

// The second thread of a two-thread run: it owns the upper half of the rows for the duration of
// one run() call and meets the calling thread once per step and along the row between halves.
struct CavitySolver::Impl::Team
{
    std::thread helper;
    std::atomic<std::int64_t> start{0};    // generation the helper should compute next
    std::atomic<std::int64_t> finished{0}; // generation the helper has completed
    std::atomic<bool> quit{false};
    // Per thread: generation * 8 + stages completed on its row next to the other half.
    std::atomic<std::int64_t> boundary[2] = {0, 0};
    double maxima[3] = {0, 0, 0};
    int split = 0; // first row of the upper half
};

namespace {

constexpr int kStages = 1 + 2 * kSorSweeps; // vorticity, then red and black of every sweep

void waitAtLeast(std::atomic<std::int64_t> &value, std::int64_t target)
{
    for (std::int64_t seen = value.load(std::memory_order_acquire); seen < target;
         seen = value.load(std::memory_order_acquire))
        value.wait(seen, std::memory_order_acquire);
}

void publish(std::atomic<std::int64_t> &value, std::int64_t v)
{
    value.store(v, std::memory_order_release);
    value.notify_all();
}

} // namespace

// Rows [lo, hi) in one streaming pass: at position r the vorticity of row r, and stage s (red or
// black of a sweep) at row r - s, so stage s of a row always follows stage s - 1 of the row and
// of both its neighbours: exactly what the phase-by-phase order (all vorticity, all red, all
// black, ...) gives every row, hence the same bits, while each array crosses the memory bus once.
// With a team, the last row of each half waits for the other half's adjacent row.
void CavitySolver::Impl::sweepRows(int lo, int hi, bool downwards, std::int64_t generation,
                                   Team *team, int self, double m[3])
{
    const int S = s, N = n, count = hi - lo;
    double *const p = psi.data();
    const RowCoefficients cx{d1x.data(), d2xm.data(), d2xc.data(), d2xp.data()};
    const int edge = downwards ? lo : hi - 1; // row next to the other half
    m[0] = m[1] = m[2] = 0.0;
    for (int r = 0; r < count + kStages - 1; ++r) {
        for (int stage = 0; stage < kStages; ++stage) {
            const int k = r - stage;
            if (k < 0 || k >= count)
                continue;
            const int j = downwards ? hi - 1 - k : lo + k;
            if (team && j == edge && stage > 0)
                waitAtLeast(team->boundary[1 - self], generation * 8 + stage);
            const std::size_t row = std::size_t(j) * S;
            if (stage == 0) {
                double rm[3];
                vorticityRow(N, S, p + row, omega.data() + row, omegaNext.data() + row,
                             u.data() + row, v.data() + row, cx, d1y[j], d2ym[j], d2yc[j],
                             d2yp[j], dt, nu, rm);
                m[0] = std::max(m[0], rm[0]);
                m[1] = std::max(m[1], rm[1]);
                m[2] = std::max(m[2], rm[2]);
            } else {
                // Red (odd stages) are the points with i + j even.
                const int colour = (stage - 1) & 1;
                sorRow(1 + ((j + colour + 1) & 1), N, S, p + row, omegaNext.data() + row,
                       idiag.data() + row, cx.x2m, cx.x2p, d2ym[j], d2yp[j], sor);
            }
            if (team && j == edge)
                publish(team->boundary[self], generation * 8 + stage + 1);
        }
    }
}

void CavitySolver::Impl::step(Team *team)
{
    double *const w = omega.data();
    const double *const p = psi.data();
    const int S = s, N = n;
    const double lid = params.lidVelocity;

    // Thom's wall vorticity from the current stream function (before any thread starts).
    {
        const double hb = y[1] - y[0], ht = y[N] - y[N - 1];
        const double hl = x[1] - x[0], hr = x[N] - x[N - 1];
        for (int i = 1; i < N; ++i) {
            w[i] = -2.0 * p[S + i] / (hb * hb);
            w[std::size_t(N) * S + i] = -2.0 * p[std::size_t(N - 1) * S + i] / (ht * ht)
                                        - 2.0 * lid / ht;
        }
        for (int j = 1; j < N; ++j) {
            w[std::size_t(j) * S] = -2.0 * p[std::size_t(j) * S + 1] / (hl * hl);
            w[std::size_t(j) * S + N] = -2.0 * p[std::size_t(j) * S + N - 1] / (hr * hr);
        }
    }

    double m[3];
    const std::int64_t generation = std::int64_t(iteration) + 1;
    if (team) {
        publish(team->start, generation);
        sweepRows(1, team->split, false, generation, team, 0, m);
        waitAtLeast(team->finished, generation);
        for (int k = 0; k < 3; ++k)
            m[k] = std::max(m[k], team->maxima[k]);
    } else {
        sweepRows(1, N, false, generation, nullptr, 0, m);
    }
    omega.swap(omegaNext);
    const double scale = params.lidVelocity * params.lidVelocity * dt;
    const double norm = scale > 0.0 ? 1.0 / scale : 1.0 / dt;
    residualU = m[0] * norm;
    residualV = m[1] * norm;
    residualOmega = m[2] * norm;
    ++iteration;
}

double CavitySolver::Impl::nodeU(int i, int j) const
{
    if (j == n)
        return params.lidVelocity;
    if (j == 0 || i == 0 || i == n)
        return 0.0;
    const std::size_t k = std::size_t(j) * s + i;
    return d1y[j] * (psi[k + s] - psi[k - s]);
}

double CavitySolver::Impl::nodeV(int i, int j) const
{
    if (i == 0 || i == n || j == 0 || j == n)
        return 0.0;
    const std::size_t k = std::size_t(j) * s + i;
    return d1x[i] * (psi[k - 1] - psi[k + 1]);
}

// Biquadratic interpolation of u or v through the 3 x 3 nodes nearest to (px, py); exact at nodes.
double CavitySolver::Impl::sample(bool wantU, double px, double py) const
{
    const int ci = stencilCentre(x, px), cj = stencilCentre(y, py);
    double wx[3], wy[3];
    lagrange3(x, ci, px, wx);
    lagrange3(y, cj, py, wy);
    double sum = 0.0;
    for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a) {
            const int i = ci - 1 + a, j = cj - 1 + b;
            sum += wx[a] * wy[b] * (wantU ? nodeU(i, j) : nodeV(i, j));
        }
    return sum;
}

CavitySolver::CavitySolver(const CaseParams &params)
    : d(new Impl)
{
    // The server validates arguments; here out-of-range values are clamped so nothing can crash.
    CaseParams p = params;
    p.reynolds = clampFinite(p.reynolds, 1e-3, 1e7, 100.0);
    p.grid = std::clamp(p.grid, 8, 1024);
    p.maxIterations = std::max(p.maxIterations, 0);
    p.tolerance = clampFinite(p.tolerance, 0.0, 1e300, 1e-6);
    p.lidVelocity = clampFinite(p.lidVelocity, -1e6, 1e6, 1.0);
    if (p.lidVelocity == 0.0)
        p.lidVelocity = 1.0;
    p.grading = clampFinite(p.grading, 1.0, 1e6, 1.0);
    p.threads = std::clamp(p.threads, 0, 64);
    d->params = p;
    d->n = p.grid;
    d->s = p.grid + 1;
    d->nu = std::abs(p.lidVelocity) / p.reynolds; // Re = U L / nu with L = 1
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    d->threads = std::min(2, p.threads > 0 ? p.threads : (p.grid >= 512 && hw >= 2 ? 2 : 1));
    d->setMesh(gradedNodes(d->n, p.grading), gradedNodes(d->n, p.grading));
    d->resetFields();
}

CavitySolver::~CavitySolver()
{
    delete d;
}

const CaseParams &CavitySolver::params() const
{
    return d->params;
}

MeshQuality CavitySolver::checkMesh(bool forceDefect) const
{
    const int n = d->n;
    MeshQuality q;
    q.metric = "cell aspect ratio";
    q.limit = kAspectLimit;
    int worstI = 0, worstJ = 0, band = -1;
    for (int j = 0; j < n; ++j) {
        const double hy = d->y[j + 1] - d->y[j];
        for (int i = 0; i < n; ++i) {
            const double hx = d->x[i + 1] - d->x[i];
            const double ar = std::max(hx / hy, hy / hx);
            if (ar > q.worstValue) {
                q.worstValue = ar;
                worstI = i;
                worstJ = j;
            }
            if (ar > kAspectLimit) {
                ++q.badCells;
                band = std::max(band, std::min({i, j, n - 1 - i, n - 1 - j}));
            }
        }
    }
    char buf[512];
    const char *wall = worstJ == 0       ? "bottom wall"
                       : worstJ == n - 1 ? "top wall (lid)"
                       : worstI == 0     ? "left wall"
                       : worstI == n - 1 ? "right wall"
                                         : "interior";
    if (q.badCells > 0) {
        std::snprintf(buf, sizeof buf, "the first %d cell layers along every wall (rows 0-%d and "
                                        "%d-%d, columns 0-%d and %d-%d)",
                      band + 1, band, n - 1 - band, n - 1, band, n - 1 - band, n - 1);
        q.location = buf;
        q.ok = false;
        std::snprintf(buf, sizeof buf,
                      "%d of %d cells exceed the %s limit %.1f (worst %.2f at cell i=%d, j=%d "
                      "next to the %s; grading %.3g); they lie in %s. Repair the mesh with "
                      "smoothing passes or lower the grading.",
                      q.badCells, n * n, q.metric.c_str(), q.limit, q.worstValue, worstI, worstJ,
                      wall, d->params.grading, q.location.c_str());
        q.description = buf;
    } else {
        std::snprintf(buf, sizeof buf, "cell i=%d, j=%d next to the %s", worstI, worstJ, wall);
        q.location = buf;
        q.ok = !forceDefect;
        if (forceDefect) {
            std::snprintf(buf, sizeof buf,
                          "Mesh defect forced for a demonstration: the mesh itself passes (worst "
                          "%s %.2f at %s, limit %.1f, grading %.3g). Repair or abort to continue "
                          "the demonstration.",
                          q.metric.c_str(), q.worstValue, q.location.c_str(), q.limit,
                          d->params.grading);
        } else {
            std::snprintf(buf, sizeof buf,
                          "Mesh passes: worst %s %.2f at %s is within the limit %.1f.",
                          q.metric.c_str(), q.worstValue, q.location.c_str(), q.limit);
        }
        q.description = buf;
    }
    return q;
}

void CavitySolver::repairMesh(int smoothingPasses)
{
    if (smoothingPasses <= 0)
        return;
    const double g = d->params.grading;
    d->params.grading = std::max(1.0, std::exp(std::log(g) * std::pow(kRepairFactor,
                                                                       std::min(smoothingPasses,
                                                                                1000))));
    // The old fields live on the old nodes; the repaired case starts over from rest.
    d->setMesh(gradedNodes(d->n, d->params.grading), gradedNodes(d->n, d->params.grading));
    d->resetFields();
}

CavitySolver::Outcome CavitySolver::run(const std::function<bool(const Progress &)> &onProgress,
                                        int reportEvery)
{
    const auto start = std::chrono::steady_clock::now();
    reportEvery = std::max(reportEvery, 1);
    Progress progress;
    progress.maxIterations = d->params.maxIterations;
    auto fill = [&] {
        progress.iteration = d->iteration;
        progress.residualU = d->residualU;
        progress.residualV = d->residualV;
        progress.residualOmega = d->residualOmega;
        progress.residual = std::max({d->residualU, d->residualV, d->residualOmega});
    };
    // A helper thread for the upper half of the rows, for this call only.
    std::unique_ptr<Impl::Team> team;
    if (d->threads > 1 && d->n >= 16 && d->iteration < d->params.maxIterations) {
        team = std::make_unique<Impl::Team>();
        team->split = 1 + (d->n - 1) / 2;
        const std::int64_t first = std::int64_t(d->iteration) + 1;
        team->start = first - 1;
        team->finished = first - 1;
        team->boundary[0] = team->boundary[1] = (first - 1) * 8 + kStages;
        Impl *impl = d;
        Impl::Team *t = team.get();
        team->helper = std::thread([impl, t, first] {
            for (std::int64_t next = first;; ++next) {
                waitAtLeast(t->start, next);
                if (t->quit.load(std::memory_order_acquire))
                    return;
                impl->sweepRows(t->split, impl->n, true, next, t, 1, t->maxima);
                publish(t->finished, next);
            }
        });
    }
    Outcome outcome = Outcome::IterationLimit;
    while (true) {
        if (d->iteration >= d->params.maxIterations) {
            outcome = Outcome::IterationLimit;
            break;
        }
        d->step(team.get());
        d->record();
        const double r = std::max({d->residualU, d->residualV, d->residualOmega});
        // The first steps from rest only move the vorticity; never call that converged.
        if (d->iteration > 2 && r < d->params.tolerance) {
            outcome = Outcome::Converged;
            break;
        }
        // A blown-up field stops the run (unconverged) instead of burning the iteration budget.
        if (!std::isfinite(r) || !std::isfinite(d->psi[d->psi.size() / 2])) {
            outcome = Outcome::IterationLimit;
            break;
        }
        if (d->iteration % reportEvery == 0 && onProgress) {
            fill();
            if (!onProgress(progress)) {
                outcome = Outcome::Stopped;
                break;
            }
        }
    }
    if (team) {
        team->quit.store(true, std::memory_order_release);
        publish(team->start, team->start.load() + 1);
        team->helper.join();
    }
    d->wallSeconds
        += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (onProgress) {
        fill();
        onProgress(progress);
    }
    return outcome;
}

std::vector<std::uint8_t> CavitySolver::checkpoint() const
{
    return Snapshot::write(*d);
}

bool CavitySolver::restore(const std::vector<std::uint8_t> &snapshot)
{
    return Snapshot::read(snapshot, *d);
}

int CavitySolver::iteration() const
{
    return d->iteration;
}

CaseResult CavitySolver::result() const
{
    CaseResult res;
    GhiaTable table;
    ghiaReference(100, table); // only the sample coordinates are used
    const double lid = d->params.lidVelocity;
    res.yCentreline = table.y;
    res.xCentreline = table.x;
    for (double py : table.y)
        res.uCentreline.push_back(d->sample(true, 0.5, py) / lid);
    for (double px : table.x)
        res.vCentreline.push_back(d->sample(false, px, 0.5) / lid);

    // Primary vortex: the stream-function minimum (maximum when the lid moves to -x), refined by
    // a parabola through its neighbours in each direction.
    const int n = d->n, s = d->s;
    const double sign = lid < 0.0 ? -1.0 : 1.0;
    auto psiAt = [&](std::size_t k) { return sign * d->psi[k]; };
    int bi = n / 2, bj = n / 2;
    double best = std::numeric_limits<double>::max();
    for (int j = 1; j < n; ++j)
        for (int i = 1; i < n; ++i)
            if (psiAt(std::size_t(j) * s + i) < best) {
                best = psiAt(std::size_t(j) * s + i);
                bi = i;
                bj = j;
            }
    auto refine = [](const std::vector<double> &t, int k, double fm, double f0, double fp,
                     double &pos, double &value) {
        // Vertex of the quadratic through (t[k-1], fm), (t[k], f0), (t[k+1], fp).
        const double a = t[k - 1], b = t[k], c = t[k + 1];
        const double d1 = (fp - f0) / (c - b), d0 = (f0 - fm) / (b - a);
        const double curv = (d1 - d0) / (c - a); // half the second derivative
        pos = b;
        value = f0;
        if (curv > 0.0) {
            const double slope = d0 + curv * (b - a); // derivative at b
            const double shift = std::clamp(-slope / (2.0 * curv), a - b, c - b);
            pos = b + shift;
            value = f0 + slope * shift + curv * shift * shift;
        }
    };
    const std::size_t k = std::size_t(bj) * s + bi;
    double vx = 0, vy = 0, psiX = best, psiY = best;
    refine(d->x, bi, psiAt(k - 1), best, psiAt(k + 1), vx, psiX);
    refine(d->y, bj, psiAt(k - s), best, psiAt(k + s), vy, psiY);
    res.vortexX = vx;
    res.vortexY = vy;
    res.vortexPsi = sign * std::min(psiX, psiY);
    res.iterations = d->iteration;
    res.finalResidual = std::max({d->residualU, d->residualV, d->residualOmega});
    res.converged = d->iteration > 2 && res.finalResidual < d->params.tolerance;
    res.wallSeconds = d->wallSeconds;
    res.residualU = d->residualU;
    res.residualV = d->residualV;
    res.residualOmega = d->residualOmega;
    res.history = d->history;
    if (d->iteration > 0 && (res.history.empty() || res.history.back().iteration != d->iteration))
        res.history.push_back({d->iteration, d->residualU, d->residualV, d->residualOmega});
    constexpr int kField = 64;
    res.fieldSize = kField;
    res.speed.reserve(std::size_t(kField) * kField);
    for (int j = 0; j < kField; ++j)
        for (int i = 0; i < kField; ++i) {
            const double px = (i + 0.5) / kField, py = (j + 0.5) / kField;
            res.speed.push_back(std::hypot(d->sample(true, px, py), d->sample(false, px, py)) / std::abs(lid));
        }
    return res;
}

} // namespace Eddy::Solver
