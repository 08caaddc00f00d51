//===- Bench.h - `stencilc bench`: generate, compile, check and time -------===//
#pragma once

#include "analysis/RunBudget.h"
#include "eval/ReferenceEvaluator.h"
#include "passes/Pipeline.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stencilc {

struct BenchOptions {
  std::string sourcePath; ///< the .stencil file, for messages and generated comments
  std::string sizeText;   ///< --size as given, for messages; empty: the default size
  /// 0: the default sizes (benchGrids): a working set of at least 4x this machine's
  /// last-level cache and, for `bench` in 3D, a production shape beside it
  int nx = 0, ny = 0, nz = 0;
  int sizeExtents = 0; ///< how many extents --size gave (1, 2 or 3; 0: none)
  int nd = 902;        ///< distinct index values (the papers' velocity count)
  int repeats = 5;     ///< timed steps per variant; the median is reported
  bool search = false; ///< search tile sizes for blocked and planes
  bool json = false;
  bool keep = false; ///< keep the temporary directory (its path goes to stderr)
  enum class InPlace { Auto, On, Off } inPlace = InPlace::Auto;
  /// How index fields are filled: uniformly random over the nd values, or
  /// from a smooth layered model (real velocity models are layered: runs of
  /// equal index along x, a few values per depth plane).
  enum class Index { Random, Layered } index = Index::Random;
  /// Time steps per pass of the time-tiled runs (stencilc/timeloop/TimeTiling.h) to
  /// time, for stencils whose outputs advance time levels; empty: none.
  std::vector<int> timeDepths = {2, 4, 8};
};

/// The bench harness (runtime/src/bench/BenchHarness.cpp) compiled with a stencil's
/// generated CPU kernels and checked against the reference evaluator, in a
/// temporary directory that goes with it (unless kept). `bench` and `tune`
/// run it.
class CompiledHarness {
public:
  /// Null after reporting why on stderr (a build or a check that failed to run).
  static std::unique_ptr<CompiledHarness> build(const CompiledStencil &compiled,
                                                const std::string &sourcePath, bool keep);
  ~CompiledHarness();
  CompiledHarness(const CompiledHarness &) = delete;
  CompiledHarness &operator=(const CompiledHarness &) = delete;

  const std::string &dir() const { return dir_; }
  const std::string &program() const { return program_; }
  /// `name` in dir().
  std::string file(const std::string &name) const;
  /// Each variant's normwise relative error against the reference evaluator.
  const std::map<std::string, double> &errors() const { return errors_; }
  /// Whether every variant is within the tolerance of its element type.
  bool allCorrect() const;
  double tolerance() const { return tolerance_; }

private:
  CompiledHarness(std::string dir, bool keep) : dir_(std::move(dir)), keep_(keep) {}
  std::string dir_, program_;
  bool keep_;
  std::map<std::string, double> errors_;
  double tolerance_ = 0;
};

/// Reads --size: "N" (N^3, or N^2 in 2D), "NX,NY,NZ" (x first, x fastest) or
/// "NX,NY" (2D), with "x" accepted in place of the commas ("NXxNYxNZ"), into
/// o.nx, o.ny, o.nz and o.sizeText; an empty text leaves them 0 (the default
/// sizes). False on a malformed size, with why in `why` (if given): the
/// offending part named, a zero or negative extent included.
bool parseGridSize(const std::string &text, BenchOptions &o, std::string *why = nullptr);

/// The side of the production cube that a default `bench` run times beside the
/// 4x-LLC one: production grids have rows of 500-2000 points, the default
/// cube's are 200-odd.
constexpr int kProductionSide = 512;

/// One grid `bench` times, and what chose it.
struct BenchGrid {
  std::array<int, 3> size{}; ///< nx, ny, nz (nz 1 in 2D)
  enum class Chosen { Option, LastLevelCache, Production } chosen = Chosen::Option;
  /// Why this size, for stderr and the JSON: empty for --size's.
  std::string reason;
};

