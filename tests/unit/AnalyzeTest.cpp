//===- AnalyzeTest.cpp - Counts, flops, bytes and roofline bounds ----------===//
//
// Every expected number is derived by hand in docs/PERFORMANCE-MODEL.md
// ("Worked examples"); `stencilc analyze --json` prints the same numbers.
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "analysis/CostModel.h"
#include "analysis/Roofline.h"
#include "analysis/StencilCounts.h"

#include <gtest/gtest.h>

using namespace stencilc;
using stencilc::testing::compileExample;

namespace {

struct Expected {
  const char *example;
  int points, offAxis, classes, zColumns, flops, bytes;
};

TEST(AnalyzeTest, HandDerivedCountsOfTheExamples) {
  const Expected expected[] = {
      // 6 neighbours, 1 (omega/6 factored), centre: 9 flops; u and u_next: 8 B.
      {"laplacian7", 7, 0, 3, 1, 9, 8},
      // 4 distance groups x 6 points + centre, factor v v dt dt /h /h: 40 flops; 4 fields: 16 B.
      {"acoustic_iso8", 25, 0, 6, 1, 40, 16},
      // 37 - 11 adds + 3 x 11 (x2, x C, + running sum) = 59 flops; 3 x 4 + 2 = 14 B.
      {"ete37", 37, 12, 11, 5, 59, 14},
      // 73 - 17 adds + 3 x 17 = 107 flops.
      {"ete73", 73, 48, 17, 17, 107, 14},
  };
  for (const Expected &e : expected) {
    auto ex = compileExample(e.example);
    analysis::StencilCounts c = analysis::countStencil(ex.only());
    EXPECT_EQ(c.points, e.points) << e.example;
    EXPECT_EQ(c.offAxisPoints, e.offAxis) << e.example;
    EXPECT_EQ(c.coefficientClasses, e.classes) << e.example;
    EXPECT_EQ(c.zColumns, e.zColumns) << e.example;
    EXPECT_EQ(c.flopsPerPoint, e.flops) << e.example;
    EXPECT_EQ(c.bytesPerPoint, e.bytes) << e.example;
  }
}

TEST(AnalyzeTest, DoublePrecisionDoublesTheFloatingBytesOnly) {
  auto ex = compileExample("ete37", true);
  // 3 x 8 + the uint16 index field.
  EXPECT_EQ(analysis::countStencil(ex.only()).bytesPerPoint, 26);
}

analysis::Machine machine(double gbs, double gflops, bool writeAllocate) {
  analysis::Machine m;
  m.name = "test";
  m.bandwidthGBs = gbs;
  m.peakGflopsFloat = gflops;
  m.peakGflopsDouble = gflops / 2;
  m.writeAllocate = writeAllocate;
  return m;
}

TEST(AnalyzeTest, RooflineBoundPicksTheLowerRoof) {
  auto ex = compileExample("ete37");
  // CPU: 14 B + 4 B write-allocate = 18 B; 100 GB/s / 18 B = 5.556 GPts/s,
  // 1000 GFLOP/s / 59 = 16.95 GPts/s: memory bound.
  auto cpu = analysis::rooflineBound(ex.only(), "planes", machine(100, 1000, true));
  EXPECT_EQ(cpu.limit, "memory");
  EXPECT_DOUBLE_EQ(cpu.cost.bytesPerPoint, 18);
  EXPECT_EQ(cpu.cost.flopsPerPoint, 59);
  EXPECT_NEAR(cpu.gptsPerSecond, 100.0 / 18, 1e-12);
  // A machine with little compute: 59 GFLOP/s / 59 = 1 GPts/s < 100 / 14.
  auto slow = analysis::rooflineBound(ex.only(), "gmem", machine(100, 59, false));
  EXPECT_EQ(slow.limit, "compute");
  EXPECT_NEAR(slow.gptsPerSecond, 1.0, 1e-12);
  EXPECT_NEAR(slow.operationalIntensity, 59.0 / 14, 1e-12);
}

TEST(AnalyzeTest, ExtraSweepsCostBytesNotFlops) {
  PipelineOptions o;
  o.forceSplit = 2;
  auto ex = compileExample("ete73", false, o);
  // Sweep 2 re-reads p_cur and vidx and reads and writes p_next: 4 + 2 + 8 = 14 B.
  auto cpu = analysis::variantCost(ex.only(), "planes", false);
  EXPECT_EQ(cpu.sweeps, 2);
  EXPECT_DOUBLE_EQ(cpu.bytesPerPoint, 14 + 14);
  // Its `+=` takes the place of one running-sum add: still 107 flops.
  EXPECT_EQ(cpu.flopsPerPoint, 107);
}

TEST(AnalyzeTest, EveryVariantRunsEverySweepOfThePlan) {
  PipelineOptions o;
  o.forceSplit = 2;
  auto ex = compileExample("ete73", false, o);
  // The CUDA launchers call launchSweep0 and launchSweep1 whatever the
  // variant, and the CPU kernels loop over the sweeps in every scheme: each
  // variant pays sweep 2's 14 B (18 + 14 with write-allocate).
  for (const auto *variants : {&analysis::cudaVariants(), &analysis::cpuVariants()})
    for (const std::string &v : *variants) {
      analysis::VariantCost cost = analysis::variantCost(ex.only(), v, false);
      EXPECT_EQ(cost.sweeps, 2) << v;
      EXPECT_DOUBLE_EQ(cost.bytesPerPoint, 14 + 14) << v;
      EXPECT_EQ(cost.flopsPerPoint, 107) << v;
      EXPECT_DOUBLE_EQ(analysis::variantCost(ex.only(), v, true).bytesPerPoint, 18 + 14) << v;
    }
  // Unsplit, every variant runs one sweep of 14 B.
  auto whole = compileExample("ete73");
  for (const std::string &v : analysis::cudaVariants()) {
    EXPECT_EQ(analysis::variantCost(whole.only(), v, false).sweeps, 1) << v;
    EXPECT_DOUBLE_EQ(analysis::variantCost(whole.only(), v, false).bytesPerPoint, 14) << v;
  }
}

TEST(AnalyzeTest, ShippedMachineFilesLoad) {
  for (const char *name : {"xeon-avx512-2core", "a100", "h100", "h200"}) {
    auto m = analysis::loadMachine(name);
    ASSERT_TRUE(bool(m)) << name << ": " << llvm::toString(m.takeError());
    EXPECT_GT(m->bandwidthGBs, 0) << name;
    EXPECT_GT(m->peakGflopsDouble, 0) << name;
    EXPECT_FALSE(m->source.empty()) << name;
  }
  // The GPU files name the architecture analyze plans for; the CPU file names none.
  EXPECT_EQ(analysis::loadMachine("a100")->arch, "sm_80");
  EXPECT_EQ(analysis::loadMachine("h100")->arch, "sm_90");
  EXPECT_EQ(analysis::loadMachine("h200")->arch, "sm_90");
  EXPECT_EQ(analysis::loadMachine("xeon-avx512-2core")->arch, "");
  auto missing = analysis::loadMachine("no-such-machine");
  EXPECT_FALSE(bool(missing));
  llvm::consumeError(missing.takeError());
}

} // namespace
