//===- TuneCommand.cpp - `stencilc tune`: this machine's fastest settings ---===//
//
//   stencilc tune FILE [--size N|NXxNYxNZ] [--type float|double] [--budget S] -o TUNING
//   stencilc tune FILE --backend cuda [--arch sm_XY] [--emulate] [--index random|layered]
//                 [--steps N] [--size ...] [--type ...] [--budget S] -o TUNING
//   stencilc tune --machine-key | --stencil-hash FILE
//
// With --backend cuda it searches the CUDA launch instead (driver/TuneCuda.h,
// stencilc/cuda/LaunchSearch.h) and keys the result by the GPU's name.
//
// Builds and checks the bench harness with the stencil's CPU kernels (as
// `stencilc bench` does) and searches the variant, its tiles and the time
// steps per pass (docs/PERFORMANCE.md "Tuning") in three rounds over one grid:
//
//   1. coarse: every variant at a few tile sizes, single sweeps and 2, 4 or 8
//      steps per pass where the stencil advances time levels, tiles cut in x
//      where a row holds two, one timing each;
//   2. fine: the three fastest of round 1 again and their neighbours (tiles
//      halved and doubled, the steps per pass halved and doubled), median of 3;
//   3. confirmation: the fastest of round 2 and the untuned defaults
//      (kernel::untunedRunConfig) timed in turn, median of 7, so that
//      "tuned >= default" is measured in one run; where the pick is not the
//      faster, the defaults are kept.
//
// Rounds 1 and 2 start no configuration once 60% and 90% of --budget have
// passed; the untuned defaults are in every round. The result is merged into
// the tuning file (analysis/TuningFile.h), which `gen --tuning` reads.
//
//===----------------------------------------------------------------------===//
#include "analysis/HostCaches.h"
#include "analysis/ModelDefaults.h"
#include "analysis/TuningFile.h"
#include "driver/Bench.h"
#include "driver/CompileOptions.h"
#include "driver/Driver.h"
#include "driver/PlanOptions.h"
#include "driver/TuneCuda.h"
#include "kernel/RunDefaults.h"
#include "stencilc/abi/TimeTiles.h"
#include "target/RunConfig.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <tuple>

using namespace stencilc;

namespace {

llvm::cl::SubCommand tuneCommand("tune",
                                 "Search the CPU variant, tiles and time steps per pass (or, with "
                                 "--backend cuda, the GPU launch) that run a stencil fastest "
                                 "here, into a tuning file");
llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<file.stencil>"),
                                     llvm::cl::sub(tuneCommand));
llvm::cl::opt<std::string> outputFile("o",
                                      llvm::cl::desc("Tuning file to write or merge into (entries "
                                                     "of other machines and stencils are kept)"),
                                      llvm::cl::value_desc("file"), llvm::cl::sub(tuneCommand));
llvm::cl::opt<std::string>
    sizeOption("size",
               llvm::cl::desc("Grid size N or NXxNYxNZ (default: as bench, grids 4x the "
                              "last-level cache)"),
               llvm::cl::value_desc("size"), llvm::cl::sub(tuneCommand));
enum class TypeChoice { AsDeclared, Float, Double };
llvm::cl::opt<TypeChoice>
    typeOption("type", llvm::cl::desc("Element type to tune (default: the stencil's)"),
               llvm::cl::values(clEnumValN(TypeChoice::Float, "float", "single precision"),
                                clEnumValN(TypeChoice::Double, "double", "double precision")),
               llvm::cl::init(TypeChoice::AsDeclared), llvm::cl::sub(tuneCommand));
llvm::cl::opt<double> budgetOption("budget",
                                   llvm::cl::desc("Seconds per stencil for the search rounds "
                                                  "(the confirmation round comes after)"),
                                   llvm::cl::value_desc("seconds"), llvm::cl::init(300),
                                   llvm::cl::sub(tuneCommand));
llvm::cl::opt<bool> machineKeyOption("machine-key",
                                     llvm::cl::desc("Print this machine's key, as tuning files "
                                                    "hold it, and exit"),
                                     llvm::cl::sub(tuneCommand));

