//===- SpongeTest.cpp - The wave examples' sponge factors, face by face ---===//
#include "Model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

const stencilc::rt::GridShape kShape{3, 20, 14, 24, 4};

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(Sponge, EqualWidthsGiveTheSingleWidthFactorsBitForBit) {
  const auto single = wave::spongeDamping(kShape, 5, 0.4);
  const auto faces = wave::spongeDamping(kShape, wave::SpongeWidths{5, 5, 5, 5}, 0.4);
  int differing = 0;
  single.forEachPointWithHalo(
      [&](int i, int j, int k) { differing += !sameBits(single(i, j, k), faces(i, j, k)); });
  EXPECT_EQ(differing, 0);
}

TEST(Sponge, EachFaceHasItsOwnWidth) {
  const wave::SpongeWidths widths{6, 0, 8, 3};
  const auto g = wave::spongeDamping(kShape, widths, 0.3);
  const int i = kShape.nx / 2, j = kShape.ny / 2, k = kShape.nz / 2;
  auto factor = [](int d, int w) {
    const double a = 0.3 * double(w - d) / w;
    return float(std::exp(-a * a));
  };
  EXPECT_EQ(g(i, j, k), 1.0f);
  // y faces: no sponge at all, up to the face and in the halo.
  EXPECT_EQ(g(i, 0, k), 1.0f);
  EXPECT_EQ(g(i, kShape.ny - 1, k), 1.0f);
  EXPECT_EQ(g(i, -2, k), 1.0f);
  // x faces: 6 points, the halo keeping the edge value.
  EXPECT_FLOAT_EQ(g(0, j, k), factor(0, 6));
  EXPECT_FLOAT_EQ(g(kShape.nx - 3, j, k), factor(2, 6));
  EXPECT_EQ(g(6, j, k), 1.0f);
  EXPECT_FLOAT_EQ(g(-3, j, k), g(0, j, k));
  // top 8 points, bottom 3.
  EXPECT_FLOAT_EQ(g(i, j, 7), factor(7, 8));
  EXPECT_EQ(g(i, j, 8), 1.0f);
  EXPECT_FLOAT_EQ(g(i, j, kShape.nz - 1), factor(0, 3));
  EXPECT_EQ(g(i, j, kShape.nz - 4), 1.0f);
  // a corner takes the stronger of its faces.
  EXPECT_FLOAT_EQ(g(1, j, 0), factor(0, 8));
}

} // namespace
