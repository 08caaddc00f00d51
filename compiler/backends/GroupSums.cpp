//===- GroupSums.cpp ------------------------------------------------------===//
#include "backends/GroupSums.h"

#include "ir/ExprVisitor.h"
#include "ir/linear/LinearFormPrinter.h"

#include <fmt/format.h>

namespace stencilc::backend {

namespace {

/// Does `e` read no field or table, i.e. is it the same at every point?
bool isPointInvariant(const ir::Expr &e) {
  return !ir::anyExpr(e, [](const ir::Expr &n) {
    using Kind = ir::Expr::Kind;
    return n.kind == Kind::FieldRef || n.kind == Kind::TableRef || n.kind == Kind::Sum ||
           n.kind == Kind::Deriv;
  });
}

/// The signed sum of a group's reads on plane dz (all planes if unset), times its
/// coefficient (and its factors, with `withFactors`); "" if it has no point there.
std::string groupExpr(const LinearForm &form, const CoefGroup &group, std::optional<int> dz,
                      bool withFactors, const BodyReads &reads) {
  std::string sum;
  int count = 0;
  for (size_t i = 0; i < group.terms.size(); ++i) {
    const Term &term = form.terms[group.terms[i]];
    if (dz && term.offset[2] != *dz)
      continue;
    std::string value = reads.read(term.field, term.offset);
    if (count == 0)
      sum = (group.signs[i] < 0 ? "-" : "") + value;
    else
      sum += (group.signs[i] < 0 ? " - " : " + ") + value;
    ++count;
  }
  if (count == 0)
    return "";
  std::vector<std::string> factors;
  if (withFactors)
    factors = factorTexts(form, group, reads);
  std::string coef = coefficientProduct(group.coef, factors);
  bool single = count == 1 && sum[0] != '-';
  if (coef == "Real(1)")
    return count == 1 ? sum : "(" + sum + ")";
  if (coef == "Real(-1)")
    return single ? "-" + sum : "-(" + sum + ")";
  return coef + " * " + (single ? sum : "(" + sum + ")");
}

} // namespace

std::vector<std::string> factorTexts(const LinearForm &form, const CoefGroup &group,
                                     const BodyReads &reads) {
  std::vector<std::string> factors, invariant;
  for (const ir::ExprPtr &factor : form.terms[group.terms[0]].factors) {
    std::string text = printCExpr(*factor, reads.exprNames);
    // A product chains without parentheses; anything looser, or a quotient, gets them.
    bool atom =
        ir::exprPrecedence(*factor) == ir::AtomPrecedence || factor->kind == ir::Expr::Kind::Mul;
    bool hoist = reads.invariant && isPointInvariant(*factor);
    (hoist ? invariant : factors).push_back(atom ? text : "(" + text + ")");
  }
  // Scalars and numbers (e.g. `dt * dt / (h * h)`) are multiplied once, outside the
  // point loop: GCC may not reassociate them out of it itself without -ffast-math.
  if (invariant.size() == 1 && invariant[0].find_first_of(" (") == std::string::npos)
    factors.push_back(invariant[0]); // a lone scalar: nothing to compute once
  else if (!invariant.empty()) {
    std::string product = invariant[0];
    for (size_t i = 1; i < invariant.size(); ++i)
      product += " * " + invariant[i];
    factors.push_back(reads.invariant(product));
  }
  return factors;
}

bool groupTouchesPlane(const LinearForm &form, const CoefGroup &g, int dz) {
  for (int t : g.terms)
    if (form.terms[t].offset[2] == dz)
      return true;
  return false;
}

std::string sumStatements(const ir::Stencil &s, const LinearForm &form,
                          const std::vector<int> &groups, const BodyReads &reads,
                          const std::string &target, bool assign, const SumOptions &options) {
  const std::string &indent = options.indent;
  const bool withFactors = !options.withoutSharedFactors;
  std::string out;
  bool first = assign;
  for (const std::vector<int> &partition : partitionGroupsByFactors(form, groups)) {
    std::vector<int> present;
    for (int g : partition)
      if (!options.dz || groupTouchesPlane(form, form.groups[g], *options.dz))
        present.push_back(g);
    if (present.empty())
      continue;
    if (options.comments)
      for (int g : present)
        out += fmt::format("{}// g{}: {}\n", indent, g, groupToString(s, form, form.groups[g]));
    std::string expr;
    if (present.size() == 1) {
      expr = groupExpr(form, form.groups[present[0]], options.dz, withFactors, reads);
    } else {
      // Groups sharing their factors K: K * (c1 * S1 + c2 * S2 + ...).
      std::string inner;
      for (int g : present) {
        std::string e = groupExpr(form, form.groups[g], options.dz, false, reads);
        if (inner.empty())
          inner = e;
        else if (e[0] == '-')
          inner += " - " + e.substr(1);
        else
          inner += " + " + e;
      }
      std::string product;
      if (withFactors)
        for (const std::string &f : factorTexts(form, form.groups[present[0]], reads))
          product += f + " * ";
      expr = product.empty() ? inner : product + "(" + inner + ")";
    }
    out += fmt::format("{}{} {} {};\n", indent, target, first ? "=" : "+=", expr);
    first = false;
  }
  if (options.pointwise && form.pointwise) {
    if (options.comments)
      out += fmt::format("{}// pointwise part\n", indent);
    out += fmt::format("{}{} {} {};\n", indent, target,
                       first ? "=" : "+=", printCExpr(*form.pointwise, reads.exprNames));
    first = false;
  }
  if (first)
    out += fmt::format("{}{} = Real(0);\n", indent, target);
  return out;
}

} // namespace stencilc::backend
