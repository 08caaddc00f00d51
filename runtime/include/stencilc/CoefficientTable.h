//===- CoefficientTable.h - The Ne x Nd coefficient matrices ---------------===//
//
// A table (C in docs/DESIGN.md §ETE coefficients [1]) has one row per stencil point or coefficient
// class and one column per discretised medium value. Kernels read
// C[row][idx(x)]; which of the two storage orders is faster depends on the
// backend (a row-major sub-table is contiguous per row, column-major keeps
// all rows of one column in the same cache line), so both are offered.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/AlignedBuffer.h"
#include "stencilc/Random.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace stencilc::rt {

enum class TableLayout {
  RowMajor,    ///< [row][col]: element (r, c) at r * cols + c
  ColumnMajor, ///< [col][row]: element (r, c) at c * rows + r
};

template <typename T> class CoefficientTable {
public:
  CoefficientTable() = default;
  CoefficientTable(int rows, int cols, TableLayout layout = TableLayout::RowMajor)
      : rows_(rows), cols_(cols), layout_(layout) {
    if (rows < 1 || cols < 1)
      throw std::invalid_argument("CoefficientTable: rows and columns must be positive");
    storage_ = AlignedBuffer<T>(std::size_t(rows) * std::size_t(cols));
    std::fill(data(), data() + size(), T{});
  }

  CoefficientTable(CoefficientTable &&) noexcept = default;
  CoefficientTable &operator=(CoefficientTable &&) noexcept = default;
  CoefficientTable(const CoefficientTable &) = delete;
  CoefficientTable &operator=(const CoefficientTable &) = delete;

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  TableLayout layout() const { return layout_; }
  std::size_t size() const { return storage_.size(); }

  /// Elements between (r, c) and (r + 1, c), and between (r, c) and (r, c + 1).
  std::ptrdiff_t rowStride() const { return layout_ == TableLayout::RowMajor ? cols_ : 1; }
  std::ptrdiff_t colStride() const { return layout_ == TableLayout::RowMajor ? 1 : rows_; }

  T *data() { return storage_.data(); }
  const T *data() const { return storage_.data(); }

  T &operator()(int row, int col) { return data()[row * rowStride() + col * colStride()]; }
  const T &operator()(int row, int col) const {
    return data()[row * rowStride() + col * colStride()];
  }

  /// Checked access: throws std::out_of_range for a row or column outside the table.
  T &at(int row, int col) {
    check(row, col);
    return (*this)(row, col);
  }
  const T &at(int row, int col) const {
    check(row, col);
    return (*this)(row, col);
  }

  /// The same values in another storage order.
  CoefficientTable withLayout(TableLayout layout) const {
    CoefficientTable result(rows_, cols_, layout);
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < cols_; ++c)
        result(r, c) = (*this)(r, c);
    return result;
  }

  /// Reproducible uniform values in [lo, hi), drawn row by row whatever the
  /// layout, so both layouts of one seed hold the same matrix.
  void fillRandom(uint64_t seed, T lo, T hi) {
    RandomEngine rng(seed);
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < cols_; ++c)
        (*this)(r, c) = T(uniformReal(rng, double(lo), double(hi)));
  }

private:
  void check(int row, int col) const {
    if (row < 0 || row >= rows_ || col < 0 || col >= cols_)
      throw std::out_of_range("CoefficientTable: (" + std::to_string(row) + ", " +
                              std::to_string(col) + ") is outside " + std::to_string(rows_) +
                              " x " + std::to_string(cols_));
  }

  int rows_ = 0;
  int cols_ = 0;
  TableLayout layout_ = TableLayout::RowMajor;
  AlignedBuffer<T> storage_;
};

} // namespace stencilc::rt
