//===- DeviceBody.cpp -----------------------------------------------------===//
#include "backends/cuda/DeviceBody.h"

#include "backends/KernelAbi.h"

#include "passes/LinearFormPrinter.h"

#include <fmt/format.h>

namespace stencilc::backend {

using ir::FieldRole;
using ir::Offset;

namespace {
/// `dx + dy * line + dz * plane` without zero terms; "0" for the centre.
std::string offsetText(const Offset &o, const std::string &line, const std::string &plane) {
  std::string text;
  auto add = [&](int n, const std::string &unit) {
    if (n == 0)
      return;
    int magnitude = std::abs(n);
    std::string term = unit.empty()     ? std::to_string(magnitude)
                       : magnitude == 1 ? unit
                                        : fmt::format("{} * {}", magnitude, unit);
    if (text.empty())
      text = (n < 0 ? "-" : "") + term;
    else
      text += (n < 0 ? " - " : " + ") + term;
  };
  add(o[0], "");
  add(o[1], line);
  add(o[2], plane);
  return text.empty() ? "0" : text;
}

std::string pointerName(const KernelNames &names, int field) { return names.field(field) + "_pt"; }
std::string indexValueName(const KernelNames &names, int field) {
  return names.field(field) + "_value";
}

} // namespace

std::string PointScope::read(int field, const Offset &offset) {
  if (s_.fields[field].role == FieldRole::Time && style_.onChip)
    if (std::optional<std::string> onChip = style_.onChip(field, offset))
      return *onChip;
  fields_.insert(field);
  if (offset[1])
    lines_.insert(field);
  if (offset[2])
    planes_.insert(field);
  return pointerRead(field, offset);
}

std::string PointScope::pointerRead(int field, const Offset &offset) const {
  const FieldRole role = s_.fields[field].role;
  std::string element = fmt::format("{}[{}]", pointerName(names_, field),
                                    offsetText(offset, names_.line(field), names_.plane(field)));
  bool coefficient = role == FieldRole::Input || role == FieldRole::Index;
  return coefficient && style_.readOnlyCoefficients ? "__ldg(&" + element + ")" : element;
}

std::string PointScope::output(int field) {
  outputs_.insert(field);
  return pointerName(names_, field) + "[0]";
}

std::string PointScope::tableRead(int table, int row, int indexField) {
  // The column index is read at the point like any coefficient.
  read(indexField, {0, 0, 0});
  RowPlacement place = style_.rowPlacement ? style_.rowPlacement(table, row) : RowPlacement{};
  std::string column = names_.tableColumn(table, indexField);
  std::string global =
      row == 0 ? column + "[0]"
               : fmt::format("{}[{} * args.{}.rowStride]", column, row, names_.table(table));
  std::string staged = place.slot == 0 ? column + "_s[0]"
                                       : fmt::format("{}_s[{} * args.{}.cols]", column, place.slot,
                                                     names_.table(table));
  switch (place.space) {
  case TableSpace::Global: columns_.insert({table, indexField}); return global;
  case TableSpace::ReadOnly: columns_.insert({table, indexField}); return "__ldg(&" + global + ")";
  case TableSpace::Shared: stagedColumns_.insert({table, indexField}); return staged;
  case TableSpace::Auto:
    columns_.insert({table, indexField});
    stagedColumns_.insert({table, indexField});
    return fmt::format("(kStageAuto ? {} : __ldg(&{}))", staged, global);
  }
  return "?";
}

CExprNames PointScope::exprNames() {
  CExprNames n;
  n.scalar = [this](int id) { return "args." + names_.scalar(id); };
  n.field = [this](int id, const Offset &o) { return read(id, o); };
  n.table = [this](int table, int row, int index) { return tableRead(table, row, index); };
  return n;
}

std::string PointScope::prologue(const std::string &x, const std::string &y, const std::string &z,
                                 const std::string &indent) const {
  std::string out;
  const char *restrict = style_.restrictPointers ? "__restrict__ " : "";
  for (int f : outputs_)
    out += fmt::format("{}Real *const {} = args.{}.origin + at(args.{}, {}, {}, {});\n", indent,
                       pointerName(names_, f), names_.field(f), names_.field(f), x, y, z);
  for (int f : fields_)
    out += fmt::format("{}const {} *{}const {} = args.{}.origin + at(args.{}, {}, {}, {});\n",
                       indent, fieldElementType(s_.fields[f]), restrict, pointerName(names_, f),
                       names_.field(f), names_.field(f), x, y, z);
  for (int f : lines_)
    out += fmt::format("{}const std::ptrdiff_t {} = args.{}.line;\n", indent, names_.line(f),
                       names_.field(f));
  for (int f : planes_)
    out += fmt::format("{}const std::ptrdiff_t {} = args.{}.plane;\n", indent, names_.plane(f),
                       names_.field(f));
  std::set<int> indexFields;
  for (const auto &[table, index] : columns_)
    indexFields.insert(index);
  for (const auto &[table, index] : stagedColumns_)
    indexFields.insert(index);
  for (int index : indexFields)
    out += fmt::format("{}const std::ptrdiff_t {} = {}; // the point's table column\n", indent,
                       indexValueName(names_, index), pointerRead(index, {0, 0, 0}));
  for (const auto &[table, index] : columns_)
    out += fmt::format("{}const Real *const {} = args.{}.data + {} * args.{}.colStride;\n", indent,
                       names_.tableColumn(table, index), names_.table(table),
                       indexValueName(names_, index), names_.table(table));
  for (const auto &[table, index] : stagedColumns_)
    out += fmt::format("{}const Real *const {}_s = {}_staged + {};\n", indent,
                       names_.tableColumn(table, index), names_.table(table),
                       indexValueName(names_, index));
  return out;
}

bool groupTouchesPlane(const LinearForm &form, const CoefGroup &g, int dz) {
  for (int t : g.terms)
    if (form.terms[t].offset[2] == dz)
      return true;
  return false;
}

namespace {
/// The factors of a group, each ready to be a multiplicand.
std::vector<std::string> factorTexts(PointScope &scope, const LinearForm &form,
                                     const CoefGroup &group) {
  std::vector<std::string> factors;
  CExprNames names = scope.exprNames();
  for (const ir::ExprPtr &factor : form.terms[group.terms[0]].factors) {
    std::string text = printCExpr(*factor, names);
    // A product chains without parentheses; anything looser, or a quotient, gets them.
    bool atom =
        ir::exprPrecedence(*factor) == ir::AtomPrecedence || factor->kind == ir::Expr::Kind::Mul;
    factors.push_back(atom ? text : "(" + text + ")");
  }
  return factors;
}

/// The signed sum of a group's reads on plane dz (all planes if unset), times its
/// coefficient (and its factors, with `withFactors`); "" if it has no point there.
std::string groupExpr(PointScope &scope, const LinearForm &form, const CoefGroup &group,
                      std::optional<int> dz, bool withFactors) {
  std::string sum;
  int count = 0;
  for (size_t i = 0; i < group.terms.size(); ++i) {
    const Term &term = form.terms[group.terms[i]];
    if (dz && term.offset[2] != *dz)
      continue;
    std::string value = scope.read(term.field, term.offset);
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
    factors = factorTexts(scope, form, group);
  std::string coef = coefficientProduct(group.coef, factors);
  bool single = count == 1 && sum[0] != '-';
  if (coef == "Real(1)")
    return count == 1 ? sum : "(" + sum + ")";
  if (coef == "Real(-1)")
    return single ? "-" + sum : "-(" + sum + ")";
  return coef + " * " + (single ? sum : "(" + sum + ")");
}
} // namespace

std::string sumStatements(const ir::Stencil &s, PointScope &scope, const LinearForm &form,
                          const std::vector<int> &groups, std::optional<int> dz, bool pointwise,
                          const std::string &target, bool assign, const std::string &indent) {
  std::string out;
  bool first = assign;
  for (const std::vector<int> &partition : partitionGroupsByFactors(form, groups)) {
    std::vector<int> present;
    for (int g : partition)
      if (!dz || groupTouchesPlane(form, form.groups[g], *dz))
        present.push_back(g);
    if (present.empty())
      continue;
    for (int g : present)
      out += fmt::format("{}// g{}: {}\n", indent, g, groupToString(s, form, form.groups[g]));
    std::string expr;
    if (present.size() == 1) {
      expr = groupExpr(scope, form, form.groups[present[0]], dz, true);
    } else {
      // Groups sharing their factors K: K * (c1 * S1 + c2 * S2 + ...).
      std::string inner;
      for (int g : present) {
        std::string e = groupExpr(scope, form, form.groups[g], dz, false);
        if (inner.empty())
          inner = e;
        else if (e[0] == '-')
          inner += " - " + e.substr(1);
        else
          inner += " + " + e;
      }
      std::string product;
      for (const std::string &f : factorTexts(scope, form, form.groups[present[0]]))
        product += f + " * ";
      expr = product + "(" + inner + ")";
    }
    out += fmt::format("{}{} {} {};\n", indent, target, first ? "=" : "+=", expr);
    first = false;
  }
  if (pointwise && form.pointwise) {
    out += fmt::format("{}// pointwise part\n{}{} {} {};\n", indent, indent, target,
                       first ? "=" : "+=", printCExpr(*form.pointwise, scope.exprNames()));
    first = false;
  }
  if (first)
    out += fmt::format("{}{} = Real(0);\n", indent, target);
  return out;
}

} // namespace stencilc::backend
