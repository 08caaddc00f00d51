//===- main.cpp - Lesson 02: call a generated kernel on your own arrays ----===//
//
// Steps lesson 01's heat stencil with the kernel `stencilc gen` wrote, on two
// std::vector<float> this program owns, and checks the result against the
// same update written as a plain loop in double precision.
//
//===----------------------------------------------------------------------===//
#include "heat.h" // generated from docs/tutorial/01-first-stencil/heat.stencil

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

namespace heat = stencilc_kernels::heat;

namespace {

// The grid: an interior of nx x ny x nz points and, around it, a halo as deep
// as the stencil's radius, which the kernel reads but never writes. x is
// fastest in memory, then y, then z: the layout every generated kernel uses.
constexpr int nx = 40, ny = 30, nz = 20, halo = heat::kRadius;
constexpr long line = nx + 2 * halo;           // elements from (i, j, k) to (i, j + 1, k)
constexpr long plane = line * (ny + 2 * halo); // elements from (i, j, k) to (i, j, k + 1)
constexpr long size = plane * (nz + 2 * halo);

/// Where interior point (i, j, k) lives; i, j, k may be -halo .. n - 1 + halo.
constexpr long at(int i, int j, int k) {
  return (i + halo) + (j + halo) * line + (k + halo) * plane;
}

constexpr double alpha = 1.0, h = 1.0, dt = 0.1; // stable: alpha dt / h^2 <= 1/6 in 3D
constexpr int steps = 50;

/// The starting temperature: one sine arch along each axis, zero on the halo.
template <typename Real> std::vector<Real> startingTemperature() {
  std::vector<Real> u(size, Real(0));
  const double pi = std::numbers::pi;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        u[at(i, j, k)] =
            Real(std::sin(pi * (i + 1) / (nx + 1)) * std::sin(pi * (j + 1) / (ny + 1)) *
                 std::sin(pi * (k + 1) / (nz + 1)));
  return u;
}

/// The same update as heat.stencil, by hand: the reference.
void referenceStep(const std::vector<double> &u, std::vector<double> &next) {
  const double c = alpha * dt / (h * h);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const long p = at(i, j, k);
        const double neighbours =
            u[p - 1] + u[p + 1] + u[p - line] + u[p + line] + u[p - plane] + u[p + plane];
        next[p] = u[p] + c * (neighbours - 6 * u[p]);
      }
}

} // namespace

int main() {
  // Two time levels in the program's own storage; the halos stay zero (a
  // boundary held at temperature 0), since the kernel never writes them.
  std::vector<float> a = startingTemperature<float>(), b(size, 0.0f);

  // A kernel takes views: a pointer to interior point (0, 0, 0) and the two
  // strides. Nothing is copied, and the arrays need no special alignment.
  heat::Args args;
  args.extent = {nx, ny, nz};
  args.u = {a.data() + at(0, 0, 0), line, plane};
  args.u_next = {b.data() + at(0, 0, 0), line, plane};
  args.alpha = float(alpha);
  args.dt = float(dt);
  args.h = float(h);
  for (int step = 0; step < steps; ++step) {
    heat::run(args);    // u_next = u + alpha dt / h^2 laplacian(u), every interior point
    heat::rotate(args); // u <- u_next; u_next takes u's old storage for the next step
  }
  const float *result = args.u.origin - at(0, 0, 0); // the newest level, a or b

  // The reference: the same steps, in double, by the loop above.
  std::vector<double> ref = startingTemperature<double>(), next(size, 0.0);
  const double startPeak = *std::max_element(ref.begin(), ref.end());
  for (int step = 0; step < steps; ++step) {
    referenceStep(ref, next);
    std::swap(ref, next);
  }

  double peak = 0, maxDiff = 0;
  for (long p = 0; p < size; ++p) {
    peak = std::max(peak, std::abs(ref[p]));
    maxDiff = std::max(maxDiff, std::abs(double(result[p]) - ref[p]));
  }
  const bool matches = maxDiff / peak < 1e-5;

  // The sine arches are an eigenvector of the discrete Laplacian with a zero
  // boundary: each step multiplies the whole field by the same factor g, so
  // the peak after n steps is g^n times the first one.
  const double pi = std::numbers::pi, c = alpha * dt / (h * h);
  const double g = 1 + c * (2 * std::cos(pi / (nx + 1)) + 2 * std::cos(pi / (ny + 1)) +
                            2 * std::cos(pi / (nz + 1)) - 6);

  std::printf("grid %d x %d x %d, halo %d, %d steps of heat\n", nx, ny, nz, halo, steps);
  std::printf("kernel against the plain loop: max difference / peak below 1e-5: %s\n",
              matches ? "yes" : "NO");
  std::printf("peak now / peak at the start: %.4f (g^%d = %.4f)\n", peak / startPeak, steps,
              std::pow(g, steps));
  return matches ? 0 : 1;
}
