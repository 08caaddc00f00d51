//===- Bench.h - `stencilc bench`: generate, compile, check and time -------===//
#pragma once

#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc {

struct BenchOptions {
  std::string sourcePath; ///< the .stencil file, for messages and generated comments
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
  /// Time steps per pass of the time-tiled runs (stencilc/TimeTiling.h) to
  /// time, for stencils whose outputs advance time levels; empty: none.
  std::vector<int> timeDepths = {2, 4};
};

/// Generates the CPU kernels of `compiled`, compiles them with the system
/// compiler (-O3 -march=native -fopenmp) and the bench harness, checks every
/// variant against the reference evaluator on a small grid, times every
/// variant next to a triad bandwidth probe, and prints a table (or JSON) to
/// stdout; progress goes to stderr. Returns the process exit status.
int runBench(const CompiledStencil &compiled, const BenchOptions &options);

} // namespace stencilc
