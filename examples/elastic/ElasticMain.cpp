//===- ElasticMain.cpp - 3D elastic forward modelling with the LWC step ----===//
//
//   elastic [--model layered|homogeneous|DIR] [--vp V --vs V --rho R] [--size 64x64x80]
//           [--h 10] [--courant 0.4] [--time 0.5 | --steps N] [--frequency 8]
//           [--source-depth K] [--receiver-depth K] [--sponge 12] [--snapshot-every K]
//           [--out DIR]
//
// The Lax-Wendroff-correction elastic step of seed 002 (dsl-examples/lwc_elastic.stencil,
// generated at build time) on an isotropic model given as (vp, vs, rho), built in or
// read from .npy files, and converted to the Lamé parameters. The source is the paper's (Algorithm
// 1, step 4): a vertical point force with a Ricker time function, added to W's second time
// derivative as f(t) / (rho h³). A sponge damps the waves near the faces. Receivers record the
// three displacement components along three lines: x (at the source's y, at its depth or
// --receiver-depth), y and z through the source; vertical slices of U, V and W are
// written as snapshots. A time step above the coupled step's von Neumann limit
// (ElasticStability.h) is refused with the numbers.
//
//===----------------------------------------------------------------------===//
#include "ElasticModel.h"
#include "ElasticStability.h"

#include "Model.h"
#include "RunChecks.h"
#include "RunGeometry.h"
#include "SegyGather.h"
#include "ShotRecord.h"
#include "SnapshotWriter.h"

#include "analysis/RunBudget.h"
#include "stencilc/ShiftedField.h"
#include "stencilc/io/Npy.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <stdexcept>

using namespace elastic;
namespace cl = llvm::cl;

namespace {
cl::opt<std::string>
    modelOption("model",
                cl::desc("layered (three layers, ElasticModel.h), homogeneous (--vp, --vs, --rho "
                         "everywhere), or a directory holding vp.npy, vs.npy and rho.npy, float32 "
                         "(nz, ny, nx) in m/s and kg/m^3 (spacing --h; it sets the size)"),
                cl::init("layered"));
cl::opt<double> vpOption("vp", cl::desc("P velocity of the homogeneous model (m/s)"),
                         cl::init(2000));
cl::opt<double> vsOption("vs", cl::desc("S velocity of the homogeneous model (m/s)"),
                         cl::init(1200));
cl::opt<double> rhoOption("rho", cl::desc("Density of the homogeneous model (kg/m^3)"),
                          cl::init(2000));
cl::opt<std::string> sizeOption("size", cl::desc("Grid NXxNYxNZ, or N for N^3"),
                                cl::init("64x64x80"));
cl::opt<double> spacingOption("h", cl::desc("Grid spacing (m), every axis"), cl::init(10));
cl::opt<double> courantOption("courant", cl::desc("vp_max dt / h"), cl::init(0.4));
cl::opt<double> timeOption("time", cl::desc("Simulated time (s)"), cl::init(0.5));
cl::opt<int> stepsOption("steps", cl::desc("Time steps (overrides --time)"), cl::init(0));
cl::opt<double> frequencyOption("frequency", cl::desc("Ricker peak frequency (Hz)"), cl::init(8));
cl::opt<int> sourceDepthOption("source-depth",
                               cl::desc("Source z index (default: the centre for the homogeneous "
                                        "model, else 4 points below the sponge)"),
                               cl::init(-1));
cl::opt<int> receiverDepthOption("receiver-depth",
                                 cl::desc("z index of the horizontal receiver line (default: the "
                                          "source's)"),
                                 cl::init(-1));
cl::opt<int> spongeOption("sponge",
                          cl::desc("Sponge width in points (0: none; default: 12, or a third "
                                   "of the shortest axis where that is less)"),
                          cl::init(12));
cl::opt<int> snapshotEvery("snapshot-every", cl::desc("Steps between snapshots (0: 4 per run)"),
                           cl::init(0));
cl::opt<std::string> outOption("out", cl::desc("Directory for pictures and arrays"),
                               cl::init("elastic-out"));
cl::opt<bool> pngOption("png",
                        cl::desc("Write a quick PNG beside each snapshot .npy (--png=false when "
                                 "scripts/plot.py draws the figures)"),
                        cl::init(true));
cl::opt<std::string> variantOption("variant",
                                   cl::desc("Kernel variant: naive, blocked, planes, auto"),
                                   cl::init("naive"));
cl::opt<std::string> stencilOption("stencil",
                                   cl::desc("lwc_elastic.stencil, for the stability analysis"),
                                   cl::init(ELASTIC_STENCIL_FILE));
cl::opt<bool> allowUnstableOption(
    "allow-unstable",
    cl::desc("Run even where the time step is unstable (for experiments; the field blows up)"));
cl::opt<bool> allowUndersampledOption(
    "allow-undersampled",
    cl::desc("Run even where the grid is too coarse for the source's frequency"));

/// The grids a run holds: six displacement levels, vp, vs, rho, lambda, mu and the sponge.
constexpr int kGrids = 12;
/// The stencil's radius: every field's halo.
constexpr int kHalo = 2;
/// The fewest points per S wavelength at the top of the wavelet's band: along
/// an axis the 4th-order second difference's phase velocity is 2.8 % slow at 4
/// points; obliquely the diagonal cross derivatives make S faster, 0.4 % at 10
/// points per wavelength (the peak frequency at this limit) and 54.7 degrees from
/// an axis (docs/SEISMIC.md §Elastic modelling).
constexpr double kMinPointsPerWavelength = 4;

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
  throw std::invalid_argument("--size " + text + ": expected N or NXxNYxNZ, each 1 or more");
}

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
  if (stepsOption < 0 || (stepsOption.getNumOccurrences() && stepsOption == 0))
    throw std::invalid_argument(
        fmt::format("--steps {}: expected 1 or more (absent: from --time)", stepsOption));
  if (snapshotEvery < 0)
    throw std::invalid_argument(
        fmt::format("--snapshot-every {}: expected 0 (4 per run) or more", snapshotEvery));
  if (sourceDepthOption.getNumOccurrences() && sourceDepthOption < 0)
    throw std::invalid_argument(
        fmt::format("--source-depth {}: expected a z index, 0 or more", sourceDepthOption));
  if (receiverDepthOption.getNumOccurrences() && receiverDepthOption < 0)
    throw std::invalid_argument(
        fmt::format("--receiver-depth {}: expected a z index, 0 or more", receiverDepthOption));
  if (modelOption != "layered" && modelOption != "homogeneous" &&
      !std::filesystem::is_directory(modelOption.getValue()))
    throw std::invalid_argument("--model " + modelOption +
                                ": expected layered, homogeneous or a directory holding vp.npy, "
                                "vs.npy and rho.npy");
  // Only the homogeneous model takes them: with another they would be ignored.
  for (const cl::opt<double> *o : {&vpOption, &vsOption, &rhoOption})
    if (modelOption != "homogeneous" && o->getNumOccurrences())
      throw std::invalid_argument(fmt::format("--{} {}: applies to --model homogeneous only",
                                              o->ArgStr.str(), o->getValue()));
}

