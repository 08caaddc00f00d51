//===- FiniteDifferenceTest.cpp - Exact finite-difference weights ---------===//
//
// Known textbook coefficients, the moment conditions that define the
// weights, and exactness of every derivative kind on polynomials up to the
// degree its accuracy order promises (and inexactness one degree above).
//
//===----------------------------------------------------------------------===//
#include "math/FiniteDifference.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace stencilc;
using ir::DerivKind;
using ir::Offset;

namespace {

std::vector<Rational> rationals(std::initializer_list<Rational> values) { return values; }

TEST(FiniteDifferenceTest, KnownCentralWeights) {
  EXPECT_EQ(centralWeights(2, 2), rationals({1, -2, 1}));
  EXPECT_EQ(centralWeights(1, 2), rationals({Rational(-1, 2), 0, Rational(1, 2)}));
  EXPECT_EQ(centralWeights(2, 4), rationals({Rational(-1, 12), Rational(4, 3), Rational(-5, 2),
                                             Rational(4, 3), Rational(-1, 12)}));
  EXPECT_EQ(centralWeights(2, 8),
            rationals({Rational(-1, 560), Rational(8, 315), Rational(-1, 5), Rational(8, 5),
                       Rational(-205, 72), Rational(8, 5), Rational(-1, 5), Rational(8, 315),
                       Rational(-1, 560)}));
  EXPECT_EQ(centralWeights(1, 8),
            rationals({Rational(1, 280), Rational(-4, 105), Rational(1, 5), Rational(-4, 5), 0,
                       Rational(4, 5), Rational(-1, 5), Rational(4, 105), Rational(-1, 280)}));
}

TEST(FiniteDifferenceTest, FornbergOnUnevenNodes) {
  // One-sided first derivative on 0, 1, 2.
  EXPECT_EQ(fornbergWeights(1, rationals({0, 1, 2})),
            rationals({Rational(-3, 2), 2, Rational(-1, 2)}));
  // Interpolation (derivative 0) at a node is that node's value.
  EXPECT_EQ(fornbergWeights(0, rationals({2, 0, -1})), rationals({0, 1, 0}));
  // Second derivative on -1, 0, 1/2: exact for quadratics.
  std::vector<Rational> nodes = rationals({-1, 0, Rational(1, 2)});
  std::vector<Rational> w = fornbergWeights(2, nodes);
  Rational onSquare = 0;
  for (size_t i = 0; i < nodes.size(); ++i)
    onSquare += w[i] * nodes[i] * nodes[i];
  EXPECT_EQ(onSquare, Rational(2));
  EXPECT_EQ(w, rationals({Rational(4, 3), -4, Rational(8, 3)}));
}

TEST(FiniteDifferenceTest, InvalidArgumentsThrow) {
  EXPECT_THROW(centralWeights(3, 4), std::invalid_argument);
  EXPECT_THROW(centralWeights(2, 3), std::invalid_argument);
  EXPECT_THROW(centralWeights(1, 0), std::invalid_argument);
  EXPECT_THROW(fornbergWeights(2, rationals({0, 1})), std::invalid_argument);
  EXPECT_THROW(fornbergWeights(1, rationals({0, 1, 1})), std::invalid_argument);
}

/// sum_k w_k k^m for the central weights w on -r..r.
Rational moment(const std::vector<Rational> &w, int m) {
  const int r = int(w.size() / 2);
  Rational sum = 0;
  for (int k = -r; k <= r; ++k) {
    Rational power = 1;
    for (int i = 0; i < m; ++i)
      power *= k;
    sum += w[size_t(k + r)] * power;
  }
  return sum;
}

Rational factorial(int m) { return m <= 1 ? Rational(1) : Rational(m) * factorial(m - 1); }

TEST(FiniteDifferenceTest, MomentConditionsUpToOrder16) {
  for (int derivative : {1, 2}) {
    for (int order = 2; order <= 16; order += 2) {
      SCOPED_TRACE("derivative " + std::to_string(derivative) + " order " + std::to_string(order));
      const std::vector<Rational> w = centralWeights(derivative, order);
      ASSERT_EQ(w.size(), size_t(order + 1));
      EXPECT_EQ(moment(w, 0), Rational(0));
      const int exactUpTo = order + derivative - 1;
      for (int m = 0; m <= exactUpTo; ++m)
        EXPECT_EQ(moment(w, m), m == derivative ? factorial(m) : Rational(0)) << "m = " << m;
      // The first moment past the promised accuracy is the error term.
      EXPECT_NE(moment(w, exactUpTo + 1), Rational(0));
    }
  }
}

/// The closed form of the central weight of node k != 0 on -r..r:
///   (r!)^2 / ((r-k)! (r+k)!) * (-1)^(k+1) * {1/k, 2/k^2} for derivative {1, 2}.
Rational closedFormWeight(int derivative, int r, int k) {
  const int magnitude = k < 0 ? -k : k;
  Rational w = 1;
  for (int i = 0; i < magnitude; ++i)
    w *= Rational(r - i, r + 1 + i);
  w *= magnitude % 2 == 1 ? Rational(1) : Rational(-1);
  if (derivative == 1)
    return w / Rational(k);
  return Rational(2) * w / Rational(k * k);
}

TEST(FiniteDifferenceTest, MatchesClosedFormUpToOrder32) {
  for (int derivative : {1, 2}) {
    for (int order = 2; order <= 32; order += 2) {
      SCOPED_TRACE("derivative " + std::to_string(derivative) + " order " + std::to_string(order));
      const int r = order / 2;
      const std::vector<Rational> w = centralWeights(derivative, order);
      ASSERT_EQ(w.size(), size_t(order + 1));
      Rational offCentre = 0;
      for (int k = 1; k <= r; ++k) {
        EXPECT_EQ(w[size_t(r + k)], closedFormWeight(derivative, r, k)) << "k = " << k;
        EXPECT_EQ(w[size_t(r - k)], closedFormWeight(derivative, r, -k)) << "k = " << -k;
        // Pairs first: the sum of one side alone needs more than 64 bits.
        offCentre += w[size_t(r + k)] + w[size_t(r - k)];
      }
      // The weights sum to zero, which fixes the centre.
      EXPECT_EQ(w[size_t(r)], -offCentre);
    }
  }
  EXPECT_EQ(centralWeights(2, 32)[16], Rational(-822968714749, 259718659200));
}

TEST(FiniteDifferenceTest, UnrepresentableWeightsThrowOverflow) {
  // The outermost first-derivative weight of order 100 is 1/(50 C(100, 50)),
  // whose denominator needs about 102 bits.
  EXPECT_THROW(centralWeights(1, 100), std::overflow_error);
}

//===----------------------------------------------------------------------===//
// Exactness of expandDerivative on monomials x^a y^b z^c.
//
// Values such as 11^18 times the weights' common denominator need more than
// 64 bits, so the check scales the weights to integers and sums in checked
// 128-bit arithmetic: still exact, and any overflow fails the test.
//===----------------------------------------------------------------------===//

using Wide = __int128;

Wide checkedMul(Wide a, Wide b) {
  Wide result;
  if (__builtin_mul_overflow(a, b, &result))
    throw std::overflow_error("test arithmetic overflow");
  return result;
}

Wide checkedAdd(Wide a, Wide b) {
  Wide result;
  if (__builtin_add_overflow(a, b, &result))
    throw std::overflow_error("test arithmetic overflow");
  return result;
}

using Exponents = std::array<int, 3>;

/// coefficient * x^e[0] y^e[1] z^e[2] at `point`.
Wide evalMonomial(Wide coefficient, const Exponents &e, const Offset &point) {
  Wide value = coefficient;
  for (size_t axis = 0; axis < 3; ++axis)
    for (int i = 0; i < e[axis]; ++i)
      value = checkedMul(value, point[axis]);
  return value;
}

/// The partial derivatives (counts per axis) a kind sums, e.g. {2,0,0} + {0,2,0}.
std::vector<Exponents> partials(DerivKind kind, int dims) {
  switch (kind) {
  case DerivKind::Dx: return {{1, 0, 0}};
  case DerivKind::Dy: return {{0, 1, 0}};
  case DerivKind::Dz: return {{0, 0, 1}};
  case DerivKind::Dxx: return {{2, 0, 0}};
  case DerivKind::Dyy: return {{0, 2, 0}};
  case DerivKind::Dzz: return {{0, 0, 2}};
  case DerivKind::Dxy: return {{1, 1, 0}};
  case DerivKind::Dxz: return {{1, 0, 1}};
  case DerivKind::Dyz: return {{0, 1, 1}};
  case DerivKind::Laplacian:
    if (dims == 2)
      return {{2, 0, 0}, {0, 2, 0}};
    return {{2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
  }
  return {};
}

/// The exact derivative of the monomial at `point`.
Wide exactDerivative(DerivKind kind, int dims, const Exponents &e, const Offset &point) {
  Wide total = 0;
  for (const Exponents &d : partials(kind, dims)) {
    Wide coefficient = 1;
    Exponents reduced = e;
    for (size_t axis = 0; axis < 3; ++axis)
      for (int i = 0; i < d[axis]; ++i)
        coefficient *= reduced[axis]--; // becomes 0 once the exponent runs out
    if (coefficient != 0)
      total = checkedAdd(total, evalMonomial(coefficient, reduced, point));
  }
  return total;
}

Wide gcd(Wide a, Wide b) { return b == 0 ? a : gcd(b, a % b); }

/// Whether the stencil reproduces the derivative of the monomial at `point` exactly.
bool isExact(const std::vector<WeightedOffset> &stencil, DerivKind kind, int dims,
             const Exponents &e, const Offset &point) {
  Wide commonDen = 1;
  for (const WeightedOffset &p : stencil)
    commonDen = checkedMul(commonDen / gcd(commonDen, p.weight.den()), p.weight.den());
  Wide approx = 0;
  for (const WeightedOffset &p : stencil) {
    const Offset at{point[0] + p.offset[0], point[1] + p.offset[1], point[2] + p.offset[2]};
    const Wide scaledWeight = p.weight.num() * (commonDen / p.weight.den());
    approx = checkedAdd(approx, checkedMul(scaledWeight, evalMonomial(1, e, at)));
  }
  return approx == checkedMul(commonDen, exactDerivative(kind, dims, e, point));
}

/// All exponent triples of total degree `degree` (z = 0 in 2D).
std::vector<Exponents> monomialsOfDegree(int degree, int dims) {
  std::vector<Exponents> result;
  for (int c = 0; c <= (dims == 3 ? degree : 0); ++c)
    for (int b = 0; b + c <= degree; ++b)
      result.push_back({degree - b - c, b, c});
  return result;
}

/// Highest total degree a kind of the given accuracy order differentiates exactly:
/// p for first derivatives, p + 1 for the symmetric second-derivative stencils.
int exactDegree(DerivKind kind, int order) {
  const bool first = kind == DerivKind::Dx || kind == DerivKind::Dy || kind == DerivKind::Dz;
  return first ? order : order + 1;
}

TEST(FiniteDifferenceTest, ExpansionsAreExactUpToTheirDegree) {
  const Offset point{2, -1, 3};
  const DerivKind kinds[] = {DerivKind::Dx,  DerivKind::Dy,       DerivKind::Dz,  DerivKind::Dxx,
                             DerivKind::Dyy, DerivKind::Dzz,      DerivKind::Dxy, DerivKind::Dxz,
                             DerivKind::Dyz, DerivKind::Laplacian};
  for (int dims : {2, 3}) {
    for (DerivKind kind : kinds) {
      if (derivativeMaxAxis(kind) >= dims)
        continue;
      for (int order = 2; order <= 16; order += 2) {
        SCOPED_TRACE(std::string(ir::derivKindName(kind)) + " order " + std::to_string(order) +
                     " dims " + std::to_string(dims));
        const std::vector<WeightedOffset> stencil = expandDerivative(kind, order, dims);
        const int degree = exactDegree(kind, order);
        for (int d = 0; d <= degree; ++d)
          for (const Exponents &e : monomialsOfDegree(d, dims))
            EXPECT_TRUE(isExact(stencil, kind, dims, e, point))
                << "x^" << e[0] << " y^" << e[1] << " z^" << e[2];
        // One degree higher some monomial must fail, or the bound is not tight.
        int inexact = 0;
        for (const Exponents &e : monomialsOfDegree(degree + 1, dims))
          inexact += !isExact(stencil, kind, dims, e, point);
        EXPECT_GT(inexact, 0);
      }
    }
  }
}

TEST(FiniteDifferenceTest, ExpansionShape) {
  EXPECT_EQ(expandDerivative(DerivKind::Laplacian, 8, 3).size(), 25u);
  EXPECT_EQ(expandDerivative(DerivKind::Laplacian, 8, 2).size(), 17u);
  EXPECT_EQ(expandDerivative(DerivKind::Dxy, 4, 3).size(), 8u);
  EXPECT_EQ(expandDerivative(DerivKind::Dyz, 16, 3).size(), 32u);
  // The zero centre weight of a first derivative is dropped.
  EXPECT_EQ(expandDerivative(DerivKind::Dx, 8, 3).size(), 8u);

  for (DerivKind kind : {DerivKind::Dz, DerivKind::Laplacian, DerivKind::Dxz}) {
    const std::vector<WeightedOffset> stencil = expandDerivative(kind, 6, 3);
    for (size_t i = 1; i < stencil.size(); ++i)
      EXPECT_TRUE(ir::offsetLess(stencil[i - 1].offset, stencil[i].offset));
    for (const WeightedOffset &p : stencil)
      EXPECT_FALSE(p.weight.isZero());
  }

  // The laplacian's merged centre: three times the 1D centre weight.
  const std::vector<WeightedOffset> lap = expandDerivative(DerivKind::Laplacian, 2, 3);
  ASSERT_EQ(lap.size(), 7u);
  EXPECT_EQ(lap[3].offset, (Offset{0, 0, 0}));
  EXPECT_EQ(lap[3].weight, Rational(-6));

  // d2/dxdy of order 2: the four corners with weight +-1/4.
  const std::vector<WeightedOffset> cross = expandDerivative(DerivKind::Dxy, 2, 2);
  ASSERT_EQ(cross.size(), 4u);
  EXPECT_EQ(cross[0].offset, (Offset{-1, -1, 0}));
  EXPECT_EQ(cross[0].weight, Rational(1, 4));
  EXPECT_EQ(cross[1].offset, (Offset{1, -1, 0}));
  EXPECT_EQ(cross[1].weight, Rational(-1, 4));
}

TEST(FiniteDifferenceTest, AxesAndDims) {
  EXPECT_EQ(derivativeMaxAxis(DerivKind::Dxx), 0);
  EXPECT_EQ(derivativeMaxAxis(DerivKind::Dxy), 1);
  EXPECT_EQ(derivativeMaxAxis(DerivKind::Dyz), 2);
  EXPECT_EQ(derivativeMaxAxis(DerivKind::Laplacian), 1);
  EXPECT_THROW(expandDerivative(DerivKind::Dzz, 4, 2), std::invalid_argument);
  EXPECT_THROW(expandDerivative(DerivKind::Dxz, 4, 2), std::invalid_argument);
  for (const WeightedOffset &p : expandDerivative(DerivKind::Laplacian, 4, 2))
    EXPECT_EQ(p.offset[2], 0);
}

} // namespace
