//===- KernelAbi.cpp ------------------------------------------------------===//
#include "backends/KernelAbi.h"

#include "ir/linear/FieldReach.h"

#include "ir/Printer.h"

#include <fmt/format.h>

#include <algorithm>

namespace stencilc::backend {

using ir::FieldRole;

std::string fieldElementType(const ir::Field &f) {
  if (f.role != FieldRole::Index)
    return "Real";
  switch (f.indexType) {
  case ir::IndexType::UInt8: return "std::uint8_t";
  case ir::IndexType::UInt16: return "std::uint16_t";
  case ir::IndexType::Int32: return "std::int32_t";
  }
  return "?";
}

std::string rotateBody(const ir::Stencil &s, const KernelNames &names) {
  std::string out;
  for (size_t o = 0; o < s.fields.size(); ++o) {
    const ir::Field &f = s.fields[o];
    if (f.advances < 0)
      continue;
    std::string O = names.field(int(o)), F = names.field(f.advances);
    if (f.overwrites < 0) {
      out += fmt::format("  {{ // {0} <- {1}, and {1} reuses {0}'s old storage\n"
                         "    const rt::FieldView<const Real> freed = a.{0};\n"
                         "    a.{0} = rt::readOnlyView(a.{1});\n"
                         "    a.{1} = rt::writableView(freed);\n  }}\n",
                         F, O);
      continue;
    }
    std::string G = names.field(f.overwrites);
    out += fmt::format(
        "  {{ // {0} <- {1} <- {2}\n"
        "    const bool inPlace = static_cast<const void *>(a.{2}.origin) == a.{0}.origin;\n"
        "    const rt::FieldView<const Real> oldest = a.{0};\n"
        "    a.{0} = a.{1};\n"
        "    a.{1} = rt::readOnlyView(a.{2});\n"
        "    a.{2} = rt::writableView(inPlace ? a.{0} : oldest);\n  }}\n",
        G, F, O);
  }
  return out.empty() ? "  (void)a; // no output advances a time level\n" : out;
}

std::string erasedArgsBody(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel) {
  std::string out = fmt::format(
      "  if (e.fields.size() != {} || e.tables.size() != {} || e.scalars.size() != {})\n"
      "    throw rt::KernelError(\"{}: wrong number of erased arguments\");\n",
      s.fields.size(), s.tables.size(), s.scalars.size(), kernel);
  for (size_t f = 0; f < s.fields.size(); ++f) {
    const ir::Field &field = s.fields[f];
    bool writable = field.role == FieldRole::Output;
    std::string type = (writable ? "" : "const ") + fieldElementType(field);
    out += fmt::format("  a.{0} = {{static_cast<{1} *>(e.fields[{2}].origin), e.fields[{2}].line, "
                       "e.fields[{2}].plane}};\n",
                       names.field(int(f)), type, f);
  }
  for (size_t t = 0; t < s.tables.size(); ++t)
    out += fmt::format("  a.{} = rt::tableView<Real>(e.tables[{}]);\n", names.table(int(t)), t);
  for (size_t sc = 0; sc < s.scalars.size(); ++sc)
    out += fmt::format("  a.{} = Real(e.scalars[{}]);\n", names.scalar(int(sc)), sc);
  return out;
}

std::string fieldInfoList(const ir::Stencil &s, const LinearStencil &linear, int indent) {
  const std::string separator = ",\n" + std::string(size_t(indent), ' ');
  const std::vector<FieldReach> reaches = fieldReaches(s, linear);
  std::string out;
  for (size_t i = 0; i < s.fields.size(); ++i) {
    const ir::Field &f = s.fields[i];
    const FieldReach &r = reaches[i];
    std::string type =
        f.role == FieldRole::Index ? ir::indexTypeName(f.indexType) : ir::elemTypeName(s.elemType);
    out += fmt::format("{}{{\"{}\", \"{}\", \"{}\", {}, {}, {{{}, {}, {}, {}, {}, {}}}, 0x{:07x}}}",
                       out.empty() ? "" : separator, f.name, ir::fieldRoleName(f.role), type,
                       f.overwrites, f.advances, r.minus[0], r.plus[0], r.minus[1], r.plus[1],
                       r.minus[2], r.plus[2], r.neighbours);
  }
  return out;
}

std::string tableInfoList(const ir::Stencil &s) {
  std::string out;
  for (const ir::Table &t : s.tables)
    out += fmt::format("{}{{\"{}\", {}}}", out.empty() ? "" : ", ", t.name, t.rows);
  return out;
}

std::string scalarInfoList(const ir::Stencil &s) {
  std::string out;
  for (const ir::Scalar &sc : s.scalars)
    out += fmt::format("{}\"{}\"", out.empty() ? "" : ", ", sc.name);
  return out;
}

namespace {
std::string fieldComment(const ir::Stencil &s, const ir::Field &f) {
  std::string c = ir::fieldRoleName(f.role);
  if (f.role == FieldRole::Index)
    c += std::string(" ") + ir::indexTypeName(f.indexType);
  if (f.advances >= 0)
    c += ", next level of " + s.fields[f.advances].name;
  if (f.overwrites >= 0)
    c += ", may share storage with " + s.fields[f.overwrites].name + " (in place)";
  return c;
}
} // namespace

std::string argMembers(const ir::Stencil &s, const KernelNames &names) {
  std::string out;
  for (size_t f = 0; f < s.fields.size(); ++f) {
    const ir::Field &field = s.fields[f];
    bool writable = field.role == FieldRole::Output;
    out += fmt::format("  rt::FieldView<{}{}> {}; ///< {}\n", writable ? "" : "const ",
                       fieldElementType(field), names.field(int(f)), fieldComment(s, field));
  }
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const ir::Table &table = s.tables[t];
    std::string rows = std::to_string(table.rows) + " rows";
    if (table.rowSource == ir::Table::RowSource::Classes)
      rows += ": one per coefficient class of " + s.pointSets[table.pointSet].name;
    else if (table.rowSource == ir::Table::RowSource::Points)
      rows += ": one per point of " + s.pointSets[table.pointSet].name;
    out += fmt::format("  rt::TableView<Real> {}; ///< {}, any number of columns\n",
                       names.table(int(t)), rows);
  }
  for (size_t sc = 0; sc < s.scalars.size(); ++sc)
    out += fmt::format("  Real {} = 0; ///< run-time scalar\n", names.scalar(int(sc)));
  return out;
}

