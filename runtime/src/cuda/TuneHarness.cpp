//===- TuneHarness.cpp - The program `stencilc tune --backend cuda` builds --===//
//
// Linked with one generated CUDA kernel and compiled with
//   -DSTENCILC_TUNE_HEADER='"<name>_cuda.h"'
//   -DSTENCILC_TUNE_NAMESPACE=stencilc_kernels::<name>_cuda
// by nvcc for a GPU, or by the host compiler against the CUDA emulator for a
// dry run. It needs nothing of the compiler, so that it can be built on one
// machine and run on a GPU machine without one (`stencilc tune --prepare`):
//
//   harness tune DIR NX NY NZ ND INDEX STEPS BUDGET
//
//   1. prints "device CC L2_BYTES FREE_BYTES NAME": the GPU's compute
//      capability x 10 (whose launch defaults every run takes), its L2, its
//      free memory and its name (what a tuning file keys the result by); and
//      "stencil NAME TYPE HASH", the hash from DIR/stencil.txt, so that a
//      result is recorded for the stencil it was measured for;
//   2. checks every launch of the search space (stencilc/cuda/LaunchSearch.h),
//      the defaults first, on the check data `stencilc` wrote into DIR
//      (stencilc/bench/CheckData.h, with the reference evaluator's outputs
//      as expect_F.npy and the element type's tolerance in tolerance.txt):
//      one step each, out of place, into poisoned outputs. Prints
//      "checked N VARIANT BX BY NW RELATIVE_ERROR" or "refused N VARIANT BX BY
//      NW WHY" (more shared memory than the device gives a block); a launch
//      over the tolerance ends the run (exit status 1);
//   3. searches the launches that passed on an NX x NY x NZ grid (0 0 0: the
//      smallest cube of at least 4x the device's L2), filled as `stencilc
//      bench` fills one (INDEX "random" or "layered", ND table columns), each
//      timing STEPS steps with the time levels rotating, one CUDA event pair
//      around them, after a warm-up run; BUDGET seconds for rounds 1 and 2.
//      Prints "grid NX NY NZ", "refused-on-grid N VARIANT BX BY NW WHY" for a
//      launch refused there (staged table rows grow with ND, and the check
//      data has fewer), "timed ROUND N SECONDS_PER_STEP" for each timing, "pick N SECONDS_PER_STEP
//      DEFAULT_SECONDS_PER_STEP KEPT_DEFAULTS" and "elapsed SECONDS" (the whole run, checks
//      included).
//
// Exit status 2 with a message on stderr for bad arguments, 1 for a failure.
//
//===----------------------------------------------------------------------===//
#include STENCILC_TUNE_HEADER

#include <stencilc/KernelData.h>
#include <stencilc/RelativeError.h>
#include <stencilc/bench/CheckData.h>
#include <stencilc/bench/LayeredIndex.h>
#include <stencilc/bench/RandomFill.h>
#include <stencilc/cuda/DeviceKernelData.h>
#include <stencilc/cuda/LaunchSearch.h>
#include <stencilc/cuda/Streams.h>
#include <stencilc/io/Npy.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace k = STENCILC_TUNE_NAMESPACE;
namespace rt = stencilc::rt;
namespace cuda = stencilc::cuda;

