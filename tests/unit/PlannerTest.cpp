//===- PlannerTest.cpp - Decomposition planner decisions and costs ---------===//
//
// Budgets chosen so that the cost model of passes/Planner.h must pick 1, 2
// and 3 sweeps; the expected costs are worked out in
// docs/PERFORMANCE-MODEL.md ("Decomposition planner"). tests/kernels builds
// the CPU kernels of the same plans and checks them against the reference.
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "passes/Planner.h"

#include <gtest/gtest.h>

using namespace stencilc;
using stencilc::testing::compileExample;
using stencilc::testing::compileText;

namespace {

PipelineOptions withTarget(const std::string &name, long onChip = -1, long cache = -1,
                           int nd = 902) {
  std::string error;
  auto target = makePlanTarget(name, nd, onChip, cache, error);
  EXPECT_TRUE(target.has_value()) << error;
  PipelineOptions o;
  if (target)
    o.target = *target;
  return o;
}

const PlanCandidate &chosen(const CompiledStencil &c) {
  return c.planReport.candidates.at(c.planReport.chosen);
}

TEST(PlannerTest, DefaultCpuPlanIsOneSweepForEveryExample) {
  for (const char *name :
       {"ete37", "ete73", "acoustic_iso8", "laplacian7", "heat2d", "tti", "lwc_elastic"}) {
    for (bool asDouble : {false, true}) {
      auto ex = compileExample(name, asDouble);
      for (const CompiledStencil &c : ex.compiled)
        EXPECT_EQ(c.decomposition.sweeps.size(), 1u) << name << (asDouble ? " double" : "");
    }
  }
}

// ete73 in float: 17 table rows of 902 x 4 = 3608 bytes. With no L2 budget, a
// row gathered from memory costs 4 B, from L1 0.4 B, and a later sweep re-reads
// p_cur, vidx and p_next and writes p_next: 14 B.
TEST(PlannerTest, Ete73CpuBudgetsForceOneTwoAndThreeSweeps) {
  auto one = compileExample("ete73", false, withTarget("cpu", 64 * 1024, 0));
  EXPECT_EQ(one.only().decomposition.sweeps.size(), 1u); // all 17 rows fit in 64 KiB
  EXPECT_NEAR(chosen(one.only()).cost(), 18 + 17 * 0.4, 1e-9);

  auto two = compileExample("ete73", false, withTarget("cpu", 34000, 0));
  ASSERT_EQ(two.only().decomposition.sweeps.size(), 2u); // 9 rows fit: 9 + 8
  EXPECT_NEAR(chosen(two.only()).cost(), 18 + 14 + 17 * 0.4, 1e-9);
  EXPECT_EQ(chosen(two.only()).rowsPerTier[0][0], 9);
  EXPECT_EQ(chosen(two.only()).rowsPerTier[1][0], 8);

  auto three = compileExample("ete73", false, withTarget("cpu", 24000, 0));
  ASSERT_EQ(three.only().decomposition.sweeps.size(), 3u); // 6 rows fit: 6 + 6 + 5
  EXPECT_NEAR(chosen(three.only()).cost(), 18 + 2 * 14 + 17 * 0.4, 1e-9);
  // Two sweeps would leave 5 rows in memory: 18 + 14 + 12 * 0.4 + 5 * 4 = 56.8.
  double bestTwo = 1e9;
  for (const PlanCandidate &c : three.only().planReport.candidates)
    if (c.decomposition.sweeps.size() == 2)
      bestTwo = std::min(bestTwo, c.cost());
  EXPECT_NEAR(bestTwo, 56.8, 1e-9);
}

// The acceptance case: ete73 in double on a GPU, 17 rows of 902 x 8 = 7216 B.
TEST(PlannerTest, Ete73DoubleAt48KiBKeepsFiveRowsSharedAndTheRestReadOnly) {
  auto ex = compileExample("ete73", true, withTarget("sm_80", 48 * 1024));
  const CompiledStencil &c = ex.only();
  // 49152 - twice the 40 x 16 x 8 = 5120 B plane tile (traditional's two buffers, reserved
  // whichever a sweep takes) leaves 38912 B: 5 rows.
  ASSERT_EQ(c.decomposition.sweeps.size(), 1u);
  EXPECT_EQ(chosen(c).rowsPerTier[0], (std::array<int, 3>{5, 12, 0}));
  // 26 B of grid + 5 x 8 x 0.1 + 12 x 8 x 0.3 = 58.8 B; two sweeps cost 76.8.
  EXPECT_NEAR(chosen(c).cost(), 58.8, 1e-9);
  const SubStencil &sweep = c.decomposition.sweeps[0];
  ASSERT_EQ(sweep.tableSpace.size(), 1u);
  int shared = 0, readOnly = 0, other = 0;
  for (TableSpace s : sweep.tableSpace[0])
    (s == TableSpace::Shared ? shared : s == TableSpace::ReadOnly ? readOnly : other)++;
  EXPECT_EQ(shared, 5);
  EXPECT_EQ(readOnly, 12);
  EXPECT_EQ(other, 1); // the -p_prev group has no table
}

TEST(PlannerTest, Ete73DoubleAt228KiBPutsTheWholeTableInSharedMemory) {
  auto ex = compileExample("ete73", true, withTarget("sm_90", 228 * 1024));
  const CompiledStencil &c = ex.only();
  ASSERT_EQ(c.decomposition.sweeps.size(), 1u);
  EXPECT_EQ(chosen(c).rowsPerTier[0], (std::array<int, 3>{17, 0, 0}));
  EXPECT_NEAR(chosen(c).cost(), 26 + 17 * 0.8, 1e-9);
}

TEST(PlannerTest, ASecondGpuSweepMustPayForItsGridTraffic) {
  // Without a read-only cache 12 rows are global gathers (4.8 B each): 87.6 B.
  // A second sweep costs 26 B of grid traffic and brings 5 rows on chip,
  // saving only 5 x 4.0 = 20 B, so one sweep stays cheapest.
  auto ex = compileExample("ete73", true, withTarget("sm_80", 48 * 1024, 0));
  ASSERT_EQ(ex.only().decomposition.sweeps.size(), 1u);
  EXPECT_NEAR(chosen(ex.only()).cost(), 26 + 5 * 0.8 + 12 * 4.8, 1e-9);
}

TEST(PlannerTest, PlanIsDeterministic) {
  auto a = compileExample("ete73", false, withTarget("cpu", 24000, 0));
  auto b = compileExample("ete73", false, withTarget("cpu", 24000, 0));
  ASSERT_EQ(a.only().decomposition.sweeps.size(), b.only().decomposition.sweeps.size());
  for (size_t i = 0; i < a.only().decomposition.sweeps.size(); ++i)
    EXPECT_EQ(a.only().decomposition.sweeps[i].groups, b.only().decomposition.sweeps[i].groups);
}

TEST(PlannerTest, ForcedSplitKeepsTheEvenDeal) {
  PipelineOptions o;
  o.forceSplit = 3;
  auto ex = compileExample("ete73", false, o);
  Decomposition expected;
  std::string why;
  ASSERT_TRUE(splitStencil(ex.only().linear, 3, expected, why));
  ASSERT_EQ(ex.only().decomposition.sweeps.size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(ex.only().decomposition.sweeps[i].groups, expected.sweeps[i].groups);
}

TEST(PlannerTest, PlanClauseForcesSweepsAndSpace) {
  std::string text = stencilc::testing::readText(std::filesystem::path(STENCILC_SOURCE_DIR) /
                                                 "dsl-examples" / "ete37.stencil");
  text.replace(text.find("  table C[classes(S)];"), 0,
               "  plan sweeps 2;\n  plan tables readonly;\n");
  auto ex = compileText(text, false, withTarget("sm_80"));
  const CompiledStencil &c = ex.only();
  ASSERT_EQ(c.decomposition.sweeps.size(), 2u);
  for (const SubStencil &sweep : c.decomposition.sweeps)
    for (size_t i = 0; i < sweep.groups[0].size(); ++i)
      if (!tableRowsOf(c.linear.updates[0], {sweep.groups[0][i]}).empty())
        EXPECT_EQ(sweep.tableSpace[0][i], TableSpace::ReadOnly);
  // The command line wins over the clause.
  PipelineOptions o = withTarget("sm_80");
  o.forceSplit = 1;
  auto overridden = compileText(text, false, o);
  EXPECT_EQ(overridden.only().decomposition.sweeps.size(), 1u);
}

TEST(PlannerTest, StencilWithoutTablesNeverSplits) {
  auto ex = compileExample("acoustic_iso8", true, withTarget("sm_80", 0, 0));
  EXPECT_EQ(ex.only().decomposition.sweeps.size(), 1u);
  for (const PlanCandidate &c : ex.only().planReport.candidates)
    EXPECT_DOUBLE_EQ(c.gatherBytes, 0);
}

TEST(PlannerTest, UnknownTargetAndBadNdAreErrors) {
  std::string error;
  EXPECT_FALSE(makePlanTarget("sm_12", 902, -1, -1, error));
  EXPECT_NE(error.find("unknown plan target 'sm_12'"), std::string::npos);
  EXPECT_FALSE(makePlanTarget("cpu", 0, -1, -1, error));
  EXPECT_NE(error.find("Nd must be"), std::string::npos);
  // A smaller shared carve-out leaves the rest of L1 to the read-only path.
  auto t = makePlanTarget("sm_80", 902, 100 * 1024, -1, error);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->cacheBudget, 92 * 1024);
}

} // namespace
