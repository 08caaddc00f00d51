//===- KernelNames.cpp ----------------------------------------------------===//
#include "backends/KernelNames.h"

namespace stencilc::backend {

namespace {
// C++ keywords and the identifiers generated code declares itself.
const char *const kReserved[] = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
    "const", "constexpr", "continue", "default", "delete", "do", "double", "else", "enum",
    "explicit", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or", "private",
    "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
    // generated code
    "args", "tables", "options", "acc", "ring", "x", "y", "z", "zi", "zo", "zdone", "nx", "ny",
    "nz", "by", "bz", "ty", "tz", "ys", "zs", "y0", "y1", "z0", "z1", "Real", "Args", "Tables",
    "rt", "std", "run", "rotate", "extent", "accLine", "slot", "e", "a", "t"};
} // namespace

KernelNames::KernelNames(const ir::Stencil &s) {
  taken_.insert(std::begin(kReserved), std::end(kReserved));
  for (const ir::Field &f : s.fields)
    fields_.push_back(unique(f.name));
  for (const ir::Scalar &sc : s.scalars)
    scalars_.push_back(unique(sc.name));
  for (const ir::Table &t : s.tables)
    tables_.push_back(unique(t.name));
  // Derived names must not collide with another DSL name either: suffix the base.
  for (std::string &f : fields_)
    for (const char *suffix : {"_line", "_plane", "_acc"})
      while (taken_.count(f + suffix) && f + suffix != f)
        f += "_";
}

std::string KernelNames::unique(const std::string &name) {
  std::string n = name;
  while (taken_.count(n))
    n += "_";
  taken_.insert(n);
  return n;
}

} // namespace stencilc::backend
