//===- GpuBench.cpp - The CUDA variants of one kernel, checked and timed --===//
//
// The GPU counterpart of `stencilc bench`, built once per generated kernel
// (CMakeLists.txt names it with STENCILC_GPU_BENCH_HEADER and _NAMESPACE):
//
//   gpu-bench-KERNEL FILE.stencil [--size=N | --size=NX,NY,NZ] [--nd=902]
//                    [--repeats=10] [--arch=CC]
//                    [--block-x=BX] [--block-y=BY] [--nw=NW] [--triad-elements=134217728]
//
//   1. compiles FILE's stencil for its flops and compulsory bytes per point;
//   2. runs one step of every CUDA variant on a small odd-sized grid with
//      poisoned outputs and compares it with the reference evaluator, and
//      where the kernel has it one two-step launch (runTwoSteps, `twostep`)
//      with two reference steps;
//   3. measures the device's triad bandwidth;
//   4. times every variant (median of the repeats, one CUDA event pair per
//      step; per launch over two for twostep) out of place on random data,
//      and prints the CPU bench's table.
//
// A variant that does not match the reference fails the run (exit status 1),
// so its timing is never taken for a result.
//
//===----------------------------------------------------------------------===//
#include STENCILC_GPU_BENCH_HEADER

#include "DeviceTriad.h"

#include "analysis/CostModel.h"
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"
#include "eval/RelativeError.h"
#include "frontend/Frontend.h"
#include "passes/Pipeline.h"
#include "support/Diagnostics.h"

#include <stencilc/KernelData.h>
#include <stencilc/cuda/DeviceKernelData.h>
#include <stencilc/cuda/Streams.h>

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace kernel = stencilc_kernels::STENCILC_GPU_BENCH_NAMESPACE;
using namespace stencilc;

namespace {

llvm::cl::opt<std::string> stencilPath(llvm::cl::Positional, llvm::cl::Required,
                                       llvm::cl::desc("<the kernel's .stencil file>"));
llvm::cl::list<int>
    sizeOption("size", llvm::cl::CommaSeparated,
               llvm::cl::desc("N (cube) or NX,NY,NZ; default 256^3 (8192^2 in 2D)"));
llvm::cl::opt<int> ndOption("nd", llvm::cl::init(902), llvm::cl::desc("distinct index values"));
llvm::cl::opt<int> repeatsOption("repeats", llvm::cl::init(10),
                                 llvm::cl::desc("timed steps per variant (median reported)"));
llvm::cl::opt<unsigned long long>
    triadElementsOption("triad-elements", llvm::cl::init(1ull << 27),
                        llvm::cl::desc("doubles per triad array (default 2^27: 1 GiB each)"));
llvm::cl::opt<int> archOption("arch", llvm::cl::init(0),
                              llvm::cl::desc("compute capability x 10 for the launch defaults "
                                             "(default: the device's)"));

llvm::cl::opt<int> blockXOption("block-x", llvm::cl::init(0),
                                llvm::cl::desc("threads per block along x (default: the arch's)"));
llvm::cl::opt<int> blockYOption("block-y", llvm::cl::init(0),
                                llvm::cl::desc("threads per block along y (default: the arch's)"));
llvm::cl::opt<int> nwOption("nw", llvm::cl::init(0),
                            llvm::cl::desc("planes a block marches in z, traditional and planes "
                                           "(default: the arch's)"));

/// The architecture whose launch defaults every run takes: --arch, else the device's.
int launchArch = 0;

/// How every variant is launched, checked and timed alike: the options given, the rest the
/// architecture's defaults.
kernel::LaunchOptions launchOptions(kernel::Variant v) {
  kernel::LaunchOptions o{v, launchArch};
  o.blockX = blockXOption;
  o.blockY = blockYOption;
  o.nw = nwOption;
  return o;
}

llvm::raw_ostream &error() { return llvm::WithColor::error(llvm::errs(), "gpu-bench"); }

/// The stencil the kernel was generated from, compiled, with the kernel's element type.
struct Compiled {
  llvm::SourceMgr sources;
  std::optional<ir::Module> module;
  std::optional<std::vector<CompiledStencil>> stencils;
  const CompiledStencil *stencil = nullptr;
};

bool compile(const std::string &path, const rt::KernelInfo &info, Compiled &c) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error() << "cannot open '" << path << "': " << buffer.getError().message() << "\n";
    return false;
  }
  unsigned id = c.sources.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  DiagnosticEngine diag(c.sources, llvm::errs());
  c.module = parseModule(id, diag);
  if (!c.module)
    return false;
  for (ir::Stencil &s : c.module->stencils)
    s.elemType = std::string(info.elemType) == "float" ? ir::ElemType::Float : ir::ElemType::Double;
  c.stencils = runPipeline(*c.module, diag);
  if (!c.stencils)
    return false;
  for (const CompiledStencil &s : *c.stencils)
    if (s.stencil->name == info.stencil)
      c.stencil = &s;
  if (!c.stencil)
    error() << path << " has no stencil '" << info.stencil << "'\n";
  return c.stencil != nullptr;
}

