//===- SweepPlan.h - What each kernel of each sweep keeps where -----------===//
//
// The `sweep-plan` pass runs after `decompose` and makes every scheduling
// decision the backends used to make while printing (docs/DESIGN.md
// "sweep-plan"):
//
//  - per update of a sweep, which coefficient groups the one-to-multi
//    (`planes`) scheme accumulates plane by plane and which it applies when
//    it stores the output point, and whether the accumulated groups share
//    factors that are applied once, at the store;
//  - CPU: output planes per x loop of naive and blocked, the default tiles,
//    the plane offsets a planes sweep accumulates and the table rows it
//    stages once per output row;
//  - GPU: the shared planes and halos of the multi-to-one (`traditional`) and
//    one-to-multi (`planes`) kernels, the register queues of traditional and
//    how far ahead of its step each is loaded, and where each table row lives
//    (shared memory slot, read-only cache, global).
//
// The printers in backends/ read this plan; they decide nothing themselves.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "passes/Decompose.h"
#include "passes/Planner.h"
#include "stencilc/abi/LayerCondition.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace stencilc {

/// One update's part of a sweep, with each of its coefficient groups placed
/// where a z-marching kernel evaluates it.
struct SweepUpdate {
  int update = 0;
  std::vector<int> groups;      ///< every group of the update the sweep evaluates, ascending
  std::vector<int> accumulated; ///< summed input plane by input plane into partial sums
  std::vector<int> atStore;     ///< applied when the output point is stored
  /// The accumulated groups all have the same coefficient factors (acoustic's
  /// v * v * dt^2/h^2): partial sums leave them out and the store multiplies once.
  bool sharedFactors = false;
  int slot = -1; ///< index of its partial sums among the sweep's accumulating outputs, or -1
};

/// A table the CPU planes scheme stages once per output row, read through one
/// index field: rows [beginRow, endRow) of each point, in whole blocks of 4
/// (the smallest block rt::loadColumns transposes).
struct StagedTable {
  int table = -1, index = -1;
  int beginRow = 0, endRow = 0;
};

/// A tile of `y` rows by `z` planes. In x the CPU tiles are whole rows unless a
/// caller asks for less (rt::RunOptions::blockX): cutting rows lost wherever it
/// was measured (docs/PERFORMANCE.md §Tiles cut in x).
struct CpuTile {
  int y = 0, z = 0;
};

struct CpuSweepPlan {
  std::vector<SweepUpdate> updates;      ///< one per update, in update order
  std::vector<int> accumulatedPlanes;    ///< plane offsets dz with accumulated points, ascending
  std::vector<StagedTable> stagedTables; ///< ordered by (table, index)

  /// Does the planes scheme march partial sums (else it stores row by row)?
  bool accumulates() const { return !accumulatedPlanes.empty() && accumulatingOutputs() > 0; }
  /// Updates with a partial-sum slot.
  int accumulatingOutputs() const;
};

struct CpuSchedule {
  /// Output planes that naive and blocked compute per x loop (1 in 2D).
  int outputPlanesPerLoop = 1;
  CpuTile blockedTile, planesTile; ///< default tiles; rt::RunOptions may override them
  /// What a blocked tile keeps for z reuse, the most any sweep keeps: at run time
  /// the tile height comes from the layer condition on it (stencilc/abi/LayerCondition.h),
  /// blockedTile.y where the machine's L2 is unknown. No plane fields in 2D.
  rt::LayerFootprint blockedFootprint;
  std::vector<CpuSweepPlan> sweeps;
};

/// Where a GPU kernel reads a table row from, and its slot among the rows a
/// block stages in shared memory (Shared and Auto only).
struct RowPlacement {
  TableSpace space = TableSpace::Global;
  int slot = -1;
};

/// A (field, dx, dy) column of a multi-to-one register queue.
using QueueColumn = std::tuple<int, int, int>;

struct GpuSweepPlan {
  std::vector<SweepUpdate> updates; ///< one per update, in update order

  /// traditional: fields whose current plane is shared, its halo, and the
  /// register queue of each (field, dx, dy) column: plane offsets [low, high].
  /// Without loads ahead the queues are the time fields' columns read off the
  /// current plane; with them, every column the kernel reads from memory
  /// (coefficient and index fields too), so that no load waits in the step.
  std::set<int> traditionalTiles;
  int traditionalRx = 0, traditionalRy = 0;
  /// Buffers per shared plane (traditionalTileBuffers): 2 pipelines the march.
  int traditionalBuffers = 1;
  std::map<QueueColumn, std::pair<int, int>> queues;
  /// Planes past `high` each queue holds (traditionalLoadAhead): with 1, the
  /// step of plane z loads its queues' planes for step z + 1, which are in
  /// flight while it computes.
  int traditionalAhead = 0;

  /// planes: fields whose input plane is shared, its halo, and the plane offsets.
  std::set<int> planesTiles;
  int planesRx = 0, planesRy = 0;
  std::vector<int> planeOffsets; ///< dz with accumulated points, ascending

  /// Per table: the rows kept in shared memory (Shared first, then Auto), and
  /// where each row of the sweep is read from in the planes kernel.
  std::map<int, std::vector<int>> sharedRows, autoRows;
  std::map<std::pair<int, int>, RowPlacement> placement;

  bool accumulates() const { return !planeOffsets.empty(); }
  /// Values of every traditional queue together, the planes loaded ahead included.
  int queueValues() const;
  /// Partial sums each planes thread keeps per output: the span of planeOffsets.
  int ringSize() const;
};

struct GpuSchedule {
  std::vector<GpuSweepPlan> sweeps;
};

/// The schedules of every kernel of a stencil: the CPU printer reads `cpu`,
/// the CUDA printer `gpu`. Both are planned whatever the target, so that one
/// pipeline run serves `gen` for either backend.
struct SweepPlan {
  std::string target; ///< the PlanTarget name the decomposition was planned for
  CpuSchedule cpu;
  GpuSchedule gpu;
};

/// Schedules every sweep of `decomposition`. `outputPlanesPerLoop` > 0 forces the CPU's
/// output planes per x loop (--z-planes); 0 lets the plan choose. `loadAhead` forces the planes
/// the GPU traditional kernel loads ahead (--load-ahead); unset, traditionalLoadAhead chooses.
SweepPlan planSweeps(const ir::Stencil &s, const LinearStencil &linear,
                     const Decomposition &decomposition, const PlanTarget &target,
                     int outputPlanesPerLoop, std::optional<int> loadAhead = std::nullopt);

/// Checks the plan against the decomposition: every group of a sweep placed
/// once, slots numbered densely, plane offsets and table rows as the groups read them.
bool verifySweepPlan(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                     const SweepPlan &plan, std::vector<std::string> &problems);

void printSweepPlan(const ir::Stencil &s, const LinearStencil &linear, const SweepPlan &plan,
                    llvm::raw_ostream &os);

/// The --explain text: one line per sweep and target, and for a CPU plan the
/// blocked tile heights the layer condition gives on `target`'s cache budget
/// (this machine's L2 unless --cache-budget says otherwise) for a few row lengths.
void explainSweepPlan(const ir::Stencil &s, const SweepPlan &plan, const PlanTarget &target,
                      llvm::raw_ostream &os);

} // namespace stencilc
