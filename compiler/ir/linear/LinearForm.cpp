//===- LinearForm.cpp - Coefficients, expression keys, read summaries ------===//
#include "ir/linear/LinearForm.h"

#include "fmt/format.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace stencilc {

using ir::Expr;
using ir::Offset;
using Kind = ir::Expr::Kind;

//===----------------------------------------------------------------------===//
// Coefficient
//===----------------------------------------------------------------------===//

Coefficient Coefficient::inexact(double v) {
  Coefficient c;
  c.exact_.reset();
  c.value_ = v;
  return c;
}

Coefficient Coefficient::ofNumber(const Expr &number) {
  return number.exact ? Coefficient(*number.exact) : inexact(number.number);
}

Coefficient Coefficient::operator-() const {
  return exact_ ? Coefficient(-*exact_) : inexact(-value_);
}

// Exact arithmetic overflows only for absurd literals; the double result is
// then the best we can do, and the coefficient says it is no longer exact.
Coefficient Coefficient::operator+(const Coefficient &o) const {
  if (exact_ && o.exact_) {
    try {
      return Coefficient(*exact_ + *o.exact_);
    } catch (const std::overflow_error &) {
    }
  }
  return inexact(value_ + o.value_);
}

Coefficient Coefficient::operator*(const Coefficient &o) const {
  if (exact_ && o.exact_) {
    try {
      return Coefficient(*exact_ * *o.exact_);
    } catch (const std::overflow_error &) {
    }
  }
  return inexact(value_ * o.value_);
}

Coefficient Coefficient::operator/(const Coefficient &o) const {
  if (o.isZero())
    throw std::domain_error("division by zero");
  if (exact_ && o.exact_) {
    try {
      return Coefficient(*exact_ / *o.exact_);
    } catch (const std::overflow_error &) {
    }
  }
  return inexact(value_ / o.value_);
}

Coefficient Coefficient::abs() const { return value_ < 0 ? -*this : *this; }

bool Coefficient::operator==(const Coefficient &o) const {
  if (exact_ && o.exact_)
    return *exact_ == *o.exact_;
  return value_ == o.value_;
}

std::string Coefficient::str() const { return exact_ ? exact_->str() : fmt::format("{}", value_); }

//===----------------------------------------------------------------------===//
// Expression keys and builders
//===----------------------------------------------------------------------===//

static const char *binaryKeyName(Kind k) {
  switch (k) {
  case Kind::Add: return "add";
  case Kind::Sub: return "sub";
  case Kind::Mul: return "mul";
  default: return "div";
  }
}

std::string exprKey(const Expr &e) {
  auto offsetKey = [](const Offset &o) { return fmt::format("[{},{},{}]", o[0], o[1], o[2]); };
  switch (e.kind) {
  case Kind::Number: return "n" + Coefficient::ofNumber(e).str();
  case Kind::ScalarRef: return fmt::format("s{}", e.id);
  case Kind::FieldRef:
    return fmt::format("f{}{}", e.id, offsetKey(e.offset)) +
           (e.sumVar >= 0 ? fmt::format("@v{}", e.sumVar) : "");
  case Kind::TableRef: {
    std::string row = e.sumVar < 0 ? std::to_string(e.row)
                                   : fmt::format("{}v{}", e.rowIsClass ? "c" : "p", e.sumVar);
    return fmt::format("t{}[{}][f{}]", e.id, row, e.indexField);
  }
  case Kind::Neg: return "neg(" + exprKey(*e.operands[0]) + ")";
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::Div:
    return fmt::format("{}({},{})", binaryKeyName(e.kind), exprKey(*e.operands[0]),
                       exprKey(*e.operands[1]));
  case Kind::Call: return fmt::format("{}({})", ir::funcKindName(e.func), exprKey(*e.operands[0]));
  case Kind::Sum:
    return fmt::format("sum(P{},v{},{})", e.pointSet, e.sumVar, exprKey(*e.operands[0]));
  case Kind::Deriv: return fmt::format("{}(f{},{})", ir::derivKindName(e.deriv), e.id, e.order);
  case Kind::Min:
  case Kind::Max:
    return fmt::format("{}({},{})", e.kind == Kind::Min ? "min" : "max", exprKey(*e.operands[0]),
                       exprKey(*e.operands[1]));
  case Kind::Compare:
    return fmt::format("cmp{}({},{})", ir::compareOpSpelling(e.compare), exprKey(*e.operands[0]),
                       exprKey(*e.operands[1]));
  case Kind::Select:
    return fmt::format("sel({},{},{})", exprKey(*e.operands[0]), exprKey(*e.operands[1]),
                       exprKey(*e.operands[2]));
  }
  return "?";
}

