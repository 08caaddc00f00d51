//===- RtmMain.cpp - Reverse-time migration with generated kernels ---------===//
//
//   rtm [--size 100x40x70] [--shots 3] [--storage memory,disk,revolve]
//       [--checkpoints 12] [--image-every 4] [--operator fd8|ete37]
//       [--backend cpu|cuda] --out DIR
//
// A synthetic model (flat and dipping thin reflectors in a smooth
// background, RtmModel.h), shots modelled in it, and their data (less the
// background's, so only reflections remain) migrated in the background with
// the adjoint kernels that `stencilc gen --adjoint` derives from the wave
// example's stencils. Each storage strategy named migrates every shot; their
// images must be equal bit for bit, and the run reports the memory and time
// of each. Writes model.npy (the true velocity) and image.npy, both of shape
// (nz, ny, nx) like every volume the examples read and write, into --out, and beside them what
// scripts/plot.py draws the run's figures from (RunFiles.h; docs/SEISMIC.md
// §Reverse-time migration). A progress line on stderr when it is a terminal.
// --backend cuda steps, injects and images on the device (CudaMigration.h):
// on the CUDA emulator in rtm, on a GPU in rtm-gpu.
//
//===----------------------------------------------------------------------===//
#include "CudaMigration.h"
#include "Imaging.h"
#include "Migration.h"
#include "RtmModel.h"
#include "RunFiles.h"
#include "RunMemory.h"
#include "SurveyRun.h"

#include "Distribution.h"
#include "Model.h"
#include "Propagator.h"
#include "RunChecks.h"
#include "RunGeometry.h"

#include "stencilc/io/Npy.h"
#include "stencilc/io/Progress.h"
#include "stencilc/timeloop/Revolve.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#ifdef WAVE_WITH_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

using namespace rtm;
namespace cl = llvm::cl;
namespace fs = std::filesystem;

