//===- EmulateCommand.cpp - `stencilc emulate`: count a CUDA kernel's traffic ===//
//
//   stencilc emulate FILE --backend cuda [--variant V] [--size N|NX,NY,NZ] [--type float|double]
//                    [--index random|layered] [--nd N] [--arch sm_XY] [--shared-bytes B]
//                    [--rows R] [--json] [--keep]
//
// Generates the CUDA kernels of one stencil, compiles the counting build of
// them with the host compiler (the kernel's translation unit with
// -fsanitize=thread, whose hooks stencilc_cuda_counting defines:
// stencilc/emulator/Counters.h) into the emulate harness
// (runtime/src/emulator/EmulateHarness.cpp), runs one step of one variant on
// the CUDA emulator and prints what each launch would ask of a GPU's memory:
// requests, sectors, shared-memory wavefronts, barriers, the distinct sectors
// per block and per launch; per launch and per interior point
// (docs/EMULATOR-COUNTERS.md). Headers, harness and libraries are found as
// `stencilc bench` finds its own: installed beside the executable, else in
// the source and build trees.
//
//===----------------------------------------------------------------------===//
#include "analysis/RunBudget.h"
#include "backends/cuda/CudaEmitter.h"
#include "driver/CompileOptions.h"
#include "driver/Driver.h"
#include "driver/FileOutput.h"
#include "kernel/KernelIR.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#if !defined(STENCILC_RUNTIME_DIR) || !defined(STENCILC_INSTALLED_INCLUDE_FROM_BIN) ||             \
    !defined(STENCILC_INSTALLED_SHARE_FROM_BIN) || !defined(STENCILC_INSTALLED_LIB_FROM_BIN) ||    \
    !defined(STENCILC_EMU_LIBRARY_DIR) || !defined(STENCILC_EMU_LIBRARY) ||                        \
    !defined(STENCILC_COUNTING_LIBRARY) || !defined(STENCILC_BOOST_CONTEXT_LIBRARY)
#error "CMake sets where the runtime and the emulator libraries are, built and installed"
#endif

using namespace stencilc;

