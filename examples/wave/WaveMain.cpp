//===- WaveMain.cpp - 3D acoustic forward modelling with generated kernels -===//
//
//   wave [--operator ete37|fd8] [--model layered|homogeneous] [--size 160x160x200]
//        [--time 1.0 | --steps N] [--courant 0.4] [--snapshot-every K] [--out DIR]
//   mpiexec -n N wave ... [--ranks NXxNYxNZ] [--overlap=false]
//
// A Ricker source near the top of a layered model with a high-velocity body,
// an absorbing sponge, a line of receivers recording a seismogram, and
// snapshots (slices through the source, PNG and .npy) written by a background
// thread while the next steps compute. The time step is the Courant number
// times h / v_max; the ETE table is fitted for exactly that step.
//
// Under mpiexec each rank builds and steps its own part of the grid
// (Distribution.h); rank 0 assembles and writes the pictures, which are the
// same, bit for bit, as those of one process.
//
//===----------------------------------------------------------------------===//
#include "Distribution.h"
#include "Model.h"
#include "ModelFile.h"
#include "Propagator.h"
#include "RunChecks.h"
#include "RunGeometry.h"
#include "ShotRecord.h"
#include "SnapshotWriter.h"

#include "analysis/RunBudget.h"
#include "stencilc/io/Npy.h"
#include "stencilc/io/Progress.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

using namespace wave;
namespace cl = llvm::cl;