namespace {

struct Device {
  int computeCapability = 0; ///< x 10
  long long l2Bytes = 0, freeBytes = 0;
  std::string name;
};

Device thisDevice() {
  int device = 0;
  cudaDeviceProp prop{};
  STENCILC_CUDA_CHECK(cudaGetDevice(&device));
  STENCILC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::size_t freeBytes = 0, totalBytes = 0;
  STENCILC_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  return {prop.major * 10 + prop.minor, prop.l2CacheSize, (long long)freeBytes, prop.name};
}

/// The launch defaults of architecture `cc` (the newest listed not newer than it).
const k::ArchDefaults &archDefaults(int cc) {
  const k::ArchDefaults *d = &k::kArchDefaults[0];
  for (const k::ArchDefaults &candidate : k::kArchDefaults)
    if (candidate.arch <= cc)
      d = &candidate;
  return *d;
}

rt::CudaLaunchSpace launchSpace() {
  rt::CudaLaunchSpace space;
  for (k::Variant v : k::kVariants) {
    space.variants.push_back(k::variantName(v));
    if (k::marchesInZ(v))
      space.marching.insert(k::variantName(v));
    if (k::takesRows(v))
      space.rowCounts[k::variantName(v)].assign(std::begin(k::kRowCounts), std::end(k::kRowCounts));
  }
  space.maxThreadsPerBlock = k::kMaxThreadsPerBlock;
  return space;
}

/// What a step launches on architecture `cc` with every option left at its default and no
/// tuned launch (the harness's kernels are generated without a tuning file).
rt::CudaLaunch defaults(int cc) {
  static_assert(k::kTunedLaunches.empty(), "the defaults are the untuned ones");
  const k::ArchDefaults &d = archDefaults(cc);
  return {k::variantName(d.variant), d.blockX, d.blockY, k::marchesInZ(d.variant) ? d.nw : 0,
          k::takesRows(d.variant) ? d.rows : 1};
}

k::LaunchOptions optionsFor(const rt::CudaLaunch &l, int cc) {
  k::LaunchOptions o;
  for (k::Variant v : k::kVariants)
    if (l.variant == k::variantName(v))
      o.variant = v;
  o.arch = cc;
  o.blockX = l.blockX;
  o.blockY = l.blockY;
  o.nw = l.nw;
  o.rows = l.rows;
  return o;
}

bool isOutput(const rt::KernelFieldInfo &f) { return std::string(f.role) == "out"; }

void printLaunch(const char *tag, std::size_t n, const rt::CudaLaunch &l) {
  std::printf("%s %zu %s %d %d %d %d", tag, n, l.variant.c_str(), l.blockX, l.blockY, l.nw, l.rows);
}

/// The launches of `list` that give the reference's outputs on the check data in `dir`, the
/// refused ones left out; nullopt after one that does not.
std::optional<std::vector<rt::CudaLaunch>> check(const std::string &dir,
                                                 const std::vector<rt::CudaLaunch> &list, int cc) {
  const rt::KernelInfo &info = k::kernelInfo();
  std::unique_ptr<rt::KernelData> data = rt::readCheckData<k::Real>(info, dir);
  double tolerance = 0;
  if (!(std::ifstream(dir + "/tolerance.txt") >> tolerance) || !(tolerance > 0))
    throw std::runtime_error("cannot read " + dir + "/tolerance.txt");
  std::vector<std::pair<int, rt::Grid<double>>> expected;
  for (std::size_t f = 0; f < info.fields.size(); ++f)
    if (isOutput(info.fields[f])) {
      const rt::Grid<k::Real> &out = data->field<k::Real>(int(f));
      rt::Grid<double> e(rt::GridShape{info.dims, out.nx(), out.ny(), out.nz(), 0});
      rt::readNpyInto(e, dir + "/expect_" + std::to_string(f) + ".npy");
      expected.emplace_back(int(f), std::move(e));
    }
  cuda::DeviceKernelData device(*data);
  std::vector<rt::CudaLaunch> passed;
  for (std::size_t n = 0; n < list.size(); ++n) {
    for (const auto &[f, e] : expected)
      device.field<k::Real>(f).poison();
    try {
      k::runErased(device.args(), optionsFor(list[n], cc));
    } catch (const rt::KernelError &e) {
      printLaunch("refused", n, list[n]);
      std::printf(" %s\n", e.what());
      continue;
    }
    STENCILC_CUDA_CHECK(cudaDeviceSynchronize());
    double worst = 0;
    for (const auto &[f, e] : expected) {
      device.download(f);
      worst = std::max(worst, rt::relativeError(data->field<k::Real>(f), e));
    }
    printLaunch("checked", n, list[n]);
    std::printf(" %.3g\n", worst);
    if (!(worst < tolerance)) {
      std::fflush(stdout);
      std::cerr << "error: " << info.name << " launched as " << list[n].variant << " "
                << list[n].blockX << "x" << list[n].blockY << ", nw " << list[n].nw << ", rows "
                << list[n].rows << " differs from the reference evaluator (relative error " << worst
                << ", tolerance " << tolerance << ")\n";
      return std::nullopt;
    }
    passed.push_back(list[n]);
  }
  return passed;
}

/// Bytes of every field's grid per point, none sharing storage.
int bytesPerPoint(const rt::KernelInfo &info) {
  int bytes = 0;
  for (const rt::KernelFieldInfo &f : info.fields)
    bytes += rt::elementBytesOf(f.type);
  return bytes;
}

cuda::SearchResult search(const rt::GridShape &shape, int nd, const std::string &index, int steps,
                          double budget, const std::vector<rt::CudaLaunch> &list, int cc,
                          const std::function<std::size_t(const rt::CudaLaunch &)> &indexOf) {
  const rt::KernelInfo &info = k::kernelInfo();
  rt::KernelData data(info, shape, nd, /*inPlace=*/false);
  rt::fillForBench<k::Real>(data, nd);
  if (index == "layered")
    rt::fillLayered(data, nd);
  cuda::DeviceKernelData device(data);
  cuda::Stream stream;
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  auto runSteps = [&](const k::LaunchOptions &options) {
    for (int s = 0; s < steps; ++s) {
      k::runErased(device.args(), options);
      data.rotate();
      device.remap();
    }
  };
  const cuda::TimeLaunch time = [&](const rt::CudaLaunch &l, int repeats) -> std::optional<double> {
    k::LaunchOptions options = optionsFor(l, cc);
    options.stream = stream;
    try {
      runSteps(options); // warm-up: caches, clocks, the opt-in of shared memory
    } catch (const rt::KernelError &e) {
      // Shared memory that grows with the table's columns: the check data has fewer than ND.
      printLaunch("refused-on-grid", indexOf(l), l);
      std::printf(" %s\n", e.what());
      return std::nullopt;
    }
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
      start.record(stream);
      runSteps(options);
      end.record(stream);
      end.synchronize();
      seconds.push_back(1e-3 * double(end.millisecondsSince(start)) / steps);
    }
    STENCILC_CUDA_CHECK(cudaGetLastError());
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
  };
  const std::vector<rt::CudaLaunch> candidates(list.begin() + 1, list.end());
  return cuda::searchLaunches(launchSpace(), candidates, list.front(), time, budget);
}

