//===- ModelDefaults.h - Run defaults from the roofline model --------------===//
//
// What `stencilc gen --machine` makes a kernel's defaults when no tuning file
// has an entry for it: the time steps per pass. The roofline model (Roofline.h)
// says how many lift a memory-bound single sweep to its compute roof: a pass of
// T steps reads and writes the fields once for T steps, so the memory roof
// rises T-fold while the compute roof stays. The tiles run well below that
// roof, though (their levels come from L2 and L3, not L1), so passes deeper
// than the ratio kept paying where measured; the model therefore only deepens
// passes beyond the untuned depth, where the ratio asks for more.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "analysis/Roofline.h"
#include "passes/Pipeline.h"
#include "target/RunConfig.h"

#include <string>

namespace stencilc::analysis {

/// The deepest pass the model picks: the deepest `stencilc tune` tries
/// (docs/PERFORMANCE.md §Defaults from the model).
inline constexpr int kMaxModelTimeDepth = 16;

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

/// The model's time steps per pass for `c`'s CPU kernels on `machine`: the
/// ratio of the naive single sweep's compute roof to its memory roof, rounded
/// up, but at least kUntunedTimeDepth and at most kMaxModelTimeDepth; 1 for a
/// stencil that is not time-tileable.
ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine);

} // namespace stencilc::analysis
