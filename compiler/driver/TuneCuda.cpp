//===- TuneCuda.cpp -------------------------------------------------------===//
#include "driver/TuneCuda.h"

#include "backends/cuda/CudaEmitter.h"
#include "backends/cuda/ResourceUsage.h"
#include "driver/Driver.h"
#include "driver/FileOutput.h"
#include "driver/PlanOptions.h"
#include "eval/ReferenceEvaluator.h"
#include "eval/RelativeError.h"

#include <stencilc/io/Npy.h>

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#if !defined(STENCILC_RUNTIME_DIR) || !defined(STENCILC_INSTALLED_INCLUDE_FROM_BIN) ||             \
    !defined(STENCILC_INSTALLED_SHARE_FROM_BIN) || !defined(STENCILC_INSTALLED_LIB_FROM_BIN) ||    \
    !defined(STENCILC_EMU_LIBRARY_DIR) || !defined(STENCILC_EMU_LIBRARY) ||                        \
    !defined(STENCILC_BOOST_CONTEXT_LIBRARY)
#error "CMake sets where the runtime and the emulator library are, built and installed"
#endif

namespace stencilc::driver {

namespace {

constexpr const char *kWho = "stencilc tune";

void note(const std::string &line) { llvm::errs() << "tune: " << line << "\n"; }

std::string path(const std::string &dir, const std::string &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

/// What the tune harness is compiled and linked with.
struct TuneFiles {
  std::string includeDir, harness, emuLibrary;
};

/// An installed stencilc uses the runtime installed with it; a built one, the
/// source tree's headers and harness and the build tree's emulator library.
TuneFiles findTuneFiles() {
  static int anchor;
  const std::string exe = llvm::sys::fs::getMainExecutable("stencilc", &anchor);
  const std::string bin(llvm::sys::path::parent_path(exe));
  TuneFiles installed{path(bin, STENCILC_INSTALLED_INCLUDE_FROM_BIN),
                      path(path(bin, STENCILC_INSTALLED_SHARE_FROM_BIN), "TuneHarness.cpp"),
                      path(path(bin, STENCILC_INSTALLED_LIB_FROM_BIN), STENCILC_EMU_LIBRARY)};
  if (!exe.empty() && llvm::sys::fs::exists(installed.harness) &&
      llvm::sys::fs::exists(path(installed.includeDir, "stencilc/cuda/LaunchSearch.h")))
    return installed;
  return {STENCILC_RUNTIME_DIR "/include", STENCILC_RUNTIME_DIR "/src/cuda/TuneHarness.cpp",
          path(STENCILC_EMU_LIBRARY_DIR, STENCILC_EMU_LIBRARY)};
}

std::vector<std::string> readLines(const std::string &file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty())
      lines.push_back(line);
  return lines;
}

/// One launch of the search space, as the harness prints it.
struct Launch {
  std::string variant;
  int blockX = 0, blockY = 0, nw = 0, rows = 1;
  std::string describe() const {
    return fmt::format("{} {}x{}{}{}", variant, blockX, blockY,
                       nw ? fmt::format(", nw {}", nw) : "",
                       rows > 1 ? fmt::format(", {} rows/thread", rows) : "");
  }
};

/// What the harness's `tune` printed.
struct HarnessResult {
  int computeCapability = 0;
  long long l2Bytes = 0;
  std::string device;
  std::string stencil, type, hash; ///< what the harness was built for
  std::vector<Launch> launches;    ///< by the harness's numbering (checked or refused)
  int checked = 0, refused = 0;
  std::set<int> refusedOnGrid; ///< launches refused at the timed size (once per launch)
  std::array<int, 3> grid{};
  std::map<int, int> timedPerRound;
  std::optional<int> pick;
  double pickSeconds = 0, defaultSeconds = 0, elapsed = 0;
  bool keptDefaults = false;
};

/// Reads the harness's output; false with why if it is not a whole run's.
bool readHarnessResult(const std::string &file, HarnessResult &r, std::string &why) {
  std::ifstream in(file);
  if (!in) {
    why = "cannot read it";
    return false;
  }
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "device") {
      long long freeBytes = 0;
      words >> r.computeCapability >> r.l2Bytes >> freeBytes;
      std::getline(words >> std::ws, r.device);
    } else if (tag == "stencil") {
      words >> r.stencil >> r.type >> r.hash;
    } else if (tag == "checked" || tag == "refused") {
      size_t n = 0;
      Launch l;
      if (!(words >> n >> l.variant >> l.blockX >> l.blockY >> l.nw >> l.rows))
        continue;
      if (r.launches.size() <= n)
        r.launches.resize(n + 1);
      r.launches[n] = l;
      ++(tag == "checked" ? r.checked : r.refused);
    } else if (tag == "refused-on-grid") {
      int n = 0;
      if (words >> n)
        r.refusedOnGrid.insert(n);
    } else if (tag == "grid") {
      words >> r.grid[0] >> r.grid[1] >> r.grid[2];
    } else if (tag == "timed") {
      int round = 0;
      if (words >> round)
        ++r.timedPerRound[round];
    } else if (tag == "pick") {
      int n = 0, kept = 0;
      if (words >> n >> r.pickSeconds >> r.defaultSeconds >> kept && n >= 0 &&
          size_t(n) < r.launches.size()) {
        r.pick = n;
        r.keptDefaults = kept != 0;
      }
    } else if (tag == "elapsed") {
      words >> r.elapsed;
    }
  }
  if (r.device.empty() || r.computeCapability <= 0)
    why = "it names no device";
  else if (r.launches.empty() || r.launches[0].variant.empty())
    why = "it checked no launch";
  else if (!r.pick || !(r.pickSeconds > 0) || !(r.defaultSeconds > 0) || r.grid[0] <= 0)
    why = "the search did not finish (no pick)";
  else if (r.launches[size_t(*r.pick)].variant.empty())
    why = "its pick is no launch it checked";
  return why.empty();
}

