//===- Stability.cpp ------------------------------------------------------===//
#include "analysis/Stability.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <set>
#include <stdexcept>
#include <vector>

namespace stencilc::analysis {

namespace {

using Complex = std::complex<double>;
using Kind = ir::Expr::Kind;

/// A factor's value with every field and scalar held at its given value.
double valueOf(const ir::Stencil &s, const ir::Expr &e,
               const std::map<std::string, double> &values) {
  auto lookup = [&](const std::string &name) {
    auto it = values.find(name);
    return it == values.end() ? 1.0 : it->second;
  };
  switch (e.kind) {
  case Kind::Number: return e.number;
  case Kind::ScalarRef: return lookup(s.scalars[e.id].name);
  case Kind::FieldRef: return lookup(s.fields[e.id].name);
  case Kind::Neg: return -valueOf(s, *e.operands[0], values);
  case Kind::Add: return valueOf(s, *e.operands[0], values) + valueOf(s, *e.operands[1], values);
  case Kind::Sub: return valueOf(s, *e.operands[0], values) - valueOf(s, *e.operands[1], values);
  case Kind::Mul: return valueOf(s, *e.operands[0], values) * valueOf(s, *e.operands[1], values);
  case Kind::Div: return valueOf(s, *e.operands[0], values) / valueOf(s, *e.operands[1], values);
  case Kind::Call: {
    const double x = valueOf(s, *e.operands[0], values);
    switch (e.func) {
    case ir::FuncKind::Sin: return std::sin(x);
    case ir::FuncKind::Cos: return std::cos(x);
    case ir::FuncKind::Sqrt: return std::sqrt(x);
    case ir::FuncKind::Exp: return std::exp(x);
    case ir::FuncKind::Abs: return std::abs(x);
    }
    break;
  }
  // A min, max or conditional is a per-point coefficient like the others: its value at the given
  // field and scalar values (docs/SEISMIC.md "Stability").
  case Kind::Min:
    return std::fmin(valueOf(s, *e.operands[0], values), valueOf(s, *e.operands[1], values));
  case Kind::Max:
    return std::fmax(valueOf(s, *e.operands[0], values), valueOf(s, *e.operands[1], values));
  case Kind::Select: {
    const ir::Expr &cond = *e.operands[0];
    const double a = valueOf(s, *cond.operands[0], values),
                 b = valueOf(s, *cond.operands[1], values);
    bool holds = false;
    switch (cond.compare) {
    case ir::CompareOp::Lt: holds = a < b; break;
    case ir::CompareOp::Le: holds = a <= b; break;
    case ir::CompareOp::Gt: holds = a > b; break;
    case ir::CompareOp::Ge: holds = a >= b; break;
    case ir::CompareOp::Eq: holds = a == b; break;
    case ir::CompareOp::Ne: holds = a != b; break;
    }
    return valueOf(s, *e.operands[holds ? 1 : 2], values);
  }
  default: break;
  }
  throw std::invalid_argument("a table coefficient (its values depend on the table)");
}

struct Analysis {
  const ir::Stencil &s;
  const LinearForm &form;
  int advanced, overwritten;

