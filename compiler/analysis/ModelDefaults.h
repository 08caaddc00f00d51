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

#include <string>

namespace stencilc::analysis {

/// The deepest pass the model picks: the deepest `stencilc bench` times by
/// default, and the one that gave acoustic_iso8 its best figure on every
/// machine measured (docs/PERFORMANCE.md §Default time tiles and depth).
inline constexpr int kMaxModelTimeDepth = 4;

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
