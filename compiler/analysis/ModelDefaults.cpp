//===- ModelDefaults.cpp --------------------------------------------------===//
#include "analysis/ModelDefaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace stencilc::analysis {

bool isTimeTileable(const ir::Stencil &s) {
  bool outputs = false;
  for (const ir::Field &f : s.fields)
    if (f.role == ir::FieldRole::Output) {
      if (f.advances < 0)
        return false;
      outputs = true;
    }
  return outputs;
}

ModelRunChoice modelRunChoice(const CompiledStencil &c, const Machine &machine) {
  ModelRunChoice choice;
  choice.sweep = rooflineBound(c, "naive", machine);
  const RooflineBound &b = choice.sweep;
  if (!isTimeTileable(*c.stencil)) {
    choice.explanation = fmt::format("single sweep {:.1f} flop/B, {}-bound; one step per pass "
                                     "(its outputs advance no time level)",
                                     b.operationalIntensity, b.limit);
    return choice;
  }
  const double ratio = b.memoryGpts > 0 ? b.computeGpts / b.memoryGpts : 1;
  if (b.limit == "memory")
    choice.timeDepth = std::clamp(int(std::ceil(ratio)), 1, kMaxModelTimeDepth);
  choice.explanation =
      fmt::format("single sweep {:.1f} flop/B: memory roof {:.3f} GPts/s, compute roof {:.3f} "
                  "({:.2f}x); {} step{} per pass (the ratio, rounded up, at most {})",
                  b.operationalIntensity, b.memoryGpts, b.computeGpts, ratio, choice.timeDepth,
                  choice.timeDepth == 1 ? "" : "s", kMaxModelTimeDepth);
  return choice;
}

} // namespace stencilc::analysis
