//===- PlanePlanTest.cpp - The plane plan against hand-derived counts ------===//
//
// The expected numbers are derived in docs/PERFORMANCE-MODEL.md ("Plane plan").
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "passes/PlanePlan.h"

#include <gtest/gtest.h>

using namespace stencilc;
using stencilc::testing::compileExample;
using stencilc::testing::compileText;

namespace {

int queueOf(const PlanePlan &p, int dx, int dy) {
  for (const PlaneColumn &c : p.columns)
    if (c.dx == dx && c.dy == dy)
      return c.queueLength;
  return -1;
}

TEST(PlanePlanTest, Ete37PlanesColumnsAndQueues) {
  auto ex = compileExample("ete37");
  const PlanePlan &p = ex.only().planePlan;
  EXPECT_EQ(p.minDz, -4);
  EXPECT_EQ(p.maxDz, 4);
  ASSERT_EQ(p.planes.size(), 9u);
  // dz = 0: 25 - 8 (z axis) + 4 (xy diagonals) = 21 points of p_cur, plus p_prev's centre.
  EXPECT_EQ(p.planes[4].dz, 0);
  EXPECT_EQ(p.planes[4].reads.size(), 22u);
  // dz = +-1: the z-axis point and the four xz/yz diagonals.
  EXPECT_EQ(p.planes[3].reads.size(), 5u);
  EXPECT_EQ(p.planes[5].reads.size(), 5u);
  EXPECT_EQ(p.planes[0].reads.size(), 1u);
  // Columns (0,0): dz +-1..+-4, queue 8; (+-1,0), (0,+-1): dz +-1, queue 2 each.
  ASSERT_EQ(p.columns.size(), 5u);
  EXPECT_EQ(queueOf(p, 0, 0), 8);
  EXPECT_EQ(queueOf(p, 1, 0), 2);
  EXPECT_EQ(queueOf(p, 0, -1), 2);
  EXPECT_EQ(p.traditionalRegisters, 16);
  // One load per column; p_prev's centre is one more.
  EXPECT_EQ(p.traditionalLoads, 6);
  // One-to-multi: a queue of 9 partial sums, one load of p_cur and one of p_prev.
  ASSERT_EQ(p.partialSumQueue.size(), 1u);
  EXPECT_EQ(p.partialSumQueue[0], 9);
  EXPECT_EQ(p.planesRegisters, 9);
  EXPECT_EQ(p.planesLoads, 2);
}

TEST(PlanePlanTest, Ete73RegisterQueuesGrowWithTheDiagonals) {
  auto ex = compileExample("ete73");
  const PlanePlan &p = ex.only().planePlan;
  // (0,0) plus (+-k,0), (0,+-k) for k = 1..4.
  EXPECT_EQ(p.columns.size(), 17u);
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(queueOf(p, k, 0), 2 * k);
    EXPECT_EQ(queueOf(p, 0, -k), 2 * k);
  }
  // 8 + 4 * (2 + 4 + 6 + 8) = 88.
  EXPECT_EQ(p.traditionalRegisters, 88);
  EXPECT_EQ(p.traditionalLoads, 18);
  EXPECT_EQ(p.planesRegisters, 9);
  EXPECT_EQ(p.planesLoads, 2);
}

TEST(PlanePlanTest, OnChipBytesOfABlock) {
  auto ex = compileExample("ete37");
  const PlanePlan &p = ex.only().planePlan;
  BlockShape block{32, 8};
  // The p_cur tile with a halo of 4: 40 x 16 floats; p_prev is read at the centre only.
  EXPECT_EQ(sharedTileBytes(p.planesTiles, block, 4), 40 * 16 * 4);
  EXPECT_EQ(sharedTileBytes(p.traditionalTiles, block, 4), 40 * 16 * 4);
  // Plus 256 threads x queue x 4 bytes.
  EXPECT_EQ(planesOnChipBytes(p, block, 4), 2560 + 256 * 9 * 4);
  EXPECT_EQ(traditionalOnChipBytes(p, block, 4), 2560 + 256 * 16 * 4);
}

TEST(PlanePlanTest, OneSidedColumnStillLoadsTheCentrePlane) {
  // u is read at (0,0,-1) and (1,0,0): the (0,0) queue does not run ahead of
  // the centre plane, so that plane is one more load.
  auto ex = compileText("stencil s { field u : time; field v : out; v = u[0,0,-1] + u[1,0,0]; }");
  const PlanePlan &p = ex.only().planePlan;
  ASSERT_EQ(p.columns.size(), 1u);
  EXPECT_EQ(p.columns[0].queueLength, 1);
  EXPECT_EQ(p.traditionalLoads, 2);
  EXPECT_EQ(p.partialSumQueue[0], 2);
  ASSERT_EQ(p.traditionalTiles.size(), 1u);
  EXPECT_EQ(p.traditionalTiles[0].rx, 1);
  EXPECT_EQ(p.traditionalTiles[0].ry, 0);
}

TEST(PlanePlanTest, TwoDimensionalStencilHasOnePlane) {
  auto ex = compileExample("heat2d");
  const PlanePlan &p = ex.only().planePlan;
  EXPECT_EQ(p.planes.size(), 1u);
  EXPECT_TRUE(p.columns.empty());
  EXPECT_EQ(p.traditionalRegisters, 0);
  EXPECT_EQ(p.partialSumQueue[0], 1);
}

TEST(PlanePlanTest, TraditionalTakesASecondBufferWhileItsQueuesLeaveRegisters) {
  EXPECT_EQ(traditionalTileBuffers(true, 9, 4), 2);   // acoustic_iso8, float
  EXPECT_EQ(traditionalTileBuffers(true, 79, 8), 2);  // lwc_elastic, double: 158 registers
  EXPECT_EQ(traditionalTileBuffers(true, 105, 4), 2); // ete73, float: 105 registers
  EXPECT_EQ(traditionalTileBuffers(true, 105, 8), 1); // ete73, double: 210 registers
  EXPECT_EQ(traditionalTileBuffers(true, 210, 4), 1); // tti, float
  EXPECT_EQ(traditionalTileBuffers(false, 9, 4), 1);  // no shared plane, nothing to pipeline
}

} // namespace
