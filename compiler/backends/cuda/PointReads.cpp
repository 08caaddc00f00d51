//===- PointReads.cpp -----------------------------------------------------===//
#include "backends/cuda/PointReads.h"

#include "backends/KernelAbi.h"

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
  if (style_.onChip)
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
  indexValues_[indexField] = read(indexField, {0, 0, 0});
  RowPlacement place = style_.rowPlacement ? style_.rowPlacement(table, row) : RowPlacement{};
  std::string column = names_.tableColumn(table, indexField);
  std::string global = row == 0 ? column + "[0]"
                                : fmt::format("{}[{} * {}.{}.rowStride]", column, row, style_.args,
                                              names_.table(table));
  std::string staged = place.slot == 0 ? column + "_s[0]"
                                       : fmt::format("{}_s[{} * {}.{}.cols]", column, place.slot,
                                                     style_.args, names_.table(table));
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
  n.scalar = [this](int id) { return style_.args + "." + names_.scalar(id); };
  n.field = [this](int id, const Offset &o) { return read(id, o); };
  n.table = [this](int table, int row, int index) { return tableRead(table, row, index); };
  return n;
}

std::string PointScope::prologue(const std::string &x, const std::string &y, const std::string &z,
                                 const std::string &indent) const {
  std::string out;
  const std::string &a = style_.args;
  const char *restrict = style_.restrictPointers ? "__restrict__ " : "";
  for (int f : outputs_)
    out += fmt::format("{0}Real *const {1} = {2}.{3}.origin + at({2}.{3}, {4}, {5}, {6});\n",
                       indent, pointerName(names_, f), a, names_.field(f), x, y, z);
  for (int f : fields_)
    out +=
        fmt::format("{0}const {1} *{2}const {3} = {4}.{5}.origin + at({4}.{5}, {6}, {7}, {8});\n",
                    indent, fieldElementType(s_.fields[f]), restrict, pointerName(names_, f), a,
                    names_.field(f), x, y, z);
  for (int f : lines_)
    out += fmt::format("{}const std::ptrdiff_t {} = {}.{}.line;\n", indent, names_.line(f), a,
                       names_.field(f));
  for (int f : planes_)
    out += fmt::format("{}const std::ptrdiff_t {} = {}.{}.plane;\n", indent, names_.plane(f), a,
                       names_.field(f));
  for (const auto &[index, value] : indexValues_)
    out += fmt::format("{}const std::ptrdiff_t {} = {}; // the point's table column\n", indent,
                       indexValueName(names_, index), value);
  for (const auto &[table, index] : columns_)
    out += fmt::format("{0}const Real *const {1} = {2}.{3}.data + {4} * {2}.{3}.colStride;\n",
                       indent, names_.tableColumn(table, index), a, names_.table(table),
                       indexValueName(names_, index));
  for (const auto &[table, index] : stagedColumns_)
    out += fmt::format("{}const Real *const {}_s = {}_staged + {};\n", indent,
                       names_.tableColumn(table, index), names_.table(table),
                       indexValueName(names_, index));
  return out;
}

BodyReads PointScope::reads() {
  BodyReads r;
  r.read = [this](int field, const Offset &o) { return read(field, o); };
  r.exprNames = exprNames();
  return r;
}

} // namespace stencilc::backend
