//===- LinearForm.h - Updates as linear combinations of time-level reads --===//
//
// Every update is linear in the time fields (docs/DSL.md "Updates"), so it
// can be written as
//
//   out(x) = sum_t  c_t * prod(factors_t)(x) * F_t(x + off_t)  +  pointwise(x)
//
// with c_t a number, factors_t coefficient expressions free of time fields
// (scalars, `in` fields, table lookups, pointwise functions) and F_t a time
// field. `linearize` computes this form for every update of a stencil: sums
// are unrolled over their point sets, derivative sugar is expanded into its
// weighted points, and equal terms are merged. Backends and analyses work on
// this form instead of on the expression tree.
//
// Terms with equal factors and equal |c| are also collected into coefficient
// groups, c * prod(factors) * (±F(x+o1) ± F(x+o2) ...): the points of one
// symmetry class share one coefficient, so a kernel adds them first and
// multiplies once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/Rational.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc {

/// A term's numeric coefficient. It stays an exact Rational while every
/// literal it came from is exact (`0.25`, `2`, finite-difference weights) and
/// no operation overflowed; otherwise it is only a double.
class Coefficient {
public:
  Coefficient() : exact_(Rational(0)), value_(0) {}
  Coefficient(Rational r) : exact_(r), value_(r.toDouble()) {} // NOLINT: implicit by design
  static Coefficient inexact(double v);
  /// The value of a Number node: exact when the node carries an exact rational.
  static Coefficient ofNumber(const ir::Expr &number);

  bool isExact() const { return exact_.has_value(); }
  const std::optional<Rational> &exact() const { return exact_; }
  double value() const { return value_; }
  bool isZero() const { return exact_ ? exact_->isZero() : value_ == 0; }
  bool isOne() const { return exact_ && *exact_ == Rational(1); }
  bool isMinusOne() const { return exact_ && *exact_ == Rational(-1); }

  Coefficient operator-() const;
  Coefficient operator+(const Coefficient &o) const;
  Coefficient operator*(const Coefficient &o) const;
  /// Throws std::domain_error when `o` is zero.
  Coefficient operator/(const Coefficient &o) const;
  Coefficient abs() const;
  /// Exact comparison when both are exact, else comparison of the doubles.
  bool operator==(const Coefficient &o) const;
  bool operator!=(const Coefficient &o) const { return !(*this == o); }

  /// "2", "-1/12", or the shortest decimal that reads back as the double.
  std::string str() const;

private:
  std::optional<Rational> exact_;
  double value_;
};

/// c * prod(factors) * field(x + offset).
struct Term {
  int field = -1; ///< a Time field
  ir::Offset offset{0, 0, 0};
  Coefficient coef;
  /// Number-free product factors in the order they were written. They hold
  /// no Sum, Deriv or sum variable: only Number, ScalarRef, FieldRef of a
  /// non-time field at a concrete offset, TableRef with a concrete row,
  /// Neg/Add/Sub/Mul/Div and Call. A reciprocal 1/e is a Div with numerator 1.
  std::vector<ir::ExprPtr> factors;
};

/// coef * prod(factors of its terms) * sum_i signs[i] * F_i(x + o_i).
struct CoefGroup {
  Coefficient coef;       ///< the coefficient of the first term (so signs[0] = +1)
  std::vector<int> terms; ///< indices into LinearForm::terms, ascending
  std::vector<int> signs; ///< +1 or -1 per term: terms[i].coef = signs[i] * coef
};

struct LinearForm {
  int output = -1; ///< the Output field the update writes
  /// Sorted by field, then offset (offsetLess), then factors; no zero coefficients,
  /// no two terms with the same field, offset and factors.
  std::vector<Term> terms;
  /// Ordered by first term; every term is in exactly one group.
  std::vector<CoefGroup> groups;
  /// The part without time-field reads (same node vocabulary as factors), or null for 0.
  ir::ExprPtr pointwise;
};

/// The linear forms of a stencil, one per update, in update order.
struct LinearStencil {
  std::vector<LinearForm> updates;
};

/// `groups` (indices into form.groups, in order) partitioned by their factor
/// lists: groups with structurally equal factors share one product of them,
/// K * (c1 * S1 + c2 * S2 + ...), so a kernel multiplies K in once. Partitions
/// keep the order of their first group, and groups their order within one.
std::vector<std::vector<int>> partitionGroupsByFactors(const LinearForm &form,
                                                       const std::vector<int> &groups);

/// Canonical text of an expression with resolved names; structurally equal
/// expressions (and only those) have equal keys. Used to merge terms.
std::string exprKey(const ir::Expr &e);

/// Canonical text of a product of factors, in any order: equal for terms whose
/// factors are the same up to order (and only for those).
std::string factorsKey(const std::vector<ir::ExprPtr> &factors);

/// One time-field point read.
struct PointRead {
  int field = -1;
  ir::Offset offset{0, 0, 0};
};

/// The reads of one z-plane: offset[2] == dz for all of them, sorted by field then offset.
struct ReadPlane {
  int dz = 0;
  std::vector<PointRead> reads;
};

/// What a backend needs to know about the footprint of one or more updates.
struct ReadSummary {
  /// Distinct (field, offset) pairs, sorted by field then offset.
  std::vector<PointRead> points;
  /// The same points grouped by dz, ascending.
  std::vector<ReadPlane> planes;
  /// Points with two or more non-zero offset components.
  int offAxisPoints = 0;
  /// Distinct (field, dx, dy) columns holding a point with dz != 0: the
  /// per-step global loads of a z-marching kernel with the current plane on chip.
  int offPlaneColumns = 0;

  /// The points of `field` only.
  std::vector<PointRead> pointsOf(int field) const;
};

ReadSummary summarizeReads(const LinearForm &form);
/// The union over all updates (a point read by two updates counts once).
ReadSummary summarizeReads(const LinearStencil &linear);

} // namespace stencilc