llvm::cl::opt<bool> stencilHashOption(
    "stencil-hash",
    llvm::cl::desc("Print the hash, as a JSON string, that a tuning file's entry for each "
                   "stencil of the file must hold, one a line, and exit"),
    llvm::cl::sub(tuneCommand));

llvm::cl::opt<driver::Backend> backendOption(
    "backend", llvm::cl::desc("What to tune"),
    llvm::cl::values(clEnumValN(driver::Backend::Cpu, "cpu",
                                "the CPU kernels' variant, tiles and time steps per pass"),
                     clEnumValN(driver::Backend::Cuda, "cuda",
                                "the CUDA launch: variant, block and planes per block, on this "
                                "machine's GPU")),
    llvm::cl::init(driver::Backend::Cpu), llvm::cl::sub(tuneCommand));
llvm::cl::opt<std::string>
    archOption("arch",
               llvm::cl::desc("--backend cuda: the architecture nvcc builds for and the kernels "
                              "are planned for (default: this machine's GPU, from nvidia-smi; "
                              "sm_90 with --emulate)"),
               llvm::cl::value_desc("sm_XY"), llvm::cl::sub(tuneCommand));
llvm::cl::opt<bool> emulateOption(
    "emulate",
    llvm::cl::desc("--backend cuda: run the whole search on the CUDA emulator, without a GPU, "
                   "on a small grid (a dry run: the file it writes is keyed by the emulator "
                   "and its timings say nothing of a GPU)"),
    llvm::cl::sub(tuneCommand));
enum class IndexChoice { Random, Layered };
llvm::cl::opt<IndexChoice> indexOption(
    "index", llvm::cl::desc("--backend cuda: how index fields are filled (as stencilc bench)"),
    llvm::cl::values(clEnumValN(IndexChoice::Random, "random", "uniformly random"),
                     clEnumValN(IndexChoice::Layered, "layered", "from a smooth layered model")),
    llvm::cl::init(IndexChoice::Random), llvm::cl::sub(tuneCommand));
llvm::cl::opt<int> stepsOption("steps",
                               llvm::cl::desc("--backend cuda: steps per timing, the time levels "
                                              "rotating (default 10; 1 with --emulate)"),
                               llvm::cl::value_desc("n"), llvm::cl::init(0),
                               llvm::cl::sub(tuneCommand));
llvm::cl::opt<std::string> prepareOption(
    "prepare",
    llvm::cl::desc("--backend cuda: build the kernels, the harness and its check data into this "
                   "folder (with --arch, for a GPU elsewhere) and print the command that runs "
                   "the search there; nothing is tuned or written here"),
    llvm::cl::value_desc("dir"), llvm::cl::sub(tuneCommand));
llvm::cl::opt<std::string> resultOption(
    "result",
    llvm::cl::desc("--backend cuda: record the output of a prepared run (--prepare) in the "
                   "tuning file, instead of running one here"),
    llvm::cl::value_desc("file"), llvm::cl::sub(tuneCommand));
llvm::cl::opt<bool> keepOption("keep",
                               llvm::cl::desc("--backend cuda: keep the generated kernels, the "
                                              "harness and its outputs (the path goes to stderr)"),
                               llvm::cl::sub(tuneCommand));

void note(const std::string &line) { llvm::errs() << "tune: " << line << "\n"; }

/// One point of the search: a harness `time` line.
using Config = target::RunConfig;

struct Measured {
  Config config;
  double seconds = 0; ///< per step
};

