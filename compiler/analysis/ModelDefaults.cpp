//===- ModelDefaults.cpp --------------------------------------------------===//
#include "analysis/ModelDefaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace stencilc::analysis {

std::string timeTilingObstacle(const ir::Stencil &s) {
  std::vector<bool> rotated(s.fields.size(), false);
  bool outputs = false;
  for (const ir::Field &f : s.fields)
    if (f.role == ir::FieldRole::Output) {
      if (f.advances < 0)
        return "output '" + f.name + "' advances no time level";
      outputs = true;
      rotated[size_t(f.advances)] = true;
      if (f.overwrites >= 0)
        rotated[size_t(f.overwrites)] = true;
    }
  if (!outputs)
    return "no output advances a time level";
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].role == ir::FieldRole::Time && !rotated[f])
      return "time level '" + s.fields[f].name +
             "' is neither advanced nor overwritten by an output";
  return {};
}

bool isTimeTileable(const ir::Stencil &s) { return timeTilingObstacle(s).empty(); }

target::RunConfig untunedRunConfig(const ir::Stencil &s) {
  target::RunConfig run;
  run.timeDepth = isTimeTileable(s) ? kUntunedTimeDepth : 1;
  return run;
}

ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine) {
  ModelRunChoice choice;
  choice.sweep = rooflineBound(c, "naive", machine);
  const RooflineBound &b = choice.sweep;
  if (const std::string obstacle = timeTilingObstacle(*c.stencil); !obstacle.empty()) {
    choice.explanation = fmt::format("single sweep {:.1f} flop/B, {}-bound; one step per pass ({})",
                                     b.operationalIntensity, b.limit, obstacle);
    return choice;
  }
  const double ratio = b.memoryGpts > 0 ? b.computeGpts / b.memoryGpts : 1;
  choice.timeDepth = std::clamp(int(std::ceil(ratio)), kUntunedTimeDepth, kMaxModelTimeDepth);
  choice.explanation = fmt::format(
      "single sweep {:.1f} flop/B: memory roof {:.3f} GPts/s, compute roof {:.3f} ({:.2f}x); {} "
      "steps per pass (the ratio rounded up, at least the untuned {} and at most {})",
      b.operationalIntensity, b.memoryGpts, b.computeGpts, ratio, choice.timeDepth,
      kUntunedTimeDepth, kMaxModelTimeDepth);
  return choice;
}

} // namespace stencilc::analysis
