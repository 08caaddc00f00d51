//===- main.cpp - A Stencilc user: run generated kernels, check the results -===//
//
// Runs the kernels stencilc_add_kernels generated from heat2d.stencil (in
// float, and in double as the f64 variant) and acoustic_iso8.stencil for a
// few time steps, with every CPU scheme, on odd grid sizes, and compares them
// with the same updates written out here by hand in double precision. The
// reference shares nothing with stencilc but the runtime's Grid: its weights
// are the textbook central-difference ones, typed in below.
//
// Exits with status 0 when every kernel matches, 1 otherwise.
//
//===----------------------------------------------------------------------===//
#include "acoustic_iso8.h"
#include "heat2d.h"
#include "heat2d_f64.h"

#include <stencilc/Grid.h>
#include <stencilc/Kernel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <utility>

namespace rt = stencilc::rt;

namespace {

constexpr int kSteps = 4;
constexpr rt::Variant kVariants[] = {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes};

/// Normwise relative difference of the interiors; infinite if `got` has a NaN.
template <typename Real>
double relativeError(const rt::Grid<Real> &got, const rt::Grid<double> &expect) {
  double diff2 = 0, norm2 = 0;
  bool nan = false;
  expect.forEachInteriorPoint([&](int i, int j, int k) {
    double g = double(got(i, j, k)), e = expect(i, j, k);
    nan |= std::isnan(g);
    diff2 += (g - e) * (g - e);
    norm2 += e * e;
  });
  return nan ? std::numeric_limits<double>::infinity() : std::sqrt(diff2 / norm2);
}

/// NaN in the interior only: the halo keeps its boundary values, so a point a
/// kernel fails to write is caught and the boundary stays what it was.
template <typename Real> void poisonInterior(rt::Grid<Real> &g) {
  g.forEachInteriorPoint(
      [&](int i, int j, int k) { g(i, j, k) = std::numeric_limits<Real>::quiet_NaN(); });
}

template <typename To, typename From> rt::Grid<To> copyOf(const rt::Grid<From> &g) {
  rt::Grid<To> copy(g.shape());
  g.forEachPointWithHalo([&](int i, int j, int k) { copy(i, j, k) = To(g(i, j, k)); });
  return copy;
}

/// A generated kernel's entry points; Args is its namespace's Args.
template <typename Args> struct Kernel {
  const char *name;
  void (*run)(const Args &, const rt::RunOptions &);
  void (*rotate)(Args &);
  int radius;
};

/// The element type of a kernel's fields.
template <typename Args> using RealOf = std::remove_const_t<decltype(Args::dt)>;

bool report(const char *kernel, rt::Variant variant, double error, double tolerance) {
  bool ok = error <= tolerance;
  std::printf("%-18s %-8s relative error %.3g (tolerance %.1g) %s\n", kernel,
              rt::variantName(variant), error, tolerance, ok ? "ok" : "FAILED");
  return ok;
}

//===----------------------------------------------------------------------===//
// heat2d: u_next = u + alpha dt / h^2 (u_xx + u_yy), second order
//===----------------------------------------------------------------------===//

struct HeatParams {
  double alpha = 0.8, dt = 0.2, h = 1.0;
};

/// One explicit Euler step of the 5-point Laplacian, out of place.
void heatReferenceStep(const rt::Grid<double> &u, rt::Grid<double> &next, const HeatParams &p) {
  const double c = p.alpha * p.dt / (p.h * p.h);
  u.forEachInteriorPoint([&](int i, int j, int) {
    next(i, j) =
        u(i, j) + c * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - 4 * u(i, j));
  });
}

