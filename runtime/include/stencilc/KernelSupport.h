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
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace stencilc::rt {

/// A table copied into [column][row] order with the row count padded to a
/// multiple of 16 elements: the coefficients of one column (one medium value)
/// fill whole cache lines, so a point needs one or two line loads for all its
/// coefficients, whatever layout the caller used.
template <typename T> class PackedTable {
public:
  /// Packs `t`, or uses it in place where it is already packed (TableView::packed).
  explicit PackedTable(const TableView<T> &t)
      : rows_(t.rows), cols_(t.cols), stride_((t.rows + 15) / 16 * 16) {
    if (t.packed && t.rowStride == 1 && t.colStride == stride_) {
      data_ = t.data;
      return;
    }
    storage_ = AlignedBuffer<T>(std::size_t(stride_) * std::size_t(t.cols));
    for (int c = 0; c < cols_; ++c) {
      T *dst = storage_.data() + std::ptrdiff_t(c) * stride_;
      for (int r = 0; r < rows_; ++r)
        dst[r] = t.data[r * t.rowStride + c * t.colStride];
      std::fill(dst + rows_, dst + stride_, T(0));
    }
    data_ = storage_.data();
  }

  /// The coefficients of column `c`: column(c)[r] == C[r][c].
  const T *column(std::ptrdiff_t c) const { return data_ + c * stride_; }
  std::ptrdiff_t stride() const { return stride_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  /// This table as a view that kernels use in place (TableView::packed); valid
  /// while this table (or the one it uses in place) lives.
  TableView<T> view() const { return {data_, 1, stride_, rows_, cols_, true}; }

private:
  int rows_, cols_;
  std::ptrdiff_t stride_;
  AlignedBuffer<T> storage_; ///< empty where the table is used in place
  const T *data_ = nullptr;
};

/// Points a kernel stages coefficients for at a time: one 256-bit register,
/// also on AVX-512 machines. GCC's tuning for the Intel AVX-512 cores
/// (-march=native: skylake-avx512 to sapphirerapids) prefers 256-bit vectors,
/// so the `omp simd` loops run 8 floats wide there; a 16-wide staging block
/// had no vector transpose and cost a scalar copy per coefficient
/// (docs/PERFORMANCE.md, "AVX-512 machines").
template <typename T> inline constexpr int kSimdLanes = 32 / int(sizeof(T));

/// Coefficients of `n` <= W consecutive points, transposed: out[r * W + l] =
/// C[r][idx[l]] for the rows r in [rowBegin, rowEnd) (multiples of 4, within
/// the packed stride). Each point's column is read as whole vectors and
/// transposed in registers, which costs far less than gathering every
/// coefficient lane by lane from a random column: 8 rows at a time, then 4
/// (half the shuffles and stores of an 8-row block whose last rows go unused).
/// Lanes l >= n repeat point 0.
template <int W, typename T, typename I>
inline void loadColumns(const PackedTable<T> &t, const I *idx, int n, int rowBegin, int rowEnd,
                        T *out) {
  const T *col[W];
  for (int l = 0; l < W; ++l)
    col[l] = t.column(idx[l < n ? l : 0]);
#if defined(__AVX2__)
  if constexpr (std::is_same_v<T, float> && W == 8) {
    int r0 = rowBegin;
    for (; r0 + 8 <= rowEnd; r0 += 8) {
      __m256 v[8];
      for (int l = 0; l < 8; ++l)
        v[l] = _mm256_loadu_ps(col[l] + r0);
      __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
      __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
      __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
      __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
      __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
      __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
      __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
      __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
      T *o = out + r0 * 8;
      _mm256_store_ps(o + 0, _mm256_permute2f128_ps(s0, s4, 0x20));
      _mm256_store_ps(o + 8, _mm256_permute2f128_ps(s1, s5, 0x20));
      _mm256_store_ps(o + 16, _mm256_permute2f128_ps(s2, s6, 0x20));
      _mm256_store_ps(o + 24, _mm256_permute2f128_ps(s3, s7, 0x20));
      _mm256_store_ps(o + 32, _mm256_permute2f128_ps(s0, s4, 0x31));
      _mm256_store_ps(o + 40, _mm256_permute2f128_ps(s1, s5, 0x31));
      _mm256_store_ps(o + 48, _mm256_permute2f128_ps(s2, s6, 0x31));
      _mm256_store_ps(o + 56, _mm256_permute2f128_ps(s3, s7, 0x31));
    }
    if (r0 < rowEnd) {
      // Four rows: columns l and l + 4 share a register, one per 128-bit lane,
      // so a 4x4 transpose within the lanes finishes the job.
      __m256 v[4];
      for (int l = 0; l < 4; ++l)
        v[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(col[l] + r0)),
                                    _mm_loadu_ps(col[l + 4] + r0), 1);
      __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
      __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
      T *o = out + r0 * 8;
      _mm256_store_ps(o + 0, _mm256_shuffle_ps(t0, t2, 0x44));
      _mm256_store_ps(o + 8, _mm256_shuffle_ps(t0, t2, 0xEE));
      _mm256_store_ps(o + 16, _mm256_shuffle_ps(t1, t3, 0x44));
      _mm256_store_ps(o + 24, _mm256_shuffle_ps(t1, t3, 0xEE));
    }
    return;
  }
  if constexpr (std::is_same_v<T, double> && W == 4) {
    for (int r0 = rowBegin; r0 < rowEnd; r0 += 4) {
      __m256d a = _mm256_loadu_pd(col[0] + r0), b = _mm256_loadu_pd(col[1] + r0);
      __m256d c = _mm256_loadu_pd(col[2] + r0), d = _mm256_loadu_pd(col[3] + r0);
      __m256d ab0 = _mm256_unpacklo_pd(a, b), ab1 = _mm256_unpackhi_pd(a, b);
      __m256d cd0 = _mm256_unpacklo_pd(c, d), cd1 = _mm256_unpackhi_pd(c, d);
      T *o = out + r0 * 4;
      _mm256_store_pd(o + 0, _mm256_permute2f128_pd(ab0, cd0, 0x20));
      _mm256_store_pd(o + 4, _mm256_permute2f128_pd(ab1, cd1, 0x20));
      _mm256_store_pd(o + 8, _mm256_permute2f128_pd(ab0, cd0, 0x31));
      _mm256_store_pd(o + 12, _mm256_permute2f128_pd(ab1, cd1, 0x31));
    }
    return;
  }
#endif
  for (int r = rowBegin; r < rowEnd; ++r)
    for (int l = 0; l < W; ++l)
      out[r * W + l] = col[l][r];
}

/// Tiles of [first, last) of size `block` (the last one shorter): the rows or
/// planes of the box a kernel call computes.
struct TileRange {
  int first, last, block;
  int count() const { return (last - first + block - 1) / block; }
  int begin(int t) const { return first + t * block; }
  int end(int t) const { return std::min(last, first + (t + 1) * block); }
};

/// `requested` if positive, else `fallback`, clamped to [1, n].
inline int chooseBlock(int requested, int fallback, int n) {
  int b = requested > 0 ? requested : fallback;
  return std::max(1, std::min(b, n));
}

inline void requireTableShape(const char *kernel, const char *table, int rows, int wantRows) {
  if (rows != wantRows)
    throw KernelError(std::string(kernel) + ": table '" + table + "' has " + std::to_string(rows) +
                      " rows, the stencil needs " + std::to_string(wantRows));
}

} // namespace stencilc::rt
