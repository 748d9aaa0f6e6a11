// OpenFOAM behind eddy-cfd-server, validated (label `validation`; real OpenFOAM, the real server):
// - icoFoam's cavity at Re = 100 (nu 0.001, lid 1 m/s, 64 x 64 cells, run to t = 6 s, which is
//   steady), set through run_openfoam_case's `set`: u on the vertical centreline and v on the
//   horizontal one, sampled from the cell centres OpenFOAM's own `postProcess -func
//   writeCellCentres` writes, against Ghia, Ghia & Shin (1982) (the table ghiaReference() holds)
//   and against the built-in solver (run_cfd_case) on the same 64-cell grid;
// - simpleFoam's pitzDaily converges as the tutorial does.
// The three runs start together, so the test takes as long as the longest (the cavity).

#include "server/solver/cavitysolver.h"
#include "server/solver/ghiareference.h"
#include "tests/common/testserver.h"
#include "tests/server/foamtestsupport.h"
#include "tests/server/mcptestclient.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

using nlohmann::json;
using Eddy::Test::McpTestClient;
using Eddy::Test::TestServer;

namespace {

constexpr double kSide = 0.1;  // the tutorial cavity's side, m
constexpr double kLid = 1.0;   // lid velocity, m/s
constexpr int kCells = 64;     // cells per side, both solvers

// Tolerances, in units of the lid velocity (why these: docs/openfoam.md, "Validation").
// Against Ghia: 1 %, tst_ghiavalidation's criterion. Measured 0.0034 (u) and 0.0092 (v, at
// x = 0.8594, where Ghia's own value is 0.009 from the grid-converged one: docs/solver.md);
// the same data sampled linearly instead of to third order was 0.0123 off and failed.
constexpr double kGhiaTolerance = 0.01;
// OpenFOAM against the built-in solver on the same grid, both second order: they must agree
// more closely than either does with Ghia's 129-point solution. Measured 0.0017 / 0.0033.
constexpr double kSolverTolerance = 0.005;
// simpleFoam pitzDaily: the tutorial's "converged in 282 iterations" (v1912, serial, the same
// every run here); the band allows another build's rounding, not a different scheme or
// relaxation, which moves it by far more (or never converges in the 2,000 allowed).
constexpr int kPitzMin = 270, kPitzMax = 295;

using Vec = std::array<double, 3>;

// The internalField of an ASCII OpenFOAM volVectorField file.
std::vector<Vec> readVectors(const QString &text)
{
    std::vector<Vec> out;
    const qsizetype at = text.indexOf(QStringLiteral("internalField"));
    const qsizetype end = text.indexOf(QStringLiteral("boundaryField"), at);
    if (at < 0 || end < 0)
        return out;
    static const QRegularExpression vec(QStringLiteral("\\(([-0-9.eE+]+) ([-0-9.eE+]+) ([-0-9.eE+]+)\\)"));
    auto it = vec.globalMatch(text.mid(at, end - at));
    while (it.hasNext()) {
        const auto m = it.next();
        out.push_back({m.captured(1).toDouble(), m.captured(2).toDouble(), m.captured(3).toDouble()});
    }
    return out;
}

// One velocity component along a centreline (normal = 0: x = kSide/2, normal = 1: y = kSide/2),
// sampled at fractions of the side and divided by the lid velocity. On the mid-plane: cubic
// interpolation through the four rows of cell centres nearest to it (at -3h/2, -h/2, h/2, 3h/2);
// along the line: quadratic through the three points nearest to the sample, the wall values at
// both ends among them. Third-order sampling, so that it adds far less than the tolerances to
// the second-order solution (linear sampling alone was 0.006 off near the walls).
std::vector<double> centreline(const std::vector<Vec> &centres, const std::vector<Vec> &u,
                               int normal, int component, double atLow, double atHigh,
                               const std::vector<double> &fractions)
{
    const int along = 1 - normal;
    const double h = kSide / kCells;
    // position along the line -> the four rows' values, nearest the low side first
    std::map<long, std::array<double, 4>> rows;
    for (std::size_t i = 0; i < centres.size(); ++i) {
        const long row = std::lround((centres[i][normal] - kSide / 2) / h + 1.5); // 0..3 near the mid-plane
        if (row < 0 || row > 3 || std::abs((centres[i][normal] - kSide / 2) / h + 1.5 - row) > 1e-3)
            continue;
        rows[std::lround(centres[i][along] / h - 0.5)][row] = u[i][component];
    }
    std::vector<std::pair<double, double>> line{{0.0, atLow}};
    for (const auto &[cell, r] : rows)
        line.emplace_back((cell + 0.5) * h, (-r[0] + 9 * r[1] + 9 * r[2] - r[3]) / 16);
    line.emplace_back(kSide, atHigh);
    std::vector<double> out;
    for (const double f : fractions) {
        const double p = f * kSide;
        // the three points nearest p
        std::size_t first = 0;
        while (first + 3 < line.size() && std::abs(line[first + 3].first - p) < std::abs(line[first].first - p))
            ++first;
        double value = 0;
        for (std::size_t j = first; j < first + 3; ++j) {
            double w = 1;
            for (std::size_t m = first; m < first + 3; ++m)
                if (m != j)
                    w *= (p - line[m].first) / (line[j].first - line[m].first);
            value += w * line[j].second;
        }
        out.push_back(value / kLid);
    }
    return out;
}

double largestGap(const std::vector<double> &a, const std::vector<double> &b, std::size_t &where)
{
    double worst = 0;
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k)
        if (std::abs(a[k] - b[k]) > worst) {
            worst = std::abs(a[k] - b[k]);
            where = k;
        }
    return worst;
}

