//===- AcousticMarchVec.cu - acoustic_iso8 marched, V points per thread in x ===//
//
// Reference.h's `marchvec`: AcousticMarch.cu's march (the next plane's loads
// in flight while the current one computes, double-buffered shared planes,
// one barrier per plane) with each thread owning V consecutive points of a
// row, so that every load of a row or of its halo is one V-wide vector load
// (16 bytes for V = 4 floats or V = 2 doubles) and a thread keeps V times the
// bytes in flight per instruction. Rows of the tile are whole vectors: x0 is
// a multiple of V and the runtime's grids align x = 0 to 64 bytes.
//
//===----------------------------------------------------------------------===//
#include "ReferenceSupport.h"

#include <cstddef>

namespace stencilc::bench::reference {
namespace {

constexpr int kR = 4, kQ = 2 * kR + 1;
constexpr int kPlanes = 64; // planes a block marches

/// V values loaded or stored as one vector.
template <typename T, int V> struct alignas(sizeof(T) * V) Pack { T v[V]; };

/// Blocks of Bx x By threads, V points per thread in x, Rows rows per thread in y.
template <int Bx, int By, int V, int Rows> struct VecShape {
  static_assert(kR % V == 0 && By >= kR && Bx >= 2 * kR / V, "halo loads assume these");
  static constexpr int kBx = Bx, kBy = By, kV = V, kRows = Rows;
  static constexpr int kW = Bx * V, kH = By * Rows; // points of a block's tile
  static constexpr int kTileW = kW + 2 * kR, kTileH = kH + 2 * kR;
  static constexpr std::size_t sharedBytes(std::size_t real) { return 2 * real * kTileW * kTileH; }
};

template <typename Real, typename S>
__global__ void __launch_bounds__(S::kBx *S::kBy)
    acousticMarchVecKernel(const AcousticArgs<Real> a) {
  constexpr int V = S::kV, kRows = S::kRows, kBy = S::kBy, kTileW = S::kTileW;
  constexpr int kHalfVecs = kR / V; // vectors of the x halo on one side of a row
  using P = Pack<Real, V>;
  using C = Order8<Real>;
  STENCILC_DYNAMIC_SHARED(Real, shared);
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int x0 = int(blockIdx.x) * S::kW, y0 = int(blockIdx.y) * S::kH;
  const int z0 = int(blockIdx.z) * kPlanes;
  const int z1 = z0 + kPlanes < a.nz ? z0 + kPlanes : a.nz;
  const int width = S::kW < a.nx - x0 ? S::kW : a.nx - x0;
  const int height = S::kH < a.ny - y0 ? S::kH : a.ny - y0;
  const int x = x0 + tx * V; // this thread's first point
  // A vector of a row whose first point is a point of the grid (x < nx) lies in the row's
  // memory: its last point is at most nx - 1 + V - 1 < nx + kR.
  const bool xActive = x < a.nx;
  auto rowActive = [&](int r) { return xActive && ty + r * kBy < height; };
  auto rowAt = [&](int y) { return std::ptrdiff_t(y) * a.line; };
  auto load = [&](const Real *p) { return *reinterpret_cast<const P *>(p); };
  auto put = [&](Real *tile, int tileX, int tileY, const P &p) {
    *reinterpret_cast<P *>(tile + tileY * kTileW + tileX) = p;
  };
  // The x halo this thread loads: left vector tx or right vector tx - kHalfVecs of its rows
  // (the right side as single points where the tile is cut by the grid's edge).
  const bool xHaloLeft = tx < kHalfVecs, xHaloRight = tx >= kHalfVecs && tx < 2 * kHalfVecs;
  const int xHaloAt = xHaloLeft ? x0 - kR + tx * V : x0 + width + (tx - kHalfVecs) * V;
  const bool xHaloVector = xHaloLeft || width == S::kW;
  auto xHalo = [&](const Real *plane, int r) {
    P p{};
    if (!(xHaloLeft || xHaloRight) || ty + r * kBy >= height)
      return p;
    const Real *src = plane + rowAt(y0 + ty + r * kBy) + xHaloAt;
    if (xHaloVector)
      return load(src);
    REFERENCE_UNROLL
    for (int j = 0; j < V; ++j)
      p.v[j] = src[j];
    return p;
  };
  auto putXHalo = [&](Real *tile, int r, const P &p) {
    if (!(xHaloLeft || xHaloRight) || ty + r * kBy >= height)
      return;
    const int tileX = xHaloAt - x0 + kR, tileY = ty + r * kBy + kR;
    if (xHaloVector) {
      put(tile, tileX, tileY, p);
    } else {
      REFERENCE_UNROLL
      for (int j = 0; j < V; ++j)
        tile[tileY * kTileW + tileX + j] = p.v[j];
    }
  };
  // The y halo: rows y0 - kR + ty and y0 + height + ty of this thread's columns.
  auto yHalo = [&](const Real *plane, int side) {
    if (!xActive || ty >= kR)
      return P{};
    return load(plane + rowAt(side == 0 ? y0 - kR + ty : y0 + height + ty) + x);
  };
  auto putYHalo = [&](Real *tile, int side, const P &p) {
    if (xActive && ty < kR)
      put(tile, tx * V + kR, side == 0 ? ty : height + kR + ty, p);
  };

  P queue[kRows][kQ]; // queue[r][k]: plane z - kR + k of row r's vector
  REFERENCE_UNROLL
  for (int r = 0; r < kRows; ++r)
    REFERENCE_UNROLL
  for (int k = 0; k < kQ; ++k)
    queue[r][k] =
        rowActive(r) ? load(a.u + rowAt(y0 + ty + r * kBy) + x + (z0 - kR + k) * a.plane) : P{};
  {
    const Real *const plane = a.u + z0 * a.plane;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      if (rowActive(r))
        put(shared, tx * V + kR, ty + r * kBy + kR, queue[r][kR]);
      putXHalo(shared, r, xHalo(plane, r));
    }
    putYHalo(shared, 0, yHalo(plane, 0));
    putYHalo(shared, 1, yHalo(plane, 1));
  }
  __syncthreads();

