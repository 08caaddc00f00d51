//===- GpuBench.cpp - The CUDA variants of one kernel, checked and timed --===//
//
// The GPU counterpart of `stencilc bench`, built once per generated kernel
// (CMakeLists.txt names it with STENCILC_GPU_BENCH_HEADER and _NAMESPACE):
//
//   gpu-bench-KERNEL FILE.stencil [--size=N | --size=NX,NY,NZ] [--nd=902]
//                    [--index=random|layered] [--repeats=5] [--steps=10] [--arch=CC]
//                    [--block-x=BX] [--block-y=BY] [--nw=NW] [--rows=R]
//                    [--triad-elements=134217728]
//                    [--json=FILE]
//
//   1. compiles FILE's stencil for its flops and compulsory bytes per point;
//   2. runs one step of every CUDA variant on a small odd-sized grid with
//      poisoned outputs and compares it with the reference evaluator, and
//      where the kernel has it one two-step launch (runTwoSteps, `twostep`)
//      with two reference steps;
//   3. measures the device's triad bandwidth;
//   4. times every variant out of place on random data (BenchData.h): runs
//      of --steps steps with the time levels rotating after each (two-step
//      launches rotating by two), one CUDA event pair around each run, the
//      median of --repeats runs per step; prints the CPU bench's table and,
//      with --json, writes its rows (docs/results/ keeps such files).
//
// A variant that does not match the reference fails the run (exit status 1),
// so its timing is never taken for a result.
//
//===----------------------------------------------------------------------===//
#include STENCILC_GPU_BENCH_HEADER

#include "BenchData.h"
#include "DeviceTriad.h"
#ifdef STENCILC_GPU_BENCH_REFERENCE
#include "reference/Reference.h"
#endif

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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace generated = stencilc_kernels::STENCILC_GPU_BENCH_NAMESPACE;
using namespace stencilc;

