//===- BenchCommand.cpp - `stencilc bench`: check and time the CPU kernels -===//
//
//   stencilc bench FILE [--size N|NX,NY,NZ] [--repeats N] [--search] [--json] [--keep]
//                  [--in-place auto|on|off] [--index random|layered] [--time-depths T,...]
//
// Generates, compiles, checks and times the CPU kernels of one stencil file
// (driver/Bench.h).
//
//===----------------------------------------------------------------------===//
#include "analysis/HostCaches.h"
#include "analysis/RunBudget.h"
#include "driver/Bench.h"
#include "driver/CompileOptions.h"
#include "driver/Driver.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <string>
#include <vector>

using namespace stencilc;

namespace {

llvm::cl::SubCommand benchCommand("bench", "Generate, check and time the CPU kernels of a stencil");

driver::CompileCommandLine options(benchCommand, /*extras=*/0);

llvm::cl::opt<std::string>
    benchSize("size",
              llvm::cl::desc("Grid size N (N^3, or N^2 in 2D) or NX,NY,NZ, x first "
                             "(default: the smallest N^3, or N^2 in 2D, whose grids are 4x the "
                             "last-level cache, and in 3D a 512^3 production grid beside it)"),
              llvm::cl::value_desc("size"), llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchDryRun(
    "dry-run",
    llvm::cl::desc("Print the grids a run would time, what chose each and the memory it needs; "
                   "build and time nothing"),
    llvm::cl::sub(benchCommand));
llvm::cl::opt<int> benchRepeats("repeats", llvm::cl::desc("Timed steps per variant (median)"),
                                llvm::cl::init(5), llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchSearch("search",
                                llvm::cl::desc("Search tile sizes for blocked and planes"),
                                llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchJson("json", llvm::cl::desc("Print the results as JSON"),
                              llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchKeep("keep", llvm::cl::desc("Keep the generated files and harness"),
                              llvm::cl::sub(benchCommand));
llvm::cl::opt<BenchOptions::InPlace> benchInPlace(
    "in-place", llvm::cl::desc("Time outputs written over the level they overwrite"),
    llvm::cl::values(clEnumValN(BenchOptions::InPlace::Auto, "auto", "both, where allowed"),
                     clEnumValN(BenchOptions::InPlace::On, "on", "in place only"),
                     clEnumValN(BenchOptions::InPlace::Off, "off", "out of place only")),
    llvm::cl::init(BenchOptions::InPlace::Auto), llvm::cl::sub(benchCommand));

llvm::cl::opt<BenchOptions::Index> benchIndex(
    "index", llvm::cl::desc("How the index fields are filled"),
    llvm::cl::values(clEnumValN(BenchOptions::Index::Random, "random",
                                "uniformly random over the --nd values"),
                     clEnumValN(BenchOptions::Index::Layered, "layered",
                                "from a smooth layered model: a few values per depth (z) plane")),
    llvm::cl::init(BenchOptions::Index::Random), llvm::cl::sub(benchCommand));
llvm::cl::list<int> benchTimeDepths(
    "time-depths",
    llvm::cl::desc("Time steps per pass of the time-tiled runs to time (0: none; default 2,4,8)"),
    llvm::cl::value_desc("T,..."), llvm::cl::CommaSeparated, llvm::cl::sub(benchCommand));

int runBenchCommand() {
  if (!options.check())
    return 2;
  if (options.inputFiles.size() != 1) {
    llvm::WithColor::error(llvm::errs(), "stencilc") << "bench takes one .stencil file\n";
    return 2;
  }
  BenchOptions o;
  o.sourcePath = options.inputFiles[0];
  std::string why;
  if (!parseGridSize(benchSize, o, &why)) {
    driver::reportError(fmt::format("bad --size '{}': {}; expected N (a cube) or NX,NY,NZ (x "
                                    "first)",
                                    std::string(benchSize), why));
    return 2;
  }
  // bench builds and times CPU kernels only: the options that steer GPU kernels
  // would be accepted and ignored, so they are refused.
  const driver::PlanCommandLine &plan = options.plan;
  if (const std::string gpuOnly = plan.gpuOnlyOptionGiven(); !gpuOnly.empty()) {
    driver::reportError(gpuOnly + ": bench times the CPU kernels, which it does not steer; use "
                                  "it with gen --backend cuda or analyze");
    return 2;
  }
  if (plan.planTargetGiven() && plan.planTarget != "cpu") {
    driver::reportError("--plan-target: bench times the CPU kernels, planned for cpu, not '" +
                        plan.planTarget + "'; plan for a GPU with gen --backend cuda or analyze");
    return 2;
  }
  o.nd = plan.nd;
  o.repeats = benchRepeats;
  o.search = benchSearch;
  o.json = benchJson;
  o.keep = benchKeep;
  o.inPlace = benchInPlace;
  o.index = benchIndex;
  if (o.repeats < 1) {
    driver::reportError(fmt::format("--repeats: {} is not positive", o.repeats));
    return 2;
  }
  if (benchTimeDepths.getNumOccurrences()) {
    o.timeDepths.assign(benchTimeDepths.begin(), benchTimeDepths.end());
    if (o.timeDepths == std::vector<int>{0})
      o.timeDepths.clear();
    for (int depth : o.timeDepths)
      if (depth < 1 || depth > 64) {
        driver::reportError(fmt::format(
            "--time-depths: {} is not a number of time steps per pass from 1 to 64 (0 alone: "
            "none)",
            depth));
        return 2;
      }
  }
  auto load = options.loadOptions("cpu");
  if (!load)
    return 2;
  auto loaded = driver::loadModule(options.inputFiles[0], *load);
  if (!loaded)
    return 1;
  // Every stencil's grids are chosen and checked before the first is built and timed.
  const long long lastLevel = analysis::readHostCaches().lastLevel();
  const std::uint64_t available = availableMemory();
  std::vector<std::vector<BenchGrid>> grids;
  for (const CompiledStencil &c : loaded->compiled) {
    std::vector<std::string> notes;
    grids.push_back(benchGrids(c, o, lastLevel, available, notes));
    for (const std::string &note : notes)
      llvm::errs() << "bench: " << c.stencil->name << ": " << note << "\n";
    if (!checkBenchFits(c, o, grids.back()))
      return 2;
  }
  if (benchDryRun) {
    for (size_t i = 0; i < loaded->compiled.size(); ++i) {
      const ir::Stencil &s = *loaded->compiled[i].stencil;
      for (const BenchGrid &g : grids[i])
        llvm::outs() << fmt::format(
            "{} {}x{}x{} ({}{}{}): needs {} of memory, {} available\n", s.name, g.size[0],
            g.size[1], g.size[2], chosenName(g.chosen), g.reason.empty() ? "" : ", ", g.reason,
            analysis::bytesText(double(analysis::harnessPeakBytes(s, benchRun(s, o, g.size)))),
            available ? analysis::bytesText(double(available)) : std::string("unknown"));
    }
    return 0;
  }
  int status = 0;
  for (size_t i = 0; i < loaded->compiled.size(); ++i)
    status |= runBench(loaded->compiled[i], o, grids[i]);
  return status;
}

driver::CommandRegistration registration(benchCommand, &runBenchCommand);

} // namespace
