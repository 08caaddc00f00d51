//===- Roofline.cpp -------------------------------------------------------===//
#include "analysis/Roofline.h"

#include "analysis/CostModel.h"
#include "kernel/KernelIR.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace stencilc::analysis {

const std::vector<std::string> &cpuVariants() {
  static const std::vector<std::string> v = {"naive", "blocked", "planes"};
  return v;
}

const std::vector<std::string> &cudaVariants() { return kernel::cudaStepVariants(); }

int variantSweeps(const CompiledStencil &c, const std::string & /*variant*/) {
  // Every variant's launcher runs once per sweep of the plan (the CUDA
  // emitter's runBody, the CPU kernels' sweep loop); the variant only picks
  // how each sweep is evaluated.
  return int(c.decomposition.sweeps.size());
}

VariantCost variantCost(const CompiledStencil &c, const std::string &variant, bool writeAllocate) {
  const ir::Stencil &s = *c.stencil;
  VariantCost cost;
  cost.sweeps = variantSweeps(c, variant);
  const Decomposition &d = c.decomposition;
  for (size_t i = 0; i < d.sweeps.size(); ++i) {
    cost.bytesPerPoint += sweepGridBytes(s, c.linear, d, i, writeAllocate);
    for (size_t u = 0; u < c.linear.updates.size(); ++u) {
      const std::vector<int> &groups = d.sweeps[i].groups[u];
      if (i > 0 && groups.empty())
        continue;
      cost.flopsPerPoint += groupsFlops(c.linear.updates[u], groups, i == 0);
      if (i > 0)
        cost.flopsPerPoint += 1; // out += the sweep's sum
    }
  }
  return cost;
}

RooflineBound rooflineBound(const CompiledStencil &c, const std::string &variant,
                            const Machine &machine) {
  RooflineBound b;
  b.cost = variantCost(c, variant, machine.writeAllocate);
  b.memoryGpts = machine.bandwidthGBs / b.cost.bytesPerPoint;
  b.computeGpts = b.cost.flopsPerPoint > 0
                      ? machine.peakGflops(c.stencil->elemType) / b.cost.flopsPerPoint
                      : b.memoryGpts;
  b.operationalIntensity = b.cost.flopsPerPoint / b.cost.bytesPerPoint;
  b.gptsPerSecond = std::min(b.memoryGpts, b.computeGpts);
  b.limit = b.memoryGpts <= b.computeGpts ? "memory" : "compute";
  return b;
}

} // namespace stencilc::analysis