/// The key of a factor list as a multiset: a*b and b*a are the same product.

static bool pointReadLess(const PointRead &a, const PointRead &b) {
  if (a.field != b.field)
    return a.field < b.field;
  return ir::offsetLess(a.offset, b.offset);
}

static ReadSummary summarize(std::vector<PointRead> points) {
  std::sort(points.begin(), points.end(), pointReadLess);
  points.erase(std::unique(points.begin(), points.end(),
                           [](const PointRead &a, const PointRead &b) {
                             return a.field == b.field && a.offset == b.offset;
                           }),
               points.end());
  ReadSummary summary;
  std::map<int, ReadPlane> planes;
  std::vector<std::array<int, 3>> columns; // (field, dx, dy) with a point off the centre plane
  for (const PointRead &p : points) {
    ReadPlane &plane = planes[p.offset[2]];
    plane.dz = p.offset[2];
    plane.reads.push_back(p);
    if (ir::offsetNonZeros(p.offset) >= 2)
      ++summary.offAxisPoints;
    if (p.offset[2] != 0)
      columns.push_back({p.field, p.offset[0], p.offset[1]});
  }
  std::sort(columns.begin(), columns.end());
  summary.offPlaneColumns = int(std::unique(columns.begin(), columns.end()) - columns.begin());
  for (auto &[dz, plane] : planes)
    summary.planes.push_back(std::move(plane));
  summary.points = std::move(points);
  return summary;
}

ReadSummary summarizeReads(const LinearForm &form) {
  std::vector<PointRead> points;
  for (const Term &t : form.terms)
    points.push_back(PointRead{t.field, t.offset});
  return summarize(std::move(points));
}

ReadSummary summarizeReads(const LinearStencil &linear) {
  std::vector<PointRead> points;
  for (const LinearForm &form : linear.updates)
    for (const Term &t : form.terms)
      points.push_back(PointRead{t.field, t.offset});
  return summarize(std::move(points));
}

std::vector<PointRead> ReadSummary::pointsOf(int field) const {
  std::vector<PointRead> result;
  for (const PointRead &p : points)
    if (p.field == field)
      result.push_back(p);
  return result;
}

std::vector<std::vector<int>> partitionGroupsByFactors(const LinearForm &form,
                                                       const std::vector<int> &groups) {
  std::vector<std::string> keys;
  std::vector<std::vector<int>> partitions;
  for (int g : groups) {
    std::string key;
    for (const ir::ExprPtr &f : form.terms[form.groups[g].terms[0]].factors)
      key += exprKey(*f) + ";";
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end() || key.empty()) {
      keys.push_back(key);
      partitions.push_back({g});
    } else {
      partitions[it - keys.begin()].push_back(g);
    }
  }
  return partitions;
}

std::string factorsKey(const std::vector<ir::ExprPtr> &factors) {
  std::vector<std::string> keys;
  for (const ir::ExprPtr &f : factors)
    keys.push_back(exprKey(*f));
  std::sort(keys.begin(), keys.end());
  std::string joined;
  for (const std::string &k : keys)
    joined += k + ";";
  return joined;
}

} // namespace stencilc