std::vector<double> numbers(const json &array)
{
    std::vector<double> out;
    for (const json &v : array)
        out.push_back(v.get<double>());
    return out;
}

} // namespace

class tst_FoamValidation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cavityRe100AgainstGhiaAndBuiltIn();
    void pitzDailyConvergesAsTheTutorial();

private:
    std::string start(const std::string &tool, const json &arguments);
    json waitTerminal(const std::string &id, int timeoutMs);

    TestServer m_server;
    std::unique_ptr<McpTestClient> m_client;
    std::string m_foamCavity, m_builtIn, m_pitzDaily;
};

void tst_FoamValidation::initTestCase()
{
    // Not a skip: without OpenFOAM there is nothing to validate.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty()
                 && !QStandardPaths::findExecutable(QStringLiteral("postProcess")).isEmpty(),
             "OpenFOAM is not installed; this test needs it: apt-get install openfoam "
             "openfoam-examples");
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("3"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("500")}),
             qPrintable(m_server.errorString()));
    m_client = std::make_unique<McpTestClient>(m_server.url());
    // Re = U L / nu = 1 * 0.1 / 0.001 = 100; deltaT 0.001 keeps the Courant number at 0.64 on
    // 64 cells; a time folder every 1,000 steps (every simulated second).
    m_foamCavity = start("run_openfoam_case",
        {{"template", "cavity"}, {"case_name", "ghia-re100"}, {"end_time", 6}, {"write_interval", 1000},
         {"set", {{"constant/transportProperties:nu", 0.001},
                  {"0/U:boundaryField/movingWall/value", "uniform (1 0 0)"},
                  {"system/controlDict:deltaT", 0.001},
                  {"system/blockMeshDict:blocks",
                   "(hex (0 1 2 3 4 5 6 7) (64 64 1) simpleGrading (1 1 1))"}}}});
    m_builtIn = start("run_cfd_case", {{"case_name", "ghia-re100"}, {"reynolds", 100}, {"grid", kCells},
                                       {"max_iterations", 200000}, {"tolerance", 1e-6}});
    m_pitzDaily = start("run_openfoam_case", {{"template", "pitzDaily"}});
    QVERIFY(!m_foamCavity.empty() && !m_builtIn.empty() && !m_pitzDaily.empty());
}

std::string tst_FoamValidation::start(const std::string &tool, const json &arguments)
{
    const Eddy::Test::HttpReply r = m_client->request("tools/call", {{"name", tool}, {"arguments", arguments}});
    if (r.result().value("resultType", "") != "task")
        qWarning("%s: not a task: %s", tool.c_str(), r.body.c_str());
    return r.result().value("taskId", "");
}

json tst_FoamValidation::waitTerminal(const std::string &id, int timeoutMs)
{
    return m_client->waitForTask(id, [](const json &t) { return McpTestClient::isTerminal(t); }, timeoutMs);
}

