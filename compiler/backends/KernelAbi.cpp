//===- KernelAbi.cpp ------------------------------------------------------===//
#include "backends/KernelAbi.h"

#include <fmt/format.h>

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
    out += fmt::format("  a.{0} = {{static_cast<const Real *>(e.tables[{1}].data), "
                       "e.tables[{1}].rowStride,\n           e.tables[{1}].colStride, "
                       "e.tables[{1}].rows, e.tables[{1}].cols}};\n",
                       names.table(int(t)), t);
  for (size_t sc = 0; sc < s.scalars.size(); ++sc)
    out += fmt::format("  a.{} = Real(e.scalars[{}]);\n", names.scalar(int(sc)), sc);
  return out;
}

std::string fieldInfoList(const ir::Stencil &s, int indent) {
  const std::string separator = ",\n" + std::string(size_t(indent), ' ');
  std::string out;
  for (const ir::Field &f : s.fields) {
    std::string type =
        f.role == FieldRole::Index ? ir::indexTypeName(f.indexType) : ir::elemTypeName(s.elemType);
    out += fmt::format("{}{{\"{}\", \"{}\", \"{}\", {}, {}}}", out.empty() ? "" : separator, f.name,
                       ir::fieldRoleName(f.role), type, f.overwrites, f.advances);
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

} // namespace stencilc::backend
