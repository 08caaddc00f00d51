//===- PlanePlan.h - How a z-marching kernel walks the stencil's planes ----===//
//
// The `plane-plan` pass groups the points each step reads by their offset
// along the marching axis (z) and derives what the two z-marching schemes of
// docs/DESIGN.md §Plane plan [2] keep on chip:
//
//  - multi-to-one ("traditional"): the current xy-plane of each time field
//    sits in shared memory; the points of a (dx,dy) column above and below it
//    sit in a per-thread register queue, and each step loads one new value per
//    such column.
//  - one-to-multi ("planes"): input plane z is on chip once and adds a partial
//    sum into every output plane it touches; each thread keeps a queue of L
//    partial sums per update, L = the update's z-extent, and loads each input
//    value once.
//
// The counting conventions are in docs/PERFORMANCE-MODEL.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace stencilc {

/// The xy extent of a thread block (GPU) or tile (CPU) that marches along z.
struct BlockShape {
  int x = 32;
  int y = 8;
};

/// A (field, dx, dy) column with at least one point off the centre plane.
struct PlaneColumn {
  int field = -1;
  int dx = 0, dy = 0;
  std::vector<int> dzs; ///< the column's offsets along z, ascending (0 included if read)
  /// Registers of a multi-to-one queue: the z span from min(dz, 0) to max(dz, 0)
  /// without the centre plane, which is in shared memory.
  int queueLength = 0;
};

/// What a time field contributes to a plane tile: the largest |dx| and |dy|
/// of its points (all planes, or the centre plane only).
struct FieldHalo {
  int field = -1;
  int rx = 0, ry = 0;
};

struct PlanePlan {
  int minDz = 0, maxDz = 0;         ///< z range of every read of the step
  std::vector<ReadPlane> planes;    ///< the reads grouped by dz, ascending
  std::vector<PlaneColumn> columns; ///< off-plane columns, ordered by field, dy, dx

  // Multi-to-one.
  int traditionalRegisters = 0; ///< sum of the columns' queue lengths (elements per thread)
  int traditionalLoads = 0;     ///< time-field values loaded from memory per output point
  /// Fields staged in shared memory and their centre-plane halos.
  std::vector<FieldHalo> traditionalTiles;

  // One-to-multi.
  std::vector<int> partialSumQueue; ///< per update: its z-extent L (registers per thread)
  int planesRegisters = 0;          ///< sum of partialSumQueue
  int planesLoads = 0;              ///< time-field values loaded per output point
  /// Fields staged in shared memory (read off the centre point) and their halos.
  std::vector<FieldHalo> planesTiles;
};

/// Builds the plane plan of a linearised stencil.
PlanePlan planPlanes(const LinearStencil &linear);

/// Shared-memory bytes per block for the plane tiles of `tiles`: each field's
/// (bx + 2 rx) * (by + 2 ry) elements.
long sharedTileBytes(const std::vector<FieldHalo> &tiles, BlockShape block, int elemBytes);

/// Shared-memory tile plus register queues, in bytes, for one block of the
/// multi-to-one or one-to-multi scheme.
long traditionalOnChipBytes(const PlanePlan &plan, BlockShape block, int elemBytes);

/// Buffers per shared plane of the `traditional` kernel: two, so that the next plane is copied
/// asynchronously while the current one computes with one barrier per plane, unless the kernel
/// has no shared plane, or its register queues (`queueValues` elements of `elemBytes`) take
/// more than three quarters of the 255 registers a thread may have: then the pipeline's
/// registers push the queues to local memory, and the spilled queues cost more than the
/// overlap gains, so a plane at a time is faster (ete73 in double; docs/PERFORMANCE.md
/// §CUDA variants on a GPU).
int traditionalTileBuffers(bool sharedPlanes, int queueValues, int elemBytes);
/// Planes ahead of its step that the `traditional` kernel loads each register queue's newest
/// entry: 1, so that the loads of plane z + 1 are in flight while plane z computes and no load
/// waits inside a step (the hand-written marches that run fastest do this, docs/PERFORMANCE.md
/// §Hand-written peers and marching designs), where its queues, with a queue for every column
/// it reads from memory and one more plane each (`queueValues` elements of `elemBytes`), take
/// at most three eighths of the 255 registers a thread may have; else 0. The kernels that read
/// many columns also keep many other values live (table gathers, coefficient products): ptxas
/// gives them 130 or more registers beside their queues, so past that share the longer queues
/// spill (ete73 and lwc_elastic in float), and a spilled queue costs more than the overlap
/// gains (traditionalTileBuffers).
int traditionalLoadAhead(int queueValues, int elemBytes);
long planesOnChipBytes(const PlanePlan &plan, BlockShape block, int elemBytes);

/// Checks the plan against the stencil's reads.
bool verifyPlanePlan(const LinearStencil &linear, const PlanePlan &plan,
                     std::vector<std::string> &problems);

void printPlanePlan(const ir::Stencil &s, const PlanePlan &plan, llvm::raw_ostream &os);

} // namespace stencilc
