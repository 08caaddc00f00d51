//===- KernelNames.cpp ----------------------------------------------------===//
#include "backends/KernelNames.h"

#include <optional>
#include <regex>

namespace stencilc::backend {

namespace {
// C++ keywords and the identifiers generated code declares itself where DSL
// names become identifiers too: the templates' names, and the locals of the
// CPU row functions, which declare a pointer per field and a constant per
// scalar under the DSL name. (CUDA kernels name their locals after a field
// with a suffix, p_pt, p_tile, so only the derived names below matter there.)
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
    "rt", "std", "run", "rotate", "extent", "accLine", "slot", "e", "a", "t",
    // the CPU row functions' locals
    "box", "xBegin", "xEnd", "x0", "kW", "n", "l", "coefs"};

/// Names of the form the printers derive locals from: invariantN.
bool looksDerived(const std::string &name) {
  const std::string prefix = "invariant";
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}
} // namespace

KernelNames::KernelNames(const ir::Stencil &s) {
  taken_.insert(std::begin(kReserved), std::end(kReserved));
  for (const ir::Field &f : s.fields)
    fields_.push_back(unique(f.name));
  for (const ir::Scalar &sc : s.scalars)
    scalars_.push_back(unique(sc.name));
  for (const ir::Table &t : s.tables)
    tables_.push_back(unique(t.name));
  // The printers derive names from a field's (p_line, p_acc0, p_sum_m4, p_tile,
  // p_q_m1_0 ...) and a table's (C_staged, C_vidx, C_vidx_row, C_vidx_m4 ...).
  // A DSL name that is one of them gets a trailing `_`, which no derived name
  // has after its base.
  static const std::regex fromField(
      "(line|plane|acc|acc[0-9]+|acc_value|acc_[mp][0-9]+|sum|sum_[mp][0-9]+|value|pt|tile|at|"
      "q_.*|c_.*)");
  static const std::regex fromColumn("(|_row|_s|_[mp][0-9]+)");
  auto derived = [&](const std::string &name) {
    auto after = [&](const std::string &base) -> std::optional<std::string> {
      if (name.size() > base.size() + 1 && name.compare(0, base.size() + 1, base + "_") == 0)
        return name.substr(base.size() + 1);
      return std::nullopt;
    };
    for (const std::string &f : fields_)
      if (auto rest = after(f); rest && &f != &name && std::regex_match(*rest, fromField))
        return true;
    for (const std::string &t : tables_) {
      auto rest = after(t);
      if (!rest || &t == &name)
        continue;
      if (*rest == "staged")
        return true;
      for (const std::string &f : fields_)
        if (rest->compare(0, f.size(), f) == 0 &&
            std::regex_match(rest->substr(f.size()), fromColumn))
          return true;
    }
    return false;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::vector<std::string> *names : {&fields_, &scalars_, &tables_})
      for (std::string &n : *names)
        if (derived(n)) {
          n = unique(n + "_");
          changed = true;
        }
  }
}

std::string KernelNames::unique(const std::string &name) {
  std::string n = name;
  while (taken_.count(n) || looksDerived(n))
    n += "_";
  taken_.insert(n);
  return n;
}

} // namespace stencilc::backend
