//===- KernelIRCudaTest.cpp - The CUDA kernel IR follows the sweep plan ----===//
//
// What each CUDA variant loads, stages, queues and synchronises, checked
// against the sweep plan: gmem and ro run one thread per point of the box;
// traditional keeps the plan's shared planes and register queues and has two
// barriers per march step, none under a guard; planes keeps a ring of partial
// sums per accumulating output, with one guard per plane offset. Table rows
// are staged where the plan placed them (Shared, or Auto when planned for the CPU).
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"
#include "kernel/Lowering.h"
#include "passes/PlanePlan.h"
#include "target/CudaArchs.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <set>

using namespace stencilc;
using namespace stencilc::kernel;
using namespace stencilc::testing;

namespace {

/// The shared-memory table rows a marching kernel stages before its march:
/// the plan's Shared rows, then its Auto rows, in the slots the placement gives.
void checkStagedTableRows(const GpuSweepPlan &plan, const Function &f) {
  std::vector<std::pair<const Node *, Path>> staged = findNodes(f.body, NodeKind::StageRows);
  size_t expected = 0;
  for (const auto *rows : {&plan.sharedRows, &plan.autoRows})
    for (const auto &[table, list] : *rows)
      expected += list.size();
  ASSERT_EQ(staged.size(), expected);
  for (const auto &[n, path] : staged) {
    EXPECT_TRUE(path.empty()) << "table rows are staged once, before the march";
    EXPECT_EQ(n->endRow, n->beginRow + 1);
    auto place = plan.placement.find({n->table, n->beginRow});
    ASSERT_NE(place, plan.placement.end());
    EXPECT_EQ(n->slot, place->second.slot);
    EXPECT_EQ(n->dest, place->second.space == TableSpace::Shared ? StageDest::Shared
                                                                 : StageDest::SharedAuto);
    const auto &rows = n->dest == StageDest::Shared ? plan.sharedRows : plan.autoRows;
    ASSERT_TRUE(rows.count(n->table));
    EXPECT_TRUE(llvm::is_contained(rows.at(n->table), n->beginRow));
  }
  // Rows not staged are read where the plan placed them.
  ASSERT_EQ(f.placement.size(), plan.placement.size());
  for (const auto &[row, place] : plan.placement) {
    auto it = f.placement.find(row);
    ASSERT_NE(it, f.placement.end());
    EXPECT_EQ(it->second.space, place.space);
    EXPECT_EQ(it->second.slot, place.slot);
  }
}

/// The march of a kernel: barrier, stage the shared planes, (shift), barrier,
/// work under the activity guard. Barriers are never under a guard, where
/// threads that skip them would deadlock the block.
std::vector<const Node *> checkMarch(const Function &f, const Node &march,
                                     const std::set<int> &tiles) {
  for (const auto &[n, path] : findNodes(f.body, NodeKind::Barrier))
    EXPECT_FALSE(underGuard(path)) << f.name << ": barrier (" << n->note << ") under a guard";
  std::vector<const Node *> steps;
  for (const Node &n : march.body)
    steps.push_back(&n);
  int barriers = 0;
  std::set<int> staged;
  for (const Node *n : steps) {
    barriers += n->kind == NodeKind::Barrier;
    if (n->kind == NodeKind::StageTile) {
      EXPECT_EQ(barriers, 1) << "shared planes are staged between the two barriers";
      EXPECT_TRUE(staged.insert(n->field).second) << "field " << n->field << " staged twice";
    }
  }
  EXPECT_EQ(barriers, 2) << f.name << ": two barriers per march step";
  EXPECT_EQ(nodes(f.body, NodeKind::Barrier).size(), 2u);
  EXPECT_EQ(staged, tiles);
  return steps;
}

/// The fields a guard of `kind` among `steps` stages, each at plane z + `shift`.
std::set<int> stagedUnder(const std::vector<const Node *> &steps, GuardKind kind, int shift) {
  std::set<int> fields;
  for (const Node *n : steps)
    if (n->kind == NodeKind::Guard && n->guard == kind)
      for (const Node &c : n->body) {
        EXPECT_EQ(c.kind, NodeKind::StageTile);
        EXPECT_EQ(c.planeShift, shift);
        EXPECT_TRUE(fields.insert(c.field).second) << "field " << c.field << " staged twice";
      }
  return fields;
}

/// A pipelined march (two buffers per shared plane): the first plane's copies on the first
/// step; then each step waits for its copies, meets the block at its one barrier, copies the
/// next plane into the other buffer, and works under the activity guard.
std::vector<const Node *> checkPipelinedMarch(const Function &f, const Node &march,
                                              const std::set<int> &tiles) {
  EXPECT_EQ(f.tileBuffers, 2);
  for (const auto &[n, path] : findNodes(f.body, NodeKind::Barrier))
    EXPECT_FALSE(underGuard(path)) << f.name << ": barrier (" << n->note << ") under a guard";
  std::vector<const Node *> steps;
  for (const Node &n : march.body)
    steps.push_back(&n);
  EXPECT_EQ(nodes(f.body, NodeKind::Barrier).size(), 1u) << f.name << ": one barrier per step";
  std::vector<NodeKind> kinds;
  for (const Node *n : steps)
    if (n->kind != NodeKind::Guard || n->guard != GuardKind::Active)
      kinds.push_back(n->kind);
  EXPECT_EQ(kinds, (std::vector<NodeKind>{NodeKind::Guard, NodeKind::WaitTiles, NodeKind::Barrier,
                                          NodeKind::Guard}));
  EXPECT_EQ(steps.front()->guard, GuardKind::FirstPlane);
  EXPECT_EQ(stagedUnder(steps, GuardKind::FirstPlane, 0), tiles);
  EXPECT_EQ(stagedUnder(steps, GuardKind::NextInSpan, 1), tiles);
  return steps;
}

void checkTraditional(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const GpuSweepPlan &plan = c.sweepPlan.gpu.sweeps[s];
  const Function &f = function(k, name(s, "traditional"));
  SCOPED_TRACE(f.name);
  EXPECT_EQ(f.rx, plan.traditionalRx);
  EXPECT_EQ(f.ry, plan.traditionalRy);
  // The register queues are the plan's, so the registers are too.
  std::map<QueueColumn, std::pair<int, int>> queues;
  int registers = 0;
  for (const Queue &q : f.queues) {
    queues[{q.field, q.dx, q.dy}] = {q.low, q.high};
    registers += q.high - q.low + 1 + f.loadAhead;
  }
  EXPECT_EQ(f.loadAhead, plan.traditionalAhead);
  EXPECT_EQ(f.queues.size(), plan.queues.size());
  EXPECT_EQ(queues, plan.queues);
  EXPECT_EQ(registers, plan.queueValues());
  checkStagedTableRows(plan, f);

  const Node *march = loopOver(f, Var::Z);
  ASSERT_NE(march, nullptr);
  EXPECT_EQ(march->span, Span::March);
  EXPECT_EQ(march->schedule, Schedule::Serial);
  // Two buffers per shared plane where the plan's rule gives them (traditionalTileBuffers).
  EXPECT_EQ(plan.traditionalBuffers,
            traditionalTileBuffers(!plan.traditionalTiles.empty(), plan.queueValues(),
                                   ir::elemTypeBytes(c.stencil->elemType)));
  EXPECT_EQ(f.tileBuffers, plan.traditionalBuffers);
  std::vector<const Node *> steps = plan.traditionalBuffers > 1
                                        ? checkPipelinedMarch(f, *march, plan.traditionalTiles)
                                        : checkMarch(f, *march, plan.traditionalTiles);
  // The queues take the new plane just before the (last) barrier, active threads only.
  std::vector<std::pair<const Node *, Path>> shifts = findNodes(f.body, NodeKind::ShiftQueues);
  ASSERT_EQ(shifts.size(), plan.queues.empty() ? 0u : 1u);
  if (!shifts.empty()) {
    EXPECT_EQ(shifts[0].second.back()->guard, GuardKind::Active);
    size_t barrier = 0;
    for (size_t i = 0; i < steps.size(); ++i)
      if (steps[i]->kind == NodeKind::Barrier)
        barrier = i;
    ASSERT_GT(barrier, 0u);
    EXPECT_EQ(steps[barrier - 1], shifts[0].second.back());
  }
  ASSERT_EQ(steps.back()->kind, NodeKind::Guard);
  EXPECT_EQ(steps.back()->guard, GuardKind::Active);
  // Each update's groups of the sweep at the point, read on chip.
  std::vector<const Node *> sums = nodes(steps.back()->body, NodeKind::Sum);
  size_t i = 0;
  for (const SweepUpdate &u : plan.updates) {
    if (u.groups.empty() && s > 0)
      continue;
    ASSERT_LT(i, sums.size());
    EXPECT_EQ(sums[i]->update, u.update);
    EXPECT_EQ(sums[i]->groups, u.groups);
    EXPECT_TRUE(sums[i]->onChip);
    ++i;
  }
  EXPECT_EQ(sums.size(), i);
  EXPECT_EQ(nodes(f.body, NodeKind::Store).size(), i);
}

void checkCudaPlanes(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const GpuSweepPlan &plan = c.sweepPlan.gpu.sweeps[s];
  if (!plan.accumulates()) {
    EXPECT_EQ(variant(k, "planes").entry, name(s, "ro"));
    return;
  }
  const Function &f = function(k, name(s, "planes"));
  SCOPED_TRACE(f.name);
  const std::vector<int> &dzs = plan.planeOffsets;
  int outputs = 0;
  for (const SweepUpdate &u : plan.updates)
    outputs += !u.accumulated.empty();
  EXPECT_EQ(f.ringOutputs, outputs);
  EXPECT_EQ(f.ringDzMin, dzs.front());
  EXPECT_EQ(f.ringDzMax, dzs.back());
  EXPECT_EQ(f.ringDzMax - f.ringDzMin + 1, plan.ringSize());
  EXPECT_EQ(f.rx, plan.planesRx);
  EXPECT_EQ(f.ry, plan.planesRy);
  EXPECT_TRUE(f.queues.empty());
  checkStagedTableRows(plan, f);

  const Node *march = loopOver(f, Var::ZIn);
  ASSERT_NE(march, nullptr);
  EXPECT_EQ(march->span, Span::March);
  EXPECT_EQ(march->low, dzs.front());
  EXPECT_EQ(march->high, dzs.back());
  std::vector<const Node *> steps = checkMarch(f, *march, plan.planesTiles);
  // The partial sums rotate once per step, whether or not the thread is active.
  ASSERT_EQ(steps.back()->kind, NodeKind::ShiftPartials);
  EXPECT_EQ(nodes(f.body, NodeKind::ShiftPartials).size(), 1u);

  // One output-in guard per plane offset, with the groups that have points on it.
  std::vector<const Node *> guards;
  for (const Node *g : nodes(f.body, NodeKind::Guard))
    if (g->guard == GuardKind::OutputInSpan)
      guards.push_back(g);
  ASSERT_EQ(guards.size(), dzs.size());
  for (size_t i = 0; i < dzs.size(); ++i) {
    EXPECT_EQ(guards[i]->dz, dzs[i]);
    std::vector<const Node *> sums = nodes(guards[i]->body, NodeKind::Sum);
    size_t j = 0;
    for (const SweepUpdate &u : plan.updates) {
      std::vector<int> touching = onPlane(c.linear.updates[u.update], u.accumulated, dzs[i]);
      if (touching.empty())
        continue;
      ASSERT_LT(j, sums.size());
      EXPECT_EQ(sums[j]->update, u.update);
      EXPECT_EQ(sums[j]->groups, touching);
      EXPECT_EQ(sums[j]->dz, dzs[i]);
      EXPECT_EQ(sums[j]->target, SumTarget::Partial);
      EXPECT_TRUE(sums[j]->onChip);
      ++j;
    }
    EXPECT_EQ(sums.size(), j);
  }
  // The store of output plane zi - dzMax: the partial sum plus the groups left for it.
  std::vector<const Node *> done;
  for (const Node *g : nodes(f.body, NodeKind::Guard))
    if (g->guard == GuardKind::DoneInSpan)
      done.push_back(g);
  ASSERT_EQ(done.size(), 1u);
  std::vector<const Node *> sums = nodes(done[0]->body, NodeKind::Sum);
  size_t i = 0;
  for (const SweepUpdate &u : plan.updates) {
    if (u.groups.empty() && s > 0)
      continue;
    ASSERT_LT(i, sums.size());
    EXPECT_EQ(sums[i]->groups, u.atStore);
    EXPECT_EQ(sums[i]->fromPartial, !u.accumulated.empty());
    ++i;
  }
  EXPECT_EQ(sums.size(), i);
  EXPECT_EQ(nodes(f.body, NodeKind::Store).size(), i);
}

/// gmem and ro: one thread per point of the box, no staging, no barriers.
void checkPointKernels(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  for (const char *v : {"gmem", "ro"}) {
    const Function &f = function(k, name(s, v));
    SCOPED_TRACE(f.name);
    const bool ro = std::string(v) == "ro";
    EXPECT_EQ(f.readOnlyCoefficients, ro);
    EXPECT_EQ(f.tableSpace, ro ? TableSpace::ReadOnly : TableSpace::Global);
    EXPECT_TRUE(f.placement.empty());
    const Node *n = &f.body.at(0);
    for (Var var : {Var::Z, Var::Y, Var::X}) {
      ASSERT_EQ(n->kind, NodeKind::Loop);
      EXPECT_EQ(n->var, var);
      EXPECT_EQ(n->span, Span::Box);
      EXPECT_EQ(n->schedule, Schedule::Threads);
      if (var != Var::X) {
        ASSERT_EQ(n->body.size(), 1u);
        n = &n->body[0];
      }
    }
    for (NodeKind kind : {NodeKind::Barrier, NodeKind::StageRows, NodeKind::StageTile,
                          NodeKind::ShiftQueues, NodeKind::ShiftPartials, NodeKind::Guard})
      EXPECT_TRUE(nodes(f.body, kind).empty()) << nodeKindName(kind);
    for (const Node *sum : nodes(f.body, NodeKind::Sum)) {
      EXPECT_EQ(sum->groups, c.sweepPlan.gpu.sweeps[s].updates[sum->update].groups);
      EXPECT_FALSE(sum->onChip);
    }
    // A point with several outputs stores them after all its loads, so that no
    // load waits behind a store through pointers that may alias.
    for (const Node *store : nodes(f.body, NodeKind::Store))
      EXPECT_EQ(store->deferred,
                c.linear.updates.size() > 1 || storeOverwritesLaterRead(*c.stencil, c.linear));
    EXPECT_EQ(variant(k, v).functions, std::vector<std::string>{name(s, v)});
  }
}

TEST(KernelIR, CudaVariantsFollowTheSweepPlan) {
  for (const char *example : kExamples)
    for (const char *target : {"sm_80", "sm_90", "cpu"})
      for (int split : {0, 2}) {
        // Planned for the CPU, the GPU plan leaves every table row to the backend (Auto).
        PipelineOptions options = plannedFor(target);
        options.forceSplit = split;
        SCOPED_TRACE(std::string(example) + " planned for " + target + " --split " +
                     std::to_string(split));
        Lowered l = lower(example, Target::Cuda, options);
        ASSERT_FALSE(l.example.compiled.empty());
        for (const SweepKernels &k : l.module.sweeps) {
          checkPointKernels(l.compiled(), k);
          checkTraditional(l.compiled(), k);
          checkCudaPlanes(l.compiled(), k);
        }
      }
}

TEST(KernelIR, Ete73CudaLoadsQueuesAndBarriersPerVariant) {
  Lowered l = lower("ete73", Target::Cuda, plannedFor("sm_90"));
  const SweepKernels &k = l.module.sweeps.at(0);
  const GpuSweepPlan &plan = l.compiled().sweepPlan.gpu.sweeps.at(0);
  struct Expected {
    const char *variant;
    /// tiles: the stage-tile nodes (traditional's first plane and next plane, pipelined)
    size_t barriers, queues, stagedRows, tiles;
  };
  // On sm_90 12 of C's 17 rows fit in shared memory; the other 5 go through the read-only cache.
  const size_t rows = 12;
  EXPECT_EQ(plan.placement.size(), 17u);
  for (const Expected &e :
       {Expected{"gmem", 0, 0, 0, 0}, Expected{"ro", 0, 0, 0, 0},
        Expected{"traditional", 1, 17, rows, 2}, Expected{"planes", 2, 0, rows, 1}}) {
    const Function &f = function(k, std::string("sweep0_") + e.variant);
    SCOPED_TRACE(f.name);
    EXPECT_EQ(nodes(f.body, NodeKind::Barrier).size(), e.barriers);
    EXPECT_EQ(f.queues.size(), e.queues);
    EXPECT_EQ(nodes(f.body, NodeKind::StageRows).size(), e.stagedRows);
    EXPECT_EQ(nodes(f.body, NodeKind::StageTile).size(), e.tiles);
  }
  EXPECT_EQ(function(k, "sweep0_planes").ringOutputs, 1);
  // The 17 queue columns hold 105 registers per thread: 9 in each of the 5 columns
  // reaching dz = +-4, 7, 5 and 3 in the 4 columns reaching +-3, +-2 and +-1. Loaded a plane
  // ahead, with queues for p_prev and vidx too, they would take 126: too many to load ahead.
  const Function &traditional = function(k, "sweep0_traditional");
  EXPECT_EQ(traditional.loadAhead, 0);
  int registers = 0;
  for (const Queue &q : traditional.queues)
    registers += q.high - q.low + 1;
  EXPECT_EQ(registers, 105);
  EXPECT_EQ(registers, plan.queueValues());
}

// Two steps per launch: a kernel where one sweep makes a step and every output is a time level,
// none for a split stencil. Its march reaches kRz past the block's planes, the first step runs
// on widened columns between two barriers and keeps every update in a ring, the second step
// reads on chip under the activity and done-in guards and writes memory only.
TEST(KernelIR, TwoStepKernelWhereOneSweepMakesAStep) {
  for (const char *example : kExamples)
    for (int split : {0, 2}) {
      PipelineOptions options;
      options.forceSplit = split;
      SCOPED_TRACE(std::string(example) + " --split " + std::to_string(split));
      Lowered l = lower(example, Target::Cuda, options);
      const CompiledStencil &c = l.compiled();
      const bool expected = c.decomposition.sweeps.size() == 1 && twoStepReason(c).empty();
      const SweepKernels &k = l.module.sweeps.at(0);
      EXPECT_EQ(k.find("sweep0_twostep") != nullptr, expected);
      if (!expected)
        continue;
      const Function &f = function(k, "sweep0_twostep");
      EXPECT_EQ(f.steps, 2);
      ASSERT_EQ(f.body.size(), 1u);
      const Node &march = f.body.front();
      EXPECT_EQ(march.var, Var::ZIn);
      EXPECT_EQ(march.low, -f.rz);
      EXPECT_EQ(march.high, f.rz);
      ASSERT_EQ(march.body.size(), 4u);
      EXPECT_EQ(march.body[0].kind, NodeKind::Barrier);
      EXPECT_EQ(march.body[1].span, Span::Widened);
      EXPECT_EQ(march.body[2].kind, NodeKind::Barrier);
      EXPECT_EQ(march.body[3].guard, GuardKind::Active);
      for (const Node *store : nodes(f.body, NodeKind::Store))
        EXPECT_EQ(store->ring, store->level == 0);
      for (const Node *sum : nodes(f.body, NodeKind::Sum))
        EXPECT_EQ(sum->onChip, sum->level == 1);
      EXPECT_EQ(nodes(f.body, NodeKind::Store).size(), 2 * c.linear.updates.size());
    }
}

TEST(KernelIR, LaunchDefaultsComeFromTheTargetTable) {
  // Every architecture of target/CudaArchs.h, oldest first, as the generated
  // header's kArchDefaults spells them; the planned one named.
  for (const char *arch : {"sm_80", "sm_90"}) {
    SCOPED_TRACE(arch);
    Lowered l = lower("acoustic_iso8", Target::Cuda, plannedFor(arch));
    EXPECT_EQ(l.module.plannedArch, arch);
    const std::vector<target::CudaArch> &archs = target::cudaArchs();
    ASSERT_EQ(l.module.launchDefaults.size(), archs.size());
    for (size_t i = 0; i < archs.size(); ++i) {
      const ArchLaunch &d = l.module.launchDefaults[i];
      EXPECT_EQ(d.arch, archs[i].name);
      EXPECT_EQ(d.computeCapability, archs[i].computeCapability);
      EXPECT_EQ(d.planesPerBlock, archs[i].launch.planesPerBlock);
      EXPECT_EQ(d.maxSharedBytes, archs[i].maxSharedBytesPerBlock);
      if (i > 0)
        EXPECT_LT(archs[i - 1].computeCapability, d.computeCapability) << "oldest first";
    }
  }
  // Planned for a CPU: the defaults are there, no architecture is the planned one.
  EXPECT_EQ(lower("acoustic_iso8", Target::Cuda).module.plannedArch, "");
}

} // namespace