/// The three components' levels at t and t - dt; the kernel writes t + dt over t - dt.
struct Wavefield {
  std::array<rt::Grid<float>, 3> cur, prev;
};

/// A 2D picture of `values(i, k)`, width x height.
template <typename F> rt::Image2D picture(int width, int height, F &&values) {
  rt::Image2D image{width, height, {}};
  image.values.resize(std::size_t(width) * height);
  for (int k = 0; k < height; ++k)
    for (int i = 0; i < width; ++i)
      image.at(i, k) = values(i, k);
  return image;
}

int run() {
  checkOptions();
  Size n = parseSize(sizeOption);
  const double h = spacingOption;
  const bool isHomogeneous = modelOption == "homogeneous";
  const bool fromFiles = !isHomogeneous && modelOption != "layered";
  if (fromFiles) {
    const rt::Extent e = inspectModelDir(modelOption);
    if (sizeOption.getNumOccurrences() && (e.nx != n.nx || e.ny != n.ny || e.nz != n.nz))
      throw std::invalid_argument(fmt::format("--size {}x{}x{} disagrees with {}, {}x{}x{}", n.nx,
                                              n.ny, n.nz, modelOption.getValue(), e.nx, e.ny,
                                              e.nz));
    n = {e.nx, e.ny, e.nz};
  }
  const LayeredModel model =
      isHomogeneous ? homogeneous({vpOption, vsOption, rhoOption}) : builtInLayers(n.nz);
  if (!fromFiles)
    for (size_t l = 0; l < model.layers.size(); ++l)
      checkMaterial(model.layers[l], isHomogeneous ? std::string("--model homogeneous")
                                                   : fmt::format("layer {}", l + 1));
  auto variant = rt::parseVariant(variantOption);
  if (!variant)
    throw std::invalid_argument("--variant " + variantOption + ": naive, blocked, planes or auto");
  // wave's rule for a given width (at most a third of an axis), with a default of 12.
  const int sponge = spongeOption.getNumOccurrences()
                         ? wave::spongeWidth(spongeOption, true, n.nx, n.ny, n.nz)
                         : std::min<int>(spongeOption, std::min({n.nx, n.ny, n.nz}) / 3);
  {
    // Before any grid is allocated (one process: elastic does not run under MPI).
    const rt::GridShape shape{3, n.nx, n.ny, n.nz, kHalo};
    const double bytes =
        double(kGrids) * double(rt::GridLayout::of<float>(shape).elements) * sizeof(float);
    const double available = double(stencilc::analysis::readAvailableMemory());
    if (available > 0 && bytes > available)
      throw std::invalid_argument(fmt::format(
          "the run needs {} of grids ({} float32 grids of {}x{}x{} points and their halos) and "
          "this machine has {} available: a smaller --size",
          stencilc::analysis::bytesText(bytes), kGrids, n.nx, n.ny, n.nz,
          stencilc::analysis::bytesText(available)));
  }
  const ElasticVolumes volumes =
      fromFiles ? readModelDir(modelOption, kHalo) : volumesOf(model, n.nx, n.ny, n.nz, kHalo);
  if (fromFiles)
    checkVolumes(volumes, h, modelOption);
  double vpMax = 0, vsMin = INFINITY;
  volumes.vp.forEachInteriorPoint([&](int i, int j, int k) {
    vpMax = std::max(vpMax, double(volumes.vp(i, j, k)));
    vsMin = std::min(vsMin, double(volumes.vs(i, j, k)));
  });
  const double f0 = frequencyOption, t0 = 1.2 / f0;
  if (!allowUndersampledOption) {
    const double top = wave::kRickerBandFactor * f0, points = vsMin / top / h;
    if (points < kMinPointsPerWavelength)
      throw std::invalid_argument(fmt::format(
          "--frequency {} Hz is more than the grid resolves: the wavelet reaches {:.4g} Hz ({} x "
          "its peak), an S wavelength of {:.3g} m at the slowest vs ({:.6g} m/s), {:.2f} points "
          "of h = {} m; the 4th-order LWC step needs {} points per wavelength, so --frequency "
          "{} Hz at most here (or a finer grid); --allow-undersampled runs it anyway",
          f0, top, wave::kRickerBandFactor, vsMin / top, vsMin, points, h, kMinPointsPerWavelength,
          std::floor(vsMin / (kMinPointsPerWavelength * h * wave::kRickerBandFactor) * 10) / 10));
  }
  const double dt = courantOption * h / vpMax;
  // The coupled step's stable limit: the smallest of the extreme materials'
  // (ElasticStability.h: they bound every point's).
  const CoupledStability analysis(stencilOption);
  const std::vector<Material> extremes = extremeMaterials(volumes);
  double dtStable = INFINITY;
  Material limiting;
  for (const Material &m : extremes)
    if (const double limit = analysis.largestStableStep(m, h); limit < dtStable) {
      dtStable = limit;
      limiting = m;
    }
  if (dt > dtStable && !allowUnstableOption)
    throw std::invalid_argument(fmt::format(
        "--courant {} is unstable for the LWC elastic step: dt = {:.6g} s exceeds the largest "
        "stable step {:.6g} s of the material vp = {:.6g} m/s, vs = {:.6g} m/s (Courant vp_max "
        "dt / h at most {:.4f} here; von Neumann analysis of the coupled step of {}); "
        "--allow-unstable runs it anyway",
        courantOption.getValue(), dt, dtStable, limiting.vp, limiting.vs, dtStable * vpMax / h,
        stencilOption.getValue()));
  const int steps = stepsOption > 0 ? stepsOption : int(std::lround(timeOption / dt));
  if (steps < 1)
    throw std::invalid_argument(
        fmt::format("--time {} is less than one step of {:.6f} s", timeOption.getValue(), dt));
  const int every = snapshotEvery > 0 ? snapshotEvery : std::max(1, steps / 4);
  const int si = n.nx / 2, sj = n.ny / 2;
  const int sk = sourceDepthOption >= 0 ? sourceDepthOption
                 : isHomogeneous        ? n.nz / 2
                                        : std::min(n.nz - 1, sponge + 4);
  if (sk >= n.nz)
    throw std::invalid_argument(
        fmt::format("--source-depth {} is below the grid ({} points deep)", sk, n.nz));
  const int rk = receiverDepthOption >= 0 ? receiverDepthOption : sk;
  if (rk >= n.nz)
    throw std::invalid_argument(
        fmt::format("--receiver-depth {} is below the grid ({} points deep)", rk, n.nz));

  const rt::KernelInfo *kernel = rt::findKernel("lwc_elastic");
  if (!kernel)
    throw std::logic_error("the lwc_elastic kernel is not linked in");
  ElasticFields fields = makeFields(volumes);
  const rt::Grid<float> damp =
      wave::spongeDamping(rt::GridShape{3, n.nx, n.ny, n.nz, kHalo}, sponge);
  Wavefield u;
  for (int c = 0; c < 3; ++c) {
    u.cur[size_t(c)] = rt::Grid<float>::make3d(n.nx, n.ny, n.nz, kHalo);
    u.prev[size_t(c)] = rt::Grid<float>::make3d(n.nx, n.ny, n.nz, kHalo);
  }
  std::vector<double> scalars;
  for (const char *name : kernel->scalars) {
    const std::string s = name;
    scalars.push_back(s == "dt" ? dt : h); // dt, hx, hy, hz
  }

  const std::string dir = outOption;
  std::filesystem::create_directories(dir); // nothing is written before the run is known to start
  seisio::Geometry geometry{n.nx, n.ny, n.nz, h, h, h};
  seisio::RunGeometry runGeometry{geometry, dt, steps, every, {si, sj, sk}, rk, sj, sk};
  runGeometry.program = "elastic";
  seisio::writeRunGeometry(dir + "/geometry.json", runGeometry);
  fmt::print("elastic: {} model, {}x{}x{} points, h = {} m, dt = {:.6f} s (Courant {}; stable "
             "up to {:.4f}, {} extreme material{}), {} steps = {:.3f} s, Ricker {} Hz vertical "
             "force at ({}, {}, {}), sponge {} points\n",
             modelOption.getValue(), n.nx, n.ny, n.nz, h, dt, courantOption.getValue(),
             dtStable * vpMax / h, extremes.size(), extremes.size() > 1 ? "s" : "", steps,
             steps * dt, f0, si, sj, sk, sponge);

  wave::SnapshotWriter writer(4, pngOption);
  const char *names[3] = {"u", "v", "w"};
  // The model's vertical slice through the source, vp and vs.
  for (const bool p : {true, false}) {
    wave::Snapshot s;
    s.stem = dir + (p ? "/vp_xz" : "/vs_xz");
    const rt::Grid<float> &v = p ? volumes.vp : volumes.vs;
    s.image = picture(n.nx, n.nz, [&](int i, int k) { return v(i, sj, k); });
    s.lo = 0;
    s.hi = vpMax;
    s.map = rt::ColourMap::Sequential;
    s.scale = 4;
    writer.submit(std::move(s));
  }
  // Receivers, each recording U, V and W: every x at the source's y and depth
  // rk (`seismogram`), every y at the source's x and depth (`crossline`,
  // across the force) and every z at its x and y (`vsp`, along the force).
  // Sample s is the field at t = s dt; sample 0 is the zero initial field.
  const int samples = steps + 1;
  struct Line {
    const char *name;
    int count;
    std::function<std::array<int, 3>(int r)> point; ///< receiver r's grid point
    std::array<rt::Image2D, 3> traces;
  };
  std::array<Line, 3> lines{Line{"seismogram",
                                 n.nx,
                                 [&](int r) {
                                   return std::array<int, 3>{r, sj, rk};
                                 },
                                 {}},
                            Line{"crossline",
                                 n.ny,
                                 [&](int r) {
                                   return std::array<int, 3>{si, r, sk};
                                 },
                                 {}},
                            Line{"vsp",
                                 n.nz,
                                 [&](int r) {
                                   return std::array<int, 3>{si, sj, r};
                                 },
                                 {}}};
  for (Line &line : lines)
    for (rt::Image2D &traces : line.traces)
      traces = picture(line.count, samples, [](int, int) { return 0.0f; });
  // Algorithm 1, step 4: W_tt += f(t) / (rho h1 h2 h3) at the source, f the
  // Ricker wavelet in newtons; the leapfrog step multiplies it by dt².
  const double sourceScale = dt * dt / (double(fields.rho(si, sj, sk)) * h * h * h);
  const rt::RunOptions options{*variant};
  const rt::Extent extent{n.nx, n.ny, n.nz};
  double seconds = 0;
  for (int step = 0; step < steps; ++step) {
    const auto start = std::chrono::steady_clock::now();
    // In place: each component's t + dt level is written over its t - dt level.
    const rt::ErasedArgs args = [&] {
      rt::ErasedArgs a = rt::bindFields(
          *kernel, extent,
          {rt::namedField("U_prev", u.prev[0]), rt::namedField("U_cur", u.cur[0]),
           rt::namedField("U_next", u.prev[0]), rt::namedField("V_prev", u.prev[1]),
           rt::namedField("V_cur", u.cur[1]), rt::namedField("V_next", u.prev[1]),
           rt::namedField("W_prev", u.prev[2]), rt::namedField("W_cur", u.cur[2]),
           rt::namedField("W_next", u.prev[2]), rt::namedField("rho", fields.rho),
           rt::namedField("lambda", fields.lambda), rt::namedField("mu", fields.mu)});
      a.scalars = scalars;
      return a;
    }();
    kernel->run(args, options);
    u.prev[2](si, sj, sk) += float(sourceScale * wave::ricker(step * dt, f0, t0));
    for (int c = 0; c < 3; ++c)
      std::swap(u.cur[size_t(c)], u.prev[size_t(c)]);
    // The sponge (Cerjan et al. 1985): both levels scaled by the point's factor
    // each step; the step being linear, where the factor is constant the field
    // is the undamped one times factor^steps, with no change of phase.
    if (sponge > 0)
      damp.forEachInteriorPoint([&](int i, int j, int k) {
        const float d = damp(i, j, k);
        if (d == 1.0f)
          return;
        for (int c = 0; c < 3; ++c) {
          u.cur[size_t(c)](i, j, k) *= d;
          u.prev[size_t(c)](i, j, k) *= d;
        }
      });
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (Line &line : lines)
      for (int r = 0; r < line.count; ++r) {
        const auto [i, j, k] = line.point(r);
        for (int c = 0; c < 3; ++c)
          line.traces[size_t(c)].at(r, step + 1) = u.cur[size_t(c)](i, j, k);
      }
    if ((step + 1) % every == 0)
      for (int c = 0; c < 3; ++c) {
        const rt::Grid<float> &g = u.cur[size_t(c)];
        wave::Snapshot s;
        s.stem = fmt::format("{}/snapshot_{:05d}_xz_{}", dir, step + 1, names[c]);
        s.image = picture(n.nx, n.nz, [&](int i, int k) { return g(i, sj, k); });
        s.hi = 0.5 * rt::maxAbs(s.image);
        s.lo = -s.hi;
        s.scale = 4;
        writer.submit(std::move(s));
      }
  }
  for (const Line &line : lines)
    for (int c = 0; c < 3; ++c) {
      const rt::Image2D &traces = line.traces[size_t(c)];
      const std::string stem = fmt::format("{}/{}_{}", dir, line.name, names[c]);
      // One trace per receiver, at its grid point's position.
      seisio::ShotGather gather;
      gather.samples = samples;
      gather.dt = dt;
      gather.source = {si * h, sj * h, sk * h};
      gather.values.resize(std::size_t(traces.width) * samples);
      for (int r = 0; r < traces.width; ++r) {
        const auto [i, j, k] = line.point(r);
        gather.receivers.push_back({i * h, j * h, k * h});
        for (int t = 0; t < samples; ++t)
          gather.at(r, t) = traces.at(r, t);
      }
      seisio::writeSegyGather(stem + ".segy", gather);
      wave::Snapshot s;
      s.stem = stem;
      s.image = traces;
      s.hi = 0.5 * rt::maxAbs(s.image);
      s.lo = -s.hi;
      writer.submit(std::move(s));
    }
  writer.drain();
  const double points = double(n.nx) * n.ny * n.nz * steps;
  fmt::print("{} steps in {:.2f} s ({:.1f} Mpoint/s); {} {} in {}/ (seismogram_[uvw]: receivers "
             "along x, crossline_[uvw]: along y, vsp_[uvw]: along z, time down, also as SEG-Y; "
             "snapshot_*_xz_[uvw]: "
             "vertical slices through the source; geometry.json: for scripts/plot.py)\n",
             steps, seconds, points / seconds * 1e-6, writer.written(),
             pngOption ? "pictures (PNG and .npy)" : "arrays (.npy)", dir);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(
      argc, argv,
      "3D elastic forward modelling with the LWC stencil (seed 002)\n\n"
      "  Writes C-order float32 .npy arrays (docs/SEISMIC.md §Conventions): vertical slices\n"
      "  (nz, nx), gathers (steps + 1, receivers), sample s at t = s dt; gathers also as SEG-Y.\n");
  try {
    return run();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "elastic: error: %s\n", e.what());
    return 1;
  }
}
