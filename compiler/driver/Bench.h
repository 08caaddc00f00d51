//===- Bench.h - `stencilc bench`: generate, compile, check and time -------===//
#pragma once

#include "analysis/RunBudget.h"
#include "passes/Pipeline.h"

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stencilc {

struct BenchOptions {
  std::string sourcePath; ///< the .stencil file, for messages and generated comments
  std::string sizeText;   ///< --size as given, for messages; empty: the default size
  /// 0: the default size, a working set of at least 4x this machine's last-level cache
  int nx = 0, ny = 0, nz = 0;
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
  std::vector<int> timeDepths = {2, 4};
};

/// Generates the CPU kernels of `compiled`, compiles them with the system
/// compiler (-O3 -march=native -fopenmp) and the bench harness, checks every
/// variant against the reference evaluator on a small grid, times every
/// variant next to a triad bandwidth probe, and prints a table (or JSON) to
/// stdout; progress goes to stderr. Returns the process exit status.
int runBench(const CompiledStencil &compiled, const BenchOptions &options);

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

/// Reads --size: "N" (N^3, or N^2 in 2D) or "NXxNYxNZ" into o.nx, o.ny, o.nz
/// and o.sizeText; an empty text leaves them 0 (the default size). False on a
/// malformed size.
bool parseGridSize(const std::string &text, BenchOptions &o);

/// Runs `argv` (argv[0] found on PATH) with stdout to `outFile` (if not
/// empty) and stderr passed through; false after reporting a failure.
bool runProgram(const std::vector<std::string> &argv, const std::string &outFile);

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

/// checkRunFits for `bench` with `o`: the triad first, then the grids of
/// every mode it times (out of place, the larger, unless only in place).
bool checkBenchFits(const CompiledStencil &compiled, const BenchOptions &o);

} // namespace stencilc