template <typename Args> bool checkHeat(const Kernel<Args> &kernel, double tolerance) {
  using Real = RealOf<Args>;
  const HeatParams p;
  bool ok = true;
  for (rt::Variant variant : kVariants) {
    // Two time levels with the same random boundary; the kernel and the
    // reference swap them the same way after each step.
    auto start = rt::Grid<double>::make2d(61, 45, kernel.radius);
    start.fillRandom(7, -1.0, 1.0);
    rt::Grid<double> ref[2] = {start.clone(), start.clone()};
    rt::Grid<Real> grids[2] = {copyOf<Real>(start), copyOf<Real>(start)};
    poisonInterior(grids[1]);

    Args args;
    args.extent = {start.nx(), start.ny(), 1};
    args.u = rt::view(std::as_const(grids[0]));
    args.u_next = rt::view(grids[1]);
    args.alpha = Real(p.alpha);
    args.dt = Real(p.dt);
    args.h = Real(p.h);
    for (int step = 0; step < kSteps; ++step) {
      kernel.run(args, {variant});
      heatReferenceStep(ref[step % 2], ref[(step + 1) % 2], p);
      kernel.rotate(args);
    }
    ok &=
        report(kernel.name, variant, relativeError(grids[kSteps % 2], ref[kSteps % 2]), tolerance);
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// acoustic_iso8: u_next = 2u - u_prev + v^2 dt^2 / h^2 lap8(u), in place
//===----------------------------------------------------------------------===//

struct AcousticParams {
  double dt = 0.001, h = 10.0; // v dt / h <= 0.45 for v < 4500: stable
};

/// Weights of the 8th-order central second difference at distance 0..4.
constexpr double kLap8[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};

/// One leapfrog step written over u_prev, as the kernel does in place: a point
/// of u_prev is read only by the update of the same point.
void acousticReferenceStep(rt::Grid<double> &prevThenNext, const rt::Grid<double> &u,
                           const rt::Grid<double> &v, const AcousticParams &p) {
  u.forEachInteriorPoint([&](int i, int j, int k) {
    double lap = 3 * kLap8[0] * u(i, j, k);
    for (int r = 1; r <= 4; ++r)
      lap += kLap8[r] * (u(i - r, j, k) + u(i + r, j, k) + u(i, j - r, k) + u(i, j + r, k) +
                         u(i, j, k - r) + u(i, j, k + r));
    double c = v(i, j, k) * v(i, j, k) * p.dt * p.dt / (p.h * p.h);
    prevThenNext(i, j, k) = 2 * u(i, j, k) - prevThenNext(i, j, k) + c * lap;
  });
}

template <typename Args> bool checkAcoustic(const Kernel<Args> &kernel, double tolerance) {
  using Real = RealOf<Args>;
  const AcousticParams p;
  bool ok = true;
  for (rt::Variant variant : kVariants) {
    const int radius = kernel.radius;
    rt::Grid<double> ref[2] = {rt::Grid<double>::make3d(29, 23, 17, radius),
                               rt::Grid<double>::make3d(29, 23, 17, radius)};
    ref[0].fillRandom(11, -1.0, 1.0);
    ref[1].fillRandom(12, -1.0, 1.0);
    auto velocity = rt::Grid<double>::make3d(29, 23, 17, radius);
    velocity.fillRandom(13, 1500.0, 4500.0);
    rt::Grid<Real> grids[2] = {copyOf<Real>(ref[0]), copyOf<Real>(ref[1])};
    const rt::Grid<Real> v = copyOf<Real>(velocity);

    // In place: u_next shares u_prev's storage, and rotate() keeps it so.
    Args args;
    args.extent = {v.nx(), v.ny(), v.nz()};
    args.u_prev = rt::view(std::as_const(grids[0]));
    args.u = rt::view(std::as_const(grids[1]));
    args.u_next = rt::view(grids[0]);
    args.v = rt::view(v);
    args.dt = Real(p.dt);
    args.h = Real(p.h);
    for (int step = 0; step < kSteps; ++step) {
      kernel.run(args, {variant});
      acousticReferenceStep(ref[step % 2], ref[(step + 1) % 2], velocity, p);
      kernel.rotate(args);
    }
    // The newest level was written into the storage of step kSteps - 1.
    const int newest = (kSteps - 1) % 2;
    ok &= report(kernel.name, variant, relativeError(grids[newest], ref[newest]), tolerance);
  }
  return ok;
}

} // namespace

int main() {
  // Float kernels sum in a different order than the reference: a few float
  // ulps per step. Double kernels must agree to near double rounding.
  namespace k = stencilc_kernels;
  bool ok = true;
  ok &= checkHeat(
      Kernel<k::heat2d::Args>{"heat2d", k::heat2d::run, k::heat2d::rotate, k::heat2d::kRadius},
      1e-5);
  ok &= checkHeat(Kernel<k::heat2d_f64::Args>{"heat2d_f64", k::heat2d_f64::run,
                                              k::heat2d_f64::rotate, k::heat2d_f64::kRadius},
                  1e-12);
  ok &= checkAcoustic(Kernel<k::acoustic_iso8::Args>{"acoustic_iso8", k::acoustic_iso8::run,
                                                     k::acoustic_iso8::rotate,
                                                     k::acoustic_iso8::kRadius},
                      1e-5);
  std::printf("%s\n", ok ? "all kernels match the reference" : "MISMATCH");
  return ok ? 0 : 1;
}
