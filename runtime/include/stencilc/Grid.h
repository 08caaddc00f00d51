//===- Grid.h - Padded, aligned 2D/3D grids with a halo --------------------===//
//
// The memory layout every generated kernel assumes (docs/DESIGN.md §Runtime:
// the padded leading dimension and offset base pointer of [4]):
//
//   * x is fastest, then y, then z. The interior is nx x ny x nz; a halo of
//     `halo` points surrounds it on every side (no z halo in 2D).
//   * The leading dimension (x, halo included) is padded so that the distance
//     between neighbouring rows, lineStride(), is a multiple of 64 bytes.
//   * The base pointer is offset so that the first *interior* x point of every
//     row is 64-byte aligned: a kernel that starts its x loop at 0 starts on a
//     cache line, whatever the halo.
//
// Point (i, j, k) lives at origin()[i + j * lineStride() + k * planeStride()]
// for i in [-halo, nx + halo), j in [-halo, ny + halo), k in [-haloZ, nz + haloZ).
// Kernels take origin() and the two strides; tests use the accessors.
//
// Allocation first-touches the memory in parallel over z, then y, the way the
// kernels traverse it, so that on a NUMA machine each thread's planes live
// near it (only when compiled with OpenMP; otherwise serially).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/AlignedBuffer.h"
#include "stencilc/Random.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace stencilc::rt {

/// The interior extent and halo of a grid. nz is 1 and the z halo 0 in 2D.
struct GridShape {
  int dims = 3;
  int nx = 1, ny = 1, nz = 1;
  int halo = 0;

  int haloZ() const { return dims == 3 ? halo : 0; }
  bool operator==(const GridShape &) const = default;
};

/// Strides and storage size of a Grid<T> of `shape` (the layout above),
/// computed without allocating one: the CUDA runtime's DeviceGrid has the
/// same layout, so that a grid moves between them with one copy.
struct GridLayout {
  std::ptrdiff_t line = 0;        ///< lineStride
  std::ptrdiff_t rows = 0;        ///< rows per plane, halo included
  std::ptrdiff_t planes = 0;      ///< planes, halo included
  std::ptrdiff_t plane = 0;       ///< planeStride
  std::ptrdiff_t frontPad = 0;    ///< elements before row 0's x = -halo
  std::ptrdiff_t originIndex = 0; ///< origin() - storage()
  std::size_t elements = 0;       ///< storageElements()

  template <typename T> static GridLayout of(const GridShape &shape) {
    constexpr std::ptrdiff_t align = kCacheLineBytes / sizeof(T);
    const std::ptrdiff_t h = shape.halo, hz = shape.haloZ();
    GridLayout l;
    l.line = padStride(roundUp(shape.nx + 2 * h, align), align);
    l.rows = shape.ny + 2 * h;
    l.planes = shape.nz + 2 * hz;
    l.plane = shape.dims == 3 ? padStride(l.line * l.rows, align) : l.line * l.rows;
    // Row r of the allocation starts at frontPad + r * line and holds x = -halo
    // there, so x = 0 is at frontPad + halo + r * line: a multiple of `align`
    // exactly when frontPad + halo is (the base-pointer offset of
    // docs/DESIGN.md §Runtime [4]).
    l.frontPad = roundUp(h, align) - h;
    l.originIndex = l.frontPad + h + h * l.line + hz * l.plane;
    l.elements = std::size_t(l.frontPad + l.planes * l.plane);
    return l;
  }

private:
  static std::ptrdiff_t roundUp(std::ptrdiff_t v, std::ptrdiff_t m) { return (v + m - 1) / m * m; }
  /// `stride` (a whole number of cache lines of `align` elements), one line
  /// longer where it is a multiple of 8 lines: then d x stride for d = 1..8
  /// is never a multiple of 64 lines (4 KiB), the L1's set period.
  static std::ptrdiff_t padStride(std::ptrdiff_t stride, std::ptrdiff_t align) {
    return (stride / align) % 8 == 0 ? stride + align : stride;
  }
};

