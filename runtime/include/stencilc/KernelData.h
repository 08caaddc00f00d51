//===- KernelData.h - Storage for driving any registered kernel ------------===//
//
// Tests and benchmarks run kernels they know only through rt::KernelInfo.
// KernelData owns one grid per storage slot, in each field's own element type,
// and lends them out as rt::ErasedArgs. Time levels rotate by permuting which
// slot each field names, exactly as a generated `rotate()` moves the views;
// in place, an output names the same slot as the level it overwrites.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace stencilc::rt {

using AnyGrid = std::variant<Grid<float>, Grid<double>, Grid<std::uint8_t>, Grid<std::uint16_t>,
                             Grid<std::int32_t>>;

inline AnyGrid makeAnyGrid(const std::string &type, const GridShape &shape) {
  if (type == "float")
    return Grid<float>(shape);
  if (type == "double")
    return Grid<double>(shape);
  if (type == "uint8")
    return Grid<std::uint8_t>(shape);
  if (type == "uint16")
    return Grid<std::uint16_t>(shape);
  if (type == "int32")
    return Grid<std::int32_t>(shape);
  throw std::invalid_argument("unknown element type '" + type + "'");
}

class KernelData {
public:
  /// Grids of `shape` for every field (none shared), tables of `tableColumns`
  /// columns, scalars 1. With `inPlace`, each output that may overwrite a
  /// time level shares that level's storage instead of having its own.
  KernelData(const KernelInfo &info, const GridShape &shape, int tableColumns, bool inPlace)
      : info_(&info), shape_(shape), inPlace_(inPlace) {
    for (size_t f = 0; f < info.fields.size(); ++f) {
      const KernelFieldInfo &field = info.fields[f];
      bool shares = inPlace && field.overwrites >= 0;
      slotOf_.push_back(shares ? -1 : int(slots_.size()));
      if (!shares)
        slots_.push_back(makeAnyGrid(field.type, shape));
    }
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (slotOf_[f] < 0)
        slotOf_[f] = slotOf_[info.fields[f].overwrites];
    bool isFloat = std::string(info.elemType) == "float";
    for (const KernelTableInfo &t : info.tables) {
      if (isFloat)
        floatTables_.emplace_back(t.rows, tableColumns, TableLayout::RowMajor);
      else
        doubleTables_.emplace_back(t.rows, tableColumns, TableLayout::RowMajor);
    }
    scalars_.assign(info.scalars.size(), 1.0);
  }

  const KernelInfo &info() const { return *info_; }
  bool inPlace() const { return inPlace_; }

  /// The grid that field `f` names now.
  AnyGrid &field(int f) { return slots_[slotOf_[f]]; }
  template <typename T> Grid<T> &field(int f) { return std::get<Grid<T>>(field(f)); }

  template <typename T> CoefficientTable<T> &table(int t) {
    if constexpr (std::is_same_v<T, float>)
      return floatTables_[t];
    else
      return doubleTables_[t];
  }
  std::vector<double> &scalars() { return scalars_; }

  ErasedArgs args() {
    ErasedArgs a;
    a.extent = {shape_.nx, shape_.ny, shape_.nz};
    for (size_t f = 0; f < info_->fields.size(); ++f)
      std::visit(
          [&](auto &g) {
            a.fields.push_back({static_cast<void *>(g.origin()), g.lineStride(), g.planeStride()});
          },
          field(int(f)));
    for (const auto &t : floatTables_)
      a.tables.push_back(erasedTable(view(t)));
    for (const auto &t : doubleTables_)
      a.tables.push_back(erasedTable(view(t)));
    a.scalars = scalars_;
    return a;
  }

  /// The time levels move on by one step (`overwrites <- advances <- output`).
  void rotate() {
    for (size_t o = 0; o < info_->fields.size(); ++o) {
      const KernelFieldInfo &out = info_->fields[o];
      if (out.advances < 0)
        continue;
      int &O = slotOf_[o], &F = slotOf_[out.advances];
      if (out.overwrites < 0) {
        std::swap(O, F);
        continue;
      }
      int &G = slotOf_[out.overwrites];
      const bool sharing = O == G;
      const int oldest = G;
      G = F;
      F = O;
      O = sharing ? G : oldest;
    }
  }

private:
  const KernelInfo *info_;
  GridShape shape_;
  bool inPlace_;
  std::vector<AnyGrid> slots_;
  std::vector<int> slotOf_;
  std::vector<CoefficientTable<float>> floatTables_;
  std::vector<CoefficientTable<double>> doubleTables_;
  std::vector<double> scalars_;
};

} // namespace stencilc::rt
