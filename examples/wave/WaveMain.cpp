//===- WaveMain.cpp - 3D acoustic forward modelling with generated kernels -===//
//
//   wave [--operator ete37|fd8] [--model layered|homogeneous] [--size 160x160x200]
//        [--time 1.0 | --steps N] [--courant 0.4] [--snapshot-every K] [--out DIR]
//
// A Ricker source near the top of a layered model with a high-velocity body,
// an absorbing sponge, a line of receivers recording a seismogram, and
// snapshots (slices through the source, PNG and .npy) written by a background
// thread while the next steps compute. The time step is the Courant number
// times h / v_max; the ETE table is fitted for exactly that step.
//
//===----------------------------------------------------------------------===//
#include "Model.h"
#include "Propagator.h"
#include "SnapshotWriter.h"

#include "stencilc/Npy.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

using namespace wave;
namespace cl = llvm::cl;

namespace {
cl::opt<Operator>
    operatorOption("operator", cl::desc("Spatial operator"),
                   cl::values(clEnumValN(Operator::Ete37, "ete37", "ETE 37-point, fitted table"),
                              clEnumValN(Operator::Fd8, "fd8", "8th-order finite differences")),
                   cl::init(Operator::Ete37));
enum class ModelKind { Layered, Homogeneous };
cl::opt<ModelKind> modelOption(
    "model", cl::desc("Velocity model"),
    cl::values(clEnumValN(ModelKind::Layered, "layered", "four layers and a 4500 m/s body"),
               clEnumValN(ModelKind::Homogeneous, "homogeneous", "--velocity everywhere")),
    cl::init(ModelKind::Layered));
cl::opt<double> velocityOption("velocity", cl::desc("Velocity of the homogeneous model (m/s)"),
                               cl::init(2000));
cl::opt<std::string> sizeOption("size", cl::desc("Grid NXxNYxNZ, or N for N^3"),
                                cl::init("128x128x160"));
cl::opt<double> spacingOption("h", cl::desc("Grid spacing (m)"), cl::init(10));
cl::opt<double> courantOption("courant", cl::desc("v_max dt / h"), cl::init(0.4));
cl::opt<double> timeOption("time", cl::desc("Simulated time (s)"), cl::init(0.8));
cl::opt<int> stepsOption("steps", cl::desc("Time steps (overrides --time)"), cl::init(0));
cl::opt<double> frequencyOption("frequency", cl::desc("Ricker peak frequency (Hz)"), cl::init(15));
cl::opt<int> sourceDepthOption("source-depth",
                               cl::desc("Source z index (default: 15% down; the centre for "
                                        "the homogeneous model)"),
                               cl::init(-1));
cl::opt<int> spongeOption("sponge", cl::desc("Sponge width in points (0: none)"), cl::init(20));
cl::opt<int> snapshotEvery("snapshot-every", cl::desc("Steps between snapshots (0: 8 per run)"),
                           cl::init(0));
cl::opt<std::string> outOption("out", cl::desc("Directory for pictures and arrays"),
                               cl::init("wave-out"));
cl::opt<std::string> variantOption("variant", cl::desc("Kernel variant: naive, blocked, planes"),
                                   cl::init("planes"));
cl::opt<std::string> stencilDirOption("stencil-dir", cl::desc("Where ete37_sponge.stencil is"),
                                      cl::init(WAVE_STENCIL_DIR));

struct Size {
  int nx, ny, nz;
};

Size parseSize(const std::string &text) {
  int nx = 0, ny = 0, nz = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%dx%dx%d%c", &nx, &ny, &nz, &tail) == 3 && nx > 0 && ny > 0 &&
      nz > 0)
    return {nx, ny, nz};
  if (std::sscanf(text.c_str(), "%d%c", &nx, &tail) == 1 && nx > 0)
    return {nx, nx, nx};
  throw std::invalid_argument("--size: expected N or NXxNYxNZ, got '" + text + "'");
}

double maxOf(const rt::Grid<float> &g) {
  double m = 0;
  g.forEachInteriorPoint([&](int i, int j, int k) { m = std::max(m, double(g(i, j, k))); });
  return m;
}

/// The slices through the source of the current wavefield, clipped at half
/// the slice's largest amplitude so the weaker arrivals show.
void submitSnapshots(SnapshotWriter &writer, const rt::Grid<float> &p, int step, int sj, int sk,
                     const std::string &dir) {
  for (bool vertical : {true, false}) {
    Snapshot s;
    s.stem = fmt::format("{}/snapshot_{:05d}_{}", dir, step, vertical ? "xz" : "xy");
    s.image = vertical ? rt::sliceXZ(p, sj) : rt::sliceXY(p, sk);
    s.hi = 0.5 * rt::maxAbs(s.image);
    s.lo = -s.hi;
    s.scale = 2;
    writer.submit(std::move(s));
  }
}

