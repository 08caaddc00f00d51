//===- GpuSweepReads.h - What each sweep of a CUDA kernel reads ------------===//
//
// The reads the GPU traffic model (GpuTraffic.h) replays: per sweep of the
// plan, every (field, offset) each update reads (coefficient and index fields
// included), the outputs, the table rows gathered and where the plan keeps
// them, and how many times the planes kernel loads each coefficient field
// and row per output point.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace stencilc::analysis {

/// One (field, offset) a sweep reads, with the bytes of one value.
struct Access {
  int field = -1;
  int dx = 0, dy = 0, dz = 0;
  int bytes = 4;
  bool operator<(const Access &o) const {
    return std::tie(field, dx, dy, dz) < std::tie(o.field, o.dx, o.dy, o.dz);
  }
};

/// A table row a sweep gathers, and whether the kernel reads it from shared memory.
struct Lookup {
  int table = -1, row = 0;
  bool shared = false;
  int planesTimes = 1; ///< planes: gathers per output (one per plane offset using the row)
};

struct SweepReads {
  /// Every field but outputs. A kernel loads each once a point: it stores the
  /// point's outputs after all its loads (kernel::gpuStoresAfterLoads), so no
  /// store through a pointer that may alias sits between two updates' loads.
  std::set<Access> reads;
  std::vector<int> outputs;
  bool accumulates = false; ///< a later sweep: reads its outputs and adds
  std::vector<Lookup> lookups;
  /// planes: loads per output point of each field read in coefficient factors,
  /// once per plane offset whose partial sum applies them and once at the store.
  std::map<int, int> planesLoads;
};

/// The reads of every sweep of `c`'s plan, in sweep order.
std::vector<SweepReads> sweepReads(const CompiledStencil &c);

} // namespace stencilc::analysis
