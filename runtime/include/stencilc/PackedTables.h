//===- PackedTables.h - A kernel's tables packed once for many calls ------===//
//
// A generated kernel packs its tables (rt::PackedTable) at every call, and a
// time-tiled pass calls it once per tile and level, so the packing, a fixed
// cost per call, is paid for every tile rather than once a step
// (docs/PERFORMANCE.md §Tables packed again at every call of a time tile).
// Runs that call a kernel many times on the same tables pack them once here
// and hand every call the copies, which the kernel uses in place
// (TableView::packed).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"
#include "stencilc/KernelSupport.h"

#include <string>
#include <vector>

namespace stencilc::rt {

class PackedTables {
public:
  /// Packs `tables`, a kernel's tables in its element type.
  PackedTables(const KernelInfo &kernel, const std::vector<ErasedTable> &tables) {
    const bool isFloat = std::string(kernel.elemType) == "float";
    for (const ErasedTable &t : tables)
      erased_.push_back(isFloat ? packedCopy(t, floats_) : packedCopy(t, doubles_));
  }
  PackedTables(const PackedTables &) = delete;
  PackedTables &operator=(const PackedTables &) = delete;

  /// The packed copies, in the order given; valid while this object lives.
  const std::vector<ErasedTable> &tables() const { return erased_; }

private:
  template <typename T>
  static ErasedTable packedCopy(const ErasedTable &t, std::vector<PackedTable<T>> &copies) {
    // A PackedTable's data stays where it is when the vector moves it.
    return erasedTable(copies.emplace_back(tableView<T>(t)).view());
  }

  std::vector<PackedTable<float>> floats_;
  std::vector<PackedTable<double>> doubles_;
  std::vector<ErasedTable> erased_;
};

} // namespace stencilc::rt
