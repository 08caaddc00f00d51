//===- RunConfig.h - How a CPU kernel runs where its caller leaves it -----===//
//
// One type for the run settings of the generated CPU kernels: the variant
// and its tiles (the runtime's rt::RunOptions) and the time steps per pass
// with their tiles (rt::TimeTiling). `stencilc tune` searches these, a tuning
// file keeps the fastest (analysis/TuningFile.h), the roofline model picks
// the time steps per pass (analysis/ModelDefaults.h), and `gen` prints them
// as the kernel's kDefaultOptions and kTimeTiling (backends/cpu/CpuEmitter.h).
// The runtime's two types also carry what only a caller knows (the box to
// compute, tiles in x), so they stay the runtime's own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <tuple>

namespace stencilc::target {

struct RunConfig {
  std::string variant = "auto";     ///< rt::Variant's name: naive, blocked, planes, auto
  int blockY = 0, blockZ = 0;       ///< rt::RunOptions tiles; 0: the kernel's default
  int timeDepth = 1;                ///< time steps per pass (rt::TimeTiling); 1: single sweeps
  int timeTileY = 0, timeTileZ = 0; ///< rt::TimeTiling tiles; 0: the runtime's default
  /// Tile widths in x of rt::RunOptions and rt::TimeTiling; 0: the whole row.
  int blockX = 0, timeTileX = 0;

  auto tie() const {
    return std::tie(variant, blockY, blockZ, blockX, timeDepth, timeTileY, timeTileZ, timeTileX);
  }
  bool operator<(const RunConfig &o) const { return tie() < o.tie(); }
  bool operator==(const RunConfig &o) const { return tie() == o.tie(); }

  /// "blocked, tiles 16 x default, 4 steps per pass, time tiles 32 x 8"; x tiles,
  /// where set, as "x tiles of 128 points" after the tiles they go with.
  std::string describe() const;
};

} // namespace stencilc::target
