//===- IndexPolynomialTest.cpp - Subscripts as polynomials (lift) ----------===//
#include "tooling/IndexPolynomial.h"

#include <gtest/gtest.h>

using stencilc::tooling::decomposeOffset;
using stencilc::tooling::IndexPolynomial;

namespace {

IndexPolynomial sym(const char *name) { return IndexPolynomial::symbol(name); }
IndexPolynomial num(std::int64_t value) { return IndexPolynomial::constant(value); }

TEST(IndexPolynomialTest, ExpandsAndCollectsTerms) {
  // i + nx*(j + ny*k) - nx*j == i + nx*ny*k
  IndexPolynomial p =
      sym("i") + sym("nx") * (sym("j") + sym("ny") * sym("k")) - sym("nx") * sym("j");
  EXPECT_EQ(p.str(), "k * nx * ny + i");
  EXPECT_EQ((sym("a") - sym("a")).str(), "0");
  EXPECT_EQ((num(3) - sym("n").scaled(2)).str(), "-2 * n + 3");
  EXPECT_EQ(*(num(6) * num(7)).constantValue(), 42);
  EXPECT_FALSE(sym("n").constantValue());
}

TEST(IndexPolynomialTest, SplitsOffTheStrideOfACounter) {
  IndexPolynomial address =
      sym("i") + sym("line") * sym("j") + sym("slice") * sym("k") + sym("line").scaled(-2) + num(1);
  IndexPolynomial rest;
  auto strideJ = address.linearCoefficient("j", rest);
  ASSERT_TRUE(strideJ);
  EXPECT_EQ(strideJ->str(), "line");
  EXPECT_FALSE(rest.mentions("j"));
  // i*i is not linear in i.
  EXPECT_FALSE((sym("i") * sym("i")).linearCoefficient("i", rest));
}

TEST(IndexPolynomialTest, DecomposesSymbolicStrides) {
  // pos + 1 - line + 2*slice with strides (1, line, slice) -> (1, -1, 2).
  IndexPolynomial base = num(1) - sym("line") + sym("slice").scaled(2);
  auto offset = decomposeOffset(base, {sym("slice"), sym("line")});
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset, (std::vector<std::int64_t>{1, -1, 2}));
  // nx*ny for z, nx for y: -nx*ny + 3*nx - 4 -> (-4, 3, -1).
  offset = decomposeOffset(sym("nx") * sym("ny").scaled(-1) + sym("nx").scaled(3) + num(-4),
                           {sym("nx") * sym("ny"), sym("nx")});
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset, (std::vector<std::int64_t>{-4, 3, -1}));
}

TEST(IndexPolynomialTest, DecomposesConstantStridesToTheNearestPoint) {
  // float a[NZ][66][66]: a[k-1][j+2][i-3] is -1*4356 + 2*66 - 3 from a[k][j][i].
  auto offset = decomposeOffset(num(-4356 + 132 - 3), {num(4356), num(66)});
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset, (std::vector<std::int64_t>{-3, 2, -1}));
  // 2D: one outer stride.
  offset = decomposeOffset(num(67 + 1), {num(67)});
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset, (std::vector<std::int64_t>{1, 1}));
}

TEST(IndexPolynomialTest, RefusesWhatIsNotAnOffset) {
  // A symbol that is no stride (n) is left over.
  EXPECT_FALSE(decomposeOffset(sym("n"), {sym("slice"), sym("line")}));
  // Half a line is no whole number of lines.
  EXPECT_FALSE(decomposeOffset(sym("line") * sym("w"), {sym("line").scaled(2) * sym("w")}));
}

} // namespace
