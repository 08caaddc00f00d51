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
#include "stencilc/abi/HostCaches.h"
#include "stencilc/abi/LayerCondition.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#ifdef _OPENMP
#include <omp.h>
#endif

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

/// Bytes of the vectors a kernel's x loop works in: one 256-bit register
/// where the target has AVX, also on AVX-512 machines (GCC's tuning for the
/// Intel AVX-512 cores prefers 256-bit vectors, and a 16-wide staging block had
/// no vector transpose and cost a scalar copy per coefficient:
/// docs/PERFORMANCE.md, "AVX-512 machines"); 128 bits elsewhere, so that a
/// vector is never passed in a register the target lacks (GCC's -Wpsabi).
#if defined(__AVX__)
inline constexpr int kSimdBytes = 32;
#else
inline constexpr int kSimdBytes = 16;
#endif

/// Points a kernel stages coefficients for at a time: the lanes of one vector.
template <typename T> inline constexpr int kSimdLanes = kSimdBytes / int(sizeof(T));

namespace detail {
template <typename T> struct VectorOf { typedef T type __attribute__((vector_size(kSimdBytes))); };
} // namespace detail

/// kSimdLanes<T> values of type T in one vector (a GCC vector type, which
/// Clang also has): arithmetic on it is lane by lane, with scalars broadcast,
/// so a kernel's whole-block loop spells its expression as the scalar loop does.
template <typename T> using Vec = typename detail::VectorOf<T>::type;

namespace detail {
/// Vec<T> as it lies in a row: aligned as T only. Loads and stores go through
/// it rather than memcpy, whose char-typed copy may alias anything: after each
/// such store GCC reloaded every pointer and stride it kept in memory (the
/// packed table's, the row bases it spilled) before the next block could use
/// them, and it copied some loads through the stack. A vector of T has T's
/// alias set, so these accesses alias only the rows of T they are.
template <typename T> struct UnalignedVectorOf {
  typedef T type __attribute__((vector_size(kSimdBytes), aligned(alignof(T))));
};
} // namespace detail

/// The kSimdLanes<T> values from p on (no alignment needed).
template <typename T> inline Vec<T> load(const T *p) {
  return *reinterpret_cast<const typename detail::UnalignedVectorOf<T>::type *>(p);
}

/// Writes v's lanes to p on (no alignment needed).
template <typename T> inline void store(T *p, const Vec<T> &v) {
  *reinterpret_cast<typename detail::UnalignedVectorOf<T>::type *>(p) = v;
}

namespace detail {
#if defined(__AVX2__)
/// The 32 bytes from byte `bytes` of the 64 bytes lo:hi (lo first), for
/// 0 < bytes < 32: the 128-bit lanes are shifted by alignr, which cannot
/// cross them, so the middle 32 bytes (hi's low lane after lo's high lane)
/// come from a lane swap first.
template <int Bytes> inline __m256i bytesFrom(__m256i lo, __m256i hi) {
  static_assert(Bytes > 0 && Bytes < 32, "a shift within two vectors");
  const __m256i middle = _mm256_permute2x128_si256(lo, hi, 0x21);
  if constexpr (Bytes == 16)
    return middle;
  else if constexpr (Bytes < 16)
    return _mm256_alignr_epi8(middle, lo, Bytes);
  else
    return _mm256_alignr_epi8(hi, middle, Bytes - 16);
}
#endif
} // namespace detail

/// The kSimdLanes<T> values from p + D on, as load(p + D), for a row whose
/// reads reach from p - Below to p + Above (each 0 or more): cut from two
/// whole vectors, at q and q + W (W = kSimdLanes<T>), that lie within what
/// the row's reads cover anyway, [p - Below, p + Above + W). Every x offset
/// of the row then comes from the same two or three loads and one or two
/// register shuffles instead of one unaligned load each, half of which
/// straddle two cache lines (docs/PERFORMANCE.md, "x neighbours from whole
/// vectors"). Where the target has no AVX2 or no such pair exists (the reach
/// shorter than W, or beyond it), it is load(p + D).
template <int D, int Below, int Above, typename T> inline Vec<T> shifted(const T *p) {
  static_assert(-Below <= D && D <= Above, "an offset within the row's reach");
#if defined(__AVX2__)
  constexpr int W = kSimdLanes<T>;
  if constexpr (sizeof(Vec<T>) == 32 && Below <= W && Above <= W && Below + Above >= W) {
    // The pair from the lowest read up, or, for offsets past its end, the one
    // ending at the highest read.
    constexpr int q = D <= W - Below ? -Below : Above - W;
    constexpr int k = D - q; // lanes into the pair, 0 to W
    constexpr int kBytes = k * int(sizeof(T));
    auto loadWhole = [](const T *at) {
      return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(at));
    };
    __m256i v;
    if constexpr (k == 0)
      v = loadWhole(p + q);
    else if constexpr (k == W)
      v = loadWhole(p + q + W);
    else
      v = detail::bytesFrom<kBytes>(loadWhole(p + q), loadWhole(p + q + W));
    return std::bit_cast<Vec<T>>(v);
  }
