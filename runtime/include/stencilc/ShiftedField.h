//===- ShiftedField.h - A field read at a fixed offset, as a field of its own ===//
//
// The DSL reads an index field only at the output point (docs/DSL.md
// "Tables"), yet the adjoint of an update that looks a table up through it
// needs the lookup at each neighbour: the transpose of c(x)·p(x + o) is
// c(x − o)·q(x − o). The compiler's adjoint (docs/DSL.md "Adjoint") declares
// one index field per offset it needs, named by shiftedFieldName, and the
// caller binds it to the same storage shifted by that offset: a view whose
// origin is the point (dx, dy, dz) of the original (shiftedView).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"
#include "stencilc/abi/FieldNames.h"

#include <array>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stencilc::rt {

/// The same storage seen from (dx, dy, dz): point (i, j, k) of the result is
/// point (i + dx, j + dy, k + dz) of the field (strides in elements of
/// `elementBytes` bytes). The caller keeps the reads inside the field's halo.
inline ErasedField shiftedView(const ErasedField &field, const std::array<int, 3> &offset,
                               std::size_t elementBytes) {
  const std::ptrdiff_t elements = offset[0] + offset[1] * field.line + offset[2] * field.plane;
  return {static_cast<char *>(field.origin) + elements * std::ptrdiff_t(elementBytes), field.line,
          field.plane};
}

template <typename T>
ErasedField shiftedView(const Grid<T> &grid, const std::array<int, 3> &offset) {
  if (std::abs(offset[0]) > grid.halo() || std::abs(offset[1]) > grid.halo() ||
      std::abs(offset[2]) > grid.halo())
    throw std::invalid_argument("shiftedView: offset (" + std::to_string(offset[0]) + ", " +
                                std::to_string(offset[1]) + ", " + std::to_string(offset[2]) +
                                ") is beyond the grid's halo of " + std::to_string(grid.halo()));
  return shiftedView(
      ErasedField{const_cast<T *>(grid.origin()), grid.lineStride(), grid.planeStride()}, offset,
      sizeof(T));
}

/// A caller's field for bindFields: its name in the stencil and its storage.
struct NamedField {
  std::string name;
  ErasedField field;
  std::size_t elementBytes = 0;
};

/// The kernel's arguments in the order its KernelInfo lists the fields, each
/// found by name in `fields`; a field named by shiftedFieldName (an adjoint's
/// index read at a neighbour) is its base field's storage shifted. Throws
/// std::invalid_argument naming a field `fields` does not provide.
inline ErasedArgs bindFields(const KernelInfo &info, const Extent &extent,
                             const std::vector<NamedField> &fields) {
  auto find = [&](std::string_view name) -> const NamedField * {
    for (const NamedField &f : fields)
      if (f.name == name)
        return &f;
    return nullptr;
  };
  ErasedArgs a;
  a.extent = extent;
  for (const KernelFieldInfo &f : info.fields) {
    if (const NamedField *given = find(f.name)) {
      a.fields.push_back(given->field);
      continue;
    }
    const auto shifted = parseShiftedFieldName(f.name);
    const NamedField *base = shifted ? find(shifted->base) : nullptr;
    if (!base)
      throw std::invalid_argument(std::string("no storage for field '") + f.name + "' of kernel " +
                                  info.name);
    a.fields.push_back(shiftedView(base->field, shifted->offset, base->elementBytes));
  }
  return a;
}

template <typename T> NamedField namedField(std::string name, const Grid<T> &grid) {
  return {std::move(name),
          ErasedField{const_cast<T *>(grid.origin()), grid.lineStride(), grid.planeStride()},
          sizeof(T)};
}

} // namespace stencilc::rt
