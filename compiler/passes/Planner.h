//===- Planner.h - Choose the sub-stencil sweeps and table placements ------===//
//
// The decomposition planner of docs/DESIGN.md §Decompose [2]. A coefficient
// table gather costs more the farther the table is from the cores, and an
// extra sweep re-reads the grid; the planner enumerates splits into 1..N
// sweeps, places each sweep's table rows in three tiers (on chip, cache,
// memory: shared memory / read-only cache / global memory on a GPU, L1 / L2 /
// DRAM on a CPU) and keeps the plan of least modelled cost:
//
//   cost = sum over sweeps of  grid bytes the sweep moves per point
//        + sum over gathered rows of  elemBytes * gatherWeight[tier]
//
// Everything is in bytes of memory traffic per grid point, so a gather's
// weight says what fraction of a streamed element's cost it has. The
// enumeration order and the tie-break (fewer sweeps first) are fixed, so the
// plan is deterministic. docs/PERFORMANCE-MODEL.md states the model.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "passes/Decompose.h"
#include "passes/PlanePlan.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc {

/// The three tiers a table row can be gathered from, nearest first.
enum class Tier { OnChip, Cache, Memory };

/// What the planner plans for.
struct PlanTarget {
  enum class Kind { Cpu, Cuda };
  Kind kind = Kind::Cpu;
  std::string name = "cpu"; ///< "cpu" or a CUDA architecture ("sm_80")
  int nd = 902;             ///< table columns (distinct index values)
  /// Bytes available per tier: GPU shared memory per block and read-only
  /// cache; CPU L1 and L2 per core.
  long onChipBudget = 32 * 1024;
  long cacheBudget = 512 * 1024;
  /// GPU only: the SRAM that L1 (the read-only path) and shared memory split;
  /// a smaller shared budget leaves the rest to the cache.
  long combinedL1 = 0;
  /// Cost of gathering one element from each tier, as a fraction of streaming one.
  double gatherWeight[3] = {0.1, 0.3, 1.0};
  /// Writing an output first reads its cache line (CPU stores without streaming stores).
  bool writeAllocate = true;
  /// The thread block of the GPU `planes` kernel, whose plane tiles share the
  /// on-chip budget with the tables.
  BlockShape block;
  int maxSweeps = 4;
};

/// The defaults of a named target: "cpu" (one AMD Zen 3 core's L1d and L2 until the user
/// gives the budgets of the machine they target),
/// "sm_70", "sm_80", "sm_86", "sm_89", "sm_90"; nullopt for other names.
std::optional<PlanTarget> planTargetNamed(const std::string &name);
/// The names planTargetNamed accepts, for messages.
const std::vector<std::string> &planTargetNames();

/// The target `name` with the user's overrides; a negative budget keeps the
/// target's default. Returns nullopt with `error` set for an unknown name or
/// a value out of range.
std::optional<PlanTarget> makePlanTarget(const std::string &name, int nd, long onChipBudget,
                                         long cacheBudget, std::string &error);

/// User overrides of the plan (command line over the DSL's `plan` clause).
struct PlanOverride {
  int sweeps = 0;                  ///< 0: the planner chooses
  std::optional<TableSpace> space; ///< every table group in this space
  std::string origin;              ///< "--split", "plan clause", for explanations
};

/// One plan the planner considered.
struct PlanCandidate {
  std::string shape; ///< "1 sweep", "2 sweeps, fill on-chip first", ...
  Decomposition decomposition;
  double gridBytes = 0;   ///< modelled grid traffic per point, all sweeps
  double gatherBytes = 0; ///< modelled gather cost per point, all sweeps
  double cost() const { return gridBytes + gatherBytes; }
  /// Per sweep: table rows on chip, in cache, in memory.
  std::vector<std::array<int, 3>> rowsPerTier;
};

/// The planner's decision and what it weighed.
struct PlanReport {
  std::vector<PlanCandidate> candidates; ///< in enumeration order
  int chosen = 0;
  std::string why;
};

/// The distinct (table, row) pairs the factors of `groups` of `form` read.
std::vector<std::pair<int, int>> tableRowsOf(const LinearForm &form,
                                             const std::vector<int> &groups);

/// Plans the decomposition of `linear`. Returns false (with `why`) when an
/// override cannot be met, e.g. more sweeps than movable groups.
bool planDecomposition(const ir::Stencil &s, const LinearStencil &linear, const PlanePlan &planes,
                       const PlanTarget &target, const PlanOverride &forced, PlanReport &report,
                       std::string &why);

/// Modelled cost of a given decomposition on `target` (fills `c`'s costs and
/// tiers, and sets each group's table space for a CUDA target).
void costDecomposition(const ir::Stencil &s, const LinearStencil &linear, const PlanePlan &planes,
                       const PlanTarget &target, const std::optional<TableSpace> &forcedSpace,
                       PlanCandidate &c);

/// Grid bytes per point that sweep `sweep` of `d` moves: each field its
/// groups read once, outputs written (sweep 0, plus write-allocate) or read
/// and written (later sweeps).
double sweepGridBytes(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                      size_t sweep, bool writeAllocate);

const char *tableSpaceName(TableSpace space); // "auto", "shared", "readonly", "global"

/// The --explain text of the planner: target, candidates with costs, choice.
void explainPlan(const ir::Stencil &s, const PlanTarget &target, const PlanReport &report,
                 llvm::raw_ostream &os);

} // namespace stencilc