  for (int z = z0; z < z1; ++z) {
    const bool more = z + 1 < z1;
    // Loads for later, issued now.
    P front[kRows], prev[kRows], vel[kRows], xNext[kRows], yNext[2];
    const Real *const nextPlane = a.u + (z + 1) * a.plane;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      const bool active = rowActive(r);
      const std::ptrdiff_t p = rowAt(y0 + ty + r * kBy) + x + z * a.plane;
      front[r] = active && more ? load(a.u + p + (kR + 1) * a.plane) : P{};
      prev[r] = active ? load(a.uPrev + p) : P{};
      vel[r] = active ? load(a.v + p) : P{};
      xNext[r] = more ? xHalo(nextPlane, r) : P{};
    }
    yNext[0] = more ? yHalo(nextPlane, 0) : P{};
    yNext[1] = more ? yHalo(nextPlane, 1) : P{};

    const Real *const tile = shared + ((z - z0) & 1) * kTileW * S::kTileH;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      if (!rowActive(r))
        continue;
      Real out[V];
      REFERENCE_UNROLL
      for (int j = 0; j < V; ++j) {
        const Real *const at = tile + (ty + r * kBy + kR) * kTileW + tx * V + kR + j;
        const P *const q = queue[r] + kR;
        const Real laplacian =
            Real(3) * C::c0 * q[0].v[j] +
            C::c1 * (at[-1] + at[1] + at[-kTileW] + at[kTileW] + q[-1].v[j] + q[1].v[j]) +
            C::c2 * (at[-2] + at[2] + at[-2 * kTileW] + at[2 * kTileW] + q[-2].v[j] + q[2].v[j]) +
            C::c3 * (at[-3] + at[3] + at[-3 * kTileW] + at[3 * kTileW] + q[-3].v[j] + q[3].v[j]) +
            C::c4 * (at[-4] + at[4] + at[-4 * kTileW] + at[4 * kTileW] + q[-4].v[j] + q[4].v[j]);
        out[j] =
            Real(2) * q[0].v[j] - prev[r].v[j] + vel[r].v[j] * vel[r].v[j] * a.scale * laplacian;
      }
      Real *const dst = a.uNext + rowAt(y0 + ty + r * kBy) + x + z * a.plane;
      if (x + V <= a.nx) {
        P o;
        REFERENCE_UNROLL
        for (int j = 0; j < V; ++j)
          o.v[j] = out[j];
        *reinterpret_cast<P *>(dst) = o;
      } else {
        for (int j = 0; j < V && x + j < a.nx; ++j)
          dst[j] = out[j];
      }
    }
    if (!more)
      break;
    Real *const next = shared + ((z + 1 - z0) & 1) * kTileW * S::kTileH;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      REFERENCE_UNROLL
      for (int k = 0; k + 1 < kQ; ++k)
        queue[r][k] = queue[r][k + 1];
      queue[r][kQ - 1] = front[r];
      if (rowActive(r))
        put(next, tx * V + kR, ty + r * kBy + kR, queue[r][kR]);
      putXHalo(next, r, xNext[r]);
    }
    putYHalo(next, 0, yNext[0]);
    putYHalo(next, 1, yNext[1]);
    __syncthreads();
  }
}

template <typename Real, typename S>
void launchMarchVec(const AcousticArgs<Real> &a, cudaStream_t stream) {
  const dim3 grid(ceilDiv(a.nx, S::kW), ceilDiv(a.ny, S::kH), ceilDiv(a.nz, kPlanes));
  using Kernel = void (*)(AcousticArgs<Real>);
  const Kernel kernel = acousticMarchVecKernel<Real, S>;
  STENCILC_LAUNCH(kernel, grid, dim3(S::kBx, S::kBy), S::sharedBytes(sizeof(Real)), stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

} // namespace

template <typename Real, int Bx, int By, int V, int Rows>
void acousticMarchVec(const rt::ErasedArgs &args, cudaStream_t stream) {
  launchMarchVec<Real, VecShape<Bx, By, V, Rows>>(acousticArgs<Real>(args), stream);
}

// The shapes Reference.h lists.
template void acousticMarchVec<float, 8, 8, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<double, 8, 8, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<float, 16, 8, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<double, 16, 8, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<float, 8, 16, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<double, 8, 16, 4, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<float, 16, 8, 2, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<double, 16, 8, 2, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<float, 16, 8, 2, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarchVec<double, 16, 8, 2, 1>(const rt::ErasedArgs &, cudaStream_t);

} // namespace stencilc::bench::reference
