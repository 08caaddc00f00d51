//===- KernelSupport.h - Helpers that generated CPU kernels call -----------===//
//
// Kept out of the generated files so that they show the stencil and the
// schedule, not plumbing: repacking a coefficient table so that one grid
// point's coefficients are contiguous, and splitting y/z into tiles.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/AlignedBuffer.h"
#include "stencilc/Kernel.h"

#include <algorithm>
#include <cstddef>
#include <string>

namespace stencilc::rt {

/// A table copied into [column][row] order with the row count padded to a
/// multiple of 16 elements: the coefficients of one column (one medium value)
/// fill whole cache lines, so a point needs one or two line loads for all its
/// coefficients, whatever layout the caller used.
template <typename T> class PackedTable {
public:
  explicit PackedTable(const TableView<T> &t)
      : rows_(t.rows), cols_(t.cols), stride_((t.rows + 15) / 16 * 16),
        storage_(std::size_t(stride_) * std::size_t(t.cols)) {
    for (int c = 0; c < cols_; ++c) {
      T *dst = storage_.data() + std::ptrdiff_t(c) * stride_;
      for (int r = 0; r < rows_; ++r)
        dst[r] = t.data[r * t.rowStride + c * t.colStride];
      std::fill(dst + rows_, dst + stride_, T(0));
    }
  }

  /// The coefficients of column `c`: column(c)[r] == C[r][c].
  const T *column(std::ptrdiff_t c) const { return storage_.data() + c * stride_; }
  std::ptrdiff_t stride() const { return stride_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

private:
  int rows_, cols_;
  std::ptrdiff_t stride_;
  AlignedBuffer<T> storage_;
};

/// Tiles of [0, n) of size `block` (the last one shorter).
struct TileRange {
  int n, block;
  int count() const { return (n + block - 1) / block; }
  int begin(int t) const { return t * block; }
  int end(int t) const { return std::min(n, (t + 1) * block); }
};

/// `requested` if positive, else `fallback`, clamped to [1, n].
inline int chooseBlock(int requested, int fallback, int n) {
  int b = requested > 0 ? requested : fallback;
  return std::max(1, std::min(b, n));
}

inline void requireTableShape(const char *kernel, const char *table, int rows, int wantRows) {
  if (rows != wantRows)
    throw KernelError(std::string(kernel) + ": table '" + table + "' has " +
                      std::to_string(rows) + " rows, the stencil needs " +
                      std::to_string(wantRows));
}

} // namespace stencilc::rt
