//===- KernelCall.cpp - The call that replaces a lifted loop nest --------===//
#include "tooling/KernelCall.h"

#include "backends/KernelNames.h"

#include <fmt/format.h>

namespace stencilc::tooling {

void nameKernelMembers(LiftedStencil &s, const ir::Stencil &checked) {
  backend::KernelNames names(checked);
  // `checked` was parsed from stencilText(s): every name of `s` is in it.
  auto idOf = [](const auto &items, const std::string &name) {
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].name == name)
        return int(i);
    return -1;
  };
  for (LiftedField &f : s.fields)
    f.member = names.field(idOf(checked.fields, f.name));
  for (LiftedTable &t : s.tables)
    t.member = names.table(idOf(checked.tables, t.name));
  for (LiftedScalar &sc : s.scalars)
    sc.member = names.scalar(idOf(checked.scalars, sc.name));
}

std::string kernelHeaderName(const LiftedStencil &stencil) { return stencil.name + ".h"; }

std::string kernelCallText(const LiftedStencil &s, const std::string &indent) {
  const std::string ns = "stencilc_kernels::" + s.name;
  const std::string args = s.name + "_args";
  const std::string in = indent + "  ";
  std::string text =
      fmt::format("{{ // stencilc: the loop nest '{}', as its generated kernel\n", s.name);
  text += fmt::format("{}{}::Args {};\n", in, ns, args);
  text += fmt::format("{}{}.extent = {{{}, {}, {}}};\n", in, args, s.extent[0], s.extent[1],
                      s.extent[2]);
  for (const LiftedField &f : s.fields)
    text +=
        fmt::format("{}{}.{} = {{{}, {}, {}}};\n", in, args, f.member, f.origin, f.line, f.plane);
  for (const LiftedTable &t : s.tables)
    text += fmt::format("{}{}.{} = {{{}, {}, 1, {}, {}}};\n", in, args, t.member, t.data, t.cols,
                        t.rows, t.cols);
  for (const LiftedScalar &sc : s.scalars)
    text += fmt::format("{}{}.{} = {};\n", in, args, sc.member, sc.value);
  text += fmt::format("{}{}::run({});\n", in, ns, args);
  text += indent + "}";
  return text;
}

} // namespace stencilc::tooling