int tune(const std::string &dir, int nx, int ny, int nz, int nd, const std::string &index,
         int steps, double budget) {
  const auto started = std::chrono::steady_clock::now();
  const rt::KernelInfo &info = k::kernelInfo();
  const Device d = thisDevice();
  std::printf("device %d %lld %lld %s\n", d.computeCapability, d.l2Bytes, d.freeBytes,
              d.name.c_str());
  // What was prepared: the stencil's hash (stencil.txt, from `stencilc`) and the element type.
  std::string hash;
  std::ifstream(dir + "/stencil.txt") >> hash;
  std::printf("stencil %s %s %s\n", info.stencil, info.elemType, hash.c_str());

  std::vector<rt::CudaLaunch> list = {defaults(d.computeCapability)};
  for (const rt::CudaLaunch &l : launchSpace().all())
    if (!(l == list.front()))
      list.push_back(l);
  const std::optional<std::vector<rt::CudaLaunch>> passed = check(dir, list, d.computeCapability);
  if (!passed)
    return 1;
  if (passed->empty() || !(passed->front() == list.front())) {
    std::cerr << "error: the launch defaults were refused on the check data\n";
    return 1;
  }

  const int bytes = bytesPerPoint(info);
  if (nx <= 0) {
    // The smallest grid of at least 4x the L2, a multiple of 8 on a side.
    const double points = 4.0 * double(std::max(d.l2Bytes, 1LL << 20)) / bytes;
    const int side = int(std::ceil(info.dims == 3 ? std::cbrt(points) : std::sqrt(points)));
    nx = ny = std::max(64, (side + 7) / 8 * 8);
    nz = info.dims == 3 ? nx : 1;
  }
  const double needed = double(bytes) * nx * ny * (info.dims == 3 ? nz : 1);
  if (needed + double(1 << 28) > double(d.freeBytes)) {
    std::fprintf(stderr,
                 "error: a %dx%dx%d grid needs %.2f GB of device memory; %s has %.2f GB free: "
                 "give a smaller size\n",
                 nx, ny, nz, 1e-9 * needed, d.name.c_str(), 1e-9 * double(d.freeBytes));
    return 1;
  }
  std::printf("grid %d %d %d\n", nx, ny, info.dims == 3 ? nz : 1);
  std::fflush(stdout);
  const rt::GridShape shape{info.dims, nx, ny, info.dims == 3 ? nz : 1, info.radius};
  auto indexOf = [&](const rt::CudaLaunch &l) {
    return std::size_t(std::find(list.begin(), list.end(), l) - list.begin());
  };
  const cuda::SearchResult r =
      search(shape, nd, index, steps, budget, *passed, d.computeCapability, indexOf);
  for (const cuda::TimedLaunch &t : r.timings)
    std::printf("timed %d %zu %.9g\n", t.round, indexOf(t.launch), t.seconds);
  std::printf("pick %zu %.9g %.9g %d\n", indexOf(r.pick), r.pickSeconds, r.defaultSeconds,
              r.keptDefaults ? 1 : 0);
  std::printf("elapsed %.3f\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
}

int run(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "tune" && argc == 10) {
    const std::string index = argv[7];
    if (index != "random" && index != "layered") {
      std::cerr << "error: INDEX is 'random' or 'layered', not '" << index << "'\n";
      return 2;
    }
    return tune(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]),
                std::max(1, std::atoi(argv[6])), index, std::max(1, std::atoi(argv[8])),
                std::atof(argv[9]));
  }
  std::cerr << "usage: " << argv[0] << " tune DIR NX NY NZ ND random|layered STEPS BUDGET\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
