//===- OffGrid.h - Sources and receivers between grid points ---------------===//
//
// A position between grid points is the trilinear combination of the eight
// corners of its cell: along each axis the weights 1 − f and f of the two
// points around fractional index i0 + f. Recording samples the field there,
// R u = Σ_c w_c u(c); injecting a value d adds w_c d to each corner, Rᵀ d,
// the transpose of recording (the dot test <R u, d> = <u, Rᵀ d>,
// tests/rtm-survey, checks it). A source's δ is spread the same way, so a
// source or receiver on a grid point is that point alone (docs/SEISMIC.md
// §Migrating your own survey).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Propagator.h"

#include "stencilc/Grid.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;

/// The corners and weights of fractional grid index (fi, fj, fk) on a grid of
/// nx x ny x nz points, whose every index must lie in [0, n − 1]; each entry's
/// `value` is its weight. A zero weight is kept, so a position always has the
/// same eight entries (fewer along an axis of one point).
inline std::vector<wave::Injection> trilinear(double fi, double fj, double fk, int nx, int ny,
                                              int nz) {
  // Per axis: the lower point and the fraction towards the next; the last
  // point is reached from the cell below it (f = 1).
  auto axis = [](double f, int n, int &lower, double &frac) {
    if (n == 1) {
      lower = 0;
      frac = 0;
      return;
    }
    lower = std::clamp(int(std::floor(f)), 0, n - 2);
    frac = f - lower;
  };
  int i0, j0, k0;
  double fx, fy, fz;
  axis(fi, nx, i0, fx);
  axis(fj, ny, j0, fy);
  axis(fk, nz, k0, fz);
  std::vector<wave::Injection> out;
  for (int dk = 0; dk < (nz > 1 ? 2 : 1); ++dk)
    for (int dj = 0; dj < (ny > 1 ? 2 : 1); ++dj)
      for (int di = 0; di < (nx > 1 ? 2 : 1); ++di)
        out.push_back({i0 + di, j0 + dj, k0 + dk,
                       (di ? fx : 1 - fx) * (dj ? fy : 1 - fy) * (dk ? fz : 1 - fz)});
  return out;
}

/// R u: the field at the position `weights` describe.
template <typename T>
double record(const rt::Grid<T> &u, const std::vector<wave::Injection> &weights) {
  double sum = 0;
  for (const wave::Injection &w : weights)
    sum += w.value * double(u(w.i, w.j, w.k));
  return sum;
}

/// u += Rᵀ d: `d` spread over the position's corners.
template <typename T>
void inject(rt::Grid<T> &u, const std::vector<wave::Injection> &weights, double d) {
  for (const wave::Injection &w : weights)
    u(w.i, w.j, w.k) += T(w.value * d);
}

} // namespace rtm