namespace {
cl::opt<wave::Operator> operatorOption(
    "operator", cl::desc("Spatial operator"),
    cl::values(clEnumValN(wave::Operator::Fd8, "fd8", "8th-order finite differences"),
               clEnumValN(wave::Operator::Ete37, "ete37", "ETE 37-point, fitted table")),
    cl::init(wave::Operator::Fd8));
cl::opt<std::string> sizeOption("size", cl::desc("Grid NXxNYxNZ"), cl::init("100x40x70"));
cl::opt<double> spacingOption("h", cl::desc("Grid spacing (m)"), cl::init(10));
cl::opt<double> courantOption("courant", cl::desc("v_max dt / h"), cl::init(0.4));
cl::opt<double> timeOption("time", cl::desc("Recording time (s)"), cl::init(0.75));
cl::opt<std::string>
    modelOption("model",
                cl::desc("The user's survey (SurveyRun.h): a velocity model, a .npy of float32 m/s "
                         "of shape (nz, ny, nx) with spacing -h and --origin, or a SEG-Y depth "
                         "model with its own; with --shots FILE[,FILE...]. Without it, the "
                         "built-in demonstration runs"),
                cl::init(""));
cl::opt<std::string> originOption("origin",
                                  cl::desc("--model M.npy: the position X,Y,Z (m) of its point "
                                           "(0, 0, 0) (default 0,0,0)"),
                                  cl::init(""));
cl::opt<std::string> shotsOption("shots",
                                 cl::desc("With --model: the recorded shots, SEG-Y files "
                                          "separated by commas; without: the number of shots, "
                                          "evenly spaced along x"),
                                 cl::init("3"));
cl::opt<double> frequencyOption("frequency", cl::desc("Ricker peak frequency (Hz)"), cl::init(15));
cl::opt<std::string> waveletOption("wavelet",
                                   cl::desc("With --model: the source wavelet, a SEG-Y file of one "
                                            "trace with its sample interval and delay (instead "
                                            "of a Ricker of --frequency)"),
                                   cl::init(""));
cl::opt<bool> allowUndersampledOption(
    "allow-undersampled",
    cl::desc("Run even where the grid is too coarse for the source's frequencies at the slowest "
             "velocity (numerical dispersion)"));
cl::opt<int> spongeOption("sponge",
                          cl::desc("Sponge width in points on the x faces, the top and the bottom"),
                          cl::init(12));
cl::opt<double> spongeAlphaOption("sponge-alpha",
                                  cl::desc("Sponge strength: each step scales the wavefield by "
                                           "exp(-(alpha (w - d) / w)^2) at d < w points from a "
                                           "face"),
                                  cl::init(0.3));
cl::opt<int> spongeYOption("sponge-y",
                           cl::desc("Sponge width in points on the y faces (default: --sponge)"),
                           cl::init(0));
cl::opt<std::string> storageOption(
    "storage",
    cl::desc("Wavefield storage: memory, disk, revolve, or several separated by commas (each "
             "migrates every shot; their images must be bit-identical)"),
    cl::init("revolve"));
cl::opt<int> checkpointsOption("checkpoints",
                               cl::desc("revolve: checkpoint slots (forward states held)"),
                               cl::init(12));
cl::opt<int> ranksPerShotOption(
    "ranks-per-shot",
    cl::desc("--model under mpiexec: ranks each shot's grid is split over (the ranks form groups "
             "of this many, each migrating its own shots; their number must be a multiple of it)"),
    cl::init(1));
cl::opt<int> imageEveryOption("image-every", cl::desc("Steps between imaging-condition terms"),
                              cl::init(4));
cl::opt<double> smoothingOption("smoothing",
                                cl::desc("Migration model: the true one smoothed by a Gaussian "
                                         "of this many cells (standard deviation) along x and z"),
                                cl::init(4));
cl::opt<bool> normaliseOption("normalise", cl::desc("Divide the image by the source illumination"),
                              cl::init(true));
cl::opt<bool> laplacianOption("laplacian", cl::desc("Filter the image by -laplacian"),
                              cl::init(true));
cl::opt<std::string> snapshotDirOption("snapshot-dir",
                                       cl::desc("disk: where snapshot files go (default: "
                                                "<out>/snapshots); removed after each shot"),
                                       cl::init(""));
cl::opt<std::string> checkpointDirOption(
    "checkpoint-dir",
    cl::desc("revolve: keep the checkpoints in files there instead of in memory (removed after "
             "each shot)"),
    cl::init(""));
cl::opt<std::string> outOption("out",
                               cl::desc("Directory for model.npy, image.npy and the files "
                                        "scripts/plot.py draws from"),
                               cl::init("rtm-out"));
cl::opt<int> snapshotsOption("snapshots",
                             cl::desc("Wavefield slices of the middle shot in the true model, "
                                      "evenly spaced in time (snapshot_NNNNN_xz.npy)"),
                             cl::init(3));
enum class Backend { Cpu, Cuda };
cl::opt<Backend> backendOption(
    "backend", cl::desc("Where the kernels run"),
    cl::values(clEnumValN(Backend::Cpu, "cpu", "the CPU kernels (OpenMP)"),
               clEnumValN(Backend::Cuda, "cuda", "the CUDA kernels, fields in device memory")),
    cl::init(Backend::Cpu));
cl::opt<std::string> variantOption(
    "variant",
    cl::desc("Kernel variant: naive, blocked, planes, auto (cpu, default planes); gmem, "
             "ro, traditional, planes (cuda, default gmem)"),
    cl::init("planes"));
cl::opt<std::string> stencilDirOption("stencil-dir",
                                      cl::desc("Where the wave example's .stencil files are"),
                                      cl::init(RTM_STENCIL_DIR));

ModelSize parseSize(const std::string &text) {
  ModelSize s;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%dx%dx%d%c", &s.nx, &s.ny, &s.nz, &tail) == 3 && s.nx > 0 &&
      s.ny > 0 && s.nz > 0)
    return s;
  throw std::invalid_argument("--size: expected NXxNYxNZ, got '" + text + "'");
}

std::vector<Storage> parseStorages(const std::string &text) {
  std::vector<Storage> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string name = text.substr(begin, end - begin);
    if (name == "memory")
      out.push_back(Storage::Memory);
    else if (name == "disk")
      out.push_back(Storage::Disk);
    else if (name == "revolve")
      out.push_back(Storage::Revolve);
    else
      throw std::invalid_argument("--storage: '" + name + "' is not memory, disk or revolve");
    begin = end + 1;
  }
  return out;
}