/// Times `list` with the harness; the configurations it had no time for are missing.
std::optional<std::vector<Measured>> timeConfigs(const CompiledHarness &h,
                                                 const std::vector<Config> &list, int nx, int ny,
                                                 int nz, int nd, int repeats, bool alternate,
                                                 double seconds, const std::string &stage) {
  const std::string listFile = h.file(stage + ".txt"), outFile = h.file(stage + ".out");
  {
    std::ofstream out(listFile);
    for (const Config &c : list)
      out << c.variant << " " << c.blockX << " " << c.blockY << " " << c.blockZ << " "
          << c.timeDepth << " " << c.timeTileX << " " << c.timeTileY << " " << c.timeTileZ << "\n";
  }
  if (!runProgram({h.program(), "time", std::to_string(nx), std::to_string(ny), std::to_string(nz),
                   std::to_string(nd), "random", std::to_string(repeats), alternate ? "1" : "0",
                   fmt::format("{:.1f}", std::max(seconds, 0.1)), listFile},
                  outFile))
    return std::nullopt;
  std::vector<Measured> results;
  std::ifstream in(outFile);
  std::string word;
  size_t n = 0;
  double t = 0;
  while (in >> word >> n >> t)
    if (word == "timed" && n < list.size())
      results.push_back({list[n], t});
  return results;
}

std::vector<Config> uniqueConfigs(const std::vector<Config> &list) {
  std::vector<Config> out;
  std::set<Config> seen;
  for (const Config &c : list)
    if (seen.insert(c).second)
      out.push_back(c);
  return out;
}

/// Round 1: the defaults first (so a short budget still measures them), then a coarse grid.
std::vector<Config> coarseConfigs(const ir::Stencil &s, bool timeTileable, int nx, int ny, int nz) {
  std::vector<Config> list{kernel::untunedRunConfig(s)};
  const std::vector<int> depths = timeTileable ? std::vector<int>{2, 4, 8} : std::vector<int>{};
  for (const char *v : {"blocked", "planes"})
    list.push_back({v, 0, 0, 1, 0, 0});
  for (int depth : depths)
    for (const char *v : {"naive", "blocked"})
      list.push_back({v, 0, 0, depth, 0, 0});
  const std::vector<int> blockZs = s.dims == 3 ? std::vector<int>{16, 64, nz} : std::vector<int>{0};
  for (const char *v : {"blocked", "planes"})
    for (int by : {8, 32})
      for (int bz : blockZs)
        if (by <= ny && bz <= nz)
          list.push_back({v, by, bz, 1, 0, 0});
  const std::vector<int> tileZs = s.dims == 3 ? std::vector<int>{4, 16} : std::vector<int>{0};
  for (int depth : depths)
    for (const char *v : {"naive", "blocked"})
      for (int ty : {16, 64})
        for (int tz : tileZs)
          if (ty <= ny && tz <= nz)
            list.push_back({v, 0, 0, depth, ty, tz});
  // Tiles cut in x, where rows are long enough to hold two (docs/PERFORMANCE.md §Tiles cut in
  // x): blocked with the planner's y and z tiles, and the runtime's time tiles.
  for (int bx : {128, 256})
    if (2 * bx <= nx) {
      Config c{"blocked", 0, 0, 1, 0, 0};
      c.blockX = bx;
      list.push_back(c);
      for (int depth : depths) {
        c = {"naive", 0, 0, depth, 0, 0};
        c.timeTileX = bx;
        list.push_back(c);
      }
    }
  return uniqueConfigs(list);
}

