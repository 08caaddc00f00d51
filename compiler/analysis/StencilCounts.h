//===- StencilCounts.h - The shape counts `stencilc analyze` reports -------===//
//
// Counted from the linear forms, as the kernels see the stencil. A field read
// only at the centre by an update that reads it nowhere else (`- p_prev`) is
// a pointwise term, not a stencil point, so it is left out of `points` and
// its group out of `coefficientClasses`; it still costs bytes and a load.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

namespace stencilc::analysis {

struct StencilCounts {
  int points = 0;             ///< distinct (time field, offset) stencil reads
  int offAxisPoints = 0;      ///< of those, with two or more non-zero components
  int coefficientClasses = 0; ///< coefficient groups of the stencil part, all updates
  int zColumns = 0;           ///< (field, dx, dy) columns with a point off the centre plane
  int flopsPerPoint = 0;      ///< analysis::stencilFlops
  int bytesPerPoint = 0;      ///< analysis::compulsoryBytes
  double operationalIntensity() const { return double(flopsPerPoint) / bytesPerPoint; }
};

StencilCounts countStencil(const CompiledStencil &c);

} // namespace stencilc::analysis
