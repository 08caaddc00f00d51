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
#include "kernel/RunDefaults.h"
#include "passes/Pipeline.h"
#include "target/RunConfig.h"

#include <string>

namespace stencilc::analysis {

/// The deepest pass the model picks: the deepest `stencilc tune` tries
/// (docs/PERFORMANCE.md §Defaults from the model).
inline constexpr int kMaxModelTimeDepth = 16;

struct ModelRunChoice {
  int timeDepth = 1;       ///< time steps per pass
  RooflineBound sweep;     ///< the single sweep's bound (naive) that decided it
  std::string explanation; ///< one line: the roofs and the rule
};

/// The model's time steps per pass for `c`'s CPU kernels on `machine`: the
/// ratio of the naive single sweep's compute roof to its memory roof, rounded
/// up, but at least kernel::kUntunedTimeDepth and at most kMaxModelTimeDepth; 1 for a
/// stencil that is not time-tileable.
ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine);

} // namespace stencilc::analysis
