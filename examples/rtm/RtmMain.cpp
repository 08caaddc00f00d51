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
// of each. Writes model.npy (the true velocity) and image.npy, both indexed
// like the grid with depth last, into --out (docs/SEISMIC.md §Reverse-time migration).
// --backend cuda steps, injects and images on the device (CudaMigration.h):
// on the CUDA emulator in rtm, on a GPU in rtm-gpu.
//
//===----------------------------------------------------------------------===//
#include "CudaMigration.h"
#include "Imaging.h"
#include "Migration.h"
#include "RtmModel.h"

#include "Model.h"
#include "Propagator.h"

#include "stencilc/Revolve.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

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
cl::opt<int> shotsOption("shots", cl::desc("Shots, evenly spaced along x"), cl::init(3));
cl::opt<double> frequencyOption("frequency", cl::desc("Ricker peak frequency (Hz)"), cl::init(15));
cl::opt<int> spongeOption("sponge", cl::desc("Sponge width in points"), cl::init(12));
cl::opt<std::string> storageOption(
    "storage",
    cl::desc("Wavefield storage: memory, disk, revolve, or several separated by commas (each "
             "migrates every shot; their images must be bit-identical)"),
    cl::init("revolve"));
cl::opt<int> checkpointsOption("checkpoints",
                               cl::desc("revolve: checkpoint slots (forward states held)"),
                               cl::init(12));
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
cl::opt<std::string> outOption("out", cl::desc("Directory for model.npy and image.npy"),
                               cl::init("rtm-out"));
enum class Backend { Cpu, Cuda };
cl::opt<Backend>
    backendOption("backend", cl::desc("Where the kernels run"),
                  cl::values(clEnumValN(Backend::Cpu, "cpu", "the CPU kernels (OpenMP)"),
                             clEnumValN(Backend::Cuda, "cuda",
                                        "the CUDA kernels, fields in device memory (fd8 only)")),
                  cl::init(Backend::Cpu));