/// Fails now, before anything runs, if `dir` cannot be created or written.
void checkWritable(const std::string &dir, const char *option) {
  std::error_code error;
  fs::create_directories(dir, error);
  const std::string probe = dir + "/.rtm-write-probe";
  std::ofstream os(probe, std::ios::trunc);
  const bool ok = !error && os && bool(os << "probe") && bool(os.flush());
  os.close();
  std::error_code ignored;
  fs::remove(probe, ignored);
  if (!ok)
    throw std::runtime_error(fmt::format("{} {}: cannot write there{}", option, dir,
                                         error ? " (" + error.message() + ")" : ""));
}

/// Writes through a temporary file, so that a failed run leaves no partial file.
void writeVolume(const rt::Grid<float> &grid, const std::string &path) {
  writeAtomically(path, [&](const std::string &tmp) { rt::writeNpy(grid, tmp); });
}

/// Forward and adjoint steps of the whole run, for the progress line: each
/// shot is modelled twice and migrated once per storage; Revolve recomputes
/// its minimal number of forward steps beyond the turns.
long totalSteps(const std::vector<Storage> &storages, int steps, int shots, int checkpoints) {
  long perShot = 2L * steps;
  for (Storage s : storages)
    perShot +=
        2L * steps + (s == Storage::Revolve ? rt::revolveMinimalAdvances(steps, checkpoints) : 0);
  return perShot * shots;
}

