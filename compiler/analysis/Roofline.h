//===- Roofline.h - Attainable throughput of a compiled stencil ------------===//
//
// The roofline model (docs/DESIGN.md §Performance model [5, 7]):
// attainable = min(OI x bandwidth, peak flops). Here per
// grid point: a variant moves `bytesPerPoint` (every sweep it runs, with the
// machine's write-allocate) and executes `flopsPerPoint` (each sweep's groups,
// plus one add per output a later sweep accumulates into), so its bound in
// grid points per second is min(bandwidth / bytes, peak / flops).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc::analysis {

/// The variants the backends generate: CPU naive, blocked, planes; CUDA
/// gmem, ro, traditional, planes.
const std::vector<std::string> &cpuVariants();
const std::vector<std::string> &cudaVariants();

/// Sweeps per step a variant runs: every CPU and CUDA variant runs one sweep
/// per sub-stencil of the plan (a CUDA `planes` sweep with nothing spanning
/// planes runs as `ro`, still one launch).
int variantSweeps(const CompiledStencil &c, const std::string &variant);

/// Flops and grid bytes per point of a step as `variant` executes it.
struct VariantCost {
  int sweeps = 1;
  int flopsPerPoint = 0;
  double bytesPerPoint = 0;
};
VariantCost variantCost(const CompiledStencil &c, const std::string &variant, bool writeAllocate);

struct RooflineBound {
  double gptsPerSecond = 0;        ///< the bound, 1e9 grid points per second
  std::string limit;               ///< "memory" or "compute": the roof that sets the bound
  double memoryGpts = 0;           ///< bandwidth / bytes per point
  double computeGpts = 0;          ///< peak flops / flops per point
  double operationalIntensity = 0; ///< flops per byte
  VariantCost cost;
};

/// The roofline bound of `variant` of `c` on `machine`. `stencilc bench`
/// divides a measured GPts/s by `gptsPerSecond` to report the fraction reached.
RooflineBound rooflineBound(const CompiledStencil &c, const std::string &variant,
                            const Machine &machine);

} // namespace stencilc::analysis