std::string rotationSummary(const ir::Stencil &s) {
  std::string out;
  for (const ir::Field &f : s.fields) {
    if (f.advances < 0)
      continue;
    if (!out.empty())
      out += "; ";
    if (f.overwrites >= 0)
      out += s.fields[f.overwrites].name + " <- ";
    out += s.fields[f.advances].name + " <- " + f.name;
  }
  return out.empty() ? "nothing to rotate (no output advances a time level)" : out;
}

std::string stencilSummary(const ir::Stencil &s, const LinearStencil &linear,
                           const Decomposition &decomposition) {
  std::string d =
      fmt::format("// Stencil {}: {}d, {}, ", s.name, s.dims, ir::elemTypeName(s.elemType));
  d += s.order ? fmt::format("order {} (radius {}).\n", s.order, s.radius)
               : fmt::format("radius {}.\n", s.radius);
  for (size_t u = 0; u < s.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    ReadSummary reads = summarizeReads(form);
    d += fmt::format("// Update {} = {}\n", s.fields[form.output].name,
                     ir::exprToString(s, *s.updates[u].rhs));
    d += fmt::format("//   {} points read ({} off-axis) in {} coefficient groups over {} "
                     "z-plane{}.\n",
                     reads.points.size(), reads.offAxisPoints, form.groups.size(),
                     reads.planes.size(), reads.planes.size() == 1 ? "" : "s");
  }
  d += fmt::format("// Plan: {} sweep{} per step", decomposition.sweeps.size(),
                   decomposition.sweeps.size() == 1 ? "" : "s");
  for (const SubStencil &sweep : decomposition.sweeps)
    d += fmt::format("; {}", sweep.reason);
  return d;
}

