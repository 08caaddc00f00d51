//===- PointSetOpsTest.cpp - Shorthands, symmetry groups, coefficient classes ===//
#include "ir/PointSetOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

using namespace stencilc::ir;

namespace {

Symmetry makeSymmetry(std::vector<SymmetryOp> generators) {
  Symmetry sym;
  sym.name = "s";
  sym.generators = std::move(generators);
  return sym;
}

SymmetryOp reflect(int axis) { return {SymmetryOp::Reflect, axis, 0}; }
SymmetryOp swapAxes(int a, int b) { return {SymmetryOp::Swap, a, b}; }

/// The symmetry of a VTI/ETE medium: x, y, z reflections and the x-y swap.
Symmetry verticalAxisSymmetry() {
  return makeSymmetry({reflect(0), reflect(1), reflect(2), swapAxes(0, 1)});
}

bool isSortedUnique(const std::vector<Offset> &points) {
  for (size_t i = 1; i < points.size(); ++i)
    if (!offsetLess(points[i - 1], points[i]))
      return false;
  return true;
}

bool contains(const std::vector<Offset> &points, const Offset &o) {
  return std::find(points.begin(), points.end(), o) != points.end();
}

std::vector<Offset> unite(std::vector<Offset> a, const std::vector<Offset> &b) {
  a.insert(a.end(), b.begin(), b.end());
  sortUnique(a);
  return a;
}

TEST(PointSetOpsTest, ShorthandCounts) {
  for (int dims : {2, 3}) {
    for (int r = 1; r <= 4; ++r) {
      const std::vector<Offset> axes = axesPoints(dims, r);
      const std::vector<Offset> diagonals = diagonalPoints(dims, r);
      const std::vector<Offset> box = boxPoints(dims, r);
      EXPECT_EQ(axes.size(), size_t(2 * dims * r + 1));
      EXPECT_EQ(diagonals.size(), size_t(dims == 2 ? 4 * r : 12 * r));
      size_t boxSize = 1;
      for (int i = 0; i < dims; ++i)
        boxSize *= size_t(2 * r + 1);
      EXPECT_EQ(box.size(), boxSize);
      for (const auto *points : {&axes, &diagonals, &box}) {
        EXPECT_TRUE(isSortedUnique(*points));
        for (const Offset &o : *points) {
          EXPECT_LE(offsetRadius(o), r);
          if (dims == 2) {
            EXPECT_EQ(o[2], 0);
          }
        }
      }
      for (const Offset &o : axes)
        EXPECT_LE(offsetNonZeros(o), 1);
      for (const Offset &o : diagonals) {
        EXPECT_EQ(offsetNonZeros(o), 2);
        EXPECT_EQ(std::abs(o[0]) + std::abs(o[1]) + std::abs(o[2]), 2 * offsetRadius(o));
      }
    }
  }
  EXPECT_TRUE(contains(diagonalPoints(3, 2), Offset{0, -2, 2}));
  EXPECT_FALSE(contains(diagonalPoints(3, 2), Offset{1, -2, 0}));
  EXPECT_EQ(boxPoints(2, 1).front(), (Offset{-1, -1, 0}));
  EXPECT_EQ(boxPoints(3, 1).back(), (Offset{1, 1, 1}));
}

TEST(PointSetOpsTest, SortUnique) {
  std::vector<Offset> points{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 1}};
  sortUnique(points);
  EXPECT_EQ(points, (std::vector<Offset>{{1, 0, 0}, {0, 1, 0}, {-1, 0, 1}, {0, 0, 1}}));
}

TEST(PointSetOpsTest, GroupOrders) {
  EXPECT_EQ(SymmetryGroup(3).order(), 1u);
  EXPECT_EQ(SymmetryGroup(makeSymmetry({}), 3).order(), 1u);
  EXPECT_EQ(SymmetryGroup(makeSymmetry({reflect(0)}), 3).order(), 2u);
  EXPECT_EQ(SymmetryGroup(makeSymmetry({swapAxes(0, 1), swapAxes(1, 2)}), 3).order(), 6u);
  EXPECT_EQ(SymmetryGroup(verticalAxisSymmetry(), 3).order(), 16u);
  // Reflecting x and swapping x, y already yields all four sign choices.
  EXPECT_EQ(SymmetryGroup(makeSymmetry({reflect(0), swapAxes(0, 1)}), 2).order(), 8u);
  const Symmetry cubic =
      makeSymmetry({reflect(0), reflect(1), reflect(2), swapAxes(0, 1), swapAxes(1, 2)});
  EXPECT_EQ(SymmetryGroup(cubic, 3).order(), 48u);
  // A generator naming z does not act on a 2D grid.
  EXPECT_EQ(SymmetryGroup(makeSymmetry({reflect(0), reflect(2)}), 2).order(), 2u);
}