namespace {

llvm::cl::SubCommand emulateCommand(
    "emulate", "Count the memory traffic of one CUDA kernel variant on the emulator (one step)");

driver::CompileCommandLine options(emulateCommand, driver::CompileCommandLine::BackendAndArch);

/// Emulation runs every CUDA thread as a fiber and every access through a hook: a 64^3 step
/// takes seconds, a 256^3 one minutes.
constexpr int kDefaultSide = 64;
constexpr std::uint64_t kMostPoints = std::uint64_t(256) * 256 * 256;

llvm::cl::opt<std::string> emulateVariant(
    "variant",
    llvm::cl::desc("The CUDA variant: gmem, ro, traditional, planes, or twostep where the "
                   "stencil has it (default gmem); several, comma-separated, or `all` run "
                   "from one build, and --json prints an array of reports"),
    llvm::cl::value_desc("name[,name...]|all"), llvm::cl::init("gmem"),
    llvm::cl::sub(emulateCommand));
llvm::cl::opt<std::string> emulateSize(
    "size",
    llvm::cl::desc("Interior grid points: N (N^3, N^2 in 2D) or NX,NY,NZ (NX,NY in 2D); default "
                   "64 (emulation is slow: a 64^3 step takes seconds, at most 256^3 points)"),
    llvm::cl::value_desc("size"), llvm::cl::sub(emulateCommand));
enum class IndexFill { Random, Layered };
llvm::cl::opt<IndexFill> emulateIndex(
    "index", llvm::cl::desc("How the index fields are filled (as stencilc bench)"),
    llvm::cl::values(clEnumValN(IndexFill::Random, "random",
                                "uniformly random over the --nd values"),
                     clEnumValN(IndexFill::Layered, "layered",
                                "from a smooth layered model: a few values per depth (z) plane")),
    llvm::cl::init(IndexFill::Random), llvm::cl::sub(emulateCommand));
llvm::cl::opt<int> emulateSharedBytes(
    "shared-bytes",
    llvm::cl::desc("Shared memory a block may use (LaunchOptions::sharedBytes; default: the "
                   "generated header's for --arch, 48 KiB)"),
    llvm::cl::value_desc("bytes"), llvm::cl::init(0), llvm::cl::sub(emulateCommand));
llvm::cl::opt<int> emulateRows(
    "rows",
    llvm::cl::desc("Output rows per thread of the variants that take them (LaunchOptions::rows; "
                   "with --variant naming only such variants, traditional)"),
    llvm::cl::value_desc("n"), llvm::cl::init(0), llvm::cl::sub(emulateCommand));
llvm::cl::opt<bool> emulateJson("json", llvm::cl::desc("Print the counts as JSON"),
                                llvm::cl::sub(emulateCommand));
llvm::cl::opt<bool> emulateKeep("keep", llvm::cl::desc("Keep the generated files and the harness"),
                                llvm::cl::sub(emulateCommand));

void progress(const std::string &what) { llvm::errs() << "emulate: " << what << "\n"; }

std::string path(const std::string &dir, const std::string &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

/// What the counting build is compiled and linked with.
struct EmulatorFiles {
  std::string includeDir, harness, emuLibrary, countingLibrary;
};

/// An installed stencilc uses the runtime installed with it (relative to its
/// own directory); a built one, the source tree's headers and harness and the
/// build tree's libraries (which CMake builds before stencilc).
EmulatorFiles findEmulator() {
  static int anchor;
  const std::string exe = llvm::sys::fs::getMainExecutable("stencilc", &anchor);
  const std::string bin(llvm::sys::path::parent_path(exe));
  const std::string lib = path(bin, STENCILC_INSTALLED_LIB_FROM_BIN);
  EmulatorFiles installed{path(bin, STENCILC_INSTALLED_INCLUDE_FROM_BIN),
                          path(path(bin, STENCILC_INSTALLED_SHARE_FROM_BIN), "EmulateHarness.cpp"),
                          path(lib, STENCILC_EMU_LIBRARY), path(lib, STENCILC_COUNTING_LIBRARY)};
  if (!exe.empty() && llvm::sys::fs::exists(installed.harness) &&
      llvm::sys::fs::exists(installed.countingLibrary) &&
      llvm::sys::fs::exists(path(installed.includeDir, "stencilc/emulator/Counters.h")))
    return installed;
  return {STENCILC_RUNTIME_DIR "/include", STENCILC_RUNTIME_DIR "/src/emulator/EmulateHarness.cpp",
          path(STENCILC_EMU_LIBRARY_DIR, STENCILC_EMU_LIBRARY),
          path(STENCILC_EMU_LIBRARY_DIR, STENCILC_COUNTING_LIBRARY)};
}

/// Starts `argv` (argv[0] found on PATH), stdout to `outFile` if given.
bool start(const std::vector<std::string> &argv, const std::string &outFile,
           llvm::sys::ProcessInfo &process) {
  auto program = llvm::sys::findProgramByName(argv[0]);
  if (!program) {
    driver::reportError("emulate: cannot find '" + argv[0] + "'");
    return false;
  }
  std::vector<llvm::StringRef> args(argv.begin(), argv.end());
  llvm::Optional<llvm::StringRef> redirects[3] = {llvm::None, llvm::None, llvm::None};
  if (!outFile.empty())
    redirects[1] = llvm::StringRef(outFile);
  std::string message;
  process = llvm::sys::ExecuteNoWait(*program, args, llvm::None, redirects, 0, &message);
  if (process.Pid == llvm::sys::ProcessInfo::InvalidPid) {
    driver::reportError("emulate: cannot run '" + argv[0] + "': " + message);
    return false;
  }
  return true;
}

/// Waits for `process`; its exit status (-1 if it did not exit normally).
int finish(llvm::sys::ProcessInfo process, const std::string &what) {
  std::string message;
  llvm::sys::ProcessInfo done = llvm::sys::Wait(process, 0, true, &message);
  if (done.ReturnCode < 0)
    driver::reportError("emulate: " + what + " did not finish: " + message);
  return done.ReturnCode;
}

/// "N" -> N^3 (N^2 in 2D), "NX,NY[,NZ]" -> each; false with why.
bool parseSize(const std::string &text, int dims, std::array<int, 3> &size, std::string &why) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(text).split(parts, ',');
  if (parts.size() != 1 && parts.size() != std::size_t(dims)) {
    why = fmt::format("expected N or {} extents separated by commas for a {}D stencil", dims, dims);
    return false;
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    int v = 0;
    if (parts[i].trim().getAsInteger(10, v) || v < 1) {
      why = fmt::format("'{}' is not a positive number of points", parts[i].str());
      return false;
    }
    size[i] = v;
  }
  if (parts.size() == 1)
    size = {size[0], size[0], size[0]};
  if (dims == 2)
    size[2] = 1;
  return true;
}

/// The counters, in the order the harness prints them and the JSON has them.
constexpr const char *kCounterNames[] = {"global_load_requests",
                                         "global_load_sectors",
                                         "global_store_requests",
                                         "global_store_sectors",
                                         "shared_requests",
                                         "shared_wavefronts",
                                         "barriers",
                                         "l1_distinct_sectors",
                                         "dram_bytes_estimate"};
constexpr std::size_t kCounters = std::size(kCounterNames);

struct Launch {
  std::string kernel;
  std::array<unsigned, 3> grid{}, block{};
  std::uint64_t sharedBytes = 0;
  std::array<std::uint64_t, kCounters> counts{};
};

/// The harness's "launch ..." lines; false if one is malformed.
bool readLaunches(const std::string &file, std::vector<Launch> &launches) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    Launch l;
    words >> tag >> l.kernel >> l.grid[0] >> l.grid[1] >> l.grid[2] >> l.block[0] >> l.block[1] >>
        l.block[2] >> l.sharedBytes;
    for (std::uint64_t &c : l.counts)
      words >> c;
    if (tag != "launch" || !words)
      return false;
    launches.push_back(l);
  }
  return !launches.empty();
}