std::string argumentChecks(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel) {
  std::string out;
  for (size_t f = 0; f < s.fields.size(); ++f)
    out += fmt::format("  if (!a.{}.origin)\n    throw rt::KernelError(\"{}: field '{}' is not "
                       "set\");\n",
                       names.field(int(f)), kernel, s.fields[f].name);
  for (size_t t = 0; t < s.tables.size(); ++t)
    out += fmt::format("  if (a.{0}.rows != {1} || a.{0}.cols < 1)\n"
                       "    throw rt::KernelError(\"{2}: table '{3}' needs {1} rows and at "
                       "least one column\");\n",
                       names.table(int(t)), s.tables[t].rows, kernel, s.tables[t].name);
  // An output may share storage only with the level it overwrites, and then with the
  // same strides: anything else would read values this step has already replaced.
  for (size_t o = 0; o < s.fields.size(); ++o) {
    const ir::Field &output = s.fields[o];
    if (output.role != FieldRole::Output)
      continue;
    for (size_t f = 0; f < s.fields.size(); ++f) {
      if (f == o || s.fields[f].role == FieldRole::Index)
        continue;
      std::string O = names.field(int(o)), F = names.field(int(f));
      if (int(f) == output.overwrites)
        out += fmt::format(
            "  if (static_cast<const void *>(a.{0}.origin) == a.{1}.origin &&\n"
            "      (a.{0}.line != a.{1}.line || a.{0}.plane != a.{1}.plane))\n"
            "    throw rt::KernelError(\"{2}: '{3}' shares storage with '{4}' but not its "
            "layout\");\n",
            O, F, kernel, output.name, s.fields[f].name);
      else
        out += fmt::format("  if (static_cast<const void *>(a.{}.origin) == a.{}.origin)\n"
                           "    throw rt::KernelError(\"{}: '{}' may not share storage with "
                           "'{}'\");\n",
                           O, F, kernel, output.name, s.fields[f].name);
    }
  }
  return out;
}

std::string sweepBanner(int sweep, const std::string &reason) {
  return fmt::format("//===-- Sweep {}: {} {}===//\n\n", sweep, reason,
                     std::string(std::max<int>(0, 60 - int(reason.size())), '-'));
}

TemplateValues abiHeaderValues(const ir::Stencil &s, const KernelNames &names,
                               const TemplateValues &fileValues) {
  TemplateValues values = fileValues;
  values.insert({{"REAL", ir::elemTypeName(s.elemType)},
                 {"DIMS", std::to_string(s.dims)},
                 {"RADIUS", std::to_string(s.radius)},
                 {"ARG_MEMBERS", argMembers(s, names)},
                 {"ROTATION_SUMMARY", rotationSummary(s)}});
  return values;
}

TemplateValues abiSourceValues(const ir::Stencil &s, const LinearStencil &linear,
                               const KernelNames &names, const std::string &kernel, int sweeps,
                               int fieldInfoIndent, const TemplateValues &fileValues) {
  TemplateValues values = fileValues;
  values.insert({{"STENCIL", s.name},
                 {"REAL", ir::elemTypeName(s.elemType)},
                 {"CHECK_2D", s.dims == 2 ? " || a.extent.nz != 1" : ""},
                 {"CHECK_ARGS", argumentChecks(s, names, kernel)},
                 {"ROTATE_BODY", rotateBody(s, names)},
                 {"ERASED_ARGS", erasedArgsBody(s, names, kernel)},
                 {"SWEEP_COUNT", std::to_string(sweeps)},
                 {"FIELD_INFO", fieldInfoList(s, linear, fieldInfoIndent)},
                 {"TABLE_INFO", tableInfoList(s)},
                 {"SCALAR_INFO", scalarInfoList(s)}});
  return values;
}

} // namespace stencilc::backend