std::string megabytes(size_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

/// `rtm --model FILE --shots FILE[,FILE...]`: the options the survey's run takes.
int runOnSurvey() {
  SurveyOptions o;
  o.model = modelOption;
  for (const std::string &file : splitCommas(shotsOption)) {
    if (file.empty())
      throw std::invalid_argument("--shots '" + shotsOption + "': an empty file name");
    o.shots.push_back(file);
  }
  o.out = outOption;
  o.frequency = frequencyOption;
  o.wavelet = waveletOption;
  if (!o.wavelet.empty() && frequencyOption.getNumOccurrences())
    throw std::invalid_argument("--wavelet " + o.wavelet +
                                " and --frequency: the wavelet is either the file's or a Ricker");
  o.allowUndersampled = allowUndersampledOption;
  o.h = spacingOption;
  o.hGiven = spacingOption.getNumOccurrences() > 0;
  if (!originOption.empty()) {
    const std::vector<std::string> parts = splitCommas(originOption);
    std::array<double, 3> origin{};
    for (size_t a = 0; a < 3; ++a) {
      char *end = nullptr;
      origin[a] = a < parts.size() ? std::strtod(parts[a].c_str(), &end) : 0;
      if (parts.size() != 3 || end == parts[a].c_str() || *end || !std::isfinite(origin[a]))
        throw std::invalid_argument("--origin '" + originOption + "': expected X,Y,Z in metres");
    }
    o.origin = origin;
  }
  o.courant = courantOption;
  if (timeOption.getNumOccurrences())
    o.time = timeOption.getValue();
  o.smoothing = smoothingOption.getNumOccurrences() ? smoothingOption.getValue() : 0.0;
  if (o.smoothing < 0)
    throw std::invalid_argument("--smoothing must not be negative");
  o.sponge = spongeOption;
  o.spongeY = spongeYOption.getNumOccurrences() ? spongeYOption.getValue() : o.sponge;
  o.spongeAlpha = spongeAlphaOption;
  o.op = operatorOption;
  const std::vector<Storage> storages = parseStorages(storageOption);
  if (storages.size() != 1)
    throw std::invalid_argument("--storage " + storageOption.getValue() +
                                ": name one strategy with --model");
  o.storage = storages[0];
  if (checkpointsOption < 1)
    throw std::invalid_argument("--checkpoints must be at least 1 (got " +
                                std::to_string(checkpointsOption) + ")");
  o.checkpoints = checkpointsOption;
  o.ranksPerShot = ranksPerShotOption;
  o.imageEvery = imageEveryOption;
  o.snapshotDir = snapshotDirOption.empty() ? o.out + "/snapshots" : snapshotDirOption.getValue();
  o.checkpointDir = checkpointDirOption;
  o.image = {normaliseOption, laplacianOption};
  o.stencilDir = stencilDirOption;
  if (backendOption == Backend::Cuda) {
    // Each rank migrates whole shots on a device of its own where there are
    // several (CudaMigration::useDeviceOfRank), its checkpoints in device
    // memory or, with --checkpoint-dir, in files as on the CPU path.
    if (o.ranksPerShot > 1)
      throw std::invalid_argument(
          fmt::format("--ranks-per-shot {}: with --backend cuda a shot runs whole on one device",
                      o.ranksPerShot));
    const auto cudaVariant = parseCudaVariant(
        variantOption.getNumOccurrences() ? variantOption.getValue() : std::string("gmem"));
    if (!cudaVariant)
      throw std::invalid_argument("--variant '" + variantOption +
                                  "': gmem, ro, traditional or planes with --backend cuda");
    const int device = CudaMigration::useDeviceOfRank(wave::ProcessGroup::rank());
    if (wave::ProcessGroup::rank() == 0)
      fmt::print("rtm: cuda backend on {} (device {} of rank 0)\n", CudaMigration::deviceName(),
                 device);
    o.device = [op = o.op, variant = *cudaVariant,
                dir = o.stencilDir](const rt::Grid<float> &velocity, const rt::Grid<float> &damping,
                                    double h, double dt) -> ShotMigrator {
      auto migration = std::make_shared<CudaMigration>(nullptr, velocity, damping,
                                                       CudaSetup{op, h, dt, variant, dir});
      return [migration](const Shot &shot, const MigrationOptions &options, ImageSums &sums,
                         StorageReport &report) {
        migration->migrateShot(shot, options, sums, report);
      };
    };
  } else {
    auto variant = rt::parseVariant(variantOption.getValue());
    if (!variant)
      throw std::invalid_argument("--variant '" + variantOption +
                                  "': naive, blocked, planes or auto");
    o.run = rt::RunOptions{*variant};
  }
  for (const char *demoOnly : {"size", "snapshots"})
    if (cl::getRegisteredOptions().lookup(demoOnly)->getNumOccurrences())
      throw std::invalid_argument(std::string("--") + demoOnly +
                                  ": the built-in demonstration's option (the model sets the "
                                  "size; no slices are written with --model)");
  if (o.storage == Storage::Disk)
    checkWritable(o.snapshotDir, "--snapshot-dir");
  if (!o.checkpointDir.empty())
    checkWritable(o.checkpointDir, "--checkpoint-dir");
  runSurvey(o);
  return 0;
}

int run() {
  using Clock = std::chrono::steady_clock;
  if (!modelOption.empty())
    return runOnSurvey();
  if (!originOption.empty())
    throw std::invalid_argument("--origin " + originOption.getValue() +
                                ": only with --model M.npy");
  if (ranksPerShotOption.getNumOccurrences())
    throw std::invalid_argument("--ranks-per-shot: only with --model (the built-in demonstration "
                                "runs in one process)");
  if (!waveletOption.empty())
    throw std::invalid_argument("--wavelet " + waveletOption.getValue() +
                                ": only with --model (the demonstration's source is a Ricker of "
                                "--frequency)");
  for (const cl::opt<double> *positive :
       {&timeOption, &spacingOption, &courantOption, &frequencyOption})
    if (!(positive->getValue() > 0) || !std::isfinite(positive->getValue()))
      throw std::invalid_argument(fmt::format("--{} {}: must be a positive number",
                                              positive->ArgStr.str(), positive->getValue()));
  if (wave::ProcessGroup::distributed()) {
    int ranks = 1;
#ifdef WAVE_WITH_MPI
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#endif
    if (ranks > 1)
      throw std::invalid_argument(fmt::format(
          "{} ranks: the built-in demonstration runs in one process (--model spreads its shots "
          "over ranks)",
          ranks));
  }
  int shotCount = 0;
  {
    char tail = 0;
    if (std::sscanf(shotsOption.c_str(), "%d%c", &shotCount, &tail) != 1)
      throw std::invalid_argument("--shots '" + shotsOption.getValue() +
                                  "': without --model, the number of shots (files need "
                                  "--model)");
  }
  const ModelSize n = parseSize(sizeOption);
  const std::vector<Storage> storages = parseStorages(storageOption);
  if (shotCount < 1)
    throw std::invalid_argument("--shots must be at least 1");
  if (imageEveryOption < 1)
    throw std::invalid_argument("--image-every must be at least 1");
  if (smoothingOption < 0)
    throw std::invalid_argument("--smoothing must not be negative");
  if (snapshotsOption < 0)
    throw std::invalid_argument("--snapshots must not be negative");
  if (checkpointsOption < 1)
    throw std::invalid_argument("--checkpoints must be at least 1 (got " +
                                std::to_string(checkpointsOption) + ")");
  const int sponge = spongeOption;
  const int spongeY = spongeYOption.getNumOccurrences() ? spongeYOption.getValue() : sponge;
  if (sponge < 0 || spongeY < 0)
    throw std::invalid_argument(
        fmt::format("--sponge {} and --sponge-y {}: must not be negative", sponge, spongeY));
  if (!(spongeAlphaOption >= 0 && spongeAlphaOption <= 10))
    throw std::invalid_argument(
        fmt::format("--sponge-alpha {}: expected 0 to 10", spongeAlphaOption.getValue()));
  const int depth = sponge + 2; // sources and receivers, below the top sponge
  if (n.nx < 2 * sponge + 8 || n.ny < 2 * spongeY + 1 || n.nz < 2 * sponge + 20)
    throw std::invalid_argument(
        fmt::format("--size {}x{}x{} is too small for a sponge of {} points ({} on the y faces)",
                    n.nx, n.ny, n.nz, sponge, spongeY));
  // A sponge wider than a third of an axis damps most of the model.
  if (3 * sponge > std::min(n.nx, n.nz) || 3 * spongeY > n.ny)
    throw std::invalid_argument(fmt::format(
        "--sponge {} (--sponge-y {}) is wider than a third of the grid {}x{}x{}: at most {} ({} "
        "on the y faces)",
        sponge, spongeY, n.nx, n.ny, n.nz, std::min(n.nx, n.nz) / 3, n.ny / 3));
  const bool onDevice = backendOption == Backend::Cuda;
  auto variant = rt::parseVariant(onDevice ? "planes" : variantOption.getValue());
  // gmem, the generated kernels' own default on the GPU (docs/PERFORMANCE.md §CUDA variants on a
  // GPU): the CPU's default name would pick the slowest CUDA scheme there.
  const bool cudaVariantGiven = onDevice && variantOption.getNumOccurrences() > 0;
  auto cudaVariant = parseCudaVariant(cudaVariantGiven ? variantOption.getValue() : "gmem");
  if (!variant)
    throw std::invalid_argument("--variant '" + variantOption +
                                "': naive, blocked, planes or auto");
  if (!cudaVariant)
    throw std::invalid_argument("--variant '" + variantOption +
                                "': gmem, ro, traditional or planes with --backend cuda");
  const std::string deviceName = onDevice ? CudaMigration::deviceName() : ""; // no GPU: fails here
  const double h = spacingOption;
  // Refused before the models are built: a source band the grid does not
  // resolve at the slowest velocity (the top's), and a run that needs more
  // memory than the machine has (its steps bounded by the fastest velocity
  // the reflectors can stack up to).
  if (!allowUndersampledOption)
    wave::checkFrequency(frequencyOption, backgroundVelocity(0), h, operatorOption);
  {
    double fastest = backgroundVelocity((n.nz - 1) * h);
    for (const Reflector &r : syntheticReflectors(n))
      fastest += std::abs(r.contrast);
    MigrationFootprint footprint;
    footprint.shape = rt::GridShape{3, n.nx, n.ny, n.nz, wave::kHalo};
    footprint.op = operatorOption;
    footprint.propagators = 3; // the true model's, the migration model's and its adjoint
    footprint.modelGrids = 3;  // the true and migration velocities and the sponge
    footprint.imageSums = int(storages.size());
    footprint.steps = int(std::ceil(timeOption * fastest / (courantOption * h)));
    footprint.imageEvery = imageEveryOption;
    footprint.checkpoints = checkpointsOption;
    footprint.checkpointsOnDisk = !checkpointDirOption.empty();
    // The storages migrate one after the other: the largest decides.
    auto bytesWith = [&](Storage s) {
      MigrationFootprint f = footprint;
      f.storage = s;
      return memoryBytes(f);
    };
    footprint.storage =
        *std::max_element(storages.begin(), storages.end(),
                          [&](Storage a, Storage b) { return bytesWith(a) < bytesWith(b); });
    checkFootprint(footprint, "");
  }
  const rt::Grid<float> vTrue = trueModel(n, h, wave::kHalo);
  const rt::Grid<float> vSmooth = smoothModel(n, h, wave::kHalo, smoothingOption);
  double vmax = 0;
  vTrue.forEachInteriorPoint(
      [&](int i, int j, int k) { vmax = std::max(vmax, double(vTrue(i, j, k))); });
  const double dt = courantOption * h / vmax;
  const int steps = int(std::lround(timeOption / dt));
  if (steps < imageEveryOption)
    throw std::invalid_argument(
        fmt::format("--time {} s is {} steps, fewer than --image-every {}: nothing would be imaged",
                    timeOption.getValue(), steps, imageEveryOption.getValue()));
  // The figures' shot's wavefield is sliced every `sliceEvery` steps, --snapshots times.
  const int sliceEvery = snapshotsOption > 0 ? steps / (snapshotsOption + 1) : 0;
  if (snapshotsOption > 0 && sliceEvery < 1)
    throw std::invalid_argument(
        fmt::format("--snapshots {}: more than the {} steps", snapshotsOption.getValue(), steps));
  if (operatorOption == wave::Operator::Fd8) {
    const double limit = wave::fdCourantLimit(stencilDirOption);
    if (courantOption > limit)
      throw std::invalid_argument(
          fmt::format("--courant {} is unstable for the fd8 operator: its leapfrog step is stable "
                      "up to Courant {:.4f}",
                      courantOption.getValue(), limit));
  }
  const std::string out = outOption;
  const std::string snapshotDir =
      snapshotDirOption.empty() ? out + "/snapshots" : snapshotDirOption.getValue();
  // Every directory is checked before anything runs; image.npy comes last.
  checkWritable(out, "--out");
  for (Storage s : storages) {
    if (s == Storage::Disk)
      checkWritable(snapshotDir, "--snapshot-dir");
    if (s == Storage::Revolve && !checkpointDirOption.empty())
      checkWritable(checkpointDirOption, "--checkpoint-dir");
  }
  if (!checkpointDirOption.empty() &&
      std::find(storages.begin(), storages.end(), Storage::Revolve) == storages.end())
    throw std::invalid_argument("--checkpoint-dir " + checkpointDirOption.getValue() +
                                ": only the revolve storage keeps checkpoints");

  const rt::Grid<float> damping =
      wave::spongeDamping(rt::GridShape{3, n.nx, n.ny, n.nz, wave::kHalo},
                          {sponge, spongeY, sponge, sponge}, spongeAlphaOption);
  const std::string dir = stencilDirOption;
  using wave::Direction;
  std::unique_ptr<wave::Propagator> inTrue, inSmooth, adjoint;
  std::unique_ptr<CudaMigration> device;
  if (onDevice) {
    device = std::make_unique<CudaMigration>(&vTrue, vSmooth, damping,
                                             CudaSetup{operatorOption, h, dt, *cudaVariant, dir});
    fmt::print("rtm: cuda backend on {}\n", deviceName);
  } else {
    inTrue = wave::Propagator::create(operatorOption, vTrue, damping, h, dt, dir);
    inSmooth = wave::Propagator::create(operatorOption, vSmooth, damping, h, dt, dir);
    adjoint = wave::Propagator::create(operatorOption, vSmooth, damping, h, dt, dir, {}, false,
                                       Direction::Adjoint);
  }

  fmt::print("rtm: {} operator, {}x{}x{} points, h = {} m, dt = {:.6f} s (Courant {}), {} steps "
             "= {:.3f} s, {} shots, imaging every {} steps\n",
             wave::operatorName(operatorOption), n.nx, n.ny, n.nz, h, dt, courantOption.getValue(),
             steps, steps * dt, shotCount, imageEveryOption.getValue());

  std::vector<Point> receivers;
  for (int i = sponge; i < n.nx - sponge; ++i)
    receivers.push_back({i, n.ny / 2, depth});
  const double f0 = frequencyOption, t0 = 1.2 / f0;
  // The figures' shot: the middle one.
  ShotFigures figures;
  figures.shot = shotCount / 2;
  std::vector<std::array<int, 3>> sources;
  std::vector<ImageSums> sums(storages.size());
  std::vector<StorageReport> reports(storages.size());
  for (size_t s = 0; s < storages.size(); ++s)
    reports[s].storage = storages[s];
  double modellingSeconds = 0;
  const rt::RunOptions runOptions{*variant};
  rt::Progress progress("rtm", totalSteps(storages, steps, shotCount, checkpointsOption), "steps");
  for (int shot = 0; shot < shotCount; ++shot) {
    Shot sh;
    const int sx = sponge + (n.nx - 2 * sponge) * (2 * shot + 1) / (2 * shotCount);
    sh.source = {sx, n.ny / 2, depth};
    sources.push_back(sh.source);
    const double v = vSmooth(sx, n.ny / 2, depth);
    for (int m = 0; m < steps; ++m) // δ(x) on the grid is 1/h³ at one point
      sh.wavelet.push_back(dt * dt * v * v / (h * h * h) * wave::ricker(m * dt, f0, t0));
    sh.receivers = receivers;
    // The reflections alone: the data in the true model less those in the background.
    const auto start = Clock::now();
    const bool pictured = shot == figures.shot;
    AfterStep slice;
    if (pictured && snapshotsOption > 0)
      slice = [&](int step, const rt::Grid<float> &u) {
        if (step % sliceEvery == 0 && step / sliceEvery <= snapshotsOption)
          figures.slices.emplace_back(step, xzSlice(u, n.ny / 2));
      };
    using Model = CudaMigration::Model;
    // The device runs a shot's modelling as a whole: its progress moves after each run.
    sh.data = device ? device->modelShot(Model::True, sh, steps, sliceEvery, slice)
                     : modelShot(*inTrue, sh, steps, runOptions, &progress, slice);
    if (device)
      progress.advanceBy(steps);
    const auto direct = device ? device->modelShot(Model::Migration, sh, steps)
                               : modelShot(*inSmooth, sh, steps, runOptions, &progress);
    if (device)
      progress.advanceBy(steps);
    modellingSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    for (int m = 0; m < steps; ++m)
      for (size_t r = 0; r < receivers.size(); ++r)
        sh.data[size_t(m)][r] -= direct[size_t(m)][r];
    if (pictured) {
      for (int m = 0; m < steps; ++m) {
        figures.reflections.push_back(sh.data[size_t(m)]);
        figures.recorded.push_back(sh.data[size_t(m)]);
        for (size_t r = 0; r < receivers.size(); ++r)
          figures.recorded.back()[r] += direct[size_t(m)][r];
      }
    }
    for (size_t s = 0; s < storages.size(); ++s) {
      MigrationOptions o;
      o.storage = storages[s];
      o.steps = steps;
      o.imageEvery = imageEveryOption;
      o.checkpoints = checkpointsOption;
      o.snapshotDir = snapshotDir;
      o.checkpointDir = checkpointDirOption;
      o.run = runOptions;
      o.progress = &progress;
      if (device) {
        const long long before = reports[s].forwardSteps + reports[s].adjointSteps;
        device->migrateShot(sh, o, sums[s], reports[s]);
        progress.advanceBy(reports[s].forwardSteps + reports[s].adjointSteps - before);
      } else {
        migrateShot(*inSmooth, *adjoint, sh, o, sums[s], reports[s]);
      }
    }
    progress.finish(); // erased, so that the line below starts clean on a terminal
    fmt::print("rtm: shot {}/{} at x = {} migrated\n", shot + 1, shotCount, sx);
    std::fflush(stdout);
  }

  std::vector<rt::Grid<float>> images;
  for (const ImageSums &s : sums)
    images.push_back(finishImage(s, n.nx, n.ny, n.nz, {normaliseOption, laplacianOption}));
  for (size_t s = 1; s < images.size(); ++s) {
    bool same = true;
    images[0].forEachInteriorPoint([&](int i, int j, int k) {
      const float a = images[0](i, j, k), b = images[s](i, j, k);
      same &= std::memcmp(&a, &b, sizeof(float)) == 0;
    });
    if (!same)
      throw std::runtime_error(fmt::format("the {} and {} images differ", storageName(storages[0]),
                                           storageName(storages[s])));
  }
  double largest = 0;
  images[0].forEachInteriorPoint([&](int i, int j, int k) {
    largest = std::max(largest, double(std::abs(images[0](i, j, k))));
  });
  fmt::print("largest |image| {:.3e}\n", largest);
  // The figures' files first, the image last: a run that fails leaves no image.
  seisio::RunGeometry geometry;
  geometry.grid = seisio::Geometry{n.nx, n.ny, n.nz, h, h, h};
  geometry.dt = dt;
  geometry.steps = steps;
  geometry.snapshotEvery = sliceEvery;
  const Point &figureSource = sources[size_t(figures.shot)];
  std::copy(figureSource.begin(), figureSource.end(), geometry.source);
  geometry.receiverDepth = depth;
  geometry.sliceY = n.ny / 2;
  geometry.sliceZ = depth;
  geometry.program = "rtm";
  geometry.receiverFirst = receivers.front()[0];
  geometry.receiverCount = int(receivers.size());
  geometry.shots = sources;
  seisio::writeRunGeometry(out + "/geometry.json", geometry);
  writeVolume(vSmooth, out + "/migration_model.npy");
  writeShotFigures(figures, out);
  writeVolume(vTrue, out + "/model.npy");
  writeVolume(images[0], out + "/image.npy");

  // Cost: a shot against two forward runs at this strategy's own forward
  // step time (the machine may be shared: each row is timed against itself).
  const double pointsPerStep = double(n.nx) * n.ny * n.nz;
  const double forwardRate = 2.0 * steps * shotCount / modellingSeconds;
  fmt::print("forward modelling: {:.1f} steps/s ({:.0f} Mpoint/s)\n", forwardRate,
             forwardRate * pointsPerStep * 1e-6);
  fmt::print("{:<8} {:>8} {:>10} {:>10} {:>11} {:>11} {:>13} {:>10}\n", "storage", "s/shot",
             "fwd steps", "adj steps", "fwd ms/step", "adj ms/step", "vs 2 fwd runs", "memory");
  for (const StorageReport &r : reports) {
    const double forwardStep = r.forwardSeconds / double(r.forwardSteps);
    fmt::print("{:<8} {:>8.2f} {:>10} {:>10} {:>11.2f} {:>11.2f} {:>12.2f}x {:>10}\n",
               storageName(r.storage), r.seconds / shotCount, r.forwardSteps / shotCount,
               r.adjointSteps / shotCount, 1e3 * forwardStep,
               1e3 * r.adjointSeconds / double(r.adjointSteps),
               r.seconds / (2.0 * steps * shotCount * forwardStep), megabytes(r.peakBytes));
    if (r.storage == Storage::Disk)
      fmt::print("         disk: {} of snapshots per shot; writing {:.2f} s, of which the time "
                 "loop waited {:.2f} s ({:.0f}% hidden){}; reading back {:.2f} s\n",
                 megabytes(r.diskBytes), r.ioSeconds, r.blockedSeconds,
                 r.ioSeconds > 0 ? 100 * std::max(0.0, 1 - r.blockedSeconds / r.ioSeconds) : 100.0,
                 onDevice && CudaMigration::emulated()
                     ? " (the wait includes the device-to-host copies, synchronous under the "
                       "CUDA emulator)"
                     : "",
                 r.readSeconds);
    if (r.storage == Storage::Revolve)
      fmt::print("         revolve: {} checkpoints, {} forward steps beyond the turns per shot "
                 "(Revolve's minimum t·n − β(s+1, t−1) = {})\n",
                 checkpointsOption.getValue(), r.forwardSteps / shotCount - steps,
                 rt::revolveMinimalAdvances(steps, checkpointsOption));
    if (r.storage == Storage::Revolve && !checkpointDirOption.empty())
      fmt::print("         revolve: checkpoints in {}, {} of files; writing {:.2f} s, reading "
                 "{:.2f} s\n",
                 checkpointDirOption.getValue(), megabytes(r.diskBytes), r.ioSeconds,
                 r.readSeconds);
  }
  if (images.size() > 1)
    fmt::print("the images of every storage strategy are bit-identical\n");
  fmt::print("wrote {}/model.npy (true velocity), migration_model.npy (the smoothed one) and "
             "image.npy (the image), shape (nz, ny, nx) = ({}, {}, {}); "
             "shot_gather.npy and shot_reflections.npy (shot {}, (samples, receivers)), {} "
             "snapshot_*_xz.npy and geometry.json for scripts/plot.py\n",
             out, n.nx, n.ny, n.nz, figures.shot + 1, figures.slices.size());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  // Under mpiexec, --model spreads the shots over the ranks (SurveyRun.h).
  wave::ProcessGroup processes(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Reverse-time migration with stencilc kernels\n");
  try {
    return run();
  } catch (const std::exception &e) {
    // Every rank fails alike (the inputs are checked on each, and a shot's
    // failure reaches all through onEveryProcess): rank 0 says why.
    if (wave::ProcessGroup::rank() == 0)
      std::fprintf(stderr, "rtm: error: %s\n", e.what());
    return 1;
  }
}