bool hasIndexField(const ir::Stencil &s) {
  return std::any_of(s.fields.begin(), s.fields.end(),
                     [](const ir::Field &f) { return f.role == ir::FieldRole::Index; });
}

/// Variants the generated header has, in its order, and twostep where a launch takes two steps.
std::vector<std::string> variantsOf(const CompiledStencil &compiled) {
  std::vector<std::string> names = {"gmem", "ro", "traditional", "planes"};
  const auto footprints = backend::cudaSharedFootprints(compiled);
  if (footprints.size() == 1 && footprints[0].twoStepPlanes > 0)
    names.push_back("twostep");
  return names;
}

/// The report of one variant's step, or 1/2 (failure) with the error reported.
int runVariant(const CompiledStencil &compiled, const driver::GenTarget &target,
               const std::string &program, const std::string &dir, const std::string &variant,
               const std::array<int, 3> &size, int nd, llvm::json::Array &reports);

int emulate(const CompiledStencil &compiled, const std::string &sourcePath,
            const driver::GenTarget &target, const std::array<int, 3> &size, int nd,
            const std::vector<std::string> &variants) {
  const ir::Stencil &s = *compiled.stencil;
  const std::string type = ir::elemTypeName(s.elemType);
  const std::string index = emulateIndex == IndexFill::Layered ? "layered" : "random";

  llvm::SmallString<128> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("stencilc-emulate", tmp)) {
    driver::reportError("emulate: cannot create a temporary directory: " + ec.message());
    return 1;
  }
  const std::string dir(tmp);
  struct RemoveDir {
    std::string dir;
    ~RemoveDir() {
      if (emulateKeep)
        progress("kept " + dir);
      else
        llvm::sys::fs::remove_directories(dir);
    }
  } removeDir{dir};

  backend::CudaEmitOptions emit;
  emit.sourcePath = llvm::sys::path::filename(sourcePath).str();
  emit.target = target.description();
  if (!writeFilesAtomically(dir, backend::emitCudaKernel(compiled, emit)))
    return 1;

  const char *cxxEnv = std::getenv("CXX");
  const std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
  const EmulatorFiles files = findEmulator();
  const std::string kernelObject = path(dir, "kernel.o"), harnessObject = path(dir, "harness.o");
  const std::string program = path(dir, "emulate");
  // The counting build: only the kernel's translation unit is instrumented. No
  // vectorisation, which would merge one thread's loads into SIMD accesses a GPU
  // thread does not make.
  progress(fmt::format("compiling the counting build of {} with {} -fsanitize=thread against {}",
                       s.name, cxx, files.includeDir));
  llvm::sys::ProcessInfo kernelCompile, harnessCompile;
  if (!start({cxx, "-std=c++20", "-O2", "-fno-tree-vectorize", "-fno-tree-slp-vectorize",
              "-fsanitize=thread", "-I" + files.includeDir, "-I" + dir, "-x", "c++", "-c",
              path(dir, s.name + ".cu"), "-o", kernelObject},
             "", kernelCompile))
    return 1;
  const bool harnessStarted =
      start({cxx, "-std=c++20", "-O2", "-fopenmp", "-I" + files.includeDir, "-I" + dir,
             "-DSTENCILC_EMULATE_HEADER=\"" + s.name + "_cuda.h\"",
             "-DSTENCILC_EMULATE_NAMESPACE=stencilc_kernels::" + s.name + "_cuda", "-c",
             files.harness, "-o", harnessObject},
            "", harnessCompile);
  const int kernelStatus = finish(kernelCompile, "compiling the kernel");
  const int harnessStatus = harnessStarted ? finish(harnessCompile, "compiling the harness") : 1;
  if (kernelStatus != 0 || harnessStatus != 0) {
    driver::reportError(fmt::format("emulate: compiling the {} failed (exit status {})",
                                    kernelStatus ? "kernel's counting build" : "emulate harness",
                                    kernelStatus ? kernelStatus : harnessStatus));
    return 1;
  }
  llvm::sys::ProcessInfo link;
  if (!start({cxx, "-fopenmp", harnessObject, kernelObject, files.countingLibrary, files.emuLibrary,
              STENCILC_BOOST_CONTEXT_LIBRARY, "-o", program},
             "", link))
    return 1;
  if (int status = finish(link, "linking"); status != 0) {
    driver::reportError(
        fmt::format("emulate: linking the harness failed (exit status {})", status));
    return 1;
  }

  llvm::json::Array reports;
  for (const std::string &variant : variants)
    if (int status = runVariant(compiled, target, program, dir, variant, size, nd, reports))
      return status;
  if (emulateJson) {
    llvm::json::Value out = reports.size() == 1 ? llvm::json::Value(std::move(reports[0]))
                                                : llvm::json::Value(std::move(reports));
    llvm::outs() << llvm::formatv("{0:2}", out) << "\n";
  }
  return 0;
}

