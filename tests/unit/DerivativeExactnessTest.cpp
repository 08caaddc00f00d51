//===- DerivativeExactnessTest.cpp - Derivative sugar is exact where it must be -===//
//
// A central difference of accuracy order p differentiates polynomials up to
// a known degree exactly: first derivatives up to degree p, second and cross
// derivatives (and so the Laplacian) up to degree p + 1. This test writes
// each derivative in the DSL, fills the input with a random polynomial of
// that degree, runs the reference evaluator and compares with the analytic
// derivative. A negative control with one degree more shows the comparison
// is sharp enough to notice when exactness is lost.
//
// Coordinates are centred on the interior (the points are at +-0.5) and the
// monomials are Taylor-scaled (x^a / a!), so values stay moderate even at
// degree 17 and 8 points into the halo.
//
//===----------------------------------------------------------------------===//
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"
#include "math/FiniteDifference.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

using namespace stencilc;
using stencilc::eval::EvalData;

namespace {

/// A polynomial in (x, y, z): a sum of coef * x^a y^b z^c.
struct Polynomial {
  struct Term {
    double coef;
    std::array<int, 3> power;
  };
  std::vector<Term> terms;

  /// Random coefficients in [-1, 1) / (a! b! c!) for every monomial of total
  /// degree <= `degree` in the first `dims` variables.
  static Polynomial random(int dims, int degree, uint64_t seed) {
    rt::RandomEngine rng(seed);
    Polynomial p;
    const int maxZ = dims == 3 ? degree : 0;
    for (int c = 0; c <= maxZ; ++c)
      for (int b = 0; b + c <= degree; ++b)
        for (int a = 0; a + b + c <= degree; ++a)
          p.terms.push_back(
              {rt::uniformReal(rng, -1, 1) / (factorial(a) * factorial(b) * factorial(c)),
               {a, b, c}});
    return p;
  }

  /// x^degree / degree! along `axis`.
  static Polynomial monomial(int axis, int degree) {
    Polynomial p;
    std::array<int, 3> power{0, 0, 0};
    power[axis] = degree;
    p.terms.push_back({1 / factorial(degree), power});
    return p;
  }

  static double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

  Polynomial derivative(int axis) const {
    Polynomial d;
    for (const Term &t : terms)
      if (t.power[axis] > 0) {
        Term dt = t;
        dt.coef *= t.power[axis];
        dt.power[axis] -= 1;
        d.terms.push_back(dt);
      }
    return d;
  }

  Polynomial operator+(const Polynomial &o) const {
    Polynomial s = *this;
    s.terms.insert(s.terms.end(), o.terms.begin(), o.terms.end());
    return s;
  }

  double operator()(const std::array<double, 3> &x) const { return evaluate(x, false); }

