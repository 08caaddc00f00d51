//===- ModelDefaults.h - Run defaults from the roofline model --------------===//
//
// What `stencilc gen --machine` makes a kernel's defaults when no tuning file
// has an entry for it: the time steps per pass that the roofline model
// (Roofline.h) says lift a memory-bound single sweep to its compute roof. A
// pass of T steps reads and writes the fields once for T steps, so the memory
// roof rises T-fold while the compute roof stays; T beyond the ratio of the
// two roofs buys nothing and only deepens the tiles' overlap (r * T).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "analysis/Roofline.h"
#include "passes/Pipeline.h"
#include "target/RunConfig.h"

#include <string>

namespace stencilc::analysis {

/// The deepest pass the model picks: the one that gave acoustic_iso8 its best
/// figure at 208^3 on every machine measured (docs/PERFORMANCE.md §Default
/// time tiles and depth).
inline constexpr int kMaxModelTimeDepth = 4;

/// Time steps per pass of a kernel that neither a tuning file nor a machine
/// file (`gen --machine`) sets, where passes of several steps apply: on every
/// stencil measured at 4x the last-level cache and on production grids, 8 ran
/// at least as fast as single sweeps and as 4 (docs/PERFORMANCE.md §Default
/// time tiles and depth).
inline constexpr int kUntunedTimeDepth = 8;

/// How `s`'s CPU kernels run where nothing sets it: rt::RunOptions{} and
/// kUntunedTimeDepth steps per pass with the runtime's tiles where passes of
/// several steps apply (isTimeTileable), else single sweeps.
target::RunConfig untunedRunConfig(const ir::Stencil &s);

struct ModelRunChoice {
  int timeDepth = 1;       ///< time steps per pass
  RooflineBound sweep;     ///< the single sweep's bound (naive) that decided it
  std::string explanation; ///< one line: the roofs and the rule
};

/// Why passes of several steps do not apply to `s`, or an empty string when
/// they do: every output advances a time level and every time level is
/// advanced or overwritten, so that the levels only rotate
/// (rt::timeTilingObstacle's rule, before any kernel exists).
std::string timeTilingObstacle(const ir::Stencil &s);

/// Whether passes of several steps apply to `s` (timeTilingObstacle).
bool isTimeTileable(const ir::Stencil &s);

/// The model's time steps per pass for `c`'s CPU kernels on `machine`; 1 for
/// a stencil that is not time-tileable.
ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine);

} // namespace stencilc::analysis