int runVariant(const CompiledStencil &compiled, const driver::GenTarget &target,
               const std::string &program, const std::string &dir, const std::string &variant,
               const std::array<int, 3> &size, int nd, llvm::json::Array &reports) {
  const ir::Stencil &s = *compiled.stencil;
  const std::string type = ir::elemTypeName(s.elemType);
  const std::string index = emulateIndex == IndexFill::Layered ? "layered" : "random";
  progress(fmt::format("running one step of {} at {}x{}x{} ({} index, Nd = {})", variant, size[0],
                       size[1], size[2], index, nd));
  const std::string out = path(dir, "launches-" + variant + ".txt");
  llvm::sys::ProcessInfo run;
  if (!start({program, std::to_string(size[0]), std::to_string(size[1]), std::to_string(size[2]),
              variant, index, std::to_string(nd), target.arch.substr(3),
              std::to_string(emulateSharedBytes), std::to_string(emulateRows)},
             out, run))
    return 1;
  if (int status = finish(run, "the emulated step"); status != 0) {
    driver::reportError(
        fmt::format("emulate: the emulated step of {} failed (exit status {})", s.name, status));
    return status == 2 ? 2 : 1;
  }
  std::vector<Launch> launches;
  if (!readLaunches(out, launches)) {
    driver::reportError("emulate: the harness printed no launch counts (" + out + ")");
    return 1;
  }

  const double points = double(size[0]) * size[1] * size[2];
  std::array<double, kCounters> perPoint{};
  for (const Launch &l : launches)
    for (std::size_t c = 0; c < kCounters; ++c)
      perPoint[c] += double(l.counts[c]);
  for (double &v : perPoint)
    v /= points;

  if (emulateJson) {
    llvm::json::Array launchArray;
    for (const Launch &l : launches) {
      llvm::json::Object o{{"kernel", l.kernel},
                           {"grid", llvm::json::Array{l.grid[0], l.grid[1], l.grid[2]}},
                           {"block", llvm::json::Array{l.block[0], l.block[1], l.block[2]}},
                           {"shared_bytes", std::int64_t(l.sharedBytes)}};
      for (std::size_t c = 0; c < kCounters; ++c)
        o[kCounterNames[c]] = std::int64_t(l.counts[c]);
      launchArray.push_back(std::move(o));
    }
    llvm::json::Object perPointObject;
    for (std::size_t c = 0; c < kCounters; ++c)
      perPointObject[kCounterNames[c]] = perPoint[c];
    reports.push_back(llvm::json::Object{{"stencil", s.name},
                                         {"variant", variant},
                                         {"rows", std::max(1, int(emulateRows))},
                                         {"type", type},
                                         {"index", index},
                                         {"size", llvm::json::Array{size[0], size[1], size[2]}},
                                         {"points", std::int64_t(points)},
                                         {"launches", std::move(launchArray)},
                                         {"per_point", std::move(perPointObject)}});
    return 0;
  }
  const bool hasIndex = hasIndexField(s);
  llvm::outs() << fmt::format("stencil {} ({}), variant {}, {}x{}x{} ({} points){}: one step on "
                              "the emulator\n",
                              s.name, type, variant, size[0], size[1], size[2],
                              std::int64_t(points),
                              hasIndex ? fmt::format(", {} index, Nd = {}", index, nd) : "");
  for (const Launch &l : launches)
    llvm::outs() << fmt::format("launch {}: grid {}x{}x{}, block {}x{}x{}, {} B shared\n", l.kernel,
                                l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                                l.sharedBytes);
  llvm::outs() << fmt::format("{:<24}", "counter");
  for (std::size_t i = 0; i < launches.size(); ++i)
    llvm::outs() << fmt::format(" {:>14}", fmt::format("launch {}", i + 1));
  llvm::outs() << fmt::format(" {:>12}\n", "per point");
  for (std::size_t c = 0; c < kCounters; ++c) {
    llvm::outs() << fmt::format("{:<24}", kCounterNames[c]);
    for (const Launch &l : launches)
      llvm::outs() << fmt::format(" {:>14}", l.counts[c]);
    llvm::outs() << fmt::format(" {:>12.4f}\n", perPoint[c]);
  }
  return 0;
}

