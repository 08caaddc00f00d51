//===- Neighbours.h - The neighbour directions a field's reads reach -------===//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/): plain C++20, no other include of the runtime, so the
// compiler uses them without linking the runtime.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace stencilc::rt {

/// Bit of the neighbour direction (dx, dy, dz), each in {-1, 0, 1}, in
/// KernelFieldInfo::neighbours: the compiler sets these bits, the MPI halo
/// exchange reads them.
constexpr int neighbourBit(int dx, int dy, int dz) {
  return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
}

} // namespace stencilc::rt