/// Round 2: each of `best` and its neighbours.
std::vector<Config> fineConfigs(const ir::Stencil &s, const std::vector<Config> &best, int nx,
                                int ny, int nz) {
  std::vector<Config> list{kernel::untunedRunConfig(s)};
  auto valid = [&](const Config &c) {
    return c.blockX <= nx && c.blockY <= ny && c.blockZ <= nz && c.timeTileX <= nx &&
           c.timeTileY <= ny && c.timeTileZ <= nz && c.timeDepth <= 16;
  };
  for (const Config &b : best) {
    list.push_back(b);
    std::vector<Config> near;
    if (b.timeDepth == 1 && b.variant != "naive" && b.blockY > 0) {
      for (int f : {2, -2}) {
        Config c = b;
        c.blockY = f > 0 ? b.blockY * 2 : std::max(1, b.blockY / 2);
        near.push_back(c);
        if (s.dims == 3 && b.blockZ > 0) {
          c = b;
          c.blockZ = f > 0 ? b.blockZ * 2 : std::max(1, b.blockZ / 2);
          near.push_back(c);
        }
      }
    }
    if (b.timeDepth > 1) {
      // 0 is the runtime's default tile (stencilc/abi/TimeTiles.h).
      const int ty = b.timeTileY ? b.timeTileY : rt::kTimeTileY,
                tz = b.timeTileZ
                         ? b.timeTileZ
                         : (s.dims == 3 ? rt::defaultTimeTileZ(nx, ir::elemTypeBytes(s.elemType))
                                        : 0);
      for (int f : {2, -2}) {
        Config c = b;
        c.timeTileY = f > 0 ? ty * 2 : std::max(1, ty / 2);
        c.timeTileZ = tz;
        near.push_back(c);
        if (s.dims == 3) {
          c = b;
          c.timeTileY = ty;
          c.timeTileZ = f > 0 ? tz * 2 : std::max(1, tz / 2);
          near.push_back(c);
        }
        c = b;
        c.timeDepth = f > 0 ? b.timeDepth * 2 : b.timeDepth / 2;
        if (c.timeDepth >= 2)
          near.push_back(c);
      }
    }
    // x tiles where the pick has them: half and twice as wide.
    for (int f : {2, -2}) {
      Config c = b;
      if (b.timeDepth == 1 && b.blockX > 0)
        c.blockX = f > 0 ? b.blockX * 2 : std::max(16, b.blockX / 2);
      else if (b.timeDepth > 1 && b.timeTileX > 0)
        c.timeTileX = f > 0 ? b.timeTileX * 2 : std::max(16, b.timeTileX / 2);
      else
        continue;
      near.push_back(c);
    }
    for (const Config &c : near)
      if (valid(c))
        list.push_back(c);
  }
  return uniqueConfigs(list);
}

std::vector<Measured> fastestFirst(std::vector<Measured> v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const Measured &a, const Measured &b) { return a.seconds < b.seconds; });
  return v;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// checkRunFits for `tune`: the harness's `time` holds one random data set,
/// out of place, and checks time tiling beside it where the search tries it.
bool checkTuneFits(const CompiledStencil &compiled, const BenchOptions &size, int nd) {
  const ir::Stencil &s = *compiled.stencil;
  const auto [nx, ny, nz] = timedGridSize(s, size, analysis::readHostCaches().lastLevel());
  analysis::HarnessRun run;
  run.nx = nx;
  run.ny = ny;
  run.nz = nz;
  run.tableColumns = nd;
  run.timeTilingCheck = kernel::isTimeTileable(s);
  return checkRunFits(compiled, "tune", size, run);
}

