//===- SweepPlanTest.cpp - The sweep plan of the shipped examples ----------===//
//
// The sweep plan decides what each kernel keeps where; these tests check its
// structure for stencils whose plans are easy to derive by hand: acoustic
// (one factor list spans planes, so it is applied once, at the store), ETE-37
// (one table staged per output row) and ETE-73 on the GPU (17 register-queue
// columns). docs/DESIGN.md "sweep-plan" describes the decisions.
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "passes/SweepPlan.h"

#include <gtest/gtest.h>

using namespace stencilc;
using stencilc::testing::compileExample;
using stencilc::testing::compileText;

namespace {

std::vector<int> range(int lo, int hi) {
  std::vector<int> r;
  for (int i = lo; i <= hi; ++i)
    r.push_back(i);
  return r;
}

TEST(SweepPlanTest, AcousticAppliesItsSharedFactorsOnceAtTheStore) {
  auto ex = compileExample("acoustic_iso8");
  const CpuSchedule &cpu = ex.only().sweepPlan.cpu;
  ASSERT_EQ(cpu.sweeps.size(), 1u);
  const SweepUpdate &u = cpu.sweeps[0].updates.at(0);
  EXPECT_TRUE(u.sharedFactors);
  EXPECT_EQ(u.slot, 0);
  // The Laplacian's groups accumulate; -u_prev (g0) and 2 * u (g5) wait for the store.
  EXPECT_EQ(u.atStore, (std::vector<int>{0, 5}));
  EXPECT_EQ(cpu.sweeps[0].accumulatedPlanes, range(-4, 4));
  EXPECT_TRUE(cpu.sweeps[0].stagedTables.empty());
  // No table: the planes tile stays 16 rows deep; one plane per x loop by default.
  EXPECT_EQ(cpu.outputPlanesPerLoop, 1);
  EXPECT_EQ(cpu.planesTile.y, 16);
  EXPECT_EQ(cpu.blockedTile.z % cpu.outputPlanesPerLoop, 0);
  // The GPU keeps 2 * u in the partial sums: only centre-only groups wait.
  const SweepUpdate &g = ex.only().sweepPlan.gpu.sweeps.at(0).updates.at(0);
  EXPECT_FALSE(g.sharedFactors);
  EXPECT_EQ(g.atStore, (std::vector<int>{0}));
}

// Acoustic reads u on 9 planes, 4 points away in x and y: a blocked tile of 16 rows of 208
// points keeps 9 x 24 x 216 x 4 B = 182 KiB of planes, under half a 512 KiB L2, and 32 rows
// (304 KiB) do not fit. At 512 points only 4 rows fit; at 1024 none does, and the lowest is
// taken; a 1 MiB L2 takes 16 rows of 512. heat2d (2D) reads no field on several planes.
TEST(SweepPlanTest, BlockedTileHeightsFollowTheLayerCondition) {
  const rt::LayerFootprint f =
      compileExample("acoustic_iso8").only().sweepPlan.cpu.blockedFootprint;
  EXPECT_EQ(f.planeFields, 1);
  EXPECT_EQ(f.reachX, 4);
  EXPECT_EQ(f.reachY, 4);
  EXPECT_EQ(f.reachZ, 4);
  EXPECT_EQ(f.elementBytes, 4);
  const long long l2 = 512 << 10;
  EXPECT_EQ(rt::layerBytes(f, 16, 208), 9LL * 24 * 216 * 4);
  EXPECT_EQ(rt::layerConditionRows(f, 208, l2, 99).rows, 16);
  EXPECT_TRUE(rt::layerConditionRows(f, 208, l2, 99).fits);
  EXPECT_EQ(rt::layerConditionRows(f, 512, l2, 99).rows, 4);
  EXPECT_EQ(rt::layerConditionRows(f, 1024, l2, 99).rows, 4);
  EXPECT_FALSE(rt::layerConditionRows(f, 1024, l2, 99).fits);
  EXPECT_EQ(rt::layerConditionRows(f, 512, 2 * l2, 99).rows, 16);
  EXPECT_EQ(rt::layerConditionRows(f, 512, 0, 99).rows, 99) << "an unknown L2";
  const rt::LayerFootprint flat = compileExample("heat2d").only().sweepPlan.cpu.blockedFootprint;
  EXPECT_EQ(flat.planeFields, 0);
  EXPECT_EQ(rt::layerConditionRows(flat, 4096, l2, 16).rows, 16);
}

// A field read on several planes inside a coefficient counts as one a tile keeps planes of,
// as a term's field does: k is read at z - 1, z and z + 1 in the factors, u in the terms.
TEST(SweepPlanTest, BlockedFootprintCountsFieldsReadInCoefficients) {
  auto ex = compileText(R"(
stencil conductivity {
  grid 3d;
  type float;
  field u : time;
  field k : in;
  field u_next : out advances u;
  points N = {(0, 0, -1), (0, 0, 1), (0, -2, 0)};
  u_next = u + sum(d in N, (k + k[d]) * (u[d] - u));
}
)");
  const rt::LayerFootprint f = ex.only().sweepPlan.cpu.blockedFootprint;
  EXPECT_EQ(f.planeFields, 2);
  EXPECT_EQ(f.reachX, 0);
  EXPECT_EQ(f.reachY, 2);
  EXPECT_EQ(f.reachZ, 1);
}

TEST(SweepPlanTest, Ete37StagesItsElevenClassRowsOncePerOutputRow) {
  auto ex = compileExample("ete37");
  const CpuSchedule &cpu = ex.only().sweepPlan.cpu;
  ASSERT_EQ(cpu.sweeps.at(0).stagedTables.size(), 1u);
  const StagedTable &t = cpu.sweeps[0].stagedTables[0];
  // Rows 0..10 in whole blocks of 4.
  EXPECT_EQ(t.beginRow, 0);
  EXPECT_EQ(t.endRow, 12);
  EXPECT_EQ(ex.only().stencil->fields[t.index].name, "vidx");
  // Staged coefficients crowd L2: 4-row planes tiles.
  EXPECT_EQ(cpu.planesTile.y, 4);
}

TEST(SweepPlanTest, OutputPlanesPerLoopFollowTheOptionAndTheBlockedTileDepth) {
  PipelineOptions options;
  options.outputPlanesPerLoop = 4;
  auto ex = compileExample("ete37", false, options);
  const CpuSchedule &cpu = ex.only().sweepPlan.cpu;
  EXPECT_EQ(cpu.outputPlanesPerLoop, 4);
  EXPECT_EQ(cpu.blockedTile.z, 16);
  auto flat = compileExample("heat2d", false, options);
  EXPECT_EQ(flat.only().sweepPlan.cpu.outputPlanesPerLoop, 1) << "2D stencils have one plane";
}

TEST(SweepPlanTest, Ete73GpuQueuesAndRowSlots) {
  PipelineOptions options;
  options.target = *planTargetNamed("sm_90");
  auto ex = compileExample("ete73", false, options);
  const GpuSweepPlan &gpu = ex.only().sweepPlan.gpu.sweeps.at(0);
  // 17 (dx, dy) columns hold points off the current plane.
  EXPECT_EQ(gpu.queues.size(), 17u);
  EXPECT_EQ(gpu.planeOffsets, range(-4, 4));
  EXPECT_EQ(gpu.ringSize(), 9);
  EXPECT_EQ(gpu.traditionalRx, 4);
  // Staged rows have dense slots per table: shared ones first, then auto ones.
  auto rowCount = [](const std::map<int, std::vector<int>> &rows, int table) {
    auto it = rows.find(table);
    return it == rows.end() ? 0 : int(it->second.size());
  };
  ASSERT_FALSE(gpu.placement.empty());
  for (const auto &[row, place] : gpu.placement) {
    if (place.space == TableSpace::Shared || place.space == TableSpace::Auto) {
      EXPECT_GE(place.slot, 0);
      EXPECT_LT(place.slot,
                rowCount(gpu.sharedRows, row.first) + rowCount(gpu.autoRows, row.first));
    } else {
      EXPECT_EQ(place.slot, -1);
    }
  }
}

TEST(SweepPlanTest, EverySplitSweepPlacesEachGroupOnce) {
  PipelineOptions options;
  options.forceSplit = 2;
  auto ex = compileExample("lwc_elastic", false, options);
  const CompiledStencil &c = ex.only();
  ASSERT_EQ(c.sweepPlan.cpu.sweeps.size(), 2u);
  std::vector<std::string> problems;
  EXPECT_TRUE(verifySweepPlan(*c.stencil, c.linear, c.decomposition, c.sweepPlan, problems));
  // A corrupted plan is caught: a group placed twice.
  SweepPlan broken = c.sweepPlan;
  SweepUpdate &u = broken.cpu.sweeps[0].updates[0];
  ASSERT_FALSE(u.accumulated.empty());
  u.atStore.push_back(u.accumulated.front());
  EXPECT_FALSE(verifySweepPlan(*c.stencil, c.linear, c.decomposition, broken, problems));
  EXPECT_FALSE(problems.empty());
}

// traditionalLoadAhead: a queue for every column read from memory, one plane longer, where they
// fit three eighths of the registers; then no load of a step waits inside it.
TEST(SweepPlanTest, TraditionalLoadsAheadWhereItsQueuesFit) {
  auto acoustic = compileExample("acoustic_iso8");
  const ir::Stencil &s = *acoustic.only().stencil;
  const GpuSweepPlan &gpu = acoustic.only().sweepPlan.gpu.sweeps.at(0);
  EXPECT_EQ(gpu.traditionalAhead, 1);
  std::map<std::string, std::pair<int, int>> columns;
  for (const auto &[column, range] : gpu.queues) {
    EXPECT_EQ(std::get<1>(column), 0);
    EXPECT_EQ(std::get<2>(column), 0);
    columns[s.fields[std::get<0>(column)].name] = range;
  }
  // u off the current plane, u_prev and the coefficient v at the point.
  EXPECT_EQ(columns, (std::map<std::string, std::pair<int, int>>{
                         {"u", {-4, 4}}, {"u_prev", {0, 0}}, {"v", {0, 0}}}));
  EXPECT_EQ(gpu.queueValues(), 9 + 1 + 1 + 3);
  // A plan that loads ahead but leaves a column to memory is caught.
  const CompiledStencil &c = acoustic.only();
  SweepPlan broken = c.sweepPlan;
  broken.gpu.sweeps[0].queues.erase({s.findField("v"), 0, 0});
  std::vector<std::string> problems;
  EXPECT_FALSE(verifySweepPlan(s, c.linear, c.decomposition, broken, problems));
  EXPECT_EQ(problems, std::vector<std::string>{"GPU sweep 0: traditional loads ahead, but reads "
                                               "v(0, 0) planes 0..0 outside its queues"});

  // ete73: 105 values off the current plane; with p_prev and vidx, one plane longer, 126.
  auto ete73 = compileExample("ete73");
  const GpuSweepPlan &wide = ete73.only().sweepPlan.gpu.sweeps.at(0);
  EXPECT_EQ(wide.traditionalAhead, 0);
  EXPECT_EQ(wide.queues.size(), 17u);
  EXPECT_EQ(wide.queueValues(), 105);
  // ete37 in double: 30 values, 60 registers.
  auto ete37 = compileExample("ete37", true);
  EXPECT_EQ(ete37.only().sweepPlan.gpu.sweeps.at(0).traditionalAhead, 1);
  EXPECT_EQ(ete37.only().sweepPlan.gpu.sweeps.at(0).queueValues(), 30);

  // heat2d reads everything from its shared plane: nothing to load.
  auto heat = compileExample("heat2d");
  EXPECT_EQ(heat.only().sweepPlan.gpu.sweeps.at(0).traditionalAhead, 0);
  EXPECT_TRUE(heat.only().sweepPlan.gpu.sweeps.at(0).queues.empty());
}

} // namespace
