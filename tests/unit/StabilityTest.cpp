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

TEST(Stability, TimeStepQuantityScalesTheNeighbourReads) {
  // acoustic8: damp scales every term, c2 only the Laplacian's: c2 is the quantity.
  stencilc::testing::CompiledExample acoustic = stencilc::testing::compileText(kAcoustic8);
  const analysis::TimeStepLimit a =
      analysis::stableTimeStep(*acoustic.only().stencil, acoustic.only().linear, 0);
  EXPECT_EQ(a.quantity, "c2");
  EXPECT_EQ(a.heldAt1, std::vector<std::string>{"damp"});
  ASSERT_TRUE(a.limit.value) << a.limit.why;
  EXPECT_NEAR(std::sqrt(*a.limit.value), 0.4529, 5e-4);
  // heat2d: alpha, dt and h all scale the neighbours; dt is preferred, and
  // forward Euler in 2D is stable for alpha dt / h^2 <= 1/4.
  stencilc::testing::CompiledExample heat = stencilc::testing::compileExample("heat2d");
  const analysis::TimeStepLimit h =
      analysis::stableTimeStep(*heat.only().stencil, heat.only().linear, 0);
  EXPECT_EQ(h.quantity, "dt");
  EXPECT_EQ(h.heldAt1, (std::vector<std::string>{"alpha", "h"}));
  ASSERT_TRUE(h.limit.value) << h.limit.why;
  EXPECT_NEAR(*h.limit.value, 0.25, 1e-6);
  // A table coefficient has no limit the compiler can compute.
  stencilc::testing::CompiledExample ete = stencilc::testing::compileExample("ete37");
  const analysis::TimeStepLimit e =
      analysis::stableTimeStep(*ete.only().stencil, ete.only().linear, 0);
  EXPECT_TRUE(e.quantity.empty());
  EXPECT_FALSE(e.limit.value);
  EXPECT_NE(e.limit.why.find("table coefficient"), std::string::npos) << e.limit.why;
}

} // namespace

TEST(Stability, AClampedCoefficientIsEvaluatedAtTheGivenValues) {
  // c2 clamped to cmax (docs/DSL.md "Choices"): a per-point coefficient like c2 itself.
  std::string clamped = kAcoustic8;
  clamped.replace(clamped.find("field damp   : in;"), 18, "field damp : in;\n  scalar cmax;");
  clamped.replace(clamped.find("c2 * laplacian(u)"), 17, "min(c2, cmax) * laplacian(u)");
  stencilc::testing::CompiledExample plain = stencilc::testing::compileText(kAcoustic8);
  stencilc::testing::CompiledExample clamp = stencilc::testing::compileText(clamped);
  ASSERT_FALSE(clamp.compiled.empty());
  const CompiledStencil &p = plain.only(), &c = clamp.only();
  const analysis::StableLimit free =
      analysis::largestStableValue(*p.stencil, p.linear, 0, "c2", {{"damp", 1.0}});
  ASSERT_TRUE(free.value) << free.why;
  // With the clamp above the limit, c2 = cmax is the limit again ...
  const analysis::StableLimit loose =
      analysis::largestStableValue(*c.stencil, c.linear, 0, "cmax", {{"damp", 1.0}, {"c2", 100}});
  ASSERT_TRUE(loose.value) << loose.why;
  EXPECT_NEAR(*loose.value, *free.value, 1e-5 * *free.value);
  // ... and under it, any cmax is stable: the step's coefficient is c2 = 0.5 limit.
  const analysis::StableLimit held = analysis::largestStableValue(
      *c.stencil, c.linear, 0, "cmax", {{"damp", 1.0}, {"c2", 0.5 * *free.value}});
  EXPECT_TRUE(!held.value || *held.value > 10 * *free.value) << held.why;
}
