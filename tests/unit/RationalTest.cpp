//===- RationalTest.cpp - Exact rational arithmetic ------------------------===//
#include "support/Rational.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

using stencilc::Rational;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(RationalTest, ConstructionReducesWithPositiveDenominator) {
  Rational r(6, -4);
  EXPECT_EQ(r.num(), -3);
  EXPECT_EQ(r.den(), 2);
  EXPECT_EQ(Rational(0, -7), Rational(0));
  EXPECT_EQ(Rational(0, -7).den(), 1);
  EXPECT_EQ(Rational(-10, -5), Rational(2));
  EXPECT_TRUE(Rational(4, 2).isInteger());
  EXPECT_FALSE(Rational(1, 2).isInteger());
  EXPECT_TRUE(Rational().isZero());
  EXPECT_DOUBLE_EQ(Rational(-8, 5).toDouble(), -1.6);
}

TEST(RationalTest, Str) {
  EXPECT_EQ(Rational(3).str(), "3");
  EXPECT_EQ(Rational(-8, 5).str(), "-8/5");
  EXPECT_EQ(Rational(16, -10).str(), "-8/5");
  EXPECT_EQ(Rational(0, 9).str(), "0");
}

TEST(RationalTest, Arithmetic) {
  EXPECT_EQ(Rational(1, 2) + Rational(1, 3), Rational(5, 6));
  EXPECT_EQ(Rational(1, 2) - Rational(1, 3), Rational(1, 6));
  EXPECT_EQ(Rational(1, 6) - Rational(1, 2), Rational(-1, 3));
  EXPECT_EQ(Rational(2, 3) * Rational(9, 4), Rational(3, 2));
  EXPECT_EQ(Rational(2, 3) / Rational(-4, 9), Rational(-3, 2));
  EXPECT_EQ(-Rational(5, 7), Rational(-5, 7));
  EXPECT_EQ(Rational(1, 4) + Rational(3, 4), Rational(1));

  Rational acc(1);
  acc += Rational(1, 2);
  acc *= Rational(4);
  acc -= Rational(1);
  acc /= Rational(10);
  EXPECT_EQ(acc, Rational(1, 2));
}

TEST(RationalTest, Ordering) {
  EXPECT_LT(Rational(1, 3), Rational(1, 2));
  EXPECT_LT(Rational(-1, 2), Rational(-1, 3));
  EXPECT_FALSE(Rational(2, 4) < Rational(1, 2));
  EXPECT_NE(Rational(1, 3), Rational(1, 2));
  // Cross products beyond 64 bits still compare correctly.
  EXPECT_LT(Rational(kMax - 1, kMax), Rational(kMax, kMax - 1));
  EXPECT_LT(Rational(kMin), Rational(kMax));
}

TEST(RationalTest, WideIntermediatesThatReduceDoNotOverflow) {
  // kMax * kMax needs 126 bits, but the reduced result is small.
  EXPECT_EQ(Rational(kMax, 3) * Rational(3, kMax), Rational(1));
  EXPECT_EQ(Rational(1, kMax) + Rational(kMax - 1, kMax), Rational(1));
  EXPECT_EQ(Rational(kMax) / Rational(kMax), Rational(1));
  EXPECT_EQ(Rational(kMin) + Rational(kMax), Rational(-1));
  EXPECT_EQ(Rational(kMin, 2).num(), kMin / 2);
}

TEST(RationalTest, OverflowThrows) {
  EXPECT_THROW(Rational(kMax) + Rational(1), std::overflow_error);
  EXPECT_THROW(Rational(kMin) - Rational(1), std::overflow_error);
  EXPECT_THROW(Rational(kMax) * Rational(2), std::overflow_error);
  EXPECT_THROW(Rational(1, kMax) * Rational(1, 2), std::overflow_error);
  EXPECT_THROW(Rational(1, kMax) + Rational(1, kMax - 1), std::overflow_error);
  EXPECT_THROW(-Rational(kMin), std::overflow_error);
  EXPECT_THROW(Rational(kMin, -1), std::overflow_error);
  EXPECT_THROW(Rational(1, kMin), std::overflow_error);
  EXPECT_THROW(Rational(1) / Rational(1, kMin + 1) / Rational(-1, 2), std::overflow_error);
}

TEST(RationalTest, DivisionByZeroThrows) {
  EXPECT_THROW(Rational(1, 0), std::domain_error);
  EXPECT_THROW(Rational(1) / Rational(0), std::domain_error);
  Rational r(3);
  EXPECT_THROW(r /= Rational(0, 5), std::domain_error);
}

} // namespace