/// Tunes one stencil; its choice, or nullopt after reporting why.
std::optional<analysis::TunedChoice> tuneStencil(const CompiledStencil &compiled,
                                                 const BenchOptions &size, int nd) {
  const auto start = std::chrono::steady_clock::now();
  const ir::Stencil &s = *compiled.stencil;
  const auto [nx, ny, nz] = timedGridSize(s, size, analysis::readHostCaches().lastLevel());
  note(fmt::format("{} ({}) at {}x{}x{}, working set {:.0f} MiB; budget {:.0f} s", s.name,
                   ir::elemTypeName(s.elemType), nx, ny, nz,
                   double(gridBytesPerPoint(s)) * nx * ny * nz / (1 << 20), double(budgetOption)));
  std::unique_ptr<CompiledHarness> h = CompiledHarness::build(compiled, size.sourcePath, false);
  if (!h)
    return std::nullopt;
  if (!h->allCorrect()) {
    for (const auto &[variant, error] : h->errors())
      if (error >= h->tolerance())
        driver::reportError(fmt::format("{}: the {} kernel differs from the reference evaluator "
                                        "(relative error {:.2e}, tolerance {:g}); nothing to tune",
                                        s.name, variant, error, h->tolerance()));
    return std::nullopt;
  }
  const bool timeTileable = kernel::isTimeTileable(s);

  const double points = double(nx) * ny * nz;
  auto gpts = [&](double seconds) { return points / seconds / 1e9; };
  auto report = [&](const std::vector<Measured> &m, const std::string &round) {
    std::vector<Measured> sorted = fastestFirst(m);
    note(fmt::format("{}: {} configurations measured; fastest {} ({:.3g} GPts/s)", round, m.size(),
                     sorted.front().config.describe(), gpts(sorted.front().seconds)));
    return sorted;
  };

  const std::vector<Config> coarse = coarseConfigs(s, timeTileable, nx, ny, nz);
  note(fmt::format("round 1 of 3: {} configurations, one timing each", coarse.size()));
  auto round1 = timeConfigs(*h, coarse, nx, ny, nz, nd, 1, false,
                            0.6 * budgetOption - secondsSince(start), "round1");
  if (!round1)
    return std::nullopt;
  if (round1->empty()) {
    driver::reportError(fmt::format("{}: --budget {:g} s was spent before the first "
                                    "configuration was timed; give it more",
                                    s.name, double(budgetOption)));
    return std::nullopt;
  }
  std::vector<Measured> sorted1 = report(*round1, "round 1");
  std::vector<Config> best;
  for (size_t i = 0; i < sorted1.size() && best.size() < 3; ++i)
    best.push_back(sorted1[i].config);

  const std::vector<Config> fine = fineConfigs(s, best, nx, ny, nz);
  note(fmt::format("round 2 of 3: {} configurations, median of 3", fine.size()));
  auto round2 = timeConfigs(*h, fine, nx, ny, nz, nd, 3, false,
                            0.9 * budgetOption - secondsSince(start), "round2");
  if (!round2)
    return std::nullopt;
  const Config pick = round2->empty() ? best.front() : report(*round2, "round 2").front().config;

  // Round 3: the pick against the defaults, in turn, so that both see the same load.
  const Config defaults = kernel::untunedRunConfig(s);
  const std::vector<Config> finalists =
      pick == defaults ? std::vector<Config>{defaults} : std::vector<Config>{pick, defaults};
  note(fmt::format("round 3 of 3: {} against the defaults, in turn, median of 7", pick.describe()));
  auto round3 = timeConfigs(*h, finalists, nx, ny, nz, nd, 7, true, 0, "round3");
  if (!round3 || round3->size() != finalists.size()) {
    driver::reportError(s.name + ": the confirmation round did not finish");
    return std::nullopt;
  }
  const double pickSeconds = round3->front().seconds, defaultSeconds = round3->back().seconds;
  const bool pickWins = pickSeconds < defaultSeconds;
  const Config chosen = pickWins ? pick : defaults;

  analysis::TunedChoice c;
  c.run = chosen;
  c.gptsPerSecond = gpts(pickWins ? pickSeconds : defaultSeconds);
  c.defaultGptsPerSecond = gpts(defaultSeconds);
  c.nx = nx;
  c.ny = ny;
  c.nz = nz;
  c.date = analysis::tuningDate();
  llvm::outs() << fmt::format("{} ({}), {}x{}x{}, tuned in {:.0f} s:\n", s.name,
                              ir::elemTypeName(s.elemType), nx, ny, nz, secondsSince(start));
  llvm::outs() << fmt::format("  fastest found  {:<66} {:.3g} GPts/s\n", pick.describe(),
                              gpts(pickSeconds));
  llvm::outs() << fmt::format("  defaults       {:<66} {:.3g} GPts/s\n", defaults.describe(),
                              gpts(defaultSeconds));
  if (pick == defaults)
    llvm::outs() << "  chosen         the defaults: they were the fastest found\n";
  else if (pickWins)
    llvm::outs() << fmt::format("  chosen         the fastest found, {:.2f}x the defaults "
                                "(median of 7, timed in turn with them)\n",
                                defaultSeconds / pickSeconds);
  else
    llvm::outs() << "  chosen         the defaults: the fastest found was not faster when timed "
                    "in turn with them (median of 7)\n";
  return c;
}