/// Compiles the harness with the kernels in `dir` into dir/tune-harness; false after
/// reporting why.
bool buildHarness(const ir::Stencil &s, const CudaTuneOptions &o, const std::string &dir) {
  const TuneFiles files = findTuneFiles();
  const std::string program = path(dir, "tune-harness");
  const std::vector<std::string> defines = {
      "-DSTENCILC_TUNE_HEADER=\"" + s.name + "_cuda.h\"",
      "-DSTENCILC_TUNE_NAMESPACE=stencilc_kernels::" + s.name + "_cuda"};
  std::vector<std::string> argv;
  if (o.emulate) {
    const char *cxxEnv = std::getenv("CXX");
    const std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
    note(fmt::format("compiling the kernels and the harness with {} against the CUDA emulator",
                     cxx));
    argv = {cxx, "-std=c++20", "-O2", "-fopenmp", "-I" + files.includeDir, "-I" + dir};
    argv.insert(argv.end(), defines.begin(), defines.end());
    argv.insert(argv.end(), {"-x", "c++", path(dir, s.name + ".cu"), files.harness, "-x", "none",
                             files.emuLibrary, STENCILC_BOOST_CONTEXT_LIBRARY, "-o", program});
  } else {
    const std::string nvcc = backend::findNvcc();
    if (nvcc.empty()) {
      reportError("tune --backend cuda: nvcc is neither on PATH nor in /usr/local/cuda/bin "
                  "(--emulate runs the search on the CUDA emulator without it)");
      return false;
    }
    note(fmt::format("compiling the kernels and the harness with {} -arch={}", nvcc, o.arch));
    // The harness is host C++ that calls the CUDA runtime (stencilc/cuda/Cuda.h).
    argv = {nvcc,
            "-std=c++20",
            "-O3",
            "-arch=" + o.arch,
            "-DSTENCILC_CUDA_RUNTIME",
            "-I" + files.includeDir,
            "-I" + dir};
    argv.insert(argv.end(), defines.begin(), defines.end());
    argv.insert(argv.end(), {path(dir, s.name + ".cu"), files.harness, "-o", program});
  }
  return runProgram(argv, "", kWho);
}

