//===- LinearFormVerifier.cpp - Consistency checks of linear forms --------===//
#include "ir/linear/LinearFormVerifier.h"

#include "fmt/format.h"

#include <algorithm>

namespace stencilc {

using ir::Expr;
using ir::ExprPtr;
using ir::FieldRole;
using ir::Offset;
using ir::offsetLess;
using ir::offsetRadius;
using ir::Stencil;
using Kind = Expr::Kind;

namespace {

std::string pointText(const Offset &o) { return fmt::format("({},{},{})", o[0], o[1], o[2]); }

template <typename T> bool inRange(const std::vector<T> &items, int id) {
  return id >= 0 && id < int(items.size());
}

/// Factors and pointwise parts are plain pointwise expressions.
void checkTimeFree(const Stencil &s, const Expr &e, const std::string &where,
                   std::vector<std::string> &problems) {
  auto problem = [&](const std::string &what) { problems.push_back(where + ": " + what); };
  if (e.operands.size() != ir::exprArity(e.kind)) {
    problem("malformed expression node");
    return;
  }
  switch (e.kind) {
  case Kind::Sum:
  case Kind::Deriv: problem("unexpanded sum or derivative"); return;
  case Kind::FieldRef:
    if (!inRange(s.fields, e.id) || s.fields[e.id].role == FieldRole::Time ||
        s.fields[e.id].role == FieldRole::Output)
      problem(fmt::format("reads field #{}, which is not a coefficient field", e.id));
    [[fallthrough]];
  case Kind::TableRef:
    if (e.sumVar >= 0)
      problem("unresolved point variable");
    return;
  default:
    for (const ExprPtr &op : e.operands)
      if (op)
        checkTimeFree(s, *op, where, problems);
  }
}

std::string factorsKeyOf(const Term &t) { return factorsKey(t.factors); }

void verifyGroups(const LinearForm &form, const std::string &where,
                  std::vector<std::string> &problems) {
  std::vector<int> groupOf(form.terms.size(), -1);
  int lastFirst = -1;
  for (size_t g = 0; g < form.groups.size(); ++g) {
    const CoefGroup &group = form.groups[g];
    std::string gwhere = fmt::format("{}, group {}", where, g);
    if (group.terms.empty() || group.signs.size() != group.terms.size()) {
      problems.push_back(gwhere + ": empty, or signs and terms differ in number");
      continue;
    }
    if (group.terms.front() <= lastFirst)
      problems.push_back(gwhere + ": groups not ordered by first term");
    lastFirst = group.terms.front();
    for (size_t i = 0; i < group.terms.size(); ++i) {
      int t = group.terms[i];
      if (t < 0 || t >= int(form.terms.size()) || (i > 0 && t <= group.terms[i - 1])) {
        problems.push_back(gwhere + fmt::format(": term index {} out of range or order", t));
        continue;
      }
      if (groupOf[t] >= 0)
        problems.push_back(gwhere + fmt::format(": term {} is also in group {}", t, groupOf[t]));
      groupOf[t] = int(g);
      int sign = group.signs[i];
      if ((sign != 1 && sign != -1) || form.terms[t].coef != (sign > 0 ? group.coef : -group.coef))
        problems.push_back(gwhere + fmt::format(": term {} has coefficient {}, not {} * {}", t,
                                                form.terms[t].coef.str(), sign, group.coef.str()));
      if (factorsKeyOf(form.terms[t]) != factorsKeyOf(form.terms[group.terms[0]]))
        problems.push_back(gwhere + fmt::format(": term {} has different factors", t));
    }
  }
  for (size_t t = 0; t < groupOf.size(); ++t)
    if (groupOf[t] < 0)
      problems.push_back(where + fmt::format(": term {} is in no group", t));
}

void verifyTerms(const Stencil &s, const LinearForm &form, const std::string &where,
                 std::vector<std::string> &problems) {
  for (size_t i = 0; i < form.terms.size(); ++i) {
    const Term &t = form.terms[i];
    std::string twhere = fmt::format("{}, term {}", where, i);
    if (!inRange(s.fields, t.field) || s.fields[t.field].role != FieldRole::Time)
      problems.push_back(twhere + fmt::format(": field #{} is not a time field", t.field));
    if (offsetRadius(t.offset) > s.radius || (s.dims == 2 && t.offset[2] != 0))
      problems.push_back(twhere + ": offset " + pointText(t.offset) + " outside the grid radius");
    if (t.coef.isZero())
      problems.push_back(twhere + ": zero coefficient");
    for (const ExprPtr &f : t.factors) {
      if (!f)
        problems.push_back(twhere + ": null factor");
      else
        checkTimeFree(s, *f, twhere, problems);
    }
    if (i == 0)
      continue;
    const Term &prev = form.terms[i - 1];
    bool samePoint = prev.field == t.field && prev.offset == t.offset;
    bool ordered =
        prev.field < t.field || (prev.field == t.field && !offsetLess(t.offset, prev.offset));
    if (!ordered)
      problems.push_back(twhere + ": terms not sorted by field and offset");
    else if (samePoint && factorsKeyOf(prev) == factorsKeyOf(t))
      problems.push_back(twhere + ": duplicate of the previous term (not merged)");
  }
}

} // namespace

bool verifyLinearForm(const Stencil &s, const LinearStencil &linear,
                      std::vector<std::string> &problems) {
  size_t before = problems.size();
  if (linear.updates.size() != s.updates.size())
    problems.push_back(fmt::format("stencil '{}': {} linear forms for {} updates", s.name,
                                   linear.updates.size(), s.updates.size()));
  for (size_t u = 0; u < linear.updates.size() && u < s.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    std::string where = fmt::format("linear form of update {}", u);
    if (form.output != s.updates[u].output)
      problems.push_back(where + ": output differs from the update's");
    verifyTerms(s, form, where, problems);
    verifyGroups(form, where, problems);
    if (form.pointwise)
      checkTimeFree(s, *form.pointwise, where + ", pointwise part", problems);
  }
  return problems.size() == before;
}

} // namespace stencilc
