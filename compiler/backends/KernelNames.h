//===- KernelNames.h - C++ names for a stencil's fields, scalars, tables ---===//
//
// Generated code uses the DSL's names so a reader recognises them, with the
// generated locals (row pointers, strides, loop counters) derived from them.
// A DSL name that is a C++ keyword or collides with a generated name gets a
// trailing underscore until it is unique.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <set>
#include <string>
#include <vector>

namespace stencilc::backend {

class KernelNames {
public:
  explicit KernelNames(const ir::Stencil &s);

  /// The field's member in Args and its row pointer in a kernel body.
  const std::string &field(int id) const { return fields_[id]; }
  std::string line(int id) const { return fields_[id] + "_line"; }
  std::string plane(int id) const { return fields_[id] + "_plane"; }
  /// Partial sums (planes) or the running sum (naive) of an output.
  std::string acc(int id) const { return fields_[id] + "_acc"; }
  const std::string &scalar(int id) const { return scalars_[id]; }
  const std::string &table(int id) const { return tables_[id]; }
  /// Pointer to the coefficients of table `t` for the current point's `index` value.
  std::string tableColumn(int t, int index) const { return tables_[t] + "_" + fields_[index]; }

private:
  std::string unique(const std::string &name);
  std::set<std::string> taken_;
  std::vector<std::string> fields_, scalars_, tables_;
};

} // namespace stencilc::backend