/// The reference evaluator's inputs and outputs on a small odd grid, and the element type's
/// tolerance, in dir/check (TuneHarness.cpp reads them).
void writeCheck(const ir::Stencil &s, const std::string &dir) {
  const std::string checkDir = path(dir, "check");
  llvm::sys::fs::create_directories(checkDir);
  const eval::EvalSizes sizes{s.dims == 3 ? 37 : 67, s.dims == 3 ? 21 : 45, s.dims == 3 ? 13 : 1,
                              23, -1};
  eval::EvalData ref = eval::makeRandomEvalData(s, sizes, 4242);
  eval::evaluateReference(s, ref.bindings());
  writeCheckData(s, ref, sizes, checkDir);
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].role == ir::FieldRole::Output)
      rt::writeNpy(*ref.grids[f], path(checkDir, fmt::format("expect_{}.npy", f)));
  std::ofstream(path(checkDir, "stencil.txt")) << analysis::stencilHash(s) << "\n";
  std::ofstream(path(checkDir, "tolerance.txt"))
      << (s.elemType == ir::ElemType::Float ? "1e-5" : "1e-12") << "\n";
}

/// The harness's command line for `o`, run in `dir`.
std::vector<std::string> harnessCommand(const CudaTuneOptions &o, const std::string &dir) {
  return {path(dir, "tune-harness"), "tune",
          path(dir, "check"),        std::to_string(o.size.nx),
          std::to_string(o.size.ny), std::to_string(o.size.nz),
          std::to_string(o.size.nd), o.layeredIndex ? "layered" : "random",
          std::to_string(o.steps),   fmt::format("{:.0f}", o.budgetSeconds)};
}

} // namespace

std::string localGpuArch(std::string &why) {
  auto smi = llvm::sys::findProgramByName("nvidia-smi");
  if (!smi) {
    why = "no GPU found here (nvidia-smi is not on PATH)";
    return "";
  }
  llvm::SmallString<128> out;
  llvm::sys::fs::createTemporaryFile("stencilc-smi", "txt", out);
  llvm::Optional<llvm::StringRef> redirects[3] = {llvm::None, llvm::StringRef(out), llvm::None};
  const int rc = llvm::sys::ExecuteAndWait(
      *smi, {*smi, "--query-gpu=compute_cap", "--format=csv,noheader"}, llvm::None, redirects);
  const std::vector<std::string> lines = readLines(std::string(out));
  llvm::sys::fs::remove(out);
  double cc = 0;
  if (rc != 0 || lines.empty() || !(std::istringstream(lines.front()) >> cc) || cc <= 0) {
    why = "nvidia-smi found no GPU";
    return "";
  }
  // The newest architecture the kernels are generated for that the GPU runs.
  const int wanted = int(std::lround(cc * 10));
  std::string arch;
  for (const std::string &name : cudaArchNames())
    if (std::stoi(name.substr(3)) <= wanted)
      arch = name;
  if (arch.empty())
    why = fmt::format("the GPU's compute capability {:.1f} is older than every architecture the "
                      "kernels are generated for ({})",
                      cc, llvm::join(cudaArchNames(), ", "));
  return arch;
}

bool prepareCudaTune(const CompiledStencil &compiled, const CudaTuneOptions &o,
                     const std::string &dir) {
  const ir::Stencil &s = *compiled.stencil;
  backend::CudaEmitOptions emit;
  emit.sourcePath = llvm::sys::path::filename(o.sourcePath).str();
  emit.target = o.arch;
  if (!writeFilesAtomically(dir, backend::emitCudaKernel(compiled, emit)) ||
      !buildHarness(s, o, dir))
    return false;
  writeCheck(s, dir);
  return true;
}

std::string cudaTuneCommand(const CudaTuneOptions &o, const std::string &dir) {
  std::string line;
  for (const std::string &word : harnessCommand(o, dir))
    line += (line.empty() ? "" : " ") + word;
  return line;
}

