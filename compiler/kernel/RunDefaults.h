//===- RunDefaults.h - How CPU kernels run where nothing says --------------===//
//
// The run defaults that `lower-cpu` records in a CPU kernel module
// (KernelModule::runDefaults) and `gen` prints as the header's
// kDefaultOptions and kTimeTiling: rt::RunOptions' defaults, and passes of
// kUntunedTimeDepth steps where a stencil's time levels only rotate. `gen
// --tuning` and `gen --machine` replace them with a tuning file's entry or the
// roofline model's choice (driver/GenTuning.h), in the same module.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "target/RunConfig.h"

#include <string>

namespace stencilc::kernel {

/// Time steps per pass of a kernel that neither a tuning file nor a machine
/// file (`gen --machine`) sets, where passes of several steps apply: on every
/// stencil measured at 4x the last-level cache and on production grids, 8 ran
/// at least as fast as single sweeps and as 4 (docs/PERFORMANCE.md §Default
/// time tiles and depth).
inline constexpr int kUntunedTimeDepth = 8;

/// Why passes of several steps do not apply to `s`, or an empty string when
/// they do: every output advances a time level and every time level is
/// advanced or overwritten, so that the levels only rotate
/// (rt::timeTilingObstacle's rule, before any kernel exists).
std::string timeTilingObstacle(const ir::Stencil &s);

/// Whether passes of several steps apply to `s` (timeTilingObstacle).
bool isTimeTileable(const ir::Stencil &s);

/// How `s`'s CPU kernels run where nothing sets it: rt::RunOptions{} and
/// kUntunedTimeDepth steps per pass with the runtime's tiles where passes of
/// several steps apply (isTimeTileable), else single sweeps.
target::RunConfig untunedRunConfig(const ir::Stencil &s);

/// How a CPU kernel runs where its caller gives no options, and why.
struct RunDefaults {
  target::RunConfig run;
  /// Where they come from, for the header's comment (lines split at '\n').
  std::string origin;
};

/// untunedRunConfig with its origin; the caller says why they apply.
RunDefaults untunedRunDefaults(const ir::Stencil &s);

} // namespace stencilc::kernel