/// The small odd-sized grid every check runs on.
eval::EvalSizes checkSizes(const rt::KernelInfo &info) {
  const bool is3d = info.dims == 3;
  return {is3d ? 37 : 67, is3d ? 21 : 45, is3d ? 13 : 1, 23, -1};
}

/// The kernel's grid shape for `sizes`, with the reference data's halo.
rt::GridShape checkShape(const rt::KernelInfo &info, const eval::EvalSizes &sizes,
                         const eval::EvalData &ref) {
  rt::GridShape shape{info.dims, sizes.nx, sizes.ny, sizes.nz, 0};
  for (const auto &g : ref.grids)
    if (g)
      shape.halo = g->halo();
  return shape;
}

/// Normwise relative error of each variant's outputs after one step (infinite with a NaN).
template <typename Real>
std::vector<double> checkVariants(const rt::KernelInfo &info, const ir::Stencil &stencil) {
  const eval::EvalSizes sizes = checkSizes(info);
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 4242);
  eval::evaluateReference(stencil, ref.bindings());
  const rt::GridShape shape = checkShape(info, sizes, ref);
  rt::KernelData data(info, shape, sizes.tableColumns, /*inPlace=*/false);
  eval::copyInputs<Real>(ref, data);
  cuda::DeviceKernelData device(data);
  std::vector<double> errors;
  for (kernel::Variant v : kernel::kVariants) {
    for (std::size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output)
        device.field<Real>(int(f)).poison();
    kernel::runErased(device.args(), launchOptions(v));
    STENCILC_CUDA_CHECK(cudaDeviceSynchronize());
    double worst = 0;
    for (std::size_t f = 0; f < info.fields.size(); ++f) {
      if (ref.roles[f] != ir::FieldRole::Output)
        continue;
      device.download(int(f));
      worst = std::max(worst, eval::relativeError(data.field<Real>(int(f)), *ref.grids[f]));
    }
    errors.push_back(worst);
  }
  return errors;
}