/// "option", "last-level cache", "production".
const char *chosenName(BenchGrid::Chosen chosen);

/// The grids `bench` times with `o`. With --size, that one. Without: the
/// 4x-LLC grid (timedGridSize) and, for a 3D stencil, a production cube beside
/// it: kProductionSide^3, or else the largest N^3 (N a multiple of 8) whose run
/// fits in `availableBytes` (0: unknown, nothing is shrunk); none when that is
/// no larger than the first grid. `notes` gets why a production grid was
/// shrunk or left out.
std::vector<BenchGrid> benchGrids(const CompiledStencil &compiled, const BenchOptions &o,
                                  long long lastLevelCache, std::uint64_t availableBytes,
                                  std::vector<std::string> &notes);

/// The memory a new process may take here (analysis::readAvailableMemory):
/// MemAvailable of /proc/meminfo, or of the file STENCILC_MEMINFO names (tests
/// use it to stand in for a machine with less memory).
std::uint64_t availableMemory();

/// What one `bench` harness process holds at `size` (analysis/RunBudget.h): the
/// triad, the grids of the larger mode timed, the time-tiling check.
analysis::HarnessRun benchRun(const ir::Stencil &s, const BenchOptions &o,
                              const std::array<int, 3> &size);

/// Writes the reference's inputs `ref` (of `sizes`) into `dir` for a harness's
/// check, as stencilc/bench/CheckData.h reads them, in the stencil's element type.
void writeCheckData(const ir::Stencil &s, eval::EvalData &ref, const eval::EvalSizes &sizes,
                    const std::string &dir);

/// Runs `argv` (argv[0] found on PATH) with stdout to `outFile` (if not
/// empty) and stderr passed through; false after reporting a failure as `who`.
bool runProgram(const std::vector<std::string> &argv, const std::string &outFile,
                const std::string &who = "stencilc bench");

/// Bytes of grid per point: every field in its own element type, none sharing
/// storage (out of place, the larger of the two set-ups).
int gridBytesPerPoint(const ir::Stencil &s);

/// The default grid side of `bench` and `tune`: a working set of at least 4x
/// the last-level cache (bytes; 0: unknown).
int defaultGridSide(const ir::Stencil &s, long long lastLevelCache);

/// The grid `bench` and `tune` time: o's size, else defaultGridSide's; nz is 1 in 2D.
std::array<int, 3> timedGridSize(const ir::Stencil &s, const BenchOptions &o,
                                 long long lastLevelCache);

/// Whether `command` ("bench", "tune") may run `compiled` on the grid of
/// `run`: every axis has the points the stencil needs (analysis::gridNeeds),
/// and what the harness holds at once fits in this machine's available
/// memory. False after reporting which does not, with the numbers. Called
/// before anything is generated or compiled, so that a run that cannot work
/// stops at once and writes nothing.
bool checkRunFits(const CompiledStencil &compiled, const std::string &command,
                  const BenchOptions &o, const analysis::HarnessRun &run);

/// checkRunFits for `bench` with `o` on each of `grids` (benchGrids): the
/// triad first, then the grids of every mode it times (out of place, the
/// larger, unless only in place). A --size with a z extent other than 1 for a
/// 2D stencil is refused too.
bool checkBenchFits(const CompiledStencil &compiled, const BenchOptions &o,
                    const std::vector<BenchGrid> &grids);

/// Generates the CPU kernels of `compiled`, compiles them with the system
/// compiler (-O3 -march=native -fopenmp) and the bench harness, checks every
/// variant against the reference evaluator on a small grid, times every
/// variant on each of `grids` (benchGrids) next to a triad bandwidth probe,
/// and prints a table per grid (or one JSON report) to stdout; progress goes
/// to stderr. Returns the process exit status.
int runBench(const CompiledStencil &compiled, const BenchOptions &options,
             const std::vector<BenchGrid> &grids);

} // namespace stencilc
