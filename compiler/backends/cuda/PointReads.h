//===- PointReads.h - The statements that compute one output point ---------===//
//
// Every CUDA variant evaluates coefficient groups at one output point; they
// differ in where a time-level read comes from (global memory, a shared
// plane, a register queue) and where a table row comes from (global memory,
// the read-only cache, a shared copy). A PointScope spells the reads the way
// a variant asks and remembers which pointers the body used, so the kernel
// declares exactly those before it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/CExpr.h"
#include "backends/GroupSums.h"
#include "backends/KernelNames.h"
#include "ir/linear/LinearForm.h"
#include "passes/SweepPlan.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::backend {

struct ReadStyle {
  /// `in` and `index` fields through the read-only cache (__ldg).
  bool readOnlyCoefficients = false;
  /// Declare read-only pointers `const __restrict__` (lets the compiler use the
  /// read-only path on its own; the gmem variant leaves it out).
  bool restrictPointers = false;
  /// A read that does not come from global memory at the point (a shared plane, a ring, a
  /// register queue), or nullopt.
  std::function<std::optional<std::string>(int field, const ir::Offset &offset)> onChip;
  /// Where each table row is read from.
  std::function<RowPlacement(int table, int row)> rowPlacement;
  /// The kernel parameter the fields, tables and scalars come from: `args`, or
  /// `next` for the second step of a two-step launch.
  std::string args = "args";
};

class PointScope {
public:
  PointScope(const ir::Stencil &s, const KernelNames &names, ReadStyle style)
      : s_(s), names_(names), style_(std::move(style)) {}

  /// A read of `field` at `offset` from the output point.
  std::string read(int field, const ir::Offset &offset);
  /// The output's element at the point (declares its pointer).
  std::string output(int field);
  /// How the leaves of coefficient expressions are spelled.
  CExprNames exprNames();
  /// Reads and leaves as the shared body printer (GroupSums.h) asks for them.
  BodyReads reads();

  /// Declarations of the pointers used so far at output point (x, y, z), each
  /// line starting with `indent`: fields, strides, index values, table columns.
  std::string prologue(const std::string &x, const std::string &y, const std::string &z,
                       const std::string &indent) const;

private:
  std::string tableRead(int table, int row, int indexField);
  /// The element of `field` at `offset` through its pointer at the point.
  std::string pointerRead(int field, const ir::Offset &offset) const;
  const ir::Stencil &s_;
  const KernelNames &names_;
  ReadStyle style_;
  std::set<int> fields_, lines_, planes_, outputs_;
  /// Per index field the tables read through: how its value at the point is spelled.
  std::map<int, std::string> indexValues_;
  /// (table, index field) pairs read from global memory, and from the staged shared copy.
  std::set<std::pair<int, int>> columns_, stagedColumns_;
};

} // namespace stencilc::backend