TEST(PointSetOpsTest, Orbits) {
  const SymmetryGroup group(verticalAxisSymmetry(), 3);
  EXPECT_EQ(group.orbit({0, 0, 0}), (std::vector<Offset>{{0, 0, 0}}));
  EXPECT_EQ(group.orbit({1, 0, 0}),
            (std::vector<Offset>{{0, -1, 0}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  EXPECT_EQ(group.orbit({0, 0, 2}), (std::vector<Offset>{{0, 0, -2}, {0, 0, 2}}));
  const std::vector<Offset> general = group.orbit({1, 2, 3});
  EXPECT_EQ(general.size(), 16u);
  EXPECT_TRUE(isSortedUnique(general));
  EXPECT_TRUE(contains(general, Offset{-2, 1, -3}));
  EXPECT_FALSE(contains(general, Offset{1, 3, 2}));
  EXPECT_EQ(SymmetryGroup(3).orbit({1, 2, 3}), (std::vector<Offset>{{1, 2, 3}}));
}

TEST(PointSetOpsTest, ClosureAndMissingImages) {
  const SymmetryGroup group(verticalAxisSymmetry(), 3);
  const std::vector<Offset> seed{{0, 0, 0}, {1, 0, 0}};
  EXPECT_EQ(firstMissingImage(seed, group), (Offset{1, 0, 0}));
  const std::vector<Offset> closed = closure(seed, group);
  EXPECT_EQ(closed.size(), 5u);
  EXPECT_TRUE(isSortedUnique(closed));
  EXPECT_EQ(firstMissingImage(closed, group), std::nullopt);

  // The first point in sorted order that lacks an image is reported.
  std::vector<Offset> partial = unite(axesPoints(3, 2), {{0, 1, 1}, {1, 1, 0}});
  EXPECT_EQ(firstMissingImage(partial, group), (Offset{1, 1, 0}));
  EXPECT_EQ(closure(partial, group).size(), 13u + 4u + 8u);

  EXPECT_EQ(firstMissingImage(axesPoints(3, 4), group), std::nullopt);
  EXPECT_EQ(firstMissingImage(boxPoints(3, 2), group), std::nullopt);
}

/// Checks the class numbering contract: classes appear in order of their
/// first point, and two points share a class exactly when one is an image of
/// the other.
void expectOrbitNumbering(const std::vector<Offset> &points, const SymmetryGroup &group,
                          const std::vector<int> &classOf, int numClasses) {
  ASSERT_EQ(classOf.size(), points.size());
  int nextNew = 0;
  for (int c : classOf) {
    ASSERT_LE(c, nextNew);
    if (c == nextNew)
      ++nextNew;
  }
  EXPECT_EQ(nextNew, numClasses);
  for (size_t i = 0; i < points.size(); ++i) {
    const std::vector<Offset> images = group.orbit(points[i]);
    for (size_t j = 0; j < points.size(); ++j)
      EXPECT_EQ(classOf[i] == classOf[j], contains(images, points[j]));
  }
}

TEST(PointSetOpsTest, Ete37Classes) {
  const SymmetryGroup group(verticalAxisSymmetry(), 3);
  const std::vector<Offset> points = unite(axesPoints(3, 4), diagonalPoints(3, 1));
  ASSERT_EQ(points.size(), 37u);
  ASSERT_EQ(firstMissingImage(points, group), std::nullopt);
  std::vector<int> classOf;
  // Centre; per radius 1..4 the x/y-axis points and the z-axis points;
  // the xy-plane diagonals and the xz/yz diagonals.
  const int numClasses = orbitClasses(points, group, classOf);
  EXPECT_EQ(numClasses, 1 + 2 * 4 + 2);
  expectOrbitNumbering(points, group, classOf, numClasses);

  auto classAt = [&](const Offset &o) {
    auto it = std::find(points.begin(), points.end(), o);
    EXPECT_NE(it, points.end());
    return classOf[size_t(it - points.begin())];
  };
  EXPECT_EQ(classAt({0, 0, -4}), 0); // first in sorted order
  EXPECT_EQ(classAt({1, 0, 0}), classAt({0, -1, 0}));
  EXPECT_NE(classAt({1, 0, 0}), classAt({0, 0, 1}));
  EXPECT_NE(classAt({1, 0, 0}), classAt({2, 0, 0}));
  EXPECT_EQ(classAt({1, 0, 1}), classAt({0, 1, -1}));
  EXPECT_NE(classAt({1, 1, 0}), classAt({1, 0, 1}));
}

TEST(PointSetOpsTest, Ete73Classes) {
  const SymmetryGroup group(verticalAxisSymmetry(), 3);
  const std::vector<Offset> points = unite(axesPoints(3, 4), diagonalPoints(3, 4));
  ASSERT_EQ(points.size(), 73u);
  std::vector<int> classOf;
  const int numClasses = orbitClasses(points, group, classOf);
  EXPECT_EQ(numClasses, 1 + 8 + 8);
  expectOrbitNumbering(points, group, classOf, numClasses);
}

TEST(PointSetOpsTest, ClassesWithoutSymmetry) {
  const std::vector<Offset> points = boxPoints(2, 1);
  std::vector<int> classOf;
  EXPECT_EQ(orbitClasses(points, SymmetryGroup(2), classOf), 9);
  for (size_t i = 0; i < points.size(); ++i)
    EXPECT_EQ(classOf[i], int(i));
}

TEST(PointSetOpsTest, ClassesOfOpenSetThrow) {
  const SymmetryGroup group(verticalAxisSymmetry(), 3);
  std::vector<int> classOf;
  EXPECT_THROW(orbitClasses({{0, 0, 0}, {1, 0, 0}}, group, classOf), std::invalid_argument);
}

} // namespace
