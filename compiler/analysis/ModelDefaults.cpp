//===- ModelDefaults.cpp --------------------------------------------------===//
#include "analysis/ModelDefaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace stencilc::analysis {

ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine) {
  ModelRunChoice choice;
  choice.sweep = rooflineBound(c, "naive", machine);
  const RooflineBound &b = choice.sweep;
  if (const std::string obstacle = kernel::timeTilingObstacle(*c.stencil); !obstacle.empty()) {
    choice.explanation = fmt::format("single sweep {:.1f} flop/B, {}-bound; one step per pass ({})",
                                     b.operationalIntensity, b.limit, obstacle);
    return choice;
  }
  const double ratio = b.memoryGpts > 0 ? b.computeGpts / b.memoryGpts : 1;
  choice.timeDepth =
      std::clamp(int(std::ceil(ratio)), kernel::kUntunedTimeDepth, kMaxModelTimeDepth);
  choice.explanation = fmt::format(
      "single sweep {:.1f} flop/B: memory roof {:.3f} GPts/s, compute roof {:.3f} ({:.2f}x); {} "
      "steps per pass (the ratio rounded up, at least the untuned {} and at most {})",
      b.operationalIntensity, b.memoryGpts, b.computeGpts, ratio, choice.timeDepth,
      kernel::kUntunedTimeDepth, kMaxModelTimeDepth);
  return choice;
}

} // namespace stencilc::analysis
