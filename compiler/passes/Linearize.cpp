//===- Linearize.cpp - Compute the linear form of every update ------------===//
//
// A recursive walk turns each expression into a list of time-field terms
// plus a time-free remainder. Sums are unrolled with their variable bound to
// each point in turn, so the terms and factors it produces hold concrete
// offsets and table rows. Products scale the terms of their linear side by
// the other side, split into a numeric coefficient and product factors.
//
//===----------------------------------------------------------------------===//
#include "passes/Linearize.h"

#include "ir/CentreReads.h"
#include "math/FiniteDifference.h"

#include "fmt/format.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace stencilc {

using ir::Expr;
using ir::ExprPtr;
using ir::Offset;
using Kind = ir::Expr::Kind;

static ExprPtr makeBinary(Kind kind, ExprPtr lhs, ExprPtr rhs, llvm::SMLoc loc) {
  auto e = std::make_unique<Expr>(kind, loc);
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

static ExprPtr makeUnary(Kind kind, ExprPtr operand, llvm::SMLoc loc) {
  auto e = std::make_unique<Expr>(kind, loc);
  e->operands.push_back(std::move(operand));
  return e;
}

static ExprPtr makeInteger(int64_t value, llvm::SMLoc loc) {
  auto e = std::make_unique<Expr>(Kind::Number, loc);
  e->number = double(value);
  e->exact = Rational(value);
  e->spelling = std::to_string(value);
  return e;
}

/// A non-negative rational as DSL text would write it: `3` or `1 / 12`.
static ExprPtr makeMagnitude(const Rational &r, llvm::SMLoc loc) {
  Rational magnitude = r < Rational(0) ? -r : r;
  if (magnitude.isInteger())
    return makeInteger(magnitude.num(), loc);
  return makeBinary(Kind::Div, makeInteger(magnitude.num(), loc), makeInteger(magnitude.den(), loc),
                    loc);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// The value of a subexpression: time-field terms plus a time-free part.
/// With no terms the expression is pure and `rest` is all of it (never null);
/// otherwise `rest` is the time-free remainder, null for zero.
struct Linear {
  std::vector<Term> terms;
  ExprPtr rest;
  bool isPure() const { return terms.empty(); }
};

/// A sum variable bound to one point of its point set.
struct Binding {
  int pointSet;
  int point;
};

class Linearizer {
public:
  Linearizer(const ir::Stencil &stencil, DiagnosticEngine &diag) : s_(stencil), diag_(diag) {}

  std::optional<LinearForm> run(const ir::Update &update);

private:
  std::optional<Linear> visit(const Expr &e);
  std::optional<Linear> visitFieldRef(const Expr &e);
  std::optional<Linear> visitTableRef(const Expr &e);
  std::optional<Linear> visitAdd(const Expr &e);
  std::optional<Linear> visitMulDiv(const Expr &e);
  std::optional<Linear> visitSum(const Expr &e);
  std::optional<Linear> visitDeriv(const Expr &e);
  /// Min, max, a conditional or its comparison: a time-free value per point.
  std::optional<Linear> visitPointwise(const Expr &e);

  /// Multiplies (or divides, if `reciprocal`) every term of `lin` by pure `by`.
  bool scale(Linear &lin, const Expr &by, bool reciprocal, llvm::SMLoc loc);
  /// Splits pure `e` (or 1/e) into a number times Number-free factors.
  bool splitProduct(const Expr &e, bool reciprocal, Coefficient &coef,
                    std::vector<ExprPtr> &factors);
  bool fail(llvm::SMLoc loc, const llvm::Twine &what);

  const ir::Stencil &s_;
  DiagnosticEngine &diag_;
  std::map<int, Binding> bound_; ///< sum variable -> the point it stands for now
  int output_ = -1;
};

} // namespace

bool Linearizer::fail(llvm::SMLoc loc, const llvm::Twine &what) {
  std::string out = output_ >= 0 && output_ < int(s_.fields.size()) ? s_.fields[output_].name : "?";
  diag_.error(loc, "update of '" + out + "' is not linear in the time fields: " + what);
  return false;
}

std::optional<Linear> Linearizer::visit(const Expr &e) {
  switch (e.kind) {
  case Kind::Number:
  case Kind::ScalarRef: return Linear{{}, e.clone()};
  case Kind::FieldRef: return visitFieldRef(e);
  case Kind::TableRef: return visitTableRef(e);
  case Kind::Neg: {
    std::optional<Linear> lin = visit(*e.operands[0]);
    if (!lin)
      return std::nullopt;
    for (Term &t : lin->terms)
      t.coef = -t.coef;
    if (lin->rest)
      lin->rest = makeUnary(Kind::Neg, std::move(lin->rest), e.loc);
    return lin;
  }
  case Kind::Add:
  case Kind::Sub: return visitAdd(e);
  case Kind::Mul:
  case Kind::Div: return visitMulDiv(e);
  case Kind::Call: {
    std::optional<Linear> arg = visit(*e.operands[0]);
    if (!arg)
      return std::nullopt;
    if (!arg->isPure()) {
      fail(e.loc,
           llvm::Twine(ir::funcKindName(e.func)) + "() of an expression that reads a time field");
      return std::nullopt;
    }
    auto call = makeUnary(Kind::Call, std::move(arg->rest), e.loc);
    call->func = e.func;
    return Linear{{}, std::move(call)};
  }
  case Kind::Sum: return visitSum(e);
  case Kind::Deriv: return visitDeriv(e);
  case Kind::Min:
  case Kind::Max:
  case Kind::Select:
    if (auto read = ir::findNonCentreRead(s_, e)) {
      diag_.error(read->at->loc, ir::nonCentreReadMessage(e.kind, *read));
      return std::nullopt;
    }
    return visitPointwise(e);
  case Kind::Compare: return visitPointwise(e);
  }
  return std::nullopt;
}

std::optional<Linear> Linearizer::visitPointwise(const Expr &e) {
  auto node = std::make_unique<Expr>(e.kind, e.loc);
  node->compare = e.compare;
  for (const ExprPtr &op : e.operands) {
    std::optional<Linear> lin = visit(*op);
    if (!lin)
      return std::nullopt;
    if (!lin->isPure()) {
      fail(op->loc, "an operand of a comparison reads a time field");
      return std::nullopt;
    }
    node->operands.push_back(std::move(lin->rest));
  }
  return Linear{{}, std::move(node)};
}

std::optional<Linear> Linearizer::visitFieldRef(const Expr &e) {
  if (e.id < 0 || e.id >= int(s_.fields.size())) {
    fail(e.loc, "reference to an unknown field");
    return std::nullopt;
  }
  Offset offset = e.offset;
  if (e.sumVar >= 0) {
    auto it = bound_.find(e.sumVar);
    if (it == bound_.end()) {
      fail(e.loc, "point variable used outside its sum");
      return std::nullopt;
    }
    const Offset &point = s_.pointSets[it->second.pointSet].points[it->second.point];
    for (int axis = 0; axis < 3; ++axis)
      offset[axis] += point[axis];
  }
  if (s_.fields[e.id].role == ir::FieldRole::Time) {
    Linear lin;
    lin.terms.push_back(Term{e.id, offset, Coefficient(Rational(1)), {}});
    return lin;
  }
  auto ref = std::make_unique<Expr>(Kind::FieldRef, e.loc);
  ref->id = e.id;
  ref->offset = offset;
  return Linear{{}, std::move(ref)};
}

std::optional<Linear> Linearizer::visitTableRef(const Expr &e) {
  ExprPtr ref = e.clone();
  if (e.sumVar >= 0) {
    auto it = bound_.find(e.sumVar);
    if (it == bound_.end()) {
      fail(e.loc, "point variable used outside its sum");
      return std::nullopt;
    }
    const ir::PointSet &set = s_.pointSets[it->second.pointSet];
    ref->row = e.rowIsClass ? set.classOf[it->second.point] : it->second.point;
    ref->sumVar = -1;
  }
  return Linear{{}, std::move(ref)};
}

std::optional<Linear> Linearizer::visitAdd(const Expr &e) {
  std::optional<Linear> lhs = visit(*e.operands[0]);
  if (!lhs)
    return std::nullopt;
  std::optional<Linear> rhs = visit(*e.operands[1]);
  if (!rhs)
    return std::nullopt;
  bool subtract = e.kind == Kind::Sub;
  if (lhs->isPure() && rhs->isPure())
    return Linear{{}, makeBinary(e.kind, std::move(lhs->rest), std::move(rhs->rest), e.loc)};

  Linear sum;
  sum.terms = std::move(lhs->terms);
  for (Term &t : rhs->terms) {
    if (subtract)
      t.coef = -t.coef;
    sum.terms.push_back(std::move(t));
  }
  if (lhs->rest && rhs->rest)
    sum.rest = makeBinary(e.kind, std::move(lhs->rest), std::move(rhs->rest), e.loc);
  else if (lhs->rest)
    sum.rest = std::move(lhs->rest);
  else if (rhs->rest)
    sum.rest = subtract ? makeUnary(Kind::Neg, std::move(rhs->rest), e.loc) : std::move(rhs->rest);
  return sum;
}

std::optional<Linear> Linearizer::visitMulDiv(const Expr &e) {
  std::optional<Linear> lhs = visit(*e.operands[0]);
  if (!lhs)
    return std::nullopt;
  std::optional<Linear> rhs = visit(*e.operands[1]);
  if (!rhs)
    return std::nullopt;
  bool divide = e.kind == Kind::Div;
  if (lhs->isPure() && rhs->isPure())
    return Linear{{}, makeBinary(e.kind, std::move(lhs->rest), std::move(rhs->rest), e.loc)};
  if (divide && !rhs->isPure()) {
    fail(e.loc, "division by an expression that reads a time field");
    return std::nullopt;
  }
  if (!lhs->isPure() && !rhs->isPure()) {
    fail(e.loc, "product of two expressions that read time fields");
    return std::nullopt;
  }
  Linear &lin = lhs->isPure() ? *rhs : *lhs;
  const Expr &by = *(lhs->isPure() ? lhs->rest : rhs->rest);
  if (!scale(lin, by, divide, e.loc))
    return std::nullopt;
  return std::move(lin);
}

bool Linearizer::scale(Linear &lin, const Expr &by, bool reciprocal, llvm::SMLoc loc) {
  Coefficient coef(Rational(1));
  std::vector<ExprPtr> factors;
  if (!splitProduct(by, reciprocal, coef, factors))
    return false;
  for (Term &t : lin.terms) {
    t.coef = t.coef * coef;
    for (const ExprPtr &f : factors)
      t.factors.push_back(f->clone());
  }
  if (lin.rest)
    lin.rest = makeBinary(reciprocal ? Kind::Div : Kind::Mul, std::move(lin.rest), by.clone(), loc);
  return true;
}

bool Linearizer::splitProduct(const Expr &e, bool reciprocal, Coefficient &coef,
                              std::vector<ExprPtr> &factors) {
  switch (e.kind) {
  case Kind::Number: {
    Coefficient value = Coefficient::ofNumber(e);
    if (!reciprocal) {
      coef = coef * value;
      return true;
    }
    if (value.isZero()) {
      diag_.error(e.loc, "division by zero");
      return false;
    }
    coef = coef / value;
    return true;
  }
  case Kind::Neg: coef = -coef; return splitProduct(*e.operands[0], reciprocal, coef, factors);
  case Kind::Mul:
    return splitProduct(*e.operands[0], reciprocal, coef, factors) &&
           splitProduct(*e.operands[1], reciprocal, coef, factors);
  case Kind::Div:
    return splitProduct(*e.operands[0], reciprocal, coef, factors) &&
           splitProduct(*e.operands[1], !reciprocal, coef, factors);
  default:
    factors.push_back(reciprocal ? makeBinary(Kind::Div, makeInteger(1, e.loc), e.clone(), e.loc)
                                 : e.clone());
    return true;
  }
}

std::optional<Linear> Linearizer::visitSum(const Expr &e) {
  if (e.pointSet < 0 || e.pointSet >= int(s_.pointSets.size())) {
    fail(e.loc, "sum over an unknown point set");
    return std::nullopt;
  }
  const ir::PointSet &set = s_.pointSets[e.pointSet];
  if (set.classOf.size() != set.points.size()) {
    fail(e.loc, "point set '" + set.name + "' has no class for every point");
    return std::nullopt;
  }
  Linear total;
  for (int i = 0; i < int(set.points.size()); ++i) {
    bound_[e.sumVar] = Binding{e.pointSet, i};
    std::optional<Linear> body = visit(*e.operands[0]);
    if (!body) {
      bound_.erase(e.sumVar);
      return std::nullopt;
    }
    for (Term &t : body->terms)
      total.terms.push_back(std::move(t));
    if (body->rest)
      total.rest = total.rest
                       ? makeBinary(Kind::Add, std::move(total.rest), std::move(body->rest), e.loc)
                       : std::move(body->rest);
  }
  bound_.erase(e.sumVar);
  // An empty sum is zero; a pure value must not be null.
  if (total.terms.empty() && !total.rest)
    total.rest = makeInteger(0, e.loc);
  return total;
}

std::optional<Linear> Linearizer::visitDeriv(const Expr &e) {
  if (e.id < 0 || e.id >= int(s_.fields.size())) {
    fail(e.loc, "derivative of an unknown field");
    return std::nullopt;
  }
  int order = e.order > 0 ? e.order : s_.order;
  std::vector<WeightedOffset> points;
  try {
    points = expandDerivative(e.deriv, order, s_.dims);
  } catch (const std::exception &ex) {
    diag_.error(e.loc, llvm::Twine("cannot expand ") + ir::derivKindName(e.deriv) + " of order " +
                           llvm::Twine(order) + ": " + ex.what());
    return std::nullopt;
  }
  Linear lin;
  if (s_.fields[e.id].role == ir::FieldRole::Time) {
    for (const WeightedOffset &p : points)
      lin.terms.push_back(Term{e.id, p.offset, Coefficient(p.weight), {}});
    return lin;
  }
  // A derivative of a coefficient field is a time-free sum of weighted reads.
  for (const WeightedOffset &p : points) {
    auto ref = std::make_unique<Expr>(Kind::FieldRef, e.loc);
    ref->id = e.id;
    ref->offset = p.offset;
    bool negative = p.weight < Rational(0);
    bool unit = p.weight == Rational(1) || p.weight == Rational(-1);
    ExprPtr weighted =
        unit ? std::move(ref)
             : makeBinary(Kind::Mul, makeMagnitude(p.weight, e.loc), std::move(ref), e.loc);
    if (!lin.rest)
      lin.rest = negative ? makeUnary(Kind::Neg, std::move(weighted), e.loc) : std::move(weighted);
    else
      lin.rest = makeBinary(negative ? Kind::Sub : Kind::Add, std::move(lin.rest),
                            std::move(weighted), e.loc);
  }
  if (!lin.rest)
    lin.rest = makeInteger(0, e.loc);
  return lin;
}

/// Merges terms with equal field, offset and factors, drops zeros and sorts.
static std::vector<Term> canonicalTerms(std::vector<Term> terms) {
  std::vector<Term> merged;
  std::vector<std::string> factorKeys;
  std::unordered_map<std::string, size_t> indexOf;
  for (Term &t : terms) {
    std::string fkey = factorsKey(t.factors);
    std::string key =
        fmt::format("{}|{},{},{}|{}", t.field, t.offset[0], t.offset[1], t.offset[2], fkey);
    auto [it, inserted] = indexOf.try_emplace(key, merged.size());
    if (inserted) {
      merged.push_back(std::move(t));
      factorKeys.push_back(std::move(fkey));
    } else {
      merged[it->second].coef = merged[it->second].coef + t.coef;
    }
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < merged.size(); ++i)
    if (!merged[i].coef.isZero())
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Term &x = merged[a], &y = merged[b];
    if (x.field != y.field)
      return x.field < y.field;
    if (x.offset != y.offset)
      return ir::offsetLess(x.offset, y.offset);
    return factorKeys[a] < factorKeys[b];
  });
  std::vector<Term> result;
  for (size_t i : order)
    result.push_back(std::move(merged[i]));
  return result;
}

