//===- StencilCounts.cpp --------------------------------------------------===//
#include "analysis/StencilCounts.h"

#include "analysis/CostModel.h"

#include <set>
#include <utility>

namespace stencilc::analysis {

StencilCounts countStencil(const CompiledStencil &c) {
  StencilCounts counts;
  std::set<std::pair<int, ir::Offset>> points;
  for (const LinearForm &form : c.linear.updates)
    for (const CoefGroup &group : form.groups) {
      if (isCentreOnlyGroup(form, group))
        continue;
      ++counts.coefficientClasses;
      for (int t : group.terms)
        points.insert({form.terms[t].field, form.terms[t].offset});
    }
  counts.points = int(points.size());
  for (const auto &[field, offset] : points)
    counts.offAxisPoints += ir::offsetNonZeros(offset) >= 2 ? 1 : 0;
  counts.zColumns = int(c.planePlan.columns.size());
  counts.flopsPerPoint = stencilFlops(c.linear);
  counts.bytesPerPoint = compulsoryBytes(*c.stencil);
  return counts;
}

} // namespace stencilc::analysis