void tst_FoamValidation::cavityRe100AgainstGhiaAndBuiltIn()
{
    Eddy::Solver::GhiaTable ghia;
    QVERIFY(Eddy::Solver::ghiaReference(100, ghia));

    const json foam = waitTerminal(m_foamCavity, 240000);
    QCOMPARE(foam.value("status", ""), std::string("completed"));
    const json &fs = foam["result"]["structuredContent"];
    QVERIFY2(!foam["result"].value("isError", true), foam.dump().c_str());
    QCOMPARE(fs.value("outcome", ""), std::string("end time reached"));
    QCOMPARE(fs["mesh"].value("cells", 0), kCells * kCells);
    QCOMPARE(fs.value("last_time", 0.0), 6.0);

    // Cell centres from OpenFOAM itself, in a copy (the server's case folder stays as it ran).
    QTemporaryDir work;
    const QString copy = work.filePath(QStringLiteral("case"));
    QProcess cp;
    cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), QString::fromStdString(fs.value("case_folder", "")), copy});
    QVERIFY(cp.waitForFinished(60000) && cp.exitCode() == 0);
    QProcess post;
    post.setWorkingDirectory(copy);
    post.setProcessEnvironment(Eddy::Test::foamEnvironment(copy));
    post.start(QStringLiteral("postProcess"), {QStringLiteral("-func"), QStringLiteral("writeCellCentres"),
                                               QStringLiteral("-latestTime")});
    QVERIFY(post.waitForFinished(60000));
    QVERIFY2(post.exitCode() == 0, post.readAll().constData());
    QVERIFY2(QFileInfo(copy + QStringLiteral("/6/U")).isFile(), "no time folder 6");
    const std::vector<Vec> centres = readVectors(Eddy::Test::readFile(copy + QStringLiteral("/6/C")));
    const std::vector<Vec> u = readVectors(Eddy::Test::readFile(copy + QStringLiteral("/6/U")));
    QCOMPARE(centres.size(), std::size_t(kCells * kCells));
    QCOMPARE(u.size(), centres.size());
    std::vector<double> ys, xs;
    for (const double y : ghia.y)
        ys.push_back(y);
    for (const double x : ghia.x)
        xs.push_back(x);
    const std::vector<double> foamU = centreline(centres, u, 0, 0, 0.0, kLid, ys);
    const std::vector<double> foamV = centreline(centres, u, 1, 1, 0.0, 0.0, xs);

    const json builtIn = waitTerminal(m_builtIn, 240000);
    QCOMPARE(builtIn.value("status", ""), std::string("completed"));
    const json &bs = builtIn["result"]["structuredContent"];
    QVERIFY2(bs.value("converged", false), builtIn.dump().c_str());
    const std::vector<double> builtU = numbers(bs["u_centreline"]["u"]);
    const std::vector<double> builtV = numbers(bs["v_centreline"]["v"]);
    QCOMPARE(numbers(bs["u_centreline"]["y"]), ys); // sampled at Ghia's points
    QCOMPARE(numbers(bs["v_centreline"]["x"]), xs);

    qInfo("Re = 100, %d x %d cells; u/U on x = 0.5, v/U on y = 0.5", kCells, kCells);
    qInfo("   y       OpenFOAM  built-in  Ghia     |   x       OpenFOAM  built-in  Ghia");
    for (std::size_t k = 0; k < ys.size(); ++k)
        qInfo("  %.4f  %+.5f  %+.5f  %+.5f  |  %.4f  %+.5f  %+.5f  %+.5f", ys[k], foamU[k], builtU[k],
              ghia.u[k], xs[k], foamV[k], builtV[k], ghia.v[k]);
    std::size_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
    const double foamGhiaU = largestGap(foamU, ghia.u, a), foamGhiaV = largestGap(foamV, ghia.v, b);
    const double builtGhiaU = largestGap(builtU, ghia.u, c), builtGhiaV = largestGap(builtV, ghia.v, d);
    const double foamBuiltU = largestGap(foamU, builtU, e), foamBuiltV = largestGap(foamV, builtV, f);
    qInfo("max |OpenFOAM - Ghia|: u %.4f (y = %.4f), v %.4f (x = %.4f); limit %.3f", foamGhiaU, ys[a],
          foamGhiaV, xs[b], kGhiaTolerance);
    qInfo("max |built-in - Ghia|: u %.4f (y = %.4f), v %.4f (x = %.4f); limit %.3f", builtGhiaU, ys[c],
          builtGhiaV, xs[d], kGhiaTolerance);
    qInfo("max |OpenFOAM - built-in|: u %.4f (y = %.4f), v %.4f (x = %.4f); limit %.3f", foamBuiltU,
          ys[e], foamBuiltV, xs[f], kSolverTolerance);
    QVERIFY2(foamGhiaU <= kGhiaTolerance, qPrintable(QString::number(foamGhiaU)));
    QVERIFY2(foamGhiaV <= kGhiaTolerance, qPrintable(QString::number(foamGhiaV)));
    QVERIFY2(builtGhiaU <= kGhiaTolerance, qPrintable(QString::number(builtGhiaU)));
    QVERIFY2(builtGhiaV <= kGhiaTolerance, qPrintable(QString::number(builtGhiaV)));
    QVERIFY2(foamBuiltU <= kSolverTolerance, qPrintable(QString::number(foamBuiltU)));
    QVERIFY2(foamBuiltV <= kSolverTolerance, qPrintable(QString::number(foamBuiltV)));
}

void tst_FoamValidation::pitzDailyConvergesAsTheTutorial()
{
    const json done = waitTerminal(m_pitzDaily, 240000);
    QCOMPARE(done.value("status", ""), std::string("completed"));
    const json &s = done["result"]["structuredContent"];
    QVERIFY2(!done["result"].value("isError", true), done.dump().c_str());
    QCOMPARE(s.value("outcome", ""), std::string("converged"));
    QCOMPARE(s.value("converged", false), true);
    QCOMPARE(s["mesh"].value("cells", 0), 12225);
    const int iterations = s.value("time_steps", 0);
    const std::string message = done.value("statusMessage", "");
    qInfo("pitzDaily: %s", message.c_str());
    QVERIFY2(message.rfind("converged in " + std::to_string(iterations) + " iterations", 0) == 0, message.c_str());
    QVERIFY2(iterations >= kPitzMin && iterations <= kPitzMax, message.c_str());
    for (const char *field : {"Ux", "Uy", "p", "k", "epsilon"})
        QVERIFY2(s["final_residuals"].contains(field), field);
}

QTEST_GUILESS_MAIN(tst_FoamValidation)
#include "tst_foamvalidation.moc"
