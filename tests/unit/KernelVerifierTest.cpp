//===- KernelVerifierTest.cpp - The kernel IR verifier says what is wrong --===//
//
// Each test corrupts one lowered module the way a lowering bug would (a
// barrier moved under a guard, a call of a function the sweep lacks, a group
// of another sweep, a table column read but not staged, an update never
// stored, a group never summed on one of its planes) and checks the
// verifier's message for it.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

using namespace stencilc;
using namespace stencilc::kernel;
using namespace stencilc::testing;

namespace {

std::vector<std::string> problemsOf(const CompiledStencil &c, const KernelModule &m) {
  std::vector<std::string> problems;
  EXPECT_FALSE(verifyKernels(c, m, problems));
  return problems;
}

bool says(const std::vector<std::string> &problems, const std::string &message) {
  return std::find(problems.begin(), problems.end(), message) != problems.end();
}

std::string listed(const std::vector<std::string> &problems) {
  std::string out;
  for (const std::string &p : problems)
    out += "\n  " + p;
  return out;
}

Function &mutableFunction(KernelModule &m, int sweep, const std::string &name) {
  for (Function &f : m.sweeps.at(sweep).functions)
    if (f.name == name)
      return f;
  ADD_FAILURE() << "no function " << name;
  static Function missing;
  return missing;
}

/// Removes every node of `kind` from `body`, at any depth; returns how many.
int erase(std::vector<Node> &body, NodeKind kind) {
  int removed = 0;
  for (Node &n : body)
    removed += erase(n.body, kind);
  const size_t before = body.size();
  body.erase(
      std::remove_if(body.begin(), body.end(), [&](const Node &n) { return n.kind == kind; }),
      body.end());
  return removed + int(before - body.size());
}

TEST(KernelIRVerifier, RejectsABarrierUnderAGuard) {
  Lowered l = lower("ete73", Target::Cuda, plannedFor("sm_90"));
  std::string why;
  ASSERT_TRUE(verifies(l.compiled(), l.module, why)) << why;
  Function &f = mutableFunction(l.module, 0, "sweep0_traditional");
  std::vector<Node> &step = f.body.back().body; // the march over z
  // Move "plane z is in" into the activity guard that follows it.
  auto barrier = std::find_if(step.rbegin(), step.rend(),
                              [](const Node &n) { return n.kind == NodeKind::Barrier; });
  ASSERT_NE(barrier, step.rend());
  Node moved = *barrier;
  step.erase(std::next(barrier).base());
  ASSERT_EQ(step.back().guard, GuardKind::Active);
  step.back().body.insert(step.back().body.begin(), moved);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_traditional: a barrier under a guard: threads that "
                             "skip it would deadlock the block"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsACallOfAFunctionTheSweepLacks) {
  Lowered l = lower("ete37", Target::Cpu);
  Function &naive = mutableFunction(l.module, 0, "sweep0_naive");
  std::vector<Node *> calls;
  std::function<void(std::vector<Node> &)> collect = [&](std::vector<Node> &body) {
    for (Node &n : body) {
      if (n.kind == NodeKind::Call)
        calls.push_back(&n);
      collect(n.body);
    }
  };
  collect(naive.body);
  ASSERT_EQ(calls.size(), 1u);
  calls[0]->callee = "sweep1_rows";
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(
      says(problems, "sweep 0, sweep0_naive: calls sweep1_rows, which the sweep does not define"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsASumOfAGroupTheSweepDoesNotHave) {
  PipelineOptions options;
  options.forceSplit = 2;
  Lowered l = lower("ete37", Target::Cuda, options);
  const auto &groups = l.compiled().decomposition.sweeps;
  ASSERT_EQ(groups.size(), 2u);
  ASSERT_FALSE(groups[1].groups[0].empty());
  const int stranger = groups[1].groups[0].front(); // a group of sweep 1 only
  Function &gmem = mutableFunction(l.module, 0, "sweep0_gmem");
  std::vector<Node> &point = gmem.body[0].body[0].body[0].body; // z, y, x
  ASSERT_EQ(point.at(0).kind, NodeKind::Sum);
  point[0].groups.push_back(stranger);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_gmem: sums group " + std::to_string(stranger) +
                                 " of update 0, which sweep 0 does not have"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsACpuVectorLoopReadingRowsThatAreNotStaged) {
  Lowered l = lower("ete37", Target::Cpu);
  Function &row = mutableFunction(l.module, 0, "sweep0_row");
  ASSERT_EQ(erase(row.body, NodeKind::StageRows), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  // ete37's groups read rows 0..10 of C (its eleven coefficient classes).
  EXPECT_TRUE(
      says(problems, "sweep 0, sweep0_row: reads rows 0..10 of table C that are not staged"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAVariantThatNeverStoresAnUpdate) {
  Lowered l = lower("heat2d", Target::Cuda);
  Function &gmem = mutableFunction(l.module, 0, "sweep0_gmem");
  ASSERT_EQ(erase(gmem.body, NodeKind::Store), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, gmem: update 0 is never stored")) << listed(problems);
  EXPECT_EQ(problems.size(), 1u) << "the other variants still store it" << listed(problems);
}

TEST(KernelIRVerifier, RejectsAGroupNeverSummedOnOneOfItsPlanes) {
  // heat2d is 2D: its planes variant has one plane function and no scatter,
  // so the plane function's sum is the only one of its groups.
  Lowered l = lower("heat2d", Target::Cpu);
  Function &plane = mutableFunction(l.module, 0, "sweep0_plane_p0");
  ASSERT_EQ(erase(plane.body, NodeKind::Sum), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  for (int g : l.compiled().decomposition.sweeps[0].groups[0])
    EXPECT_TRUE(says(problems, "sweep 0, planes: group " + std::to_string(g) +
                                   " of update 0 is never summed on plane +0"))
        << listed(problems);
}

//===----------------------------------------------------------------------===//
// Marches, rings and the CPU planes driver
//===----------------------------------------------------------------------===//

/// The module of `name` lowered for `target`, verified before the corruption.
Lowered verified(const std::string &name, Target target, PipelineOptions options = {}) {
  Lowered l = lower(name, target, options);
  std::string why;
  EXPECT_TRUE(verifies(l.compiled(), l.module, why)) << why;
  return l;
}

TEST(KernelIRVerifier, RejectsAMarchWithoutItsBarriers) {
  Lowered l = verified("ete73", Target::Cuda, plannedFor("sm_90"));
  Function &f = mutableFunction(l.module, 0, "sweep0_planes");
  ASSERT_EQ(erase(f.body, NodeKind::Barrier), 2);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: stages a shared plane while threads "
                             "may still read the previous one"))
      << listed(problems);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: reads a shared plane before every "
                             "thread has staged its part"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAPipelinedMarchOutOfOrder) {
  // Without its barrier, nothing orders the copies of plane z before the reads.
  Lowered l = verified("ete73", Target::Cuda, plannedFor("sm_90"));
  Function &f = mutableFunction(l.module, 0, "sweep0_traditional");
  ASSERT_EQ(f.tileBuffers, 2);
  ASSERT_EQ(erase(f.body, NodeKind::Barrier), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_traditional: a pipelined march stages its first "
                             "and its next plane, waits and meets"))
      << listed(problems);

  // The next plane copied before the barrier would overwrite the buffer other threads still
  // read for the plane before.
  Lowered swapped = verified("ete73", Target::Cuda, plannedFor("sm_90"));
  Function &g = mutableFunction(swapped.module, 0, "sweep0_traditional");
  std::vector<Node> &march = g.body.back().body;
  auto barrier = std::find_if(march.begin(), march.end(),
                              [](const Node &n) { return n.kind == NodeKind::Barrier; });
  ASSERT_NE(barrier, march.end());
  ASSERT_NE(barrier + 1, march.end());
  std::iter_swap(barrier, barrier + 1);
  problems = problemsOf(swapped.compiled(), swapped.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_traditional: a pipelined march waits for its "
                             "copies, then meets the block, then copies the next plane, then "
                             "reads"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsPartialSumsThatNeverShiftAndReadsOffAMissingPlane) {
  Lowered l = verified("ete37", Target::Cuda);
  Function &f = mutableFunction(l.module, 0, "sweep0_planes");
  ASSERT_EQ(erase(f.body, NodeKind::ShiftPartials), 1);
  ASSERT_EQ(erase(f.body, NodeKind::StageTile), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: keeps partial sums but never shifts them"))
      << listed(problems);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: reads p_cur on chip, but no shared plane "
                             "holds it"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsTableRowsStagedOtherwiseThanPlaced) {
  Lowered l = verified("ete73", Target::Cuda, plannedFor("sm_90"));
  Function &f = mutableFunction(l.module, 0, "sweep0_traditional");
  const int removed = erase(f.body, NodeKind::StageRows);
  ASSERT_GT(removed, 0);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, fmt::format("sweep 0, sweep0_traditional: stages 0 table rows in "
                                         "shared memory where the placement has {}",
                                         removed)))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAPlaneFunctionThatLostAGroupTheScatterStillSums) {
  Lowered l = verified("ete37", Target::Cpu);
  Function &f = mutableFunction(l.module, 0, "sweep0_plane_m4");
  // The sum and the accumulate of its one group: only the tile-edge path loses it.
  ASSERT_EQ(erase(f.body, NodeKind::Sum), 1);
  ASSERT_EQ(erase(f.body, NodeKind::Accumulate), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: the scatter and the per-plane functions sum "
                             "different points"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsPartialSumSlotsOutOfTheRing) {
  Lowered l = verified("ete37", Target::Cpu);
  Function &scatter = mutableFunction(l.module, 0, "sweep0_scatter");
  for (Node &n : scatter.body.front().body)
    if (n.kind == NodeKind::Accumulate && n.dz == 4)
      n.slot = 99;
  Function &finish = mutableFunction(l.module, 0, "sweep0_finish");
  for (Node &n : finish.body.front().body)
    if (n.kind == NodeKind::Store)
      n.slot = 7;
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_scatter: adds update 0 on plane +4 to slot 99"))
      << listed(problems);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_finish: stores update 0 from slot 7"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAGuardForAnotherOutputRowThanItsCall) {
  Lowered l = verified("ete37", Target::Cpu);
  Function &driver = mutableFunction(l.module, 0, "sweep0_planes");
  std::function<void(std::vector<Node> &)> retarget = [&](std::vector<Node> &body) {
    for (Node &n : body) {
      if (n.kind == NodeKind::Guard && n.guard == GuardKind::OutputInSpan && n.dz == 2)
        n.dz = 0;
      retarget(n.body);
    }
  };
  retarget(driver.body);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_planes: calls sweep0_plane_p2 for output row zi-2 "
                             "under a guard for zi+0"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAnAccumulateWithoutItsSum) {
  Lowered l = verified("acoustic_iso8", Target::Cpu);
  Function &f = mutableFunction(l.module, 0, "sweep0_plane_p1");
  ASSERT_EQ(erase(f.body, NodeKind::Sum), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_plane_p1: accumulates sum of update 0 that no sum "
                             "before it made"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsTwoStagedRowSetsInOneSlot) {
  PipelineOptions threePlanes; // a row set per output plane, each in its own slot
  threePlanes.outputPlanesPerLoop = 3;
  Lowered l = verified("ete37", Target::Cpu, threePlanes);
  Function &f = mutableFunction(l.module, 0, "sweep0_rows3");
  for (Node &n : f.body.front().body)
    if (n.kind == NodeKind::StageRows)
      n.slot = 0;
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_rows3: two staged row sets in slot 0"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsRingReadsPastTheirReachAndRingsNoStepReads) {
  Lowered l = verified("acoustic_iso8", Target::Cuda);
  Function &f = mutableFunction(l.module, 0, "sweep0_twostep");
  ASSERT_EQ(f.steps, 2);
  f.rz = 3; // acoustic_iso8's second step reads u at dz = +-4
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_twostep: reads u(0, 0, -4) past its rings' reach "
                             "(4, 4, 3)"))
      << listed(problems);
  f.rz = 4;
  f.steps = 1; // the first step's ring now has no step after it to read it
  problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_twostep: keeps a level in a ring that no later step "
                             "of the launch reads"))
      << listed(problems);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_twostep: a loop over widened columns outside a "
                             "launch of several steps"))
      << listed(problems);
}

} // namespace

TEST(KernelIRVerifier, RejectsLoadsAheadWithoutQueues) {
  Lowered l = lower("acoustic_iso8", Target::Cuda);
  Function &f = mutableFunction(l.module, 0, "sweep0_traditional");
  ASSERT_EQ(f.loadAhead, 1);
  f.queues.clear();
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_traditional: loads 1 planes ahead with 0 register "
                             "queues"))
      << listed(problems);
}