/// Random data as `stencilc bench` uses: bounded values, small coefficients.
template <typename Real> void fillRandom(rt::KernelData &data, int nd) {
  const rt::KernelInfo &k = data.info();
  for (std::size_t f = 0; f < k.fields.size(); ++f) {
    const std::string role = k.fields[f].role;
    std::visit(
        [&](auto &grid) {
          using T = typename std::decay_t<decltype(grid)>::value_type;
          if (role == "index")
            grid.fillRandom(1000 + f, T(0), T(nd));
          else if constexpr (std::is_floating_point_v<T>)
            grid.fillRandom(1000 + f, role == "in" ? T(0.5) : T(-1), role == "in" ? T(1.5) : T(1));
        },
        data.field(int(f)));
  }
  for (std::size_t t = 0; t < k.tables.size(); ++t) {
    auto &table = data.table<Real>(int(t));
    table.fillRandom(77 + t, Real(-1) / Real(table.rows()), Real(1) / Real(table.rows()));
  }
  for (double &s : data.scalars())
    s = 0.5;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// One more device storage per output, for the second step of a two-step launch (field order).
template <typename Real> struct SecondStorage {
  std::vector<std::size_t> outputs; ///< the outputs' field ids
  std::vector<cuda::DeviceGrid<Real>> grids;
  std::vector<rt::ErasedField> fields;

  SecondStorage(const rt::KernelInfo &info, const rt::GridShape &shape) {
    for (std::size_t f = 0; f < info.fields.size(); ++f)
      if (std::string(info.fields[f].role) == "out") {
        outputs.push_back(f);
        grids.emplace_back(shape);
      }
    for (cuda::DeviceGrid<Real> &g : grids)
      fields.push_back({g.origin(), g.lineStride(), g.planeStride()});
  }
};

/// Normwise relative error of the second step's outputs of one two-step launch (twostep)
/// against two reference steps; none where the kernel has no such launch.
template <typename Real>
std::optional<double> checkTwoSteps(const rt::KernelInfo &info, const ir::Stencil &stencil) {
  if constexpr (!kernel::kTwoStepLaunch)
    return std::nullopt;
  const eval::EvalSizes sizes = checkSizes(info);
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 4242);
  const rt::GridShape shape = checkShape(info, sizes, ref);
  // The second step reads the first one's level at the boundary: zero in every level's halo,
  // in the reference as in the kernel's storages.
  for (std::size_t f = 0; f < info.fields.size(); ++f)
    if (ref.roles[f] == ir::FieldRole::Time || ref.roles[f] == ir::FieldRole::Output)
      eval::zeroHalo(*ref.grids[f], shape);
  rt::KernelData data(info, shape, sizes.tableColumns, /*inPlace=*/false);
  eval::copyInputs<Real>(ref, data);
  eval::evaluateReference(stencil, ref.bindings());
  eval::rotateReference(info, ref);
  eval::evaluateReference(stencil, ref.bindings());
  cuda::DeviceKernelData device(data);
  // The second step's outputs, poisoned; the first step's keep their zero boundary, which
  // the second step reads.
  SecondStorage<Real> second(info, shape);
  for (cuda::DeviceGrid<Real> &g : second.grids)
    g.poison();
  kernel::runErasedTwoSteps(device.args(), second.fields, launchOptions(kernel::Variant::Ro));
  STENCILC_CUDA_CHECK(cudaDeviceSynchronize());
  double worst = 0;
  for (std::size_t k = 0; k < second.outputs.size(); ++k) {
    rt::Grid<Real> host(shape);
    second.grids[k].download(host);
    // After the rotation the reference's second step is in the output's grid again.
    worst = std::max(worst, eval::relativeError(host, *ref.grids[second.outputs[k]]));
  }
  return worst;
}

/// Median seconds of `launch` over the repeats, one CUDA event pair around each, after a
/// warm-up launch (caches, clocks, the opt-in of shared memory).
template <typename Launch> double medianSeconds(cudaStream_t stream, int repeats, Launch launch) {
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  launch();
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    start.record(stream);
    launch();
    end.record(stream);
    end.synchronize();
    times.push_back(1e-3 * end.millisecondsSince(start));
  }
  STENCILC_CUDA_CHECK(cudaGetLastError());
  return median(times);
}

/// Median seconds per step of each variant on random data of `shape`, and with `twoSteps` of
/// a two-step launch after them (its launch's time over two).
template <typename Real>
std::vector<double> timeVariants(const rt::KernelInfo &info, const rt::GridShape &shape,
                                 int repeats, bool twoSteps) {
  rt::KernelData data(info, shape, ndOption, /*inPlace=*/false);
  fillRandom<Real>(data, ndOption);
  cuda::DeviceKernelData device(data);
  const rt::ErasedArgs args = device.args();
  cuda::Stream stream;
  std::vector<double> seconds;
  for (kernel::Variant v : kernel::kVariants) {
    kernel::LaunchOptions options = launchOptions(v);
    options.stream = stream;
    seconds.push_back(medianSeconds(stream, repeats, [&] { kernel::runErased(args, options); }));
  }
  if (twoSteps) {
    SecondStorage<Real> second(info, shape);
    kernel::LaunchOptions options = launchOptions(kernel::Variant::Ro);
    options.stream = stream;
    seconds.push_back(0.5 * medianSeconds(stream, repeats, [&] {
                        kernel::runErasedTwoSteps(args, second.fields, options);
                      }));
  }
  return seconds;
}