std::optional<std::pair<analysis::DeviceKey, analysis::TunedLaunch>>
readCudaTuneResult(const CompiledStencil &compiled, const std::string &resultFile, bool emulated) {
  const ir::Stencil &s = *compiled.stencil;
  HarnessResult r;
  std::string why;
  if (!readHarnessResult(resultFile, r, why)) {
    reportError(fmt::format("tune: {}: not the output of a whole tune run: {}", resultFile, why));
    return std::nullopt;
  }
  const std::string hash = analysis::stencilHash(s), type = ir::elemTypeName(s.elemType);
  if (r.stencil != s.name || r.type != type || r.hash != hash) {
    reportError(fmt::format("tune: {} is a run of {} ({}, {}), not of {} ({}, {}) as it is now: "
                            "prepare and run it again",
                            resultFile, r.stencil, r.type, r.hash, s.name, type, hash));
    return std::nullopt;
  }
  const Launch &defaults = r.launches[0], &pick = r.launches[size_t(*r.pick)];
  const double points = double(r.grid[0]) * r.grid[1] * r.grid[2];
  const double bytes = double(gridBytesPerPoint(s)) * points;
  auto gpts = [&](double seconds) { return points / seconds / 1e9; };
  llvm::outs() << fmt::format(
      "{} ({}) on {} (sm_{}), {}x{}x{} ({:.1f}x its L2), tuned in {:.0f} s on the device:\n"
      "  {} launches checked against the reference evaluator, {} refused there and {} at the "
      "timed size (shared memory);\n  {} + {} + {} timings in rounds 1-3{}\n",
      s.name, ir::elemTypeName(s.elemType), r.device, r.computeCapability, r.grid[0], r.grid[1],
      r.grid[2], bytes / double(std::max(r.l2Bytes, 1LL)), r.elapsed, r.checked, r.refused,
      r.refusedOnGrid.size(), r.timedPerRound[1], r.timedPerRound[2], r.timedPerRound[3],
      emulated ? "\n  (on the CUDA emulator: the timings say nothing of a GPU)" : "");
  llvm::outs() << fmt::format("  defaults       {:<32} {:.3g} GPts/s\n", defaults.describe(),
                              gpts(r.defaultSeconds));
  if (*r.pick == 0)
    llvm::outs() << (r.keptDefaults
                         ? "  chosen         the defaults: the fastest found was not faster when "
                           "timed in turn with them (median of 7)\n"
                         : "  chosen         the defaults: they were the fastest found\n");
  else
    llvm::outs() << fmt::format("  chosen         {:<32} {:.3g} GPts/s, {:.2f}x the defaults "
                                "(median of 7, timed in turn with them)\n",
                                pick.describe(), gpts(r.pickSeconds),
                                r.defaultSeconds / r.pickSeconds);
  analysis::TunedLaunch l;
  l.variant = pick.variant;
  l.blockX = pick.blockX;
  l.blockY = pick.blockY;
  l.nw = pick.nw;
  l.rows = pick.rows;
  l.gptsPerSecond = gpts(r.pickSeconds);
  l.defaultGptsPerSecond = gpts(r.defaultSeconds);
  l.nx = r.grid[0];
  l.ny = r.grid[1];
  l.nz = r.grid[2];
  l.date = analysis::tuningDate();
  return std::make_pair(analysis::DeviceKey{r.device, r.computeCapability}, l);
}

std::optional<std::pair<analysis::DeviceKey, analysis::TunedLaunch>>
tuneCudaLaunch(const CompiledStencil &compiled, const CudaTuneOptions &o) {
  llvm::SmallString<128> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("stencilc-tune-cuda", tmp)) {
    reportError("tune: cannot create a temporary directory: " + ec.message());
    return std::nullopt;
  }
  struct RemoveDir {
    std::string dir;
    bool keep;
    ~RemoveDir() {
      if (keep)
        note("kept " + dir);
      else
        llvm::sys::fs::remove_directories(dir);
    }
  } removeDir{std::string(tmp), o.keep};
  const std::string dir(tmp);
  if (!prepareCudaTune(compiled, o, dir))
    return std::nullopt;
  note(fmt::format("checking every launch against the reference evaluator, then searching "
                   "(budget {:.0f} s)",
                   o.budgetSeconds));
  const std::string out = path(dir, "result.txt");
  if (!runProgram(harnessCommand(o, dir), out, kWho))
    return std::nullopt;
  return readCudaTuneResult(compiled, out, o.emulate);
}

} // namespace stencilc::driver
