//===- OffGridDotTest.cpp - Injection is the transpose of recording --------===//
//
// rtm's off-grid sources and receivers (examples/rtm/OffGrid.h): for random
// positions anywhere in a grid (on points, on faces and edges, at the last
// point of an axis, inside cells), a random field u and random data d, in
// double, <R u, d> = <u, Rᵀ d> to below 1e-11 relative; and a position on a
// grid point records that point's value exactly.
//
//===----------------------------------------------------------------------===//
#include "OffGrid.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using stencilc::rt::Grid;

TEST(OffGridDotTest, InjectionIsTheTransposeOfRecording) {
  const int nx = 13, ny = 7, nz = 11;
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> value(-1, 1);
  Grid<double> u = Grid<double>::make3d(nx, ny, nz, 4);
  u.fill(0.0);
  u.forEachInteriorPoint([&](int i, int j, int k) { u(i, j, k) = value(random); });
  std::vector<std::vector<wave::Injection>> positions;
  for (int r = 0; r < 200; ++r) {
    auto coordinate = [&](int n) {
      std::uniform_real_distribution<double> along(0, n - 1);
      // Some on points, on the last point, or on cell faces; most anywhere.
      switch (r % 5) {
      case 0: return double(std::uniform_int_distribution<int>(0, n - 1)(random));
      case 1: return double(n - 1);
      default: return along(random);
      }
    };
    positions.push_back(rtm::trilinear(coordinate(nx), coordinate(ny), coordinate(nz), nx, ny, nz));
  }
  std::vector<double> d;
  for (size_t r = 0; r < positions.size(); ++r)
    d.push_back(value(random));
  double left = 0, scale = 0;
  for (size_t r = 0; r < positions.size(); ++r) {
    const double ru = rtm::record(u, positions[r]);
    left += ru * d[r];
    scale += std::abs(ru * d[r]);
  }
  Grid<double> adjoint = Grid<double>::make3d(nx, ny, nz, 4);
  adjoint.fill(0.0);
  for (size_t r = 0; r < positions.size(); ++r)
    rtm::inject(adjoint, positions[r], d[r]);
  double right = 0;
  u.forEachInteriorPoint([&](int i, int j, int k) { right += u(i, j, k) * adjoint(i, j, k); });
  EXPECT_GT(std::abs(left), 1e-3 * scale); // not a sum that cancels to nothing
  EXPECT_LT(std::abs(left - right), 1e-11 * std::abs(left)) << left << " vs " << right;
  // Nothing lands in the halo: every weight's point is in the interior.
  for (const auto &p : positions) {
    double total = 0;
    for (const wave::Injection &w : p) {
      EXPECT_TRUE(w.i >= 0 && w.i < nx && w.j >= 0 && w.j < ny && w.k >= 0 && w.k < nz);
      EXPECT_GE(w.value, 0.0);
      total += w.value;
    }
    EXPECT_NEAR(total, 1.0, 1e-14);
  }
}

TEST(OffGridDotTest, AGridPointRecordsItself) {
  Grid<double> u = Grid<double>::make3d(5, 4, 6, 0);
  u.forEachInteriorPoint([&](int i, int j, int k) { u(i, j, k) = 100.0 * k + 10.0 * j + i; });
  EXPECT_EQ(rtm::record(u, rtm::trilinear(2, 3, 5, 5, 4, 6)), 532.0);
  EXPECT_EQ(rtm::record(u, rtm::trilinear(4, 0, 0, 5, 4, 6)), 4.0);
  // Halfway between two points along x: their mean.
  EXPECT_DOUBLE_EQ(rtm::record(u, rtm::trilinear(1.5, 1, 1, 5, 4, 6)), 111.5);
}

} // namespace