/// The grid side of a dry run on the emulator (2D stencils take its square: the harness takes
/// nz 1 for them).
constexpr int kEmulatedSide = 24;

/// `tune --backend cuda`: every stencil of the file on this machine's GPU (or the emulator).
int tuneCuda(driver::LoadOptions options, const BenchOptions &size, analysis::TuningFile file) {
  driver::CudaTuneOptions o;
  o.sourcePath = inputFile;
  o.emulate = emulateOption;
  o.size = size;
  if (o.emulate && size.nx == 0) {
    // Every CUDA thread is a fiber on the emulator: a small grid keeps the dry run short.
    o.size.nx = o.size.ny = o.size.nz = kEmulatedSide;
  }
  o.layeredIndex = indexOption == IndexChoice::Layered;
  o.steps = stepsOption > 0 ? int(stepsOption) : (o.emulate ? 1 : 10);
  o.budgetSeconds = budgetOption;
  o.keep = keepOption;
  // A result was measured elsewhere with its own grid, index, steps and budget; a prepared
  // folder is kept whole. What would steer neither is refused rather than ignored.
  if (!resultOption.empty() || !prepareOption.empty()) {
    const bool result = !resultOption.empty();
    std::vector<const llvm::cl::Option *> unused = {&keepOption};
    if (result)
      unused.insert(unused.end(),
                    {&sizeOption, &indexOption, &stepsOption, &budgetOption, &prepareOption});
    for (const llvm::cl::Option *opt : unused)
      if (opt->getNumOccurrences()) {
        driver::reportError(fmt::format("--{}: {}", opt->ArgStr.str(),
                                        result ? "--result records a run made elsewhere, with "
                                                 "the options it was prepared with"
                                               : "--prepare keeps its folder anyway"));
        return 2;
      }
  }
  if (stepsOption.getNumOccurrences() && stepsOption < 1) {
    driver::reportError(
        fmt::format("--steps: {} is not a positive number of steps", int(stepsOption)));
    return 2;
  }
  if (!archOption.empty()) {
    if (!driver::checkCudaArch("--arch", archOption))
      return 2;
    o.arch = archOption;
  } else if (o.emulate) {
    o.arch = "sm_90"; // the compute capability the emulator reports
  } else {
    std::string why;
    o.arch = driver::localGpuArch(why);
    if (o.arch.empty()) {
      driver::reportError("tune --backend cuda: " + why +
                          "; --emulate runs the search on the CUDA emulator instead");
      return 2;
    }
  }
  std::string error;
  std::optional<PlanTarget> target = makePlanTarget(o.arch, size.nd, -1, -1, error);
  if (!target) {
    driver::reportError("tune: " + error);
    return 2;
  }
  options.pipeline.target = *target;
  auto loaded = driver::loadModule(inputFile, options);
  if (!loaded)
    return 1;
  if ((!prepareOption.empty() || !resultOption.empty()) && loaded->compiled.size() != 1) {
    driver::reportError(fmt::format("--{}: needs a file with one stencil; '{}' has {}",
                                    prepareOption.empty() ? "result" : "prepare", inputFile,
                                    loaded->compiled.size()));
    return 2;
  }
  if (!prepareOption.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(prepareOption)) {
      driver::reportError("--prepare: cannot create '" + prepareOption + "': " + ec.message());
      return 1;
    }
    if (!driver::prepareCudaTune(loaded->compiled.front(), o, prepareOption))
      return 1;
    llvm::outs() << fmt::format(
        "Prepared in {}. On the GPU ({} or newer), run\n  {} > RESULT\nthen record it here "
        "with\n  stencilc tune {} --backend cuda --arch {}{} --result RESULT -o {}\n",
        prepareOption, o.arch, driver::cudaTuneCommand(o, prepareOption), inputFile, o.arch,
        o.emulate ? " --emulate" : "", outputFile.empty() ? "TUNING-FILE" : outputFile.getValue());
    return 0;
  }
  for (const CompiledStencil &c : loaded->compiled) {
    auto tuned = resultOption.empty() ? driver::tuneCudaLaunch(c, o)
                                      : driver::readCudaTuneResult(c, resultOption, o.emulate);
    if (!tuned)
      return 1; // nothing written: the file holds all of a run or none of it
    analysis::mergeLaunch(file, tuned->first, c.stencil->name, analysis::stencilHash(*c.stencil),
                          ir::elemTypeName(c.stencil->elemType), tuned->second);
  }
  if (llvm::Error e = analysis::writeTuningFile(outputFile, file)) {
    driver::reportError(llvm::toString(std::move(e)));
    return 1;
  }
  note("wrote " + outputFile);
  return 0;
}

