//===- FieldReach.h - How far a stencil reads each field, and where ------===//
//
// A distributed run (docs/DISTRIBUTED.md) exchanges, after each step, the
// cells a neighbouring subdomain reads. Which neighbours those are follows
// from the offsets the stencil reads a field at: a star reaches only the six
// faces; a read at (1, 1, 0) also reaches the (+x, +y) edge neighbour. The
// generated code carries this per field (rt::KernelFieldInfo::reach and
// ::neighbours), so the runtime exchanges exactly those cells. The same
// reads size a CPU tile by the layer condition (passes/SweepPlan.cpp): the
// fields a sweep reads on several z planes are the ones its tiles keep planes
// of, as deep and as wide as it reads them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <cstdint>
#include <set>
#include <vector>

namespace stencilc {

/// The reads of one field: how far below (`minus`) and above (`plus`) a
/// point they reach on each axis, and the neighbour directions they reach.
struct FieldReach {
  int minus[3] = {0, 0, 0};
  int plus[3] = {0, 0, 0};
  /// Bit rt::neighbourBit(dx, dy, dz) for each direction (dx, dy, dz) in
  /// {-1, 0, 1}^3 other than the centre that a read reaches: some read offset
  /// has the sign of the direction on every axis where the direction is not 0.
  std::uint32_t neighbours = 0;
  /// The z offsets the field is read at.
  std::set<int> zOffsets;
};

/// The reach of every field of `s` (index by field id), from the offsets its
/// linear forms read: time levels in the terms, `in` fields in the factors and
/// pointwise parts, index fields where a table lookup reads them.
std::vector<FieldReach> fieldReaches(const ir::Stencil &s, const LinearStencil &linear);

/// The same for the reads of one sweep: the terms of the groups groupsOf[u] of
/// each update u with their factors, and every pointwise part (which sweep
/// applies it is the backend's choice, so each sweep is taken to read it).
std::vector<FieldReach> fieldReaches(const ir::Stencil &s, const LinearStencil &linear,
                                     const std::vector<std::vector<int>> &groupsOf);

} // namespace stencilc