int runEmulate() {
  if (!options.check())
    return 2;
  if (options.inputFiles.size() != 1) {
    driver::reportError("emulate takes one .stencil file");
    return 2;
  }
  if (!options.cuda()) {
    driver::reportError("emulate runs the CUDA kernels on the CUDA emulator: give --backend cuda");
    return 2;
  }
  auto target = options.genTarget(/*resourceUsage=*/false);
  if (!target)
    return 2;
  auto load = options.loadOptions(target->plan);
  if (!load)
    return 2;
  const std::string &file = options.inputFiles[0];
  auto loaded = driver::loadModule(file, *load);
  if (!loaded)
    return 1;
  if (loaded->compiled.size() != 1) {
    driver::reportError(fmt::format("emulate takes a file with one stencil; '{}' has {}", file,
                                    loaded->compiled.size()));
    return 2;
  }
  const CompiledStencil &c = loaded->compiled.front();
  const ir::Stencil &s = *c.stencil;

  const std::vector<std::string> variants = variantsOf(c);
  std::vector<std::string> requested;
  if (emulateVariant.getValue() == "all")
    requested = variants;
  else
    for (llvm::StringRef rest = emulateVariant.getValue(); !rest.empty();) {
      auto [name, tail] = rest.split(',');
      requested.push_back(name.str());
      rest = tail;
    }
  for (const std::string &name : requested)
    if (std::find(variants.begin(), variants.end(), name) == variants.end()) {
      std::string list;
      for (const std::string &v : variants)
        list += (list.empty() ? "" : ", ") + v;
      driver::reportError(fmt::format("--variant: unknown variant '{}' of {} (valid: {}, or all)",
                                      name, s.name, list));
      return 2;
    }
  if (requested.empty()) {
    driver::reportError("--variant: name at least one variant");
    return 2;
  }
  std::array<int, 3> size{kDefaultSide, kDefaultSide, s.dims == 3 ? kDefaultSide : 1};
  if (!emulateSize.empty()) {
    std::string why;
    if (!parseSize(emulateSize, s.dims, size, why)) {
      driver::reportError(fmt::format("--size '{}': {}", emulateSize.getValue(), why));
      return 2;
    }
  }
  const std::array<analysis::AxisNeed, 3> needs = analysis::gridNeeds(c);
  for (int axis = 0; axis < 3; ++axis)
    if (size[axis] < needs[axis].points) {
      driver::reportError(fmt::format(
          "--size: {} has {} point{} along {}; {} needs at least {} (it reaches {} point{} on "
          "each side of a point)",
          emulateSize.empty() ? "the default size" : "'" + emulateSize.getValue() + "'", size[axis],
          size[axis] == 1 ? "" : "s", "xyz"[axis], s.name, needs[axis].points, needs[axis].reach,
          needs[axis].reach == 1 ? "" : "s"));
      return 2;
    }
  if (std::uint64_t(size[0]) * size[1] * size[2] > kMostPoints) {
    driver::reportError(fmt::format("--size: {}x{}x{} is more than the {} points (256^3) emulate "
                                    "runs; give a smaller size",
                                    size[0], size[1], size[2], kMostPoints));
    return 2;
  }
  const bool hasIndex = hasIndexField(s);
  if (emulateIndex == IndexFill::Layered && !hasIndex) {
    driver::reportError("--index layered: stencil '" + s.name +
                        "' has no index field to fill from a layered model");
    return 2;
  }
  const int nd = options.plan.nd;
  if (nd < 1) {
    driver::reportError(fmt::format("--nd: {} is not a positive number of table columns", nd));
    return 2;
  }
  if (emulateRows.getNumOccurrences())
    for (const std::string &name : requested) {
      const std::vector<int> counts = kernel::rowCounts(c.cudaKernels, name);
      if (counts.size() < 2) {
        driver::reportError(fmt::format("--rows: variant {} takes one row per thread; name only "
                                        "variants that take more (traditional) with --variant",
                                        name));
        return 2;
      }
      if (std::find(counts.begin(), counts.end(), int(emulateRows)) == counts.end()) {
        driver::reportError(fmt::format("--rows: {} is not a count of rows per thread {} is "
                                        "compiled for",
                                        int(emulateRows), name));
        return 2;
      }
    }
  if (emulateSharedBytes < 0) {
    driver::reportError(fmt::format("--shared-bytes: {} is negative", emulateSharedBytes));
    return 2;
  }
  return emulate(c, file, *target, size, nd, requested);
}

driver::CommandRegistration registration(emulateCommand, &runEmulate);

} // namespace