int runTune() {
  if (machineKeyOption) {
    llvm::outs() << analysis::machineKeyJson(analysis::thisMachine()) << "\n";
    return 0;
  }
  if (stencilHashOption) {
    if (inputFile.empty()) {
      driver::reportError("--stencil-hash takes a .stencil file");
      return 2;
    }
    auto loaded = driver::loadModule(inputFile, driver::LoadOptions{});
    if (!loaded)
      return 1;
    for (const CompiledStencil &c : loaded->compiled)
      llvm::outs() << "\"" << analysis::stencilHash(*c.stencil) << "\"\n";
    return 0;
  }
  if (inputFile.empty() || (outputFile.empty() && prepareOption.empty())) {
    driver::reportError("tune takes one .stencil file and -o TUNING-FILE");
    return 2;
  }
  if (!(budgetOption > 0)) {
    driver::reportError(
        fmt::format("--budget {:g}: expected a number of seconds above 0", double(budgetOption)));
    return 2;
  }
  BenchOptions size;
  size.sourcePath = inputFile;
  if (!parseGridSize(sizeOption, size)) {
    driver::reportError("bad --size '" + sizeOption + "': expected N or NXxNYxNZ");
    return 2;
  }
  // Read the file to merge into before spending minutes: a malformed one stops here.
  analysis::TuningFile file;
  if (llvm::sys::fs::exists(outputFile)) {
    auto existing = analysis::readTuningFile(outputFile);
    if (!existing) {
      driver::reportError(llvm::toString(existing.takeError()));
      return 1;
    }
    file = std::move(*existing);
  }
  driver::LoadOptions options;
  if (typeOption != TypeChoice::AsDeclared)
    options.elemType = typeOption == TypeChoice::Float ? ir::ElemType::Float : ir::ElemType::Double;
  const bool cuda = backendOption == driver::Backend::Cuda;
  for (const llvm::cl::Option *o : std::initializer_list<const llvm::cl::Option *>{
           &archOption, &emulateOption, &indexOption, &stepsOption, &keepOption, &prepareOption,
           &resultOption})
    if (!cuda && o->getNumOccurrences()) {
      driver::reportError("--" + o->ArgStr.str() + ": needs --backend cuda");
      return 2;
    }
  if (cuda)
    return tuneCuda(options, size, std::move(file));
  auto loaded = driver::loadModule(inputFile, options);
  if (!loaded)
    return 1;
  // Every stencil's grid is checked before the first is built and tuned.
  for (const CompiledStencil &c : loaded->compiled)
    if (!checkTuneFits(c, size, size.nd))
      return 2;
  const analysis::MachineKey machine = analysis::thisMachine();
  note("machine: " + machine.describe());
  for (const CompiledStencil &c : loaded->compiled) {
    auto choice = tuneStencil(c, size, size.nd);
    if (!choice)
      return 1; // nothing written: the file holds all of a run or none of it
    analysis::mergeChoice(file, machine, c.stencil->name, analysis::stencilHash(*c.stencil),
                          ir::elemTypeName(c.stencil->elemType), *choice);
  }
  if (llvm::Error e = analysis::writeTuningFile(outputFile, file)) {
    driver::reportError(llvm::toString(std::move(e)));
    return 1;
  }
  note("wrote " + outputFile);
  return 0;
}

driver::CommandRegistration registration(tuneCommand, &runTune);

} // namespace