int run() {
  const Size n = parseSize(sizeOption);
  const double h = spacingOption;
  rt::Grid<float> velocity = modelOption == ModelKind::Layered
                                 ? layeredModel(n.nx, n.ny, n.nz)
                                 : homogeneousModel(n.nx, n.ny, n.nz, float(velocityOption));
  const double vmax = maxOf(velocity);
  const double dt = courantOption * h / vmax;
  const int steps = stepsOption > 0 ? stepsOption : int(std::lround(timeOption / dt));
  const int every = snapshotEvery > 0 ? snapshotEvery : std::max(1, steps / 8);
  const int si = n.nx / 2, sj = n.ny / 2;
  const int sk = sourceDepthOption >= 0 ? sourceDepthOption
                 : modelOption == ModelKind::Homogeneous
                     ? n.nz / 2
                     : std::max(spongeOption + 2, n.nz * 15 / 100);
  if (sk >= n.nz)
    throw std::invalid_argument("--source-depth is below the grid");
  const double f0 = frequencyOption, t0 = 1.2 / f0;
  auto variant = rt::parseVariant(variantOption);
  if (!variant)
    throw std::invalid_argument("--variant: naive, blocked or planes");
  std::filesystem::create_directories(outOption.getValue());
  const std::string dir = outOption;

  rt::Grid<float> damping = spongeDamping(velocity.shape(), spongeOption);
  auto propagator = Propagator::create(operatorOption, velocity, damping, h, dt, stencilDirOption);
  fmt::print("wave: {} operator, {}x{}x{} points, h = {} m, dt = {:.6f} s (Courant {}), {} "
             "steps = {:.3f} s, Ricker {} Hz at ({}, {}, {})\n",
             operatorName(operatorOption), n.nx, n.ny, n.nz, h, dt, courantOption.getValue(), steps,
             steps * dt, f0, si, sj, sk);
  if (const TableReport *table = propagator->tableReport()) {
    const auto &fit = table->fit;
    fmt::print("ETE table: {} velocities, worst in-band misfit {:.2e} (rms {:.2e}), worst "
               "amplification {:.9f}\n",
               table->velocities.size(),
               *std::max_element(fit.maxMisfit.begin(), fit.maxMisfit.end()),
               *std::max_element(fit.rmsMisfit.begin(), fit.rmsMisfit.end()),
               *std::max_element(fit.maxAmplification.begin(), fit.maxAmplification.end()));
  }

  SnapshotWriter writer;
  {
    Snapshot model;
    model.stem = dir + "/velocity_xz";
    model.image = rt::sliceXZ(velocity, sj);
    model.lo = 1500;
    model.hi = std::max(vmax, 1501.0);
    model.map = rt::ColourMap::Sequential;
    model.scale = 2;
    writer.submit(std::move(model));
  }

  // Receivers: every point of the line through the source at its depth.
  rt::Image2D seismogram{n.nx, steps, std::vector<float>(size_t(n.nx) * steps)};
  const double sourceScale = dt * dt * double(velocity(si, sj, sk)) * velocity(si, sj, sk) /
                             (h * h * h); // δ(x) on the grid is 1/h³ at one point
  const rt::RunOptions runOptions{*variant};
  double stepSeconds = 0;
  for (int step = 0; step < steps; ++step) {
    const auto start = std::chrono::steady_clock::now();
    propagator->step({{si, sj, sk, sourceScale * ricker(step * dt, f0, t0)}}, runOptions);
    stepSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const rt::Grid<float> &p = propagator->current();
    for (int i = 0; i < n.nx; ++i)
      seismogram.at(i, step) = p(i, sj, sk);
    if ((step + 1) % every == 0)
      submitSnapshots(writer, p, step + 1, sj, sk, dir);
  }
  Snapshot record;
  record.stem = dir + "/seismogram";
  record.hi = 0.1 * rt::maxAbs(seismogram); // the direct wave would hide the reflections
  record.lo = -record.hi;
  record.image = std::move(seismogram);
  writer.submit(std::move(record));
  writer.drain();

  const double points = double(n.nx) * n.ny * n.nz * steps;
  fmt::print("{} steps in {:.2f} s ({:.0f} Mpoint/s); {} pictures in {}/ (snapshot_*_xz.png: "
             "vertical slices through the source, seismogram.png: receivers across, time "
             "down; .npy beside each)\n",
             steps, stepSeconds, points / stepSeconds * 1e-6, writer.written(), dir);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "3D acoustic forward modelling with stencilc kernels\n");
  try {
    return run();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "wave: error: %s\n", e.what());
    return 1;
  }
}