#endif
  return load(p + D);
}

namespace detail {
#if defined(__AVX2__)
/// Rows [r0, r0 + 8) of 8 float columns as 8 vectors, v[i] holding row r0 + i
/// of every column: an 8x8 transpose in registers.
inline void transpose8Rows(const float *const *col, int r0, __m256 *v) {
  __m256 a[8];
  for (int l = 0; l < 8; ++l)
    a[l] = _mm256_loadu_ps(col[l] + r0);
  __m256 t0 = _mm256_unpacklo_ps(a[0], a[1]), t1 = _mm256_unpackhi_ps(a[0], a[1]);
  __m256 t2 = _mm256_unpacklo_ps(a[2], a[3]), t3 = _mm256_unpackhi_ps(a[2], a[3]);
  __m256 t4 = _mm256_unpacklo_ps(a[4], a[5]), t5 = _mm256_unpackhi_ps(a[4], a[5]);
  __m256 t6 = _mm256_unpacklo_ps(a[6], a[7]), t7 = _mm256_unpackhi_ps(a[6], a[7]);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  v[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
  v[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  v[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
  v[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  v[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
  v[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  v[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
  v[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/// Rows [r0, r0 + 4) of 8 float columns: columns l and l + 4 share a register,
/// one per 128-bit lane, so a 4x4 transpose within the lanes does it (half the
/// shuffles of an 8-row block whose last rows go unused).
inline void transpose4Rows(const float *const *col, int r0, __m256 *v) {
  __m256 a[4];
  for (int l = 0; l < 4; ++l)
    a[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(col[l] + r0)),
                                _mm_loadu_ps(col[l + 4] + r0), 1);
  __m256 t0 = _mm256_unpacklo_ps(a[0], a[1]), t1 = _mm256_unpackhi_ps(a[0], a[1]);
  __m256 t2 = _mm256_unpacklo_ps(a[2], a[3]), t3 = _mm256_unpackhi_ps(a[2], a[3]);
  v[0] = _mm256_shuffle_ps(t0, t2, 0x44);
  v[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
  v[2] = _mm256_shuffle_ps(t1, t3, 0x44);
  v[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}

/// Rows [r0, r0 + 4) of 4 double columns: a 4x4 transpose.
inline void transpose4Rows(const double *const *col, int r0, __m256d *v) {
  __m256d a = _mm256_loadu_pd(col[0] + r0), b = _mm256_loadu_pd(col[1] + r0);
  __m256d c = _mm256_loadu_pd(col[2] + r0), d = _mm256_loadu_pd(col[3] + r0);
  __m256d ab0 = _mm256_unpacklo_pd(a, b), ab1 = _mm256_unpackhi_pd(a, b);
  __m256d cd0 = _mm256_unpacklo_pd(c, d), cd1 = _mm256_unpackhi_pd(c, d);
  v[0] = _mm256_permute2f128_pd(ab0, cd0, 0x20);
  v[1] = _mm256_permute2f128_pd(ab1, cd1, 0x20);
  v[2] = _mm256_permute2f128_pd(ab0, cd0, 0x31);
  v[3] = _mm256_permute2f128_pd(ab1, cd1, 0x31);
}
#endif

/// Rows [rowBegin, rowEnd) (multiples of 4, within the packed stride) of the
/// W = kSimdLanes<T> columns `col` as vectors: out[r - rowBegin] lane l is
/// col[l][r]. Each column is read as whole vectors and transposed in
/// registers, which costs far less than gathering every coefficient lane by
/// lane from a random column.
template <int W, typename T>
inline void transposeColumns(const T *const *col, int rowBegin, int rowEnd, Vec<T> *out) {
  static_assert(W == kSimdLanes<T>, "one lane per point");
#if defined(__AVX2__)
  if constexpr (std::is_same_v<T, float> && W == 8) {
    int r0 = rowBegin;
    for (; r0 + 8 <= rowEnd; r0 += 8)
      transpose8Rows(col, r0, reinterpret_cast<__m256 *>(out + (r0 - rowBegin)));
    if (r0 < rowEnd)
      transpose4Rows(col, r0, reinterpret_cast<__m256 *>(out + (r0 - rowBegin)));
    return;
  }
  if constexpr (std::is_same_v<T, double> && W == 4) {
    for (int r0 = rowBegin; r0 < rowEnd; r0 += 4)
      transpose4Rows(col, r0, reinterpret_cast<__m256d *>(out + (r0 - rowBegin)));
    return;
  }
#endif
  for (int r = rowBegin; r < rowEnd; ++r) {
    T lanes[W];
    for (int l = 0; l < W; ++l)
      lanes[l] = col[l][r];
    std::memcpy(&out[r - rowBegin], lanes, sizeof lanes);
  }
}
} // namespace detail

/// The coefficients of the W = kSimdLanes<T> consecutive points idx[0..W) in
/// registers: out[r - rowBegin] lane l is C[r][idx[l]], for the rows r in
/// [rowBegin, rowEnd) (multiples of 4, within the packed stride). For a
/// kernel's whole blocks of points, whose expression then reads them as vectors.
template <int W, typename T, typename I>
inline void transposeColumns(const PackedTable<T> &t, const I *idx, int rowBegin, int rowEnd,
                             Vec<T> *out) {
  const T *col[W];
  for (int l = 0; l < W; ++l)
    col[l] = t.column(idx[l]);
  detail::transposeColumns<W>(col, rowBegin, rowEnd, out);
}

/// Coefficients of `n` <= W consecutive points, transposed into memory:
/// out[r * W + l] = C[r][idx[l]] for the rows r in [rowBegin, rowEnd)
/// (multiples of 4, within the packed stride); lanes l >= n repeat point 0.
/// For blocks that a scalar `omp simd` loop reads (a row's last, partial block;
/// the planes scheme's staged rows).
template <int W, typename T, typename I>
inline void loadColumns(const PackedTable<T> &t, const I *idx, int n, int rowBegin, int rowEnd,
                        T *out) {
  const T *col[W];
  for (int l = 0; l < W; ++l)
    col[l] = t.column(idx[l < n ? l : 0]);
#if defined(__AVX2__)
  // Straight from the transposes' registers to the buffer: staging them in an
  // rt::Vec array first makes GCC keep that array in memory, and the rows run
  // slower (docs/PERFORMANCE.md §Coefficients in registers).
  if constexpr (std::is_same_v<T, float> && W == 8) {
    int r0 = rowBegin;
    for (; r0 + 8 <= rowEnd; r0 += 8) {
      __m256 v[8];
      detail::transpose8Rows(col, r0, v);
      for (int i = 0; i < 8; ++i)
        _mm256_store_ps(out + (r0 + i) * 8, v[i]);
    }
    if (r0 < rowEnd) {
      __m256 v[4];
      detail::transpose4Rows(col, r0, v);
      for (int i = 0; i < 4; ++i)
        _mm256_store_ps(out + (r0 + i) * 8, v[i]);
    }
    return;
  }
  if constexpr (std::is_same_v<T, double> && W == 4) {
    for (int r0 = rowBegin; r0 < rowEnd; r0 += 4) {
      __m256d v[4];
      detail::transpose4Rows(col, r0, v);
      for (int i = 0; i < 4; ++i)
        _mm256_store_pd(out + (r0 + i) * 4, v[i]);
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

/// A blocked tile's height: `requested` if positive, else the layer condition
/// on this machine's L2 for tiles `width` points wide (abi/LayerCondition.h),
/// `fallback` where the L2's size is unknown; clamped to [1, n].
inline int chooseLayerBlock(int requested, const LayerFootprint &footprint, int width, int fallback,
                            int n) {
  if (requested > 0)
    return chooseBlock(requested, fallback, n);
  return chooseBlock(layerConditionRows(footprint, width, hostCaches().l2, fallback).rows, fallback,
                     n);
}

/// `requested` unless it is Variant::Auto: then naive where the whole planes
/// it reads again in z, a window for each of this run's threads, fit half of
/// this machine's last-level cache (abi/LayerCondition.h), else blocked.
inline Variant chooseVariant(Variant requested, const LayerFootprint &footprint, int nx, int ny) {
  if (requested != Variant::Auto)
    return requested;
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
#else
  const int threads = 1;
#endif
  return wholePlanesFit(footprint, nx, ny, threads, hostCaches().lastLevel()) ? Variant::Naive
                                                                              : Variant::Blocked;
}

/// Points of x per tile: the whole of `n` when `requested` is 0 or less, else
/// `requested` rounded up to a multiple of 16 (a 64-byte line of float, two of
/// double), so that every tile but the last starts where the row's vectors
/// start, at most `n`.
inline int chooseRowBlock(int requested, int n) {
  if (requested <= 0)
    return std::max(1, n);
  constexpr int kLine = 16;
  return std::max(1, std::min((requested + kLine - 1) / kLine * kLine, n));
}

inline void requireTableShape(const char *kernel, const char *table, int rows, int wantRows) {
  if (rows != wantRows)
    throw KernelError(std::string(kernel) + ": table '" + table + "' has " + std::to_string(rows) +
                      " rows, the stencil needs " + std::to_string(wantRows));
}

} // namespace stencilc::rt
