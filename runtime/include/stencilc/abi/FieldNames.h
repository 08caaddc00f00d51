//===- FieldNames.h - Names the compiler gives fields and the runtime binds =//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/): plain C++20, no other include of the runtime, so the
// compiler's pipeline uses them without linking the runtime.
//
// The adjoint of an update that looks a table up through an index field needs
// the lookup at each neighbour; the compiler declares one index field per
// offset, named here, and the runtime's bindFields (stencilc/ShiftedField.h)
// binds it to the same storage shifted by that offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace stencilc::rt {

/// "vidx_at_m1_0_2" for vidx at (-1, 0, 2): a valid identifier in the DSL and C++.
inline std::string shiftedFieldName(std::string_view base, const std::array<int, 3> &offset) {
  std::string name(base);
  name += "_at";
  for (int c : offset) {
    name += '_';
    if (c < 0)
      name += 'm';
    name += std::to_string(std::abs(c));
  }
  return name;
}

struct ShiftedFieldName {
  std::string base;
  std::array<int, 3> offset{0, 0, 0};
};

/// The base name and offset of a name shiftedFieldName made; nullopt for any other name.
inline std::optional<ShiftedFieldName> parseShiftedFieldName(std::string_view name) {
  ShiftedFieldName out;
  std::string_view rest = name;
  for (int axis = 2; axis >= 0; --axis) {
    const size_t us = rest.rfind('_');
    if (us == std::string_view::npos || us + 1 == rest.size())
      return std::nullopt;
    std::string_view digits = rest.substr(us + 1);
    const bool negative = digits.front() == 'm';
    if (negative)
      digits.remove_prefix(1);
    if (digits.empty() || digits.size() > 3)
      return std::nullopt;
    int value = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9')
        return std::nullopt;
      value = value * 10 + (ch - '0');
    }
    out.offset[size_t(axis)] = negative ? -value : value;
    rest = rest.substr(0, us);
  }
  if (!rest.ends_with("_at") || rest.size() == 3)
    return std::nullopt;
  out.base = std::string(rest.substr(0, rest.size() - 3));
  if (shiftedFieldName(out.base, out.offset) != name)
    return std::nullopt; // e.g. a leading zero or "m0"
  return out;
}

} // namespace stencilc::rt