namespace {

llvm::cl::list<std::string>
    variantsOption("variants", llvm::cl::CommaSeparated,
                   llvm::cl::desc("only these generated variants, without the hand-written peers "
                                  "and the two-step launch (default: every one)"));
llvm::cl::opt<std::string>
    rowTagOption("row-tag", llvm::cl::init(""),
                 llvm::cl::desc("appended to each row's variant name as VARIANT:TAG, for a kernel "
                                "generated with other options than the program of the same "
                                "stencil beside it"));

/// The hand-written peers of this kernel's stencil (bench/gpu/reference), checked and timed
/// after the generated variants as rows "hand:NAME"; none for most stencils.
struct Handwritten {
  std::string name;
  void (*run)(const rt::ErasedArgs &args, cudaStream_t stream);
};
template <typename Real> std::vector<Handwritten> handwritten() {
  std::vector<Handwritten> kernels;
#ifdef STENCILC_GPU_BENCH_REFERENCE
  if (variantsOption.empty()) // --variants times the named generated ones alone
    for (const auto &k : bench::reference::STENCILC_GPU_BENCH_REFERENCE<Real>())
      kernels.push_back({std::string("hand:") + k.name, k.run});
#endif
  return kernels;
}

/// The generated variants --variants names (every one without it), in the kernel's order.
std::vector<generated::Variant> selectedVariants() {
  std::vector<generated::Variant> out;
  for (generated::Variant v : generated::kVariants)
    if (variantsOption.empty() || std::find(variantsOption.begin(), variantsOption.end(),
                                            generated::variantName(v)) != variantsOption.end())
      out.push_back(v);
  return out;
}

llvm::cl::opt<std::string> stencilPath(llvm::cl::Positional, llvm::cl::Required,
                                       llvm::cl::desc("<the kernel's .stencil file>"));
llvm::cl::list<int>
    sizeOption("size", llvm::cl::CommaSeparated,
               llvm::cl::desc("N (cube) or NX,NY,NZ; default 256^3 (8192^2 in 2D)"));
llvm::cl::opt<int> ndOption("nd", llvm::cl::init(902), llvm::cl::desc("distinct index values"));
llvm::cl::opt<int> repeatsOption("repeats", llvm::cl::init(5),
                                 llvm::cl::desc("timed runs per variant (median reported)"));
llvm::cl::opt<int> stepsOption("steps", llvm::cl::init(10),
                               llvm::cl::desc("steps per timed run, the time levels rotating"));
llvm::cl::opt<bench::IndexFill> indexOption(
    "index", llvm::cl::init(bench::IndexFill::Random),
    llvm::cl::desc("how index fields are filled for timing"),
    llvm::cl::values(clEnumValN(bench::IndexFill::Random, "random", "uniform over the columns"),
                     clEnumValN(bench::IndexFill::Layered, "layered",
                                "from a smooth layered model (rt::fillLayered)")));
llvm::cl::opt<std::string> jsonOption("json", llvm::cl::init(""),
                                      llvm::cl::desc("also write the rows as JSON to this file"));
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
llvm::cl::opt<int> rowsOption("rows", llvm::cl::init(0),
                              llvm::cl::desc("output rows per thread of the variants that take "
                                             "them (traditional; default: 1)"));

/// The architecture whose launch defaults every run takes: --arch, else the device's.
int launchArch = 0;

/// How every variant is launched, checked and timed alike: the options given, the rest the
/// architecture's defaults.
generated::LaunchOptions launchOptions(generated::Variant v) {
  generated::LaunchOptions o{v, launchArch};
  o.blockX = blockXOption;
  o.blockY = blockYOption;
  o.nw = nwOption;
  o.rows = rowsOption;
  return o;
}

/// How the two-step launch is checked and timed: as every variant, with the shared memory the
/// architecture allows a block on opt-in as its budget. Its rings of planes grow with the
/// stencil's reach and fields (tti and lwc_elastic in double need more than the 48 KiB any
/// block gets without opting in), and the budget decides nothing else in that launch.
generated::LaunchOptions twoStepOptions() {
  generated::LaunchOptions o = launchOptions(generated::Variant::Ro);
  for (const generated::ArchDefaults &d : generated::kArchDefaults)
    if (d.arch <= launchArch)
      o.sharedBytes = d.maxSharedBytes;
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
/// The odd-sized grids every check runs on: a small one, smaller than one block or march in
/// y and z, and one that spans several blocks, marches and tiles in every direction (a
/// multiple of no block, tile or vector width).
std::vector<eval::EvalSizes> checkSizes(const rt::KernelInfo &info) {
  if (info.dims == 3)
    return {{37, 21, 13, 23, -1}, {75, 53, 71, 23, -1}};
  return {{67, 45, 1, 23, -1}, {301, 203, 1, 23, -1}};
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
std::vector<double> checkVariants(const rt::KernelInfo &info, const ir::Stencil &stencil,
                                  const eval::EvalSizes &sizes) {
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 4242);
  eval::evaluateReference(stencil, ref.bindings());
  const rt::GridShape shape = checkShape(info, sizes, ref);
  rt::KernelData data(info, shape, sizes.tableColumns, /*inPlace=*/false);
  eval::copyInputs<Real>(ref, data);
  cuda::DeviceKernelData device(data);
  std::vector<double> errors;
  // Every generated variant, then the hand-written peers.
  std::vector<std::function<void()>> runs;
  for (generated::Variant v : selectedVariants())
    runs.push_back([&device, v] { generated::runErased(device.args(), launchOptions(v)); });
  for (const Handwritten &h : handwritten<Real>())
    runs.push_back([&device, h] { h.run(device.args(), 0); });
  for (const std::function<void()> &run : runs) {
    for (std::size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output)
        device.field<Real>(int(f)).poison();
    run();
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
std::optional<double> checkTwoSteps(const rt::KernelInfo &info, const ir::Stencil &stencil,
                                    const eval::EvalSizes &sizes) {
  if constexpr (!generated::kTwoStepLaunch)
    return std::nullopt;
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
  generated::runErasedTwoSteps(device.args(), second.fields, twoStepOptions());
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

/// Median seconds per step of `step` (which launches `stepsPerLaunch` steps) over the repeats:
/// each repeat a run of --steps steps, one CUDA event pair around it, after one warm-up run
/// (caches, clocks, the opt-in of shared memory).
template <typename Step>
double medianSecondsPerStep(cudaStream_t stream, int stepsPerLaunch, Step step) {
  const int launches = std::max(1, int(stepsOption) / stepsPerLaunch);
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  auto runOnce = [&] {
    for (int n = 0; n < launches; ++n)
      step();
  };
  runOnce();
  std::vector<double> times;
  for (int r = 0; r < std::max(1, int(repeatsOption)); ++r) {
    start.record(stream);
    runOnce();
    end.record(stream);
    end.synchronize();
    times.push_back(1e-3 * end.millisecondsSince(start) / (launches * stepsPerLaunch));
  }
  STENCILC_CUDA_CHECK(cudaGetLastError());
  return median(times);
}

/// Median seconds per step of each variant on the timed data of `shape` (BenchData.h), and
/// with `twoSteps` of a two-step launch after them (per step: a launch's time over two).
template <typename Real>
std::vector<double> timeVariants(const rt::KernelInfo &info, const rt::GridShape &shape,
                                 bool twoSteps) {
  rt::KernelData data(info, shape, ndOption, /*inPlace=*/false);
  bench::fillForTiming<Real>(data, ndOption, indexOption);
  cuda::DeviceKernelData device(data);
  rt::ErasedArgs args = device.args();
  cuda::Stream stream;
  std::vector<double> seconds;
  for (generated::Variant v : selectedVariants()) {
    generated::LaunchOptions options = launchOptions(v);
    options.stream = stream;
    seconds.push_back(medianSecondsPerStep(stream, 1, [&] {
      generated::runErased(args, options);
      bench::rotateOneStep(info, args.fields);
    }));
  }
  for (const Handwritten &h : handwritten<Real>())
    seconds.push_back(medianSecondsPerStep(stream, 1, [&] {
      h.run(args, stream);
      bench::rotateOneStep(info, args.fields);
    }));
  if (twoSteps) {
    SecondStorage<Real> second(info, shape);
    generated::LaunchOptions options = twoStepOptions();
    options.stream = stream;
    seconds.push_back(medianSecondsPerStep(stream, 2, [&] {
      generated::runErasedTwoSteps(args, second.fields, options);
      bench::rotateTwoSteps(info, args.fields, second.fields);
    }));
  }
  return seconds;
}

/// The rows as JSON: one object per variant with the run's conditions.
bool writeJson(const std::string &path, const llvm::json::Object &run, llvm::json::Array rows) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error() << "cannot write '" << path << "': " << ec.message() << "\n";
    return false;
  }
  llvm::json::Object document(run);
  document["rows"] = std::move(rows);
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(document))) << "\n";
  return true;
}

/// "random" or "layered" for a kernel with an index field, "none" otherwise.
std::string indexName(const rt::KernelInfo &info) {
  for (const rt::KernelFieldInfo &f : info.fields)
    if (std::string(f.role) == "index")
      return indexOption == bench::IndexFill::Layered ? "layered" : "random";
  return "none";
}

/// Bytes of one grid of `shape` in element type `type` (rt::GridLayout, padding included).
std::size_t gridBytes(const std::string &type, const rt::GridShape &shape) {
  if (type == "float" || type == "int32")
    return rt::GridLayout::of<float>(shape).elements * 4;
  if (type == "double")
    return rt::GridLayout::of<double>(shape).elements * 8;
  if (type == "uint16")
    return rt::GridLayout::of<std::uint16_t>(shape).elements * 2;
  return rt::GridLayout::of<std::uint8_t>(shape).elements;
}

/// Whether the timed grids (every field, and the second outputs of a two-step launch) fit in
/// the device's free memory and the host's; says the figures when they do not.
bool fitsOnDevice(const rt::KernelInfo &info, const rt::GridShape &shape, bool twoSteps) {
  std::size_t needed = 0;
  for (const rt::KernelFieldInfo &f : info.fields)
    needed += gridBytes(f.type, shape) * (twoSteps && std::string(f.role) == "out" ? 2 : 1);
  std::size_t freeBytes = 0, totalBytes = 0;
  STENCILC_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  // Tables, the triad's buffers (freed by now) and the runtime's own take a little more.
  if (needed + (std::size_t(1) << 28) <= freeBytes)
    return true;
  error() << fmt::format("a {}x{}x{} grid needs {:.2f} GB of device memory for {} fields; the "
                         "device has {:.2f} GB free of {:.2f} GB: use a smaller --size\n",
                         shape.nx, shape.ny, shape.nz, 1e-9 * double(needed), info.fields.size(),
                         1e-9 * double(freeBytes), 1e-9 * double(totalBytes));
  return false;
}

template <typename Real> int runBench(const CompiledStencil &compiled) {
  const rt::KernelInfo &info = generated::kernelInfo();
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
  if (indexOption == bench::IndexFill::Layered && indexName(info) == "none") {
    error() << "--index=layered: stencil '" << s.name
            << "' has no index field to fill from a layered model\n";
    return 2;
  }

  cudaDeviceProp prop{};
  int device = 0;
  STENCILC_CUDA_CHECK(cudaGetDevice(&device));
  STENCILC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  launchArch = archOption > 0 ? int(archOption) : prop.major * 10 + prop.minor;
  llvm::errs() << fmt::format("gpu-bench: {} (sm_{}{}); launch defaults of sm_{}\n", prop.name,
                              prop.major, prop.minor, launchArch);
  const std::string launch =
      fmt::format("launch: sm_{} defaults, block-x {}, block-y {}, nw {}, rows {} (0: the "
                  "default)",
                  launchArch, int(blockXOption), int(blockYOption), int(nwOption), int(rowsOption));

  llvm::errs() << "gpu-bench: checking every variant against the reference evaluator\n";
  std::vector<double> errors;
  std::optional<double> twoStepError;
  for (const eval::EvalSizes &sizes : checkSizes(info)) {
    const std::vector<double> e = checkVariants<Real>(info, s, sizes);
    errors.resize(e.size());
    for (std::size_t n = 0; n < e.size(); ++n)
      errors[n] = std::max(errors[n], e[n]);
    if (const std::optional<double> t =
            variantsOption.empty() ? checkTwoSteps<Real>(info, s, sizes) : std::nullopt)
      twoStepError = std::max(twoStepError.value_or(0.0), *t);
  }
  llvm::errs() << "gpu-bench: measuring the device triad bandwidth\n";
  const double triad = bench::measureDeviceTriadBandwidth(triadElementsOption);
  const double stream3r1w = bench::measureDeviceStream3r1wBandwidth(2 * triadElementsOption);
  llvm::errs() << fmt::format("gpu-bench: timing at {}x{}x{}, Nd = {}\n", nx, ny, nz,
                              int(ndOption));
  const rt::GridShape timedShape{info.dims, nx, ny, nz, info.radius};
  if (!fitsOnDevice(info, timedShape, twoStepError.has_value()))
    return 2;
  const std::vector<double> seconds =
      timeVariants<Real>(info, timedShape, twoStepError.has_value());
  std::vector<std::string> names;
  const std::string tag = rowTagOption.empty() ? "" : ":" + rowTagOption;
  for (generated::Variant v : selectedVariants())
    names.push_back(generated::variantName(v) + tag);
  for (const Handwritten &h : handwritten<Real>())
    names.push_back(h.name);
  if (twoStepError) { // two steps per launch (runTwoSteps), per step
    names.push_back("twostep");
    errors.push_back(*twoStepError);
  }

  const double points = double(nx) * ny * nz;
  const int flops = analysis::stencilFlops(compiled.linear);
  const int bytes = analysis::compulsoryBytes(s);
  const double tolerance = std::is_same_v<Real, float> ? 1e-5 : 1e-12;
  const std::string index = indexName(info);
  llvm::outs() << fmt::format("stencil {} ({}), {}x{}x{}, Nd = {}, index {}, median of {} runs of "
                              "{} steps, {}\n",
                              s.name, info.elemType, nx, ny, nz, int(ndOption), index,
                              int(repeatsOption), int(stepsOption), prop.name);
  llvm::outs() << fmt::format(
      "device triad: {:.1f} GB/s (3 reads, 1 write of floats: {:.1f} GB/s); "
      "compulsory traffic {} B/point; {} flops/point\n",
      triad, stream3r1w, bytes, flops);
  llvm::outs() << launch << "\n";
  llvm::outs() << fmt::format("{:<18} {:>10} {:>8} {:>8} {:>7} {:>9} {:>13}\n", "variant", "s/step",
                              "GPts/s", "GFLOP/s", "GB/s", "of triad", "max rel err");
  bool allCorrect = true;
  llvm::json::Array rows;
  for (std::size_t n = 0; n < seconds.size(); ++n) {
    const double gpts = points / seconds[n] / 1e9;
    allCorrect &= errors[n] < tolerance;
    llvm::outs() << fmt::format("{:<18} {:>10.6f} {:>8.3f} {:>8.1f} {:>7.1f} {:>9.3f} {:>13.2e}\n",
                                names[n], seconds[n], gpts, gpts * flops, gpts * bytes,
                                gpts * bytes / triad, errors[n]);
    rows.push_back(llvm::json::Object{{"stencil", s.name},
                                      {"type", info.elemType},
                                      {"index", index},
                                      {"variant", names[n]},
                                      {"seconds_per_step", seconds[n]},
                                      {"gpts_per_s", gpts},
                                      {"fraction_of_triad", gpts * bytes / triad},
                                      {"max_rel_error", errors[n]},
                                      {"matches_reference", errors[n] < tolerance}});
  }
  if (!jsonOption.empty()) {
    const llvm::json::Object run{{"device", prop.name},
                                 {"sm", launchArch},
                                 {"size", llvm::json::Array{nx, ny, nz}},
                                 {"nd", int(ndOption)},
                                 {"repeats", int(repeatsOption)},
                                 {"steps", int(stepsOption)},
                                 {"block_x", int(blockXOption)},
                                 {"block_y", int(blockYOption)},
                                 {"nw", int(nwOption)},
                                 {"rows", int(rowsOption)},
                                 {"triad_gb_per_s", triad},
                                 {"stream_3r1w_gb_per_s", stream3r1w},
                                 {"bytes_per_point", bytes},
                                 {"flops_per_point", flops}};
    if (!writeJson(jsonOption, run, std::move(rows)))
      return 1;
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
  for (const std::string &name : variantsOption) {
    std::string known;
    for (generated::Variant v : generated::kVariants)
      known += (known.empty() ? "" : ", ") + std::string(generated::variantName(v));
    if (std::none_of(std::begin(generated::kVariants), std::end(generated::kVariants),
                     [&](generated::Variant v) { return name == generated::variantName(v); })) {
      error() << "--variants: unknown variant '" << name << "' (expected " << known << ")\n";
      return 2;
    }
  }
  // Rows per thread change only the variants that take them: the others would time as if
  // the option were not given.
  const bool allTakeRows =
      !variantsOption.empty() &&
      std::all_of(variantsOption.begin(), variantsOption.end(), [](const std::string &name) {
        for (generated::Variant v : generated::kVariants)
          if (name == generated::variantName(v))
            return generated::takesRows(v);
        return false;
      });
  if (rowsOption != 0 && (!allTakeRows || !generated::isRowCount(rowsOption))) {
    error() << "--rows=" << int(rowsOption)
            << ": give --variants with only variants that take rows per thread, and one of the "
               "counts they are compiled for (kRowCounts)\n";
    return 2;
  }
  try {
    Compiled compiled;
    if (!compile(stencilPath, generated::kernelInfo(), compiled))
      return 1;
    return std::string(generated::kernelInfo().elemType) == "float"
               ? runBench<float>(*compiled.stencil)
               : runBench<double>(*compiled.stencil);
  } catch (const std::exception &e) {
    error() << e.what() << "\n";
    return 1;
  }
}