namespace {
cl::opt<Operator>
    operatorOption("operator", cl::desc("Spatial operator"),
                   cl::values(clEnumValN(Operator::Ete37, "ete37", "ETE 37-point, fitted table"),
                              clEnumValN(Operator::Fd8, "fd8", "8th-order finite differences")),
                   cl::init(Operator::Ete37));
cl::opt<std::string> modelOption(
    "model",
    cl::desc("Velocity model: layered (four layers and a 4500 m/s body), homogeneous (--velocity "
             "everywhere), a .npy file of float32 m/s, shape (nz, ny, nx), or a SEG-Y file "
             "(.segy, .sgy) with its own spacing and origin; a file sets the size"),
    cl::init("layered"));
cl::opt<int> volumeEvery("volume-every",
                         cl::desc("Steps between whole-wavefield .npy files (0: none); with it, "
                                  "the model is written as model.npy too"),
                         cl::init(0));
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
cl::opt<int> spongeOption("sponge",
                          cl::desc("Sponge width in points (0: none; default: 20, or a third "
                                   "of the shortest axis where that is less)"),
                          cl::init(20));
cl::opt<int> snapshotEvery("snapshot-every", cl::desc("Steps between snapshots (0: 8 per run)"),
                           cl::init(0));
cl::opt<std::string> outOption("out", cl::desc("Directory for pictures and arrays"),
                               cl::init("wave-out"));
cl::opt<bool> pngOption("png",
                        cl::desc("Write a quick PNG beside each snapshot .npy (--png=false when "
                                 "scripts/plot.py draws the figures)"),
                        cl::init(true));
cl::opt<std::string> variantOption("variant",
                                   cl::desc("Kernel variant: naive, blocked, planes, auto"),
                                   cl::init("planes"));
cl::opt<std::string> stencilDirOption("stencil-dir", cl::desc("Where ete37_sponge.stencil is"),
                                      cl::init(WAVE_STENCIL_DIR));
cl::opt<std::string> ranksOption("ranks",
                                 cl::desc("Under mpiexec: the rank grid NXxNYxNZ (default: "
                                          "chosen by MPI_Dims_create)"),
                                 cl::init(""));
cl::opt<bool> allowUnstableOption(
    "allow-unstable",
    cl::desc("Run even where the time step is unstable (for experiments; the field blows up)"));
cl::opt<bool> allowUndersampledOption(
    "allow-undersampled",
    cl::desc("Run even where the grid is too coarse for the source's frequency (numerical "
             "dispersion)"));
cl::opt<int> timeTileOption("time-tile",
                            cl::desc("Time steps per pass over memory (temporal blocking; under "
                                     "mpiexec, steps per halo exchange over a halo that many "
                                     "times deeper; 1: one sweep a step; default: the kernel's "
                                     "kTimeTiling on one process, 1 unless built with "
                                     "WAVE_TUNING)"),
                            cl::init(1));
cl::opt<bool> overlapOption("overlap",
                            cl::desc("Under mpiexec: exchange halos while the interior computes"),
                            cl::init(true));

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

/// The part of an nx-wide picture this process holds: the rows of `owned`
/// along x, and along the picture's other axis [lo, hi).
rt::Image2D part(const rt::Box &owned, int lo, int hi,
                 const std::function<float(int i, int other)> &value) {
  rt::Image2D image{owned.x1 - owned.x0, hi - lo, {}};
  image.values.resize(std::size_t(image.width) * image.height);
  for (int o = lo; o < hi; ++o)
    for (int i = owned.x0; i < owned.x1; ++i)
      image.at(i - owned.x0, o - lo) = value(i, o);
  return image;
}

double maxOf(const rt::Grid<float> &g) {
  double m = 0;
  g.forEachInteriorPoint([&](int i, int j, int k) { m = std::max(m, double(g(i, j, k))); });
  return m;
}

/// The slices through the source of the current wavefield, clipped at half
/// the slice's largest amplitude so the weaker arrivals show.
void submitSnapshots(SnapshotWriter &writer, const Distribution &dist, const rt::Grid<float> &p,
                     int step, int sj, int sk, int nx, int ny, int nz, const std::string &dir) {
  const rt::Box o = dist.owned();
  for (bool vertical : {true, false}) {
    // Each rank's part of the slice (none if the slice misses its box), assembled on rank 0.
    const bool mine = vertical ? sj >= o.y0 && sj < o.y1 : sk >= o.z0 && sk < o.z1;
    rt::Image2D piece;
    if (mine && vertical)
      piece = part(o, o.z0, o.z1, [&](int i, int k) { return p(i - o.x0, sj - o.y0, k - o.z0); });
    if (mine && !vertical)
      piece = part(o, o.y0, o.y1, [&](int i, int j) { return p(i - o.x0, j - o.y0, sk - o.z0); });
    rt::Image2D image = dist.gather(piece, o.x0, vertical ? o.z0 : o.y0, nx, vertical ? nz : ny);
    if (!dist.root())
      continue;
    Snapshot s;
    s.stem = fmt::format("{}/snapshot_{:05d}_{}", dir, step, vertical ? "xz" : "xy");
    s.image = std::move(image);
    s.hi = 0.5 * rt::maxAbs(s.image);
    s.lo = -s.hi;
    s.scale = 2;
    writer.submit(std::move(s));
  }
}

/// Every copy of global point (i, j, k) this process holds, its own or a
/// halo copy of a neighbour's, in its grid's coordinates: a source must show
/// in both, as it would in one process.
std::vector<Injection> copiesOf(const rt::Box &o, int halo, int i, int j, int k, double value) {
  const int li = i - o.x0, lj = j - o.y0, lk = k - o.z0;
  const bool inside = li >= -halo && li < o.x1 - o.x0 + halo && lj >= -halo &&
                      lj < o.y1 - o.y0 + halo && lk >= -halo && lk < o.z1 - o.z0 + halo;
  if (!inside)
    return {};
  return {{li, lj, lk, value}};
}

/// The errors every process meets alike (options, the model, the split) end
/// the run everywhere with one message; after this point a failure may be
/// one process's alone (a file it cannot write), and ends every process.
bool everyProcessAgrees = true;

/// Refuses option values that cannot make a run, before anything else.
void checkOptions() {
  auto positive = [](const cl::opt<double> &o, const char *what) {
    if (!(o > 0) || !std::isfinite(o))
      throw std::invalid_argument(
          fmt::format("--{} {}: expected a positive {}", o.ArgStr.str(), o.getValue(), what));
  };
  positive(timeOption, "time in seconds");
  positive(spacingOption, "grid spacing in metres");
  positive(courantOption, "Courant number");
  positive(frequencyOption, "frequency in Hz");
  positive(velocityOption, "velocity in m/s");
  if (stepsOption < 0)
    throw std::invalid_argument(
        fmt::format("--steps {}: expected 1 or more (absent: from --time)", stepsOption));
  if (stepsOption.getNumOccurrences() && stepsOption == 0)
    throw std::invalid_argument("--steps 0: expected 1 or more (absent: from --time)");
  if (snapshotEvery < 0)
    throw std::invalid_argument(
        fmt::format("--snapshot-every {}: expected 0 (8 per run) or more", snapshotEvery));
  if (sourceDepthOption.getNumOccurrences() && sourceDepthOption < 0)
    throw std::invalid_argument(
        fmt::format("--source-depth {}: expected a z index, 0 or more", sourceDepthOption));
}

/// The first point of `velocity` (this process's part, at `owned`) in x-fastest
/// order whose value is not a finite number, as a global linear index of an
/// nx x ny grid, or infinity.
double firstNonFinite(const rt::Grid<float> &velocity, const rt::Box &owned, const Size &n) {
  double first = INFINITY;
  velocity.forEachInteriorPoint([&](int i, int j, int k) {
    if (!std::isfinite(velocity(i, j, k)))
      first = std::min(first, (double(k + owned.z0) * n.ny + (j + owned.y0)) * n.nx + i + owned.x0);
  });
  return first;
}

int run() {
  checkOptions();
  const bool homogeneous = modelOption == "homogeneous";
  const bool fromFile = !homogeneous && modelOption != "layered";
  Size n = parseSize(sizeOption);
  std::optional<ModelFile> file;
  if (fromFile) {
    file = inspectModelFile(modelOption);
    const rt::Extent e = file->extent;
    if (sizeOption.getNumOccurrences() && (e.nx != n.nx || e.ny != n.ny || e.nz != n.nz))
      throw std::invalid_argument(fmt::format("--size {}x{}x{} disagrees with {}, {}x{}x{}", n.nx,
                                              n.ny, n.nz, modelOption.getValue(), e.nx, e.ny,
                                              e.nz));
    n = {e.nx, e.ny, e.nz};
  }
  if (volumeEvery < 0)
    throw std::invalid_argument("--volume-every must be 0 or more");
  const double h =
      file ? spacingFor(*file, spacingOption, spacingOption.getNumOccurrences()) : spacingOption;
  seisio::Geometry geometry{n.nx, n.ny, n.nz, h, h, h};
  if (file && file->geometry) { // the user's origin reaches every output
    geometry.x0 = file->geometry->x0;
    geometry.y0 = file->geometry->y0;
    geometry.z0 = file->geometry->z0;
  }
  auto variant = rt::parseVariant(variantOption);
  if (!variant)
    throw std::invalid_argument("--variant: naive, blocked, planes or auto");
  if (timeTileOption < 1)
    throw std::invalid_argument(
        fmt::format("--time-tile {}: expected 1 or more time steps per pass", timeTileOption));
  // Over several ranks, T steps per pass are T steps per halo exchange, over
  // a halo T x the stencil's radius deep (docs/DISTRIBUTED.md §Deep halo).
  Distribution dist(n.nx, n.ny, n.nz, ranksOption, kernelOf(operatorOption), overlapOption,
                    timeTileOption);
  // Unless asked, the steps per pass (and tiles) a tuning file chose for the
  // kernel (docs/PERFORMANCE.md "Tuning"), on one process; else one sweep a step.
  rt::TimeTiling tiling{timeTileOption};
  if (timeTileOption.getNumOccurrences() == 0 && dist.ranks() == 1)
    tiling = kernelOf(operatorOption).timeTiling;
  const int halo = dist.halo(kHalo);
  const rt::Box owned = dist.owned();
  const int sponge =
      spongeWidth(spongeOption, spongeOption.getNumOccurrences() > 0, n.nx, n.ny, n.nz);
  {
    // Before any grid is allocated: the processes on the machine that is
    // shortest of memory say how much they need.
    const double bytes = double(gridBytes(dist.localShape(halo), operatorOption));
    const double here = dist.processesHere();
    const double available = double(stencilc::analysis::readAvailableMemory());
    const double share = available > 0 ? bytes * here / available : 0;
    const double worst = dist.max(share);
    const bool mine = share == worst;
    if (worst > 1)
      checkMemory(std::uint64_t(dist.max(mine ? bytes : 0)), int(dist.max(mine ? here : 0)),
                  std::uint64_t(dist.max(mine ? available : 0)));
  }
  dist.prepareExchange();
  rt::Grid<float> velocity = homogeneous ? homogeneousModel(owned, float(velocityOption), halo)
                                         : layeredModel(n.nx, n.ny, n.nz, owned, halo);
  if (fromFile) {
    // Each process reads its own box and halo.
    velocity.fill(0.0f);
    readModelFile(*file, dist, velocity);
  }
  if (const double bad = -dist.max(-firstNonFinite(velocity, owned, n)); std::isfinite(bad)) {
    const double plane = double(n.nx) * n.ny;
    const int k = int(bad / plane), j = int((bad - k * plane) / n.nx),
              i = int(bad - k * plane - double(j) * n.nx);
    throw std::invalid_argument(
        fmt::format("{}: the velocity at point ({}, {}, {}) (x = {} m, y = {} m, z = {} m) is not "
                    "a finite number",
                    modelOption.getValue(), i, j, k, geometry.x0 + i * h, geometry.y0 + j * h,
                    geometry.z0 + k * h));
  }
  double vmin = 1e300;
  velocity.forEachInteriorPoint(
      [&](int i, int j, int k) { vmin = std::min(vmin, double(velocity(i, j, k))); });
  vmin = -dist.max(-vmin);
  if (!(vmin > 0))
    throw std::invalid_argument(
        fmt::format("{}: velocities must be positive (found {})", modelOption.getValue(), vmin));
  if (!allowUndersampledOption)
    checkFrequency(frequencyOption, vmin, h, operatorOption);
  const double vmax = dist.max(maxOf(velocity));
  const double dt = courantOption * h / vmax;
  const int steps = stepsOption > 0 ? stepsOption : int(std::lround(timeOption / dt));
  if (steps < 1)
    throw std::invalid_argument(
        fmt::format("--time {} is less than one step of {:.6f} s", timeOption.getValue(), dt));
  const int every = snapshotEvery > 0 ? snapshotEvery : std::max(1, steps / 8);
  const int si = n.nx / 2, sj = n.ny / 2;
  const int sk = sourceDepthOption >= 0 ? sourceDepthOption
                 : homogeneous          ? n.nz / 2
                                        : std::max(sponge + 2, n.nz * 15 / 100);
  if (sk >= n.nz)
    throw std::invalid_argument("--source-depth is below the grid");
  // An unstable step is refused before anything runs (the ETE fit checks its own table).
  if (operatorOption == Operator::Fd8 && !allowUnstableOption) {
    const double limit = fdCourantLimit(stencilDirOption);
    if (courantOption > limit)
      throw std::invalid_argument(fmt::format(
          "--courant {} is unstable for the fd8 operator: its leapfrog step is stable up to "
          "Courant {:.4f} (von Neumann analysis of acoustic8_sponge.stencil); "
          "--allow-unstable runs it anyway",
          courantOption.getValue(), limit));
  }
  const double f0 = frequencyOption, t0 = 1.2 / f0;
  rt::Grid<float> damping = spongeDamping(rt::GridShape{3, n.nx, n.ny, n.nz, halo}, owned, sponge);
  auto propagator = Propagator::create(
      operatorOption, velocity, damping, h, dt, stencilDirOption,
      [&](const std::set<float> &mine) { return dist.unite(mine); }, allowUnstableOption);
  const std::string dir = outOption;
  // Nothing is written before the run is known to start.
  if (dist.root())
    std::filesystem::create_directories(dir);
  dist.synchronize(); // every process writes into it from here on
  if (volumeEvery > 0)
    dist.write(velocity, dir + "/model.npy");
  everyProcessAgrees = false;
  if (dist.root()) // what scripts/plot.py needs besides the arrays
    seisio::writeRunGeometry(dir + "/geometry.json",
                             {geometry, dt, steps, every, {si, sj, sk}, sk, sj, sk});
  if (dist.root()) {
    fmt::print("wave: {} operator, {}x{}x{} points, h = {} m, dt = {:.6f} s (Courant {}), {} "
               "steps = {:.3f} s, Ricker {} Hz at ({}, {}, {})\n",
               operatorName(operatorOption), n.nx, n.ny, n.nz, h, dt, courantOption.getValue(),
               steps, steps * dt, f0, si, sj, sk);
    if (dist.ranks() > 1)
      fmt::print("wave: {} ({} halo exchange overlapped with the interior)\n", dist.describe(),
                 overlapOption && tiling.depth == 1 ? "every" : "no");
    if (tiling.depth > 1 && dist.ranks() > 1)
      fmt::print("wave: {} steps per halo exchange, over a halo {} points deep, time tiles {} x {} "
                 "(y x z; 0: the runtime's)\n",
                 tiling.depth, halo, tiling.tileY, tiling.tileZ);
    else if (tiling.depth > 1)
      fmt::print("wave: {} steps per pass over memory, time tiles {} x {} (y x z; 0: the "
                 "runtime's), from {}\n",
                 tiling.depth, tiling.tileY, tiling.tileZ,
                 timeTileOption.getNumOccurrences() ? "--time-tile" : "the kernel's kTimeTiling");
  }
  if (const TableReport *table = propagator->tableReport(); table && dist.root()) {
    const auto &fit = table->fit;
    fmt::print("ETE table: {} velocities, worst in-band misfit {:.2e} (rms {:.2e}), worst "
               "amplification {:.9f}\n",
               table->velocities.size(),
               *std::max_element(fit.maxMisfit.begin(), fit.maxMisfit.end()),
               *std::max_element(fit.rmsMisfit.begin(), fit.rmsMisfit.end()),
               *std::max_element(fit.maxAmplification.begin(), fit.maxAmplification.end()));
  }
  SnapshotWriter writer(4, pngOption);
  {
    const bool mine = sj >= owned.y0 && sj < owned.y1;
    rt::Image2D piece;
    if (mine)
      piece = part(owned, owned.z0, owned.z1, [&](int i, int k) {
        return velocity(i - owned.x0, sj - owned.y0, k - owned.z0);
      });
    rt::Image2D image = dist.gather(piece, owned.x0, owned.z0, n.nx, n.nz);
    if (dist.root()) {
      Snapshot model;
      model.stem = dir + "/velocity_xz";
      model.image = std::move(image);
      model.lo = 1500;
      model.hi = std::max(vmax, 1501.0);
      model.map = rt::ColourMap::Sequential;
      model.scale = 2;
      writer.submit(std::move(model));
    }
  }
  // Receivers: every point of the line through the source at its depth; each
  // rank records those it owns. Sample s is the field at t = s dt (docs/SEISMIC.md
  // §Conventions): sample 0 is the initial, zero field and step s writes sample s + 1.
  const bool recording = sj >= owned.y0 && sj < owned.y1 && sk >= owned.z0 && sk < owned.z1;
  const int samples = steps + 1;
  rt::Image2D traces{recording ? owned.x1 - owned.x0 : 0, recording ? samples : 0, {}};
  traces.values.resize(std::size_t(traces.width) * traces.height);
  // δ(x) on the grid is 1/h³ at one point.
  const double vSource = dist.max(owned.x0 <= si && si < owned.x1 && owned.y0 <= sj &&
                                          sj < owned.y1 && owned.z0 <= sk && sk < owned.z1
                                      ? velocity(si - owned.x0, sj - owned.y0, sk - owned.z0)
                                      : 0.0);
  const double sourceScale = dt * dt * vSource * vSource / (h * h * h);
  const rt::RunOptions runOptions{*variant};
  const Stepper stepper = [&](const rt::KernelInfo &, const rt::ErasedArgs &args,
                              const rt::RunOptions &options) { dist.step(args, options); };
  double stepSeconds = 0;
  // Steps per second and time left, on a terminal only (rank 0's).
  rt::Progress progress("wave", steps, "steps", stderr, dist.root() && isatty(STDERR_FILENO));
  for (int step = 0; step < steps;) {
    const auto start = std::chrono::steady_clock::now();
    int taken = 1;
    if (tiling.depth == 1) {
      propagator->step(copiesOf(owned, halo, si, sj, sk, sourceScale * ricker(step * dt, f0, t0)),
                       runOptions, stepper);
      const rt::Grid<float> &p = propagator->current();
      if (recording)
        for (int i = owned.x0; i < owned.x1; ++i)
          traces.at(i - owned.x0, step + 1) = p(i - owned.x0, sj - owned.y0, sk - owned.z0);
    } else {
      // A pass of up to T steps, ending where a snapshot or volume is due.
      taken = std::min({tiling.depth, steps - step, every - step % every});
      if (volumeEvery > 0)
        taken = std::min(taken, volumeEvery - step % volumeEvery);
      // The receivers' line is (x, sj, sk), recorded where this process owns
      // it on each box of each step as it is done (boxes in the grid's
      // coordinates; over several ranks they reach into the halo).
      const int lj = sj - owned.y0, lk = sk - owned.z0, ownedX = owned.x1 - owned.x0;
      Propagator::StepRunner runner;
      if (dist.ranks() > 1)
        runner = [&](rt::ErasedArgs &args, int count, const rt::AfterBox &afterBox) {
          dist.runSteps(args, count, tiling, runOptions, afterBox);
        };
      propagator->stepTimeTiled(
          taken, tiling,
          [&](int s) {
            return copiesOf(owned, halo, si, sj, sk, sourceScale * ricker((step + s) * dt, f0, t0));
          },
          [&](int s, const rt::Box &box, const rt::FieldView<const float> &next) {
            if (recording && lj >= box.y0 && lj < box.y1 && lk >= box.z0 && lk < box.z1)
              for (int i = std::max(box.x0, 0); i < std::min(box.x1, ownedX); ++i)
                traces.at(i, step + s + 1) = next.row(lj, lk)[i];
          },
          runOptions, runner);
    }
    step += taken;
    stepSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const rt::Grid<float> &p = propagator->current();
    if (step % every == 0)
      submitSnapshots(writer, dist, p, step, sj, sk, n.nx, n.ny, n.nz, dir);
    // The whole wavefield: each process writes its own box of the one file.
    if (volumeEvery > 0 && step % volumeEvery == 0)
      dist.write(p, fmt::format("{}/wavefield_{:05d}.npy", dir, step));
    progress.advance(step);
  }
  progress.finish();
  rt::Image2D seismogram = dist.gather(traces, owned.x0, 0, n.nx, samples);
  stepSeconds = dist.max(stepSeconds);
  const double haloSeconds = dist.max(dist.haloSeconds());
  if (dist.root()) {
    writeShotRecord(dir + "/seismogram.segy", seismogram, geometry, dt, si, sj, sk);
    Snapshot record;
    record.stem = dir + "/seismogram";
    record.hi = 0.1 * rt::maxAbs(seismogram); // the direct wave would hide the reflections
    record.lo = -record.hi;
    record.image = std::move(seismogram);
    writer.submit(std::move(record));
  }
  writer.drain();
  if (dist.root()) {
    const double points = double(n.nx) * n.ny * n.nz * steps;
    fmt::print("{} steps in {:.2f} s ({:.0f} Mpoint/s{}); {} {} in {}/ (snapshot_*_xz: "
               "vertical slices through the source, seismogram: receivers across, time "
               "down; seismogram.segy: the shot gather in SEG-Y; geometry.json: for "
               "scripts/plot.py)\n",
               steps, stepSeconds, points / stepSeconds * 1e-6,
               dist.ranks() > 1 ? fmt::format(", {:.2f} s in halo exchange", haloSeconds) : "",
               writer.written(), pngOption ? "pictures (PNG and .npy)" : "arrays (.npy)", dir);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  ProcessGroup processes(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "3D acoustic forward modelling with stencilc kernels\n");
  try {
    return run();
  } catch (const std::exception &e) {
    // Before the run starts every process fails alike: rank 0 says why and all
    // leave. After, a failure may be one process's: it says why and ends them all.
    if (everyProcessAgrees) {
      if (ProcessGroup::rank() == 0)
        std::fprintf(stderr, "wave: error: %s\n", e.what());
      return 1;
    }
    std::fprintf(stderr, "wave: error (rank %d): %s\n", ProcessGroup::rank(), e.what());
    ProcessGroup::abort(1);
  }
}