/// Terms with equal factors and equal |coef|, in order of their first term.
static std::vector<CoefGroup> coefficientGroups(const std::vector<Term> &terms) {
  std::vector<CoefGroup> groups;
  std::vector<std::string> groupKeys;
  for (int i = 0; i < int(terms.size()); ++i) {
    std::string key = factorsKey(terms[i].factors);
    Coefficient magnitude = terms[i].coef.abs();
    int g = 0;
    while (g < int(groups.size()) && !(groupKeys[g] == key && groups[g].coef.abs() == magnitude))
      ++g;
    if (g == int(groups.size())) {
      groups.push_back(CoefGroup{terms[i].coef, {}, {}});
      groupKeys.push_back(key);
    }
    groups[g].terms.push_back(i);
    groups[g].signs.push_back(terms[i].coef == groups[g].coef ? 1 : -1);
  }
  return groups;
}

std::optional<LinearForm> Linearizer::run(const ir::Update &update) {
  output_ = update.output;
  bound_.clear();
  if (!update.rhs) {
    fail(update.loc, "the update has no right-hand side");
    return std::nullopt;
  }
  std::optional<Linear> lin = visit(*update.rhs);
  if (!lin)
    return std::nullopt;
  LinearForm form;
  form.output = update.output;
  form.terms = canonicalTerms(std::move(lin->terms));
  form.groups = coefficientGroups(form.terms);
  form.pointwise = std::move(lin->rest);
  return form;
}

std::optional<LinearStencil> linearize(const ir::Stencil &stencil, DiagnosticEngine &diag) {
  Linearizer linearizer(stencil, diag);
  LinearStencil result;
  bool ok = true;
  for (const ir::Update &update : stencil.updates) {
    std::optional<LinearForm> form = linearizer.run(update);
    if (!form) {
      ok = false;
      continue; // report the other updates' errors too
    }
    result.updates.push_back(std::move(*form));
  }
  if (!ok)
    return std::nullopt;
  return result;
}

//===----------------------------------------------------------------------===//
// Read summaries
//===----------------------------------------------------------------------===//

} // namespace stencilc
