//===- ReferenceSupport.h - What the hand-written kernels share -----------===//
#pragma once

#include "Reference.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

// `#pragma unroll` for nvcc's device pass only (the host compiler and the emulator build do not
// know it).
#if defined(__CUDA_ARCH__)
#define REFERENCE_UNROLL _Pragma("unroll")
#else
#define REFERENCE_UNROLL
#endif

namespace stencilc::bench::reference {

/// A thread's register queue of its column's planes z - kR .. z + kR (value[k]: plane
/// z - kR + k), the next plane loaded a step ahead, so that it is in flight while a step
/// computes.
template <typename Real, int kR> struct ColumnQueue {
  static constexpr int kQ = 2 * kR + 1;
  const Real *column; ///< the field at (x, y, 0)
  std::ptrdiff_t plane;
  Real value[kQ];
  Real front; ///< the plane the next step shifts in

  /// Ready for advance(z0): planes z0 - kR .. z0 + kR - 1 in, z0 + kR in front.
  __device__ ColumnQueue(const Real *column, std::ptrdiff_t plane, int z0)
      : column(column), plane(plane) {
    REFERENCE_UNROLL
    for (int k = 0; k + 1 < kQ; ++k)
      value[k + 1] = column[(z0 - kR + k) * plane];
    front = column[(z0 + kR) * plane];
  }

  /// Moves on to plane z, and loads the front of plane z + 1 when there is a next step.
  __device__ void advance(int z, bool more) {
    REFERENCE_UNROLL
    for (int k = 0; k + 1 < kQ; ++k)
      value[k] = value[k + 1];
    value[kQ - 1] = front;
    if (more)
      front = column[(z + kR + 1) * plane];
  }

  /// The queue from plane z: centre()[dz] is plane z + dz.
  __device__ const Real *centre() const { return value + kR; }
};

/// Where a thread of a block of kBx x kBy column marches works: its column (x, y), and the
/// planes [z0, z1) of the nz its block marches, kPlanes of them.
struct ColumnMarch {
  int x, y, z0, z1;
};
template <int kBx, int kBy, int kPlanes> __device__ ColumnMarch columnMarch(int nz) {
  ColumnMarch m;
  m.x = int(blockIdx.x) * kBx + int(threadIdx.x);
  m.y = int(blockIdx.y) * kBy + int(threadIdx.y);
  m.z0 = int(blockIdx.z) * kPlanes;
  m.z1 = m.z0 + kPlanes < nz ? m.z0 + kPlanes : nz;
  return m;
}

inline unsigned ceilDiv(int n, int d) { return unsigned((n + d - 1) / d); }

/// The eighth-order central second difference along one axis: weights of the points at
/// distance 0 (counted once per axis) to 4.
template <typename Real> struct Order8 {
  static constexpr Real c0 = Real(-205.0 / 72.0), c1 = Real(8.0 / 5.0), c2 = Real(-1.0 / 5.0),
                        c3 = Real(8.0 / 315.0), c4 = Real(-1.0 / 560.0);
};

/// The hand-written kernels index every field with one line and plane stride.
inline void requireSameLayout(const rt::ErasedArgs &args, const char *kernel) {
  for (const rt::ErasedField &f : args.fields)
    if (f.line != args.fields[0].line || f.plane != args.fields[0].plane)
      throw std::invalid_argument(std::string(kernel) +
                                  ": the hand-written kernel needs one layout for every field");
}

/// acoustic_iso8's arguments: all four fields share one layout (the generated kernel's grids
/// do); v is read at the point.
template <typename Real> struct AcousticArgs {
  const Real *uPrev, *u, *v;
  Real *uNext;
  std::ptrdiff_t line, plane;
  int nx, ny, nz;
  Real scale; ///< dt^2 / h^2
};

template <typename Real> AcousticArgs<Real> acousticArgs(const rt::ErasedArgs &args) {
  requireSameLayout(args, "acoustic_iso8");
  const rt::ErasedField *f = args.fields.data();
  const Real dt = Real(args.scalars.at(0)), h = Real(args.scalars.at(1));
  return {static_cast<const Real *>(f[0].origin),
          static_cast<const Real *>(f[1].origin),
          static_cast<const Real *>(f[3].origin),
          static_cast<Real *>(f[2].origin),
          f[0].line,
          f[0].plane,
          args.extent.nx,
          args.extent.ny,
          args.extent.nz,
          dt * dt / (h * h)};
}

/// ETE-37's arguments: p_prev, p_cur and p_next share one layout; the index field has its own.
template <typename Real> struct EteArgs {
  const Real *pPrev, *p;
  Real *pNext;
  const std::uint16_t *index;
  std::ptrdiff_t line, plane, indexLine, indexPlane;
  const Real *table;
  std::ptrdiff_t rowStride, colStride;
  int cols; ///< the table's columns: index values
  int nx, ny, nz;
};

template <typename Real> EteArgs<Real> eteArgs(const rt::ErasedArgs &args) {
  const rt::ErasedField *f = args.fields.data();
  const rt::ErasedTable &t = args.tables.at(0);
  if (f[0].line != f[1].line || f[0].line != f[2].line || f[0].plane != f[1].plane ||
      f[0].plane != f[2].plane)
    throw std::invalid_argument("ete37: the hand-written kernel needs one layout for p");
  return {static_cast<const Real *>(f[0].origin),
          static_cast<const Real *>(f[1].origin),
          static_cast<Real *>(f[2].origin),
          static_cast<const std::uint16_t *>(f[3].origin),
          f[0].line,
          f[0].plane,
          f[3].line,
          f[3].plane,
          static_cast<const Real *>(t.data),
          t.rowStride,
          t.colStride,
          t.cols,
          args.extent.nx,
          args.extent.ny,
          args.extent.nz};
}

} // namespace stencilc::bench::reference