  /// The sum of |terms|: the scale of the rounding error in evaluating it.
  double magnitude(const std::array<double, 3> &x) const { return evaluate(x, true); }

private:
  double evaluate(const std::array<double, 3> &x, bool absolute) const {
    // Powers are tabulated once per point: the 3D grids of order 16 need
    // ~1000 terms at ~6000 points, too slow with std::pow per term.
    int maxPower = 0;
    for (const Term &t : terms)
      maxPower = std::max({maxPower, t.power[0], t.power[1], t.power[2]});
    std::array<std::vector<double>, 3> powers;
    for (int axis = 0; axis < 3; ++axis) {
      double base = absolute ? std::abs(x[axis]) : x[axis];
      powers[axis].assign(size_t(maxPower) + 1, 1.0);
      for (int n = 1; n <= maxPower; ++n)
        powers[axis][n] = powers[axis][n - 1] * base;
    }
    double value = 0;
    for (const Term &t : terms)
      value += (absolute ? std::abs(t.coef) : t.coef) * powers[0][t.power[0]] *
               powers[1][t.power[1]] * powers[2][t.power[2]];
    return value;
  }
};

/// The analytic counterpart of each derivative kind.
Polynomial differentiate(const Polynomial &p, ir::DerivKind kind, int dims) {
  using K = ir::DerivKind;
  switch (kind) {
  case K::Dx: return p.derivative(0);
  case K::Dy: return p.derivative(1);
  case K::Dz: return p.derivative(2);
  case K::Dxx: return p.derivative(0).derivative(0);
  case K::Dyy: return p.derivative(1).derivative(1);
  case K::Dzz: return p.derivative(2).derivative(2);
  case K::Dxy: return p.derivative(0).derivative(1);
  case K::Dxz: return p.derivative(0).derivative(2);
  case K::Dyz: return p.derivative(1).derivative(2);
  case K::Laplacian: {
    Polynomial lap = p.derivative(0).derivative(0) + p.derivative(1).derivative(1);
    return dims == 3 ? lap + p.derivative(2).derivative(2) : lap;
  }
  }
  return {};
}

bool isFirstDerivative(ir::DerivKind k) {
  return k == ir::DerivKind::Dx || k == ir::DerivKind::Dy || k == ir::DerivKind::Dz;
}

/// The highest degree the scheme of accuracy order `order` differentiates exactly.
int exactDegree(ir::DerivKind kind, int order) {
  return isFirstDerivative(kind) ? order : order + 1;
}

/// The grid coordinate of point (i, j, k): centred on the 2 x 2 (x 2) interior.
std::array<double, 3> coordinate(int dims, int i, int j, int k) {
  return {i - 0.5, j - 0.5, dims == 3 ? k - 0.5 : 0.0};
}

ir::Stencil parseDerivativeStencil(int dims, ir::DerivKind kind, int order) {
  std::string text = "stencil exactness {\n  grid " + std::to_string(dims) +
                     "d;\n  type double;\n  field u : time;\n  field out : out;\n  out = " +
                     ir::derivKindName(kind) + "(u, " + std::to_string(order) + ");\n}\n";
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  std::optional<ir::Module> module = parseModuleFromString(text, "exactness.stencil", errs);
  if (!module || module->stencils.size() != 1) {
    ADD_FAILURE() << "cannot parse:\n" << text << errs.str();
    return {};
  }
  return std::move(module->stencils[0]);
}

/// The largest error at an interior point divided by its tolerance,
/// 1e-10 * sum_i |w_i| |f|(x + o_i): the scale of rounding in the weighted
/// sum. Below 1 means "exact up to rounding".
double worstErrorOverTolerance(int dims, ir::DerivKind kind, int order, const Polynomial &f) {
  ir::Stencil stencil = parseDerivativeStencil(dims, kind, order);
  if (stencil.fields.empty())
    return INFINITY;
  const int interior = 2;
  EvalData data = eval::makeRandomEvalData(stencil,
                                           {interior, interior, dims == 3 ? interior : 1,
                                            /*tableColumns=*/1},
                                           /*seed=*/1);
  rt::Grid<double> &u = *data.grids[stencil.findField("u")];
  rt::Grid<double> &out = *data.grids[stencil.findField("out")];
  EXPECT_EQ(u.halo(), order / 2);
  u.fillWith([&](int i, int j, int k) { return f(coordinate(dims, i, j, k)); });
  eval::evaluateReference(stencil, data.bindings());

  const Polynomial exact = differentiate(f, kind, dims);
  const std::vector<WeightedOffset> weights = expandDerivative(kind, order, dims);
  double worst = 0;
  out.forEachInteriorPoint([&](int i, int j, int k) {
    double scale = 0;
    for (const WeightedOffset &w : weights)
      scale += std::abs(w.weight.toDouble()) *
               f.magnitude(coordinate(dims, i + w.offset[0], j + w.offset[1], k + w.offset[2]));
    const double error = std::abs(out(i, j, k) - exact(coordinate(dims, i, j, k)));
    worst = std::max(worst, error / (1e-10 * scale));
  });
  return worst;
}

class DerivativeExactnessTest : public ::testing::TestWithParam<std::tuple<int, ir::DerivKind>> {};

/// "dxy_3d": readable test names instead of gtest's byte dumps.
std::string caseName(const ::testing::TestParamInfo<std::tuple<int, ir::DerivKind>> &info) {
  return std::string(ir::derivKindName(std::get<1>(info.param))) + "_" +
         std::to_string(std::get<0>(info.param)) + "d";
}

} // namespace

TEST_P(DerivativeExactnessTest, ExactForPolynomialsOfTheSchemesDegree) {
  auto [dims, kind] = GetParam();
  for (int order = 2; order <= 16; order += 2) {
    SCOPED_TRACE(std::string(ir::derivKindName(kind)) + " order " + std::to_string(order));
    Polynomial f = Polynomial::random(dims, exactDegree(kind, order), /*seed=*/order);
    EXPECT_LT(worstErrorOverTolerance(dims, kind, order, f), 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    TwoD, DerivativeExactnessTest,
    ::testing::Combine(::testing::Values(2),
                       ::testing::Values(ir::DerivKind::Dx, ir::DerivKind::Dy, ir::DerivKind::Dxx,
                                         ir::DerivKind::Dyy, ir::DerivKind::Dxy,
                                         ir::DerivKind::Laplacian)),
    caseName);
INSTANTIATE_TEST_SUITE_P(
    ThreeD, DerivativeExactnessTest,
    ::testing::Combine(::testing::Values(3),
                       ::testing::Values(ir::DerivKind::Dx, ir::DerivKind::Dy, ir::DerivKind::Dz,
                                         ir::DerivKind::Dxx, ir::DerivKind::Dyy, ir::DerivKind::Dzz,
                                         ir::DerivKind::Dxy, ir::DerivKind::Dxz, ir::DerivKind::Dyz,
                                         ir::DerivKind::Laplacian)),
    caseName);

// The negative control: one degree beyond exactness, the error is far above
// the tolerance, so the test above would notice a scheme that is not exact.
TEST(DerivativeExactnessNegativeControl, OneDegreeMoreIsNotExact) {
  for (int order = 2; order <= 16; order += 2) {
    SCOPED_TRACE("order " + std::to_string(order));
    EXPECT_GT(
        worstErrorOverTolerance(3, ir::DerivKind::Dzz, order, Polynomial::monomial(2, order + 2)),
        1e3);
    EXPECT_GT(
        worstErrorOverTolerance(3, ir::DerivKind::Dx, order, Polynomial::monomial(0, order + 1)),
        1e3);
    // Total degree order + 2 in the plane of a cross derivative: x^(p+1) y.
    Polynomial mixed;
    mixed.terms.push_back({1 / Polynomial::factorial(order + 1), {order + 1, 1, 0}});
    EXPECT_GT(worstErrorOverTolerance(2, ir::DerivKind::Dxy, order, mixed), 1e3);
  }
}
