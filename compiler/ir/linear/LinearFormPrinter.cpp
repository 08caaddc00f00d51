//===- LinearFormPrinter.cpp - Print linear forms as readable text --------===//
//
// After `linearize`, `stencilc dump-ir` follows each update line of the IR
// dump (ir/Printer.cpp) with its linear form, indented under it:
//
//     update p_next = 2 * sum(d in S, C[d.class][vidx] * p_cur[d]) - p_prev
//       reads p_cur: 37 points, 12 off-axis
//         dz=-4: (0,0)
//       g1: 2 * C[0][vidx] * (p_cur[0,0,-4] + p_cur[0,0,4])
//       pointwise: none
//       counts: 38 points, 12 off-axis, 16 off-plane columns, 12 groups, 38 terms
//
// Without a linear form, the update line stands alone.
//
//===----------------------------------------------------------------------===//
#include "ir/linear/LinearFormPrinter.h"

#include "ir/Printer.h"

namespace stencilc {

using ir::Expr;
using ir::ExprPtr;
using ir::Stencil;
using Kind = Expr::Kind;

/// A factor as the right operand of `*` or `/`: `(a + b)` keeps its parentheses.
static std::string factorToString(const Stencil &s, const Expr &factor) {
  return ir::exprToString(s, factor, ir::UnaryPrecedence);
}

/// A reciprocal factor 1/e, as Linearize builds it.
static const Expr *reciprocalOf(const Expr &factor) {
  if (factor.kind != Kind::Div || factor.operands[0]->kind != Kind::Number)
    return nullptr;
  const Expr &one = *factor.operands[0];
  return one.exact && *one.exact == Rational(1) ? factor.operands[1].get() : nullptr;
}

std::string groupToString(const Stencil &s, const LinearForm &form, const CoefGroup &group) {
  if (group.terms.empty())
    return "0";
  const Term &first = form.terms[group.terms.front()];
  bool several = group.terms.size() > 1;

  std::string sum;
  for (size_t i = 0; i < group.terms.size(); ++i) {
    const Term &t = form.terms[group.terms[i]];
    if (i)
      sum += group.signs[i] < 0 ? " - " : " + ";
    sum += ir::fieldName(s, t.field) + ir::offsetToString(s, t.offset);
  }

  // The product `coef * factors`, written left to right: `2 * C[0][vidx] / h`.
  std::string product;
  bool empty = true;
  if (!group.coef.isOne() && !group.coef.isMinusOne()) {
    product = group.coef.str();
    empty = false;
  } else if (group.coef.isMinusOne()) {
    product = "-";
  }
  for (const ExprPtr &factor : first.factors) {
    const Expr *denominator = reciprocalOf(*factor);
    if (empty && denominator)
      product += "1";
    if (!empty)
      product += denominator ? " / " : " * ";
    product += factorToString(s, denominator ? *denominator : *factor);
    empty = false;
  }
  if (empty) {
    // Only a sign: `p_prev[0,0,0]`, `-p_prev[0,0,0]`, `-(u[1,0] + u[-1,0])`.
    return product + (several && !product.empty() ? "(" + sum + ")" : sum);
  }
  return product + " * " + (several ? "(" + sum + ")" : sum);
}

void printLinearForm(const Stencil &s, const LinearForm &form, llvm::raw_ostream &os,
                     unsigned indent) {
  std::string pad(indent, ' ');
  ReadSummary reads = summarizeReads(form);
  for (int field = 0; field < int(s.fields.size()); ++field) {
    std::vector<PointRead> points = reads.pointsOf(field);
    if (points.empty())
      continue;
    int offAxis = 0;
    for (const PointRead &p : points)
      offAxis += ir::offsetNonZeros(p.offset) >= 2;
    os << pad << "reads " << s.fields[field].name << ": " << points.size()
       << (points.size() == 1 ? " point" : " points") << ", " << offAxis << " off-axis\n";
    for (size_t i = 0; i < points.size();) {
      int dz = points[i].offset[2];
      os << pad << "  dz=" << dz << ':';
      for (; i < points.size() && points[i].offset[2] == dz; ++i)
        os << ' ' << ir::planePointToString(points[i].offset);
      os << '\n';
    }
  }
  for (size_t g = 0; g < form.groups.size(); ++g)
    os << pad << 'g' << g << ": " << groupToString(s, form, form.groups[g]) << '\n';
  os << pad << "pointwise: ";
  if (form.pointwise)
    ir::printExpr(s, *form.pointwise, os);
  else
    os << "none";
  os << '\n';
  os << pad << "counts: " << reads.points.size() << " points, " << reads.offAxisPoints
     << " off-axis, " << reads.offPlaneColumns << " off-plane columns, " << form.groups.size()
     << " groups, " << form.terms.size() << " terms\n";
}

void printStencilWithLinearForm(const Stencil &s, const LinearStencil &linear,
                                llvm::raw_ostream &os) {
  ir::printDeclarations(s, os);
  for (size_t i = 0; i < s.updates.size(); ++i) {
    ir::printUpdateLine(s, s.updates[i], os);
    if (i < linear.updates.size())
      printLinearForm(s, linear.updates[i], os, 4);
  }
}

} // namespace stencilc
