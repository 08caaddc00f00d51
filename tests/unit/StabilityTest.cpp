//===- StabilityTest.cpp - Von Neumann limits of leapfrog updates ---------===//
#include "analysis/Stability.h"

#include "PlanTestSupport.h"
#include "math/FiniteDifference.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace stencilc;

namespace {

/// The wave example's 8th-order acoustic step, u_next = damp (2u - u_prev + c2 lap(u)).
const char *kAcoustic8 = R"(stencil acoustic8 {
  grid 3d;
  type float;
  order 8;
  field u_prev : time;
  field u      : time;
  field u_next : out advances u overwrites u_prev;
  field c2     : in;
  field damp   : in;
  u_next = damp * (2 * u - u_prev + c2 * laplacian(u));
})";

TEST(Stability, LeapfrogLimitIsFourOverTheLaplaciansLargestSymbol) {
  stencilc::testing::CompiledExample compiled = stencilc::testing::compileText(kAcoustic8);
  ASSERT_FALSE(compiled.compiled.empty());
  const CompiledStencil &c = compiled.only();
  analysis::StableLimit limit =
      analysis::largestStableValue(*c.stencil, c.linear, 0, "c2", {{"damp", 1.0}});
  ASSERT_TRUE(limit.value) << limit.why;
  // Independently: the 1D second-derivative symbol at theta = pi is
  // w0 + 2 sum_k w_k (-1)^k; three axes add; |2 + c2 lambda| <= 2 gives c2 <= 4 / |lambda|.
  const std::vector<Rational> w = centralWeights(2, 8);
  double lambda = w[4].toDouble();
  for (int k = 1; k <= 4; ++k)
    lambda += 2 * w[4 + k].toDouble() * (k % 2 ? -1 : 1);
  const double expected = 4 / (3 * std::abs(lambda));
  EXPECT_NEAR(*limit.value, expected, 1e-5 * expected);
  // The Courant number: 0.45 in 3D for the 8th-order leapfrog.
  EXPECT_NEAR(std::sqrt(*limit.value), 0.4529, 5e-4);
  // A damped step (damp < 1) is stable a little further.
  analysis::StableLimit damped =
      analysis::largestStableValue(*c.stencil, c.linear, 0, "c2", {{"damp", 0.9}});
  ASSERT_TRUE(damped.value);
  EXPECT_GT(*damped.value, *limit.value);
}

TEST(Stability, SaysWhyThereIsNoLimit) {
  stencilc::testing::CompiledExample compiled = stencilc::testing::compileExample("ete37");
  ASSERT_FALSE(compiled.compiled.empty());
  const CompiledStencil &c = compiled.only();
  analysis::StableLimit limit = analysis::largestStableValue(*c.stencil, c.linear, 0, "damp");
  EXPECT_FALSE(limit.value);
  EXPECT_NE(limit.why.find("table coefficient"), std::string::npos) << limit.why;
}

} // namespace