cl::opt<std::string>
    variantOption("variant",
                  cl::desc("Kernel variant: naive, blocked, planes (cpu); gmem, ro, traditional, "
                           "planes (cuda)"),
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
void writeAtomically(const rt::Grid<float> &grid, const std::string &path) {
  const std::string tmp = path + ".partial";
  try {
    writeDepthLastNpy(grid, tmp);
    fs::rename(tmp, path);
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

std::string megabytes(size_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

int run() {
  using Clock = std::chrono::steady_clock;
  const ModelSize n = parseSize(sizeOption);
  const std::vector<Storage> storages = parseStorages(storageOption);
  if (shotsOption < 1)
    throw std::invalid_argument("--shots must be at least 1");
  if (imageEveryOption < 1)
    throw std::invalid_argument("--image-every must be at least 1");
  if (smoothingOption < 0)
    throw std::invalid_argument("--smoothing must not be negative");
  if (checkpointsOption < 1)
    throw std::invalid_argument("--checkpoints must be at least 1 (got " +
                                std::to_string(checkpointsOption) + ")");
  const int sponge = spongeOption;
  const int depth = sponge + 2; // sources and receivers, below the top sponge
  if (n.nx < 2 * sponge + 8 || n.ny < 2 * sponge + 1 || n.nz < 2 * sponge + 20)
    throw std::invalid_argument(fmt::format(
        "--size {}x{}x{} is too small for a sponge of {} points", n.nx, n.ny, n.nz, sponge));
  const bool onDevice = backendOption == Backend::Cuda;
  auto variant = rt::parseVariant(onDevice ? "planes" : variantOption.getValue());
  auto cudaVariant = parseCudaVariant(onDevice ? variantOption.getValue() : "planes");
  if (!variant)
    throw std::invalid_argument("--variant '" + variantOption + "': naive, blocked or planes");
  if (!cudaVariant)
    throw std::invalid_argument("--variant '" + variantOption +
                                "': gmem, ro, traditional or planes with --backend cuda");
  if (onDevice && operatorOption != wave::Operator::Fd8)
    throw std::invalid_argument(
        "--backend cuda runs the fd8 operator only (the ETE adjoint is not built for CUDA)");
  const std::string deviceName = onDevice ? CudaMigration::deviceName() : ""; // no GPU: fails here
  const double h = spacingOption;
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
  for (Storage s : storages)
    if (s == Storage::Disk)
      checkWritable(snapshotDir, "--snapshot-dir");

  const rt::Grid<float> damping =
      wave::spongeDamping(rt::GridShape{3, n.nx, n.ny, n.nz, wave::kHalo}, sponge);
  const std::string dir = stencilDirOption;
  using wave::Direction;
  auto inTrue = wave::Propagator::create(operatorOption, vTrue, damping, h, dt, dir);
  auto inSmooth = wave::Propagator::create(operatorOption, vSmooth, damping, h, dt, dir);
  auto adjoint = wave::Propagator::create(operatorOption, vSmooth, damping, h, dt, dir, {}, false,
                                          Direction::Adjoint);
  std::unique_ptr<CudaMigration> device;
  if (onDevice) {
    device = std::make_unique<CudaMigration>(vTrue, vSmooth, damping, h, dt, *cudaVariant);
    fmt::print("rtm: cuda backend on {}\n", deviceName);
  }

  fmt::print("rtm: {} operator, {}x{}x{} points, h = {} m, dt = {:.6f} s (Courant {}), {} steps "
             "= {:.3f} s, {} shots, imaging every {} steps\n",
             wave::operatorName(operatorOption), n.nx, n.ny, n.nz, h, dt, courantOption.getValue(),
             steps, steps * dt, shotsOption.getValue(), imageEveryOption.getValue());

  std::vector<Point> receivers;
  for (int i = sponge; i < n.nx - sponge; ++i)
    receivers.push_back({i, n.ny / 2, depth});
  const double f0 = frequencyOption, t0 = 1.2 / f0;
  std::vector<ImageSums> sums(storages.size());
  std::vector<StorageReport> reports(storages.size());
  for (size_t s = 0; s < storages.size(); ++s)
    reports[s].storage = storages[s];
  double modellingSeconds = 0;
  const rt::RunOptions runOptions{*variant};
  for (int shot = 0; shot < shotsOption; ++shot) {
    Shot sh;
    const int sx = sponge + (n.nx - 2 * sponge) * (2 * shot + 1) / (2 * shotsOption);
    sh.source = {sx, n.ny / 2, depth};
    const double v = vSmooth(sx, n.ny / 2, depth);
    for (int m = 0; m < steps; ++m) // δ(x) on the grid is 1/h³ at one point
      sh.wavelet.push_back(dt * dt * v * v / (h * h * h) * wave::ricker(m * dt, f0, t0));
    sh.receivers = receivers;
    // The reflections alone: the data in the true model less those in the background.
    const auto start = Clock::now();
    using Model = CudaMigration::Model;
    sh.data = device ? device->modelShot(Model::True, sh, steps)
                     : modelShot(*inTrue, sh, steps, runOptions);
    const auto direct = device ? device->modelShot(Model::Migration, sh, steps)
                               : modelShot(*inSmooth, sh, steps, runOptions);
    modellingSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    for (int m = 0; m < steps; ++m)
      for (size_t r = 0; r < receivers.size(); ++r)
        sh.data[size_t(m)][r] -= direct[size_t(m)][r];
    for (size_t s = 0; s < storages.size(); ++s) {
      MigrationOptions o;
      o.storage = storages[s];
      o.steps = steps;
      o.imageEvery = imageEveryOption;
      o.checkpoints = checkpointsOption;
      o.snapshotDir = snapshotDir;
      o.run = runOptions;
      if (device)
        device->migrateShot(sh, o, sums[s], reports[s]);
      else
        migrateShot(*inSmooth, *adjoint, sh, o, sums[s], reports[s]);
    }
    fmt::print("rtm: shot {}/{} at x = {} migrated\n", shot + 1, shotsOption.getValue(), sx);
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
  writeAtomically(vTrue, out + "/model.npy");
  writeAtomically(images[0], out + "/image.npy");

  // Cost: a shot against two forward runs at this strategy's own forward
  // step time (the machine may be shared: each row is timed against itself).
  const double pointsPerStep = double(n.nx) * n.ny * n.nz;
  const double forwardRate = 2.0 * steps * shotsOption / modellingSeconds;
  fmt::print("forward modelling: {:.1f} steps/s ({:.0f} Mpoint/s)\n", forwardRate,
             forwardRate * pointsPerStep * 1e-6);
  fmt::print("{:<8} {:>8} {:>10} {:>10} {:>11} {:>11} {:>13} {:>10}\n", "storage", "s/shot",
             "fwd steps", "adj steps", "fwd ms/step", "adj ms/step", "vs 2 fwd runs", "memory");
  for (const StorageReport &r : reports) {
    const double forwardStep = r.forwardSeconds / double(r.forwardSteps);
    fmt::print("{:<8} {:>8.2f} {:>10} {:>10} {:>11.2f} {:>11.2f} {:>12.2f}x {:>10}\n",
               storageName(r.storage), r.seconds / shotsOption, r.forwardSteps / shotsOption,
               r.adjointSteps / shotsOption, 1e3 * forwardStep,
               1e3 * r.adjointSeconds / double(r.adjointSteps),
               r.seconds / (2.0 * steps * shotsOption * forwardStep), megabytes(r.peakBytes));
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
                 checkpointsOption.getValue(), r.forwardSteps / shotsOption - steps,
                 rt::revolveMinimalAdvances(steps, checkpointsOption));
  }
  if (images.size() > 1)
    fmt::print("the images of every storage strategy are bit-identical\n");
  fmt::print("wrote {}/model.npy (true velocity) and {}/image.npy (the image), shape (nx, ny, "
             "nz) = ({}, {}, {}), depth last\n",
             out, out, n.nx, n.ny, n.nz);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "Reverse-time migration with stencilc kernels\n");
  try {
    return run();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rtm: error: %s\n", e.what());
    return 1;
  }
}
