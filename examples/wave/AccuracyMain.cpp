//===- AccuracyMain.cpp - ETE vs FD against the analytic 3D solution -------===//
//
//   wave-accuracy [--size 128] [--distance 40] [--ete-courant 0.3,0.45]
//                 [--fd-courant 0.45,0.2,0.1,0.05]
//
// In the spirit of Table II of docs/DESIGN.md [2]: in a homogeneous medium, how large a time step
// each operator can take for a given accuracy, and what the run costs. The
// initial value problem has a closed form, so no reference run is needed:
// p(x, 0) = g(|x − x0|) with g a Gaussian and ∂p/∂t = 0 at t = 0 gives
//
//     p(r, t) = [(r − vt) g(r − vt) + (r + vt) g(r + vt)] / (2r)
//
// (d'Alembert for spherical waves, g even). Both operators start from the
// exact p(0) and p(−Δt) = p(Δt) and run to the time T at which the front
// has travelled --distance points, before it reaches the grid's edge. The
// error is measured over the whole interior against p(T). The Gaussian's
// width keeps its spectrum inside the ETE fit's band, so the comparison is
// of propagation, not of source injection.
//
//===----------------------------------------------------------------------===//
#include "Model.h"
#include "Propagator.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

using namespace wave;
namespace cl = llvm::cl;

namespace {
cl::opt<int> sizeOption("size", cl::desc("Grid N^3"), cl::init(128));
cl::opt<double> spacingOption("h", cl::desc("Grid spacing (m)"), cl::init(10));
cl::opt<double> velocityOption("velocity", cl::desc("Velocity (m/s)"), cl::init(2000));
cl::opt<double> sigmaOption("sigma", cl::desc("Width of the initial Gaussian (points)"),
                            cl::init(3));
cl::opt<double> distanceOption("distance", cl::desc("Distance the front travels (points)"),
                               cl::init(40));
cl::list<double> eteCourant("ete-courant", cl::desc("Courant numbers of the ETE runs"),
                            cl::CommaSeparated);
cl::list<double> fdCourant("fd-courant", cl::desc("Courant numbers of the FD runs"),
                           cl::CommaSeparated);
cl::opt<std::string> stencilDirOption("stencil-dir", cl::desc("Where ete37_sponge.stencil is"),
                                      cl::init(WAVE_STENCIL_DIR));

/// The exact field at distance r (m) and time t for the Gaussian g of width s (m).
double exact(double r, double t, double v, double s) {
  auto g = [&](double x) { return std::exp(-x * x / (2 * s * s)); };
  const double a = v * t;
  if (r < 1e-9 * s) // the limit r -> 0: g(a) + a g'(a)
    return g(a) * (1 - a * a / (s * s));
  return ((r - a) * g(r - a) + (r + a) * g(r + a)) / (2 * r);
}

void fillExact(rt::Grid<float> &p, double t, double h, double v, double s) {
  const double c = (p.nx() - 1) / 2.0;
  p.forEachInteriorPoint([&](int i, int j, int k) {
    const double r = h * std::sqrt((i - c) * (i - c) + (j - c) * (j - c) + (k - c) * (k - c));
    p(i, j, k) = float(exact(r, t, v, s));
  });
}

struct Result {
  double courant, dt;
  int steps;
  double relL2, relMax, seconds;
};

Result runOne(Operator op, double courant, const rt::Grid<float> &velocity,
              const rt::Grid<float> &noDamping) {
  const double h = spacingOption, v = velocityOption, s = sigmaOption * h;
  const double T = distanceOption * h / v;
  const int steps = std::max(1, int(std::lround(distanceOption / courant)));
  const double dt = T / steps;
  auto propagator = Propagator::create(op, velocity, noDamping, h, dt, stencilDirOption);
  fillExact(propagator->current(), 0, h, v, s);
  fillExact(propagator->previous(), dt, h, v, s); // p(−Δt) = p(Δt): ∂p/∂t = 0 at t = 0

  const auto start = std::chrono::steady_clock::now();
  for (int n = 0; n < steps; ++n)
    propagator->step({});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  rt::Grid<float> reference(velocity.shape());
  fillExact(reference, T, h, v, s);
  const rt::Grid<float> &p = propagator->current();
  double errSq = 0, refSq = 0, errMax = 0, refMax = 0;
  p.forEachInteriorPoint([&](int i, int j, int k) {
    const double e = double(p(i, j, k)) - reference(i, j, k), r = reference(i, j, k);
    errSq += e * e;
    refSq += r * r;
    errMax = std::max(errMax, std::abs(e));
    refMax = std::max(refMax, std::abs(r));
  });
  return {v * dt / h, dt, steps, std::sqrt(errSq / refSq), errMax / refMax, seconds};
}

int run() {
  const int n = sizeOption;
  if (distanceOption + 4 * sigmaOption > n / 2.0 - kHalo)
    throw std::invalid_argument("the front would reach the grid's edge: raise --size or lower "
                                "--distance");
  rt::Grid<float> velocity = homogeneousModel(n, n, n, float(velocityOption));
  rt::Grid<float> noDamping = spongeDamping(velocity.shape(), 0);
  std::vector<std::pair<Operator, double>> runs;
  for (double c : eteCourant.empty() ? std::vector<double>{0.3, 0.45}
                                     : std::vector<double>(eteCourant.begin(), eteCourant.end()))
    runs.push_back({Operator::Ete37, c});
  for (double c : fdCourant.empty() ? std::vector<double>{0.45, 0.2, 0.1, 0.05}
                                    : std::vector<double>(fdCourant.begin(), fdCourant.end()))
    runs.push_back({Operator::Fd8, c});

  fmt::print("homogeneous {} m/s, {}^3 points, h = {} m, Gaussian sigma = {} h, front travels "
             "{} h (T = {:.4f} s)\n\n",
             velocityOption.getValue(), n, spacingOption.getValue(), sigmaOption.getValue(),
             distanceOption.getValue(), distanceOption * spacingOption / velocityOption);
  fmt::print("| operator | Courant | dt (ms) | steps | rel. L2 error | rel. max error | wall "
             "(s) |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  for (auto [op, courant] : runs) {
    try {
      Result r = runOne(op, courant, velocity, noDamping);
      fmt::print("| {} | {:.3f} | {:.3f} | {} | {:.2e} | {:.2e} | {:.2f} |\n", operatorName(op),
                 r.courant, r.dt * 1e3, r.steps, r.relL2, r.relMax, r.seconds);
    } catch (const std::runtime_error &e) {
      fmt::print("| {} | {:.3f} | | | not run: {} | | |\n", operatorName(op), courant, e.what());
    }
    std::fflush(stdout);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "ETE vs FD accuracy against the analytic solution\n");
  try {
    return run();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "wave-accuracy: error: %s\n", e.what());
    return 1;
  }
}
