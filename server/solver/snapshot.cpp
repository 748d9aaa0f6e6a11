#include "server/solver/snapshot.h"

#include "server/solver/cavitysolver_p.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace Eddy::Solver {

namespace {

constexpr char kMagic[8] = {'E', 'D', 'D', 'Y', 'C', 'A', 'V', '1'};
constexpr std::uint32_t kVersion = 2; // 2: the residual history follows the fields

// FNV-1a: cheap corruption check for snapshots (not a security feature).
std::uint64_t fnv1a(const std::uint8_t *data, std::size_t size)
{
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= data[i];
        h *= 1099511628211ull;
    }
    return h;
}

class Writer
{
public:
    explicit Writer(std::vector<std::uint8_t> &out) : m_out(out) {}
    template<typename T> void put(const T &value)
    {
        const auto *p = reinterpret_cast<const std::uint8_t *>(&value);
        m_out.insert(m_out.end(), p, p + sizeof(T));
    }
    void put(const std::vector<double> &values)
    {
        const auto *p = reinterpret_cast<const std::uint8_t *>(values.data());
        m_out.insert(m_out.end(), p, p + values.size() * sizeof(double));
    }

private:
    std::vector<std::uint8_t> &m_out;
};

class Reader
{
public:
    Reader(const std::uint8_t *data, std::size_t size) : m_data(data), m_size(size) {}
    template<typename T> bool get(T &value)
    {
        if (m_size - m_pos < sizeof(T))
            return false;
        std::memcpy(&value, m_data + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool get(std::vector<double> &values, std::size_t count)
    {
        if ((m_size - m_pos) / sizeof(double) < count)
            return false;
        values.resize(count);
        std::memcpy(values.data(), m_data + m_pos, count * sizeof(double));
        m_pos += count * sizeof(double);
        return true;
    }
    std::size_t position() const { return m_pos; }

private:
    const std::uint8_t *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

bool allFinite(const std::vector<double> &values)
{
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

bool validNodes(const std::vector<double> &x)
{
    if (x.front() != 0.0 || x.back() != 1.0)
        return false;
    for (std::size_t i = 1; i < x.size(); ++i) {
        if (!(x[i] > x[i - 1]))
            return false;
    }
    return true;
}

} // namespace

std::vector<std::uint8_t> Snapshot::write(const CavitySolver::Impl &state)
{
    std::vector<std::uint8_t> out;
    const std::size_t cells = std::size_t(state.s) * state.s;
    out.reserve(128 + (2 * state.s + 4 * cells) * sizeof(double));
    Writer w(out);
    for (char c : kMagic)
        w.put(c);
    w.put(kVersion);
    w.put(std::int32_t(state.n));
    w.put(state.params.reynolds);
    w.put(state.params.lidVelocity);
    w.put(state.params.grading);
    w.put(std::int64_t(state.iteration));
    w.put(state.wallSeconds);
    w.put(state.residualU);
    w.put(state.residualV);
    w.put(state.residualOmega);
    w.put(state.x);
    w.put(state.y);
    w.put(state.psi);
    w.put(state.omega);
    w.put(state.u);
    w.put(state.v);
    w.put(std::int32_t(state.historyStride));
    w.put(std::int32_t(state.history.size()));
    for (const HistoryPoint &h : state.history) {
        w.put(std::int32_t(h.iteration));
        w.put(h.u);
        w.put(h.v);
        w.put(h.omega);
    }
    w.put(fnv1a(out.data(), out.size()));
    return out;
}

bool Snapshot::read(const std::vector<std::uint8_t> &snapshot, CavitySolver::Impl &state)
{
    if (snapshot.size() < sizeof(kMagic) + sizeof(std::uint64_t))
        return false;
    const std::size_t body = snapshot.size() - sizeof(std::uint64_t);
    std::uint64_t sum = 0;
    std::memcpy(&sum, snapshot.data() + body, sizeof sum);
    if (sum != fnv1a(snapshot.data(), body))
        return false;
    Reader r(snapshot.data(), body);
    char magic[8];
    for (char &c : magic)
        if (!r.get(c))
            return false;
    std::uint32_t version = 0;
    std::int32_t n = 0;
    double reynolds = 0, lid = 0, grading = 0, wall = 0, ru = 0, rv = 0, rp = 0;
    std::int64_t iteration = 0;
    if (std::memcmp(magic, kMagic, sizeof magic) != 0 || !r.get(version) || version < 1 || version > kVersion
        || !r.get(n) || n != state.n || !r.get(reynolds) || reynolds != state.params.reynolds
        || !r.get(lid) || lid != state.params.lidVelocity || !r.get(grading)
        || !(grading >= 1.0 && grading <= 1e6) || !r.get(iteration) || iteration < 0
        || iteration > std::numeric_limits<int>::max() || !r.get(wall) || !r.get(ru)
        || !r.get(rv) || !r.get(rp))
        return false;
    const std::size_t cells = std::size_t(state.s) * state.s;
    std::vector<double> nx, ny, psi, omega, u, v;
    if (!r.get(nx, state.s) || !r.get(ny, state.s) || !r.get(psi, cells) || !r.get(omega, cells)
        || !r.get(u, cells) || !r.get(v, cells))
        return false;
    // Version 1 snapshots carry no history: a resumed run charts from its resume point.
    std::int32_t stride = 1, count = 0;
    if (version >= 2 && (!r.get(stride) || stride < 1 || stride > (1 << 30) || !r.get(count) || count < 0
        || count > kMaxHistory))
        return false;
    std::vector<HistoryPoint> history;
    history.reserve(kMaxHistory + 1);
    for (std::int32_t k = 0; k < count; ++k) {
        std::int32_t it = 0;
        HistoryPoint h;
        if (!r.get(it) || it < 0 || it > iteration || !r.get(h.u) || !r.get(h.v) || !r.get(h.omega))
            return false;
        h.iteration = it;
        history.push_back(h);
    }
    if (r.position() != body)
        return false;
    if (!validNodes(nx) || !validNodes(ny) || !allFinite(psi) || !allFinite(omega)
        || !allFinite(u) || !allFinite(v) || !std::isfinite(wall) || !std::isfinite(ru)
        || !std::isfinite(rv) || !std::isfinite(rp))
        return false;
    state.params.grading = grading; // a repaired mesh travels with its snapshot
    state.setMesh(std::move(nx), std::move(ny));
    state.psi = std::move(psi);
    state.omega = std::move(omega);
    state.omegaNext.assign(cells, 0.0);
    state.u = std::move(u);
    state.v = std::move(v);
    state.iteration = int(iteration);
    state.wallSeconds = wall;
    state.residualU = ru;
    state.residualV = rv;
    state.residualOmega = rp;
    state.history = std::move(history);
    state.historyStride = stride;
    return true;
}

} // namespace Eddy::Solver