template <typename Real> int runBench(const CompiledStencil &compiled) {
  const rt::KernelInfo &info = kernel::kernelInfo();
  const ir::Stencil &s = *compiled.stencil;
  int nx = info.dims == 3 ? 256 : 8192, ny = nx, nz = info.dims == 3 ? 256 : 1;
  if (sizeOption.size() == 1)
    nx = ny = sizeOption[0], nz = info.dims == 3 ? sizeOption[0] : 1;
  else if (sizeOption.size() == 3)
    nx = sizeOption[0], ny = sizeOption[1], nz = info.dims == 3 ? sizeOption[2] : 1;
  else if (!sizeOption.empty()) {
    error() << "--size takes N or NX,NY,NZ\n";
    return 2;
  }
  const int repeats = std::max(1, int(repeatsOption));

  cudaDeviceProp prop{};
  int device = 0;
  STENCILC_CUDA_CHECK(cudaGetDevice(&device));
  STENCILC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  launchArch = archOption > 0 ? int(archOption) : prop.major * 10 + prop.minor;
  llvm::errs() << fmt::format("gpu-bench: {} (sm_{}{}); launch defaults of sm_{}\n", prop.name,
                              prop.major, prop.minor, launchArch);
  const std::string launch =
      fmt::format("launch: sm_{} defaults, block-x {}, block-y {}, nw {} (0: the default)",
                  launchArch, int(blockXOption), int(blockYOption), int(nwOption));

  llvm::errs() << "gpu-bench: checking every variant against the reference evaluator\n";
  std::vector<double> errors = checkVariants<Real>(info, s);
  const std::optional<double> twoStepError = checkTwoSteps<Real>(info, s);
  llvm::errs() << "gpu-bench: measuring the device triad bandwidth\n";
  const double triad = bench::measureDeviceTriadBandwidth(triadElementsOption);
  llvm::errs() << fmt::format("gpu-bench: timing at {}x{}x{}, Nd = {}\n", nx, ny, nz,
                              int(ndOption));
  const rt::GridShape timedShape{info.dims, nx, ny, nz, info.radius};
  const std::vector<double> seconds =
      timeVariants<Real>(info, timedShape, repeats, twoStepError.has_value());
  std::vector<std::string> names;
  for (kernel::Variant v : kernel::kVariants)
    names.push_back(kernel::variantName(v));
  if (twoStepError) { // two steps per launch (runTwoSteps), per step
    names.push_back("twostep");
    errors.push_back(*twoStepError);
  }

  const double points = double(nx) * ny * nz;
  const int flops = analysis::stencilFlops(compiled.linear);
  const int bytes = analysis::compulsoryBytes(s);
  const double tolerance = std::is_same_v<Real, float> ? 1e-5 : 1e-12;
  llvm::outs() << fmt::format("stencil {} ({}), {}x{}x{}, Nd = {}, median of {} steps, {}\n",
                              s.name, info.elemType, nx, ny, nz, int(ndOption), repeats, prop.name);
  llvm::outs() << fmt::format("device triad: {:.1f} GB/s; compulsory traffic {} B/point; "
                              "{} flops/point\n",
                              triad, bytes, flops);
  llvm::outs() << launch << "\n";
  llvm::outs() << fmt::format("{:<18} {:>10} {:>8} {:>8} {:>7} {:>9} {:>13}\n", "variant", "s/step",
                              "GPts/s", "GFLOP/s", "GB/s", "of triad", "max rel err");
  bool allCorrect = true;
  for (std::size_t n = 0; n < seconds.size(); ++n) {
    const double gpts = points / seconds[n] / 1e9;
    allCorrect &= errors[n] < tolerance;
    llvm::outs() << fmt::format("{:<18} {:>10.6f} {:>8.3f} {:>8.1f} {:>7.1f} {:>9.3f} {:>13.2e}\n",
                                names[n], seconds[n], gpts, gpts * flops, gpts * bytes,
                                gpts * bytes / triad, errors[n]);
  }
  if (!allCorrect) {
    error() << fmt::format("a variant does not match the reference evaluator (tolerance {:g}); "
                           "its timings are not to be trusted\n",
                           tolerance);
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Checks and times the CUDA variants of one generated kernel\n");
  try {
    Compiled compiled;
    if (!compile(stencilPath, kernel::kernelInfo(), compiled))
      return 1;
    return std::string(kernel::kernelInfo().elemType) == "float"
               ? runBench<float>(*compiled.stencil)
               : runBench<double>(*compiled.stencil);
  } catch (const std::exception &e) {
    error() << e.what() << "\n";
    return 1;
  }
}
