// Ghia, Ghia & Shin (1982), "High-Re solutions for incompressible flow using the Navier-Stokes
// equations and a multigrid method", J. Comput. Phys. 48, 387-411: tables I and II.
// These numbers are the validation target, so they are typed exactly as published (including the
// paper's known outlier v(0.9063) = -0.23827 at Re = 400). The sample coordinates are the grid
// lines of Ghia's 129 x 129 mesh, k/128, which the paper prints rounded to four digits.

#include "server/solver/ghiareference.h"

#include <array>

namespace Eddy::Solver {

namespace {

constexpr int kSamples = 17;

// Table I: grid line index k (y = k/128) on the vertical centreline, bottom to top.
constexpr std::array<int, kSamples> kYIndex = {0, 7, 8, 9, 13, 22, 36, 58, 64,
                                               79, 94, 109, 122, 123, 124, 125, 128};
// Table II: grid line index k (x = k/128) on the horizontal centreline, left to right.
constexpr std::array<int, kSamples> kXIndex = {0, 8, 9, 10, 12, 20, 29, 30, 64,
                                               103, 110, 116, 121, 122, 123, 124, 128};

struct Column
{
    int reynolds;
    std::array<double, kSamples> u; // same order as kYIndex
    std::array<double, kSamples> v; // same order as kXIndex
};

constexpr std::array<Column, 3> kTables = {{
    {100,
     {0.00000, -0.03717, -0.04192, -0.04775, -0.06434, -0.10150, -0.15662, -0.21090, -0.20581,
      -0.13641, 0.00332, 0.23151, 0.68717, 0.73722, 0.78871, 0.84123, 1.00000},
     {0.00000, 0.09233, 0.10091, 0.10890, 0.12317, 0.16077, 0.17507, 0.17527, 0.05454, -0.24533,
      -0.22445, -0.16914, -0.10313, -0.08864, -0.07391, -0.05906, 0.00000}},
    {400,
     {0.00000, -0.08186, -0.09266, -0.10338, -0.14612, -0.24299, -0.32726, -0.17119, -0.11477,
      0.02135, 0.16256, 0.29093, 0.55892, 0.61756, 0.68439, 0.75837, 1.00000},
     {0.00000, 0.18360, 0.19713, 0.20920, 0.22965, 0.28124, 0.30203, 0.30174, 0.05186, -0.38598,
      -0.44993, -0.23827, -0.22847, -0.19254, -0.15663, -0.12146, 0.00000}},
    {1000,
     {0.00000, -0.18109, -0.20196, -0.22220, -0.29730, -0.38289, -0.27805, -0.10648, -0.06080,
      0.05702, 0.18719, 0.33304, 0.46604, 0.51117, 0.57492, 0.65928, 1.00000},
     {0.00000, 0.27485, 0.29012, 0.30353, 0.32627, 0.37095, 0.33075, 0.32235, 0.02526, -0.31966,
      -0.42665, -0.51550, -0.39188, -0.33714, -0.27669, -0.21388, 0.00000}},
}};

} // namespace

bool ghiaReference(int reynolds, GhiaTable &out)
{
    for (const Column &c : kTables) {
        if (c.reynolds != reynolds)
            continue;
        out = GhiaTable{};
        for (int k = 0; k < kSamples; ++k) {
            out.y.push_back(kYIndex[k] / 128.0);
            out.u.push_back(c.u[k]);
            out.x.push_back(kXIndex[k] / 128.0);
            out.v.push_back(c.v[k]);
        }
        return true;
    }
    return false;
}

} // namespace Eddy::Solver
