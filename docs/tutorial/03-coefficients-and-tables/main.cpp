//===- main.cpp - Lesson 03: a coefficient per point, and a table ----------===//
//
// Heat flow through three layers of rock, stepped by the two kernels of
// media.stencil: heat_kappa reads a diffusivity field, heat_layers looks its
// weights up in a table through a one-byte index per point. Each is checked
// against a plain loop in double precision.
//
//===----------------------------------------------------------------------===//
#include "heat_kappa.h"  // generated from media.stencil
#include "heat_layers.h" // generated from media.stencil

#include <stencilc/CoefficientTable.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace rt = stencilc::rt;
namespace k = stencilc_kernels;

namespace {

// Lesson 02's layout: x fastest, a halo of one point around the interior.
constexpr int nx = 32, ny = 32, nz = 24, halo = 1;
constexpr long line = nx + 2 * halo, plane = line * (ny + 2 * halo), size = plane * (nz + 2 * halo);
constexpr long at(int i, int j, int k) {
  return (i + halo) + (j + halo) * line + (k + halo) * plane;
}
/// A view of interior point (0, 0, 0) of one of the program's arrays.
template <typename T> rt::FieldView<T> viewOf(std::vector<T> &v) {
  return {v.data() + at(0, 0, 0), line, plane};
}
template <typename T> rt::FieldView<const T> viewOf(const std::vector<T> &v) {
  return {v.data() + at(0, 0, 0), line, plane};
}

constexpr double h = 1.0, dt = 0.1;
constexpr int steps = 40;

// Three layers stacked in z; a medium's diffusivity along the layers (x, y)
// and across them (z).
constexpr int media = 3;
constexpr int mediumAt(int k) { return k * media / nz; }
struct Medium {
  double along, across;
};

/// A warm blob in the middle of the grid; the halo (the boundary) stays 0.
std::vector<double> start() {
  std::vector<double> u(size, 0.0);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double x = i - nx / 2, y = j - ny / 2, z = k - nz / 2;
        u[at(i, j, k)] = std::exp(-(x * x + y * y + z * z) / 32);
      }
  return u;
}

/// The plain loop: `steps` steps of the heat equation in the medium `m`.
std::vector<double> reference(const Medium (&m)[media]) {
  std::vector<double> u = start(), next(size, 0.0);
  for (int step = 0; step < steps; ++step) {
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const long p = at(i, j, k);
          const Medium &c = m[mediumAt(k)];
          const double alongLayers = u[p - 1] + u[p + 1] + u[p - line] + u[p + line] - 4 * u[p];
          const double acrossLayers = u[p - plane] + u[p + plane] - 2 * u[p];
          next[p] = u[p] + dt / (h * h) * (c.along * alongLayers + c.across * acrossLayers);
        }
    std::swap(u, next);
  }
  return u;
}

/// Runs `steps` steps of a kernel from start() and returns the newest level.
template <typename Args>
std::vector<float> runSteps(Args args, void (*run)(const Args &, const rt::RunOptions &),
                            void (*rotate)(Args &)) {
  const std::vector<double> u0 = start();
  std::vector<float> a(u0.begin(), u0.end()), b(size, 0.0f);
  args.extent = {nx, ny, nz};
  args.u = viewOf(std::as_const(a));
  args.u_next = viewOf(b);
  for (int step = 0; step < steps; ++step) {
    run(args, rt::RunOptions{});
    rotate(args);
  }
  return args.u.origin == viewOf(a).origin ? a : b;
}

const char *matches(const std::vector<float> &got, const std::vector<double> &want) {
  double peak = 0, diff = 0;
  for (long p = 0; p < size; ++p) {
    peak = std::max(peak, std::abs(want[p]));
    diff = std::max(diff, std::abs(got[p] - want[p]));
  }
  return diff / peak < 1e-5 ? "yes" : "NO";
}

/// W[class][medium] for heat_layers. The classes are numbered as `stencilc
/// dump-ir` shows: 0 the z neighbours, 1 the x and y ones, 2 the centre.
rt::CoefficientTable<float> weights(const Medium (&m)[media]) {
  rt::CoefficientTable<float> w(3, media);
  for (int medium = 0; medium < media; ++medium) {
    const double c = dt / (h * h), along = m[medium].along, across = m[medium].across;
    w(0, medium) = float(c * across);
    w(1, medium) = float(c * along);
    w(2, medium) = float(1 - c * (4 * along + 2 * across));
  }
  return w;
}

} // namespace

int main() {
  const Medium isotropic[media] = {{1.0, 1.0}, {0.25, 0.25}, {0.6, 0.6}};
  const Medium layered[media] = {{1.0, 1.0}, {0.5, 0.1}, {1.2, 0.3}};

  // The same medium twice: a diffusivity at every point, and the number of
  // the medium every point is in.
  std::vector<float> kappa(size, 0.0f);
  std::vector<std::uint8_t> rock(size, 0);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        kappa[at(i, j, k)] = float(isotropic[mediumAt(k)].along);
        rock[at(i, j, k)] = std::uint8_t(mediumAt(k));
      }

  k::heat_kappa::Args byField;
  byField.kappa = viewOf(std::as_const(kappa));
  byField.dt = float(dt);
  byField.h = float(h);
  const auto fromField = runSteps(byField, k::heat_kappa::run, k::heat_kappa::rotate);

  const rt::CoefficientTable<float> isotropicW = weights(isotropic), layeredW = weights(layered);
  k::heat_layers::Args byTable;
  byTable.rock = viewOf(std::as_const(rock));
  byTable.W = rt::view(isotropicW);
  const auto fromTable = runSteps(byTable, k::heat_layers::run, k::heat_layers::rotate);
  byTable.W = rt::view(layeredW); // another medium: the same kernel, another table
  const auto fromLayered = runSteps(byTable, k::heat_layers::run, k::heat_layers::rotate);

  const std::vector<double> isotropicRef = reference(isotropic);
  std::printf("grid %d x %d x %d in %d layers, %d steps\n", nx, ny, nz, media, steps);
  std::printf("heat_kappa, a diffusivity per point, against the plain loop: %s\n",
              matches(fromField, isotropicRef));
  std::printf("heat_layers, a table of weights per medium, against the same loop: %s\n",
              matches(fromTable, isotropicRef));
  std::printf("heat_layers, slower across the layers than along them, against the loop: %s\n",
              matches(fromLayered, reference(layered)));
  std::printf("bytes per point and step: heat_kappa %zu (u, kappa, u_next), heat_layers %zu "
              "(u, rock, u_next) and a table of %zu\n",
              3 * sizeof(float), 2 * sizeof(float) + sizeof(std::uint8_t),
              isotropicW.size() * sizeof(float));
}
