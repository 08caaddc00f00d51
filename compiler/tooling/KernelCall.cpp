//===- KernelCall.cpp - The call that replaces a lifted loop nest --------===//
#include "tooling/KernelCall.h"

#include <fmt/format.h>

namespace stencilc::tooling {

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
    text += fmt::format("{}{}.{} = {{{}, {}, {}}};\n", in, args, f.name, f.origin, f.line, f.plane);
  for (const LiftedTable &t : s.tables)
    text += fmt::format("{}{}.{} = {{{}, {}, 1, {}, {}}};\n", in, args, t.name, t.data, t.cols,
                        t.rows, t.cols);
  for (const LiftedScalar &sc : s.scalars)
    text += fmt::format("{}{}.{} = {};\n", in, args, sc.name, sc.value);
  text += fmt::format("{}{}::run({});\n", in, ns, args);
  text += indent + "}";
  return text;
}

} // namespace stencilc::tooling