  /// The larger |z| of the two roots, over the wavenumber grid.
  double worstRoot(const std::map<std::string, double> &values) const {
    constexpr int kSteps = 16; // theta = pi * j / kSteps, j in [-kSteps, kSteps]
    const int dims = s.dims;
    double worst = 0;
    const int span = 2 * kSteps + 1;
    const int count = dims == 3 ? span * span * span : span * span;
    std::vector<double> weights(form.terms.size());
    for (size_t t = 0; t < form.terms.size(); ++t) {
      double w = form.terms[t].coef.value();
      for (const ir::ExprPtr &f : form.terms[t].factors)
        w *= valueOf(s, *f, values);
      weights[t] = w;
    }
    for (int n = 0; n < count; ++n) {
      const double theta[3] = {std::numbers::pi * (n % span - kSteps) / kSteps,
                               std::numbers::pi * (n / span % span - kSteps) / kSteps,
                               dims == 3 ? std::numbers::pi * (n / (span * span) - kSteps) / kSteps
                                         : 0.0};
      Complex a = 0, b = 0;
      for (size_t t = 0; t < form.terms.size(); ++t) {
        const Term &term = form.terms[t];
        const double phase =
            theta[0] * term.offset[0] + theta[1] * term.offset[1] + theta[2] * term.offset[2];
        const Complex mode = weights[t] * std::exp(Complex(0, phase));
        (term.field == advanced ? a : b) += mode;
      }
      // z^2 - a z - b = 0
      const Complex root = std::sqrt(a * a + 4.0 * b);
      worst = std::max({worst, std::abs((a + root) / 2.0), std::abs((a - root) / 2.0)});
    }
    return worst;
  }
};

} // namespace

StableLimit largestStableValue(const ir::Stencil &s, const LinearStencil &linear, int update,
                               const std::string &quantity,
                               const std::map<std::string, double> &values) {
  const LinearForm &form = linear.updates.at(update);
  const ir::Field &out = s.fields[form.output];
  if (out.advances < 0)
    return {std::nullopt, "the update advances no time level"};
  Analysis analysis{s, form, out.advances, out.overwrites};
  for (const Term &t : form.terms)
    if (t.field != out.advances && t.field != out.overwrites)
      return {std::nullopt, "it reads a time level other than the two it steps"};
  if (form.pointwise)
    return {std::nullopt, "it has a part without time levels"};
  std::map<std::string, double> at = values;
  auto stable = [&](double value) {
    at[quantity] = value;
    // A stable leapfrog's roots lie on the unit circle, a double root at
    // theta = 0, where rounding alone moves |z| by about sqrt(1e-16); just past
    // the limit |z| - 1 grows like the square root of the excess (1e-3 at a
    // relative 1e-6), so 1e-6 tells the two apart.
    return analysis.worstRoot(at) <= 1 + 1e-6;
  };
  try {
    if (!stable(0))
      return {std::nullopt, "it is unstable even with " + quantity + " = 0"};
    double lo = 0, hi = 1;
    while (stable(hi)) {
      lo = hi;
      hi *= 2;
      if (hi > 1e12)
        return {std::nullopt, "it is stable for every " + quantity};
    }
    while (hi - lo > 1e-6 * hi) {
      const double mid = 0.5 * (lo + hi);
      (stable(mid) ? lo : hi) = mid;
    }
    return {lo, ""};
  } catch (const std::invalid_argument &e) {
    return {std::nullopt, e.what()};
  }
}

namespace {
/// The fields and scalars an expression reads.
void namesIn(const ir::Stencil &s, const ir::Expr &e, std::set<std::string> &names) {
  if (e.kind == Kind::ScalarRef)
    names.insert(s.scalars[e.id].name);
  if (e.kind == Kind::FieldRef)
    names.insert(s.fields[e.id].name);
  for (const ir::ExprPtr &operand : e.operands)
    if (operand)
      namesIn(s, *operand, names);
}
bool hasTable(const ir::Expr &e) {
  if (e.kind == Kind::TableRef)
    return true;
  return std::any_of(e.operands.begin(), e.operands.end(),
                     [](const ir::ExprPtr &o) { return o && hasTable(*o); });
}
} // namespace

TimeStepLimit stableTimeStep(const ir::Stencil &s, const LinearStencil &linear, int update) {
  const LinearForm &form = linear.updates.at(update);
  TimeStepLimit result;
  std::set<std::string> everywhere, somewhere, all;
  bool firstNeighbour = true;
  std::vector<std::set<std::string>> perTerm;
  for (const Term &t : form.terms) {
    std::set<std::string> names;
    for (const ir::ExprPtr &f : t.factors)
      namesIn(s, *f, names);
    all.insert(names.begin(), names.end());
    perTerm.push_back(names);
    if (t.offset[0] == 0 && t.offset[1] == 0 && t.offset[2] == 0)
      continue;
    if (firstNeighbour)
      everywhere = names;
    else
      std::erase_if(everywhere, [&](const std::string &n) { return !names.count(n); });
    firstNeighbour = false;
  }
  std::vector<std::string> candidates;
  for (const std::string &name : everywhere)
    if (std::any_of(perTerm.begin(), perTerm.end(),
                    [&](const std::set<std::string> &names) { return !names.count(name); }))
      candidates.push_back(name);
  if (std::find(candidates.begin(), candidates.end(), "dt") != candidates.end())
    result.quantity = "dt";
  else if (candidates.size() == 1)
    result.quantity = candidates[0];
  for (const std::string &name : all)
    if (name != result.quantity)
      result.heldAt1.push_back(name);
  const bool table = std::any_of(form.terms.begin(), form.terms.end(), [](const Term &t) {
    return std::any_of(t.factors.begin(), t.factors.end(),
                       [](const ir::ExprPtr &f) { return hasTable(*f); });
  });
  if (result.quantity.empty() && table) {
    result.limit.why = "a table coefficient (its values depend on the table)";
    return result;
  }
  if (result.quantity.empty()) {
    std::string names;
    for (const std::string &c : candidates)
      names += (names.empty() ? "" : ", ") + c;
    result.limit.why = candidates.empty()
                           ? "no field or scalar scales the neighbour reads alone"
                           : "more than one quantity scales the neighbour reads (" + names + ")";
    return result;
  }
  result.limit = largestStableValue(s, linear, update, result.quantity);
  return result;
}

} // namespace stencilc::analysis