template <typename T> class Grid {
  static_assert(std::is_arithmetic_v<T>, "grids hold numbers");

public:
  using value_type = T;

  Grid() = default;
  explicit Grid(const GridShape &shape) : shape_(validated(shape)) {
    layout_ = GridLayout::of<T>(shape);
    storage_ = AlignedBuffer<T>(layout_.elements);
    firstTouch();
  }

  static Grid make2d(int nx, int ny, int halo) { return Grid(GridShape{2, nx, ny, 1, halo}); }
  static Grid make3d(int nx, int ny, int nz, int halo) {
    return Grid(GridShape{3, nx, ny, nz, halo});
  }

  // Move-only: grids are large, so a copy must be asked for by name.
  Grid(Grid &&) noexcept = default;
  Grid &operator=(Grid &&) noexcept = default;
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;

  /// A deep copy: same shape, same values everywhere (padding included).
  Grid clone() const {
    Grid copy(shape_);
    std::copy(storage_.data(), storage_.data() + storage_.size(), copy.storage_.data());
    return copy;
  }

  const GridShape &shape() const { return shape_; }
  int dims() const { return shape_.dims; }
  int nx() const { return shape_.nx; }
  int ny() const { return shape_.ny; }
  int nz() const { return shape_.nz; }
  int halo() const { return shape_.halo; }
  int haloZ() const { return shape_.haloZ(); }

  /// Elements between (i, j, k) and (i, j + 1, k): a multiple of 64 bytes.
  std::ptrdiff_t lineStride() const { return layout_.line; }
  /// Elements between (i, j, k) and (i, j, k + 1).
  std::ptrdiff_t planeStride() const { return layout_.plane; }

  /// Pointer to interior point (0, 0, 0); 64-byte aligned.
  T *origin() { return storage_.data() + layout_.originIndex; }
  const T *origin() const { return storage_.data() + layout_.originIndex; }

  /// Offset of (i, j, k) from origin(), in elements.
  std::ptrdiff_t offsetOf(int i, int j, int k = 0) const {
    return i + j * layout_.line + k * layout_.plane;
  }

  bool contains(int i, int j, int k = 0) const {
    const int h = halo(), hz = haloZ();
    return i >= -h && i < nx() + h && j >= -h && j < ny() + h && k >= -hz && k < nz() + hz;
  }

  /// Unchecked access at interior coordinates; the halo is reachable.
  T &operator()(int i, int j, int k = 0) { return origin()[offsetOf(i, j, k)]; }
  const T &operator()(int i, int j, int k = 0) const { return origin()[offsetOf(i, j, k)]; }

  /// Checked access: throws std::out_of_range outside interior + halo.
  T &at(int i, int j, int k = 0) {
    checkContains(i, j, k);
    return (*this)(i, j, k);
  }
  const T &at(int i, int j, int k = 0) const {
    checkContains(i, j, k);
    return (*this)(i, j, k);
  }

  /// The whole allocation (padding included), for bulk fills and comparisons of storage.
  T *storage() { return storage_.data(); }
  const T *storage() const { return storage_.data(); }
  std::size_t storageElements() const { return storage_.size(); }

  /// Calls f(i, j, k) for every point of interior + halo, z outermost then y then x.
  template <typename F> void forEachPointWithHalo(F &&f) const {
    const int h = halo(), hz = haloZ();
    for (int k = -hz; k < nz() + hz; ++k)
      for (int j = -h; j < ny() + h; ++j)
        for (int i = -h; i < nx() + h; ++i)
          f(i, j, k);
  }

  /// Calls f(i, j, k) for every interior point, z outermost then y then x.
  template <typename F> void forEachInteriorPoint(F &&f) const {
    for (int k = 0; k < nz(); ++k)
      for (int j = 0; j < ny(); ++j)
        for (int i = 0; i < nx(); ++i)
          f(i, j, k);
  }

  /// Every element, padding included, becomes `value`.
  void fill(T value) { std::fill(storage(), storage() + storageElements(), value); }

  /// Interior and halo get f(i, j, k).
  template <typename F> void fillWith(F &&f) {
    forEachPointWithHalo([&](int i, int j, int k) { (*this)(i, j, k) = T(f(i, j, k)); });
  }

  /// Interior and halo get reproducible uniform values: reals in [lo, hi),
  /// integers in [lo, hi) (so an index array for Nd columns is fillRandom(s, 0, Nd)).
  void fillRandom(uint64_t seed, T lo, T hi) {
    if (!(lo < hi))
      throw std::invalid_argument("Grid::fillRandom: empty range");
    RandomEngine rng(seed);
    fillWith([&](int, int, int) {
      if constexpr (std::is_floating_point_v<T>)
        return T(uniformReal(rng, double(lo), double(hi)));
      else
        return T(uniformInt(rng, int64_t(lo), int64_t(hi)));
    });
  }

  /// Every element, padding included, becomes a quiet NaN, so that a kernel
  /// that forgets to write a point (or reads one it should not) shows up.
  void poison() requires std::is_floating_point_v<T> { fill(std::numeric_limits<T>::quiet_NaN()); }

private:
  static const GridShape &validated(const GridShape &s) {
    if (s.dims != 2 && s.dims != 3)
      throw std::invalid_argument("Grid: dims must be 2 or 3");
    if (s.nx < 1 || s.ny < 1 || s.nz < 1 || s.halo < 0)
      throw std::invalid_argument("Grid: extents must be positive and the halo non-negative");
    if (s.dims == 2 && s.nz != 1)
      throw std::invalid_argument("Grid: a 2D grid has nz == 1");
    return s;
  }

  void checkContains(int i, int j, int k) const {
    if (!contains(i, j, k))
      throw std::out_of_range("Grid: point (" + std::to_string(i) + ", " + std::to_string(j) +
                              ", " + std::to_string(k) + ") is outside interior + halo");
  }

  /// Zero the storage plane by plane and row by row, in the kernels' order
  /// (a plane's last row also zeroes the padding up to the next plane).
  void firstTouch() {
    T *base = storage_.data();
    std::fill(base, base + layout_.frontPad, T{});
    const std::ptrdiff_t planes = layout_.planes, rows = layout_.rows, line = layout_.line,
                         plane = layout_.plane;
    T *const front = base + layout_.frontPad;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (std::ptrdiff_t k = 0; k < planes; ++k)
      for (std::ptrdiff_t j = 0; j < rows; ++j) {
        T *row = front + k * plane + j * line;
        std::fill(row, j + 1 < rows ? row + line : front + (k + 1) * plane, T{});
      }
  }

  GridShape shape_;
  GridLayout layout_;
  AlignedBuffer<T> storage_;
};

/// A grid of another element type with the same shape and the values of
/// `src` (interior and halo) converted by static_cast: e.g. the float inputs
/// of a kernel made from the double inputs of the reference evaluator.
template <typename To, typename From> Grid<To> convertGrid(const Grid<From> &src) {
  Grid<To> dst(src.shape());
  src.forEachPointWithHalo([&](int i, int j, int k) { dst(i, j, k) = To(src(i, j, k)); });
  return dst;
}

} // namespace stencilc::rt
