//===- AcousticMarch.cu - acoustic_iso8 marched the way fast kernels are ---===//
//
// The design issue 40 asks the generator to produce, written by hand first so
// that one GPU run can say whether it reaches the memory floor before the
// generator is taught it (docs/PERFORMANCE.md §CUDA variants on a GPU):
//
//   * each thread computes kRows outputs of a column block in y (rows ty,
//     ty + blockDim.y, ...), so its z register queue and the shared tile's
//     halo serve kRows points;
//   * the next plane's loads (the queue's new front, the next shared plane's
//     halo, this plane's u_prev and v) are issued before the current plane
//     is computed, so they are in flight while it computes;
//   * the shared plane is double-buffered: the next plane is written into
//     the other buffer after the compute, and one barrier per plane orders
//     both;
//   * halos are loaded by every thread of the block in a flat loop, rows of
//     the y halo by whole warps.
//
// Same arithmetic as the textbook kernel (Reference.cu), checked alike.
//
//===----------------------------------------------------------------------===//
#include "ReferenceSupport.h"

#include <cstddef>

namespace stencilc::bench::reference {
namespace {

constexpr int kR = 4; // the stencil's reach on each axis

/// A block's shape: kBx x kBy threads, kRows outputs per thread in y, kPlanes planes marched;
/// kAhead: how many planes ahead of the one it computes a thread loads its column (1: the
/// next plane's front while this one computes; 2: the one after too, and u_prev and v of the
/// next plane).
template <int Bx, int By, int Rows, int Planes, int Ahead = 1> struct MarchShape {
  static constexpr int kBx = Bx, kBy = By, kRows = Rows, kPlanes = Planes, kAhead = Ahead;
  static constexpr int kThreads = kBx * kBy;
  static constexpr int kTileY = kBy * kRows;  // rows of points of a block
  static constexpr int kTileW = kBx + 2 * kR; // a shared plane's row, halo included
  static constexpr int kTileH = kTileY + 2 * kR;
  /// Planes in a column's register queue: z - kR .. z + kR, and those loaded ahead.
  static constexpr int kQ = 2 * kR + kAhead;
  /// Halo points a thread loads per plane, at most (the largest halo over the threads).
  static constexpr int kHaloPerThread = (2 * kR * kTileY + 2 * kR * kBx + kThreads - 1) / kThreads;
  static constexpr std::size_t sharedBytes(std::size_t real) { return 2 * real * kTileW * kTileH; }
};

/// The halo points of a shared plane, numbered 0 .. haloPoints(): the x halo (kR columns each
/// side of every row of points), then the y halo (kR rows above and below every column).
struct Halo {
  int width, height; ///< the block's points: its tile less the columns and rows past the grid
  __device__ int points() const { return 2 * kR * height + 2 * kR * width; }
  /// Tile coordinates (tx, ty), halo included, of halo point i.
  __device__ void at(int i, int &tx, int &ty) const {
    if (i < 2 * kR * height) {
      const int c = i % (2 * kR), r = i / (2 * kR);
      tx = c < kR ? c : width + c;
      ty = r + kR;
    } else {
      i -= 2 * kR * height;
      const int c = i % width, r = i / width;
      tx = c + kR;
      ty = r < kR ? r : height + r;
    }
  }
};

template <typename Real, typename S>
__global__ void __launch_bounds__(S::kThreads) acousticMarchKernel(const AcousticArgs<Real> a) {
  constexpr int kBx = S::kBx, kBy = S::kBy, kRows = S::kRows, kTileY = S::kTileY, kQ = S::kQ;
  constexpr int kTileW = S::kTileW, kTileH = S::kTileH, kHaloPerThread = S::kHaloPerThread;
  STENCILC_DYNAMIC_SHARED(Real, shared);
  using C = Order8<Real>;
  const int tx = int(threadIdx.x), ty = int(threadIdx.y), thread = ty * kBx + tx;
  const int x0 = int(blockIdx.x) * kBx, y0 = int(blockIdx.y) * kTileY;
  const int z0 = int(blockIdx.z) * S::kPlanes;
  const int z1 = z0 + S::kPlanes < a.nz ? z0 + S::kPlanes : a.nz;
  const Halo halo{kBx < a.nx - x0 ? kBx : a.nx - x0, kTileY < a.ny - y0 ? kTileY : a.ny - y0};
  const int x = x0 + tx;
  const bool xActive = tx < halo.width;
  // Where this thread's halo points live in the grid (relative to a plane) and in a tile.
  std::ptrdiff_t haloFrom[kHaloPerThread];
  int haloTo[kHaloPerThread];
  bool haloLoads[kHaloPerThread]; // whether the thread has an h-th halo point
  REFERENCE_UNROLL
  for (int h = 0; h < kHaloPerThread; ++h) {
    const int i = thread + h * S::kThreads;
    int hx = 0, hy = 0;
    haloLoads[h] = i < halo.points();
    if (haloLoads[h])
      halo.at(i, hx, hy);
    haloFrom[h] = (x0 - kR + hx) + (y0 - kR + hy) * a.line;
    haloTo[h] = hy * kTileW + hx;
  }
  auto rowActive = [&](int r) { return xActive && ty + r * kBy < halo.height; };
  auto columnAt = [&](int r) { return x + (y0 + ty + r * kBy) * a.line; };
  // Whether plane zz of u is read by a point this block computes (memory there is the grid's).
  auto needed = [&](int zz) { return zz < z1 + kR; };

  // queue[r][k]: plane z - kR + k of row r's column. prev, vel: u_prev and v of plane z.
  Real queue[kRows][kQ], prev[kRows], vel[kRows];
  REFERENCE_UNROLL
  for (int r = 0; r < kRows; ++r) {
    const bool active = rowActive(r);
    REFERENCE_UNROLL
    for (int k = 0; k < kQ; ++k)
      queue[r][k] =
          active && needed(z0 - kR + k) ? a.u[columnAt(r) + (z0 - kR + k) * a.plane] : Real(0);
    prev[r] = active ? a.uPrev[columnAt(r) + z0 * a.plane] : Real(0);
    vel[r] = active ? a.v[columnAt(r) + z0 * a.plane] : Real(0);
  }
  // The first plane into buffer 0.
  {
    Real *const tile = shared;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r)
      if (rowActive(r))
        tile[(ty + r * kBy + kR) * kTileW + tx + kR] = queue[r][kR];
    REFERENCE_UNROLL
    for (int h = 0; h < kHaloPerThread; ++h)
      if (haloLoads[h])
        tile[haloTo[h]] = a.u[haloFrom[h] + z0 * a.plane];
  }
  __syncthreads();

  for (int z = z0; z < z1; ++z) {
    const bool more = z + 1 < z1; // whether plane z + 1 is computed by this block
    // Loads for later, issued now: the queue's next front (kAhead planes past its last), the
    // next plane's halo, and u_prev and v of the next plane (kAhead 2) or of this one (1).
    Real front[kRows], prevNext[kRows], velNext[kRows], haloNext[kHaloPerThread];
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      const bool active = rowActive(r);
      const std::ptrdiff_t p = columnAt(r) + z * a.plane;
      const int frontPlane = z + kR + S::kAhead;
      front[r] = active && needed(frontPlane) ? a.u[p + (kR + S::kAhead) * a.plane] : Real(0);
      if constexpr (S::kAhead > 1) {
        prevNext[r] = active && more ? a.uPrev[p + a.plane] : Real(0);
        velNext[r] = active && more ? a.v[p + a.plane] : Real(0);
      } else if (z > z0) {
        prev[r] = active ? a.uPrev[p] : Real(0);
        vel[r] = active ? a.v[p] : Real(0);
      }
    }
    REFERENCE_UNROLL
    for (int h = 0; h < kHaloPerThread; ++h)
      haloNext[h] = more && haloLoads[h] ? a.u[haloFrom[h] + (z + 1) * a.plane] : Real(0);

    // Plane z from the current buffer and the queues.
    const Real *const tile = shared + ((z - z0) & 1) * kTileW * kTileH;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      if (!rowActive(r))
        continue;
      const Real *const at = tile + (ty + r * kBy + kR) * kTileW + tx + kR;
      const Real *const q = queue[r] + kR;
      const Real laplacian =
          Real(3) * C::c0 * q[0] +
          C::c1 * (at[-1] + at[1] + at[-kTileW] + at[kTileW] + q[-1] + q[1]) +
          C::c2 * (at[-2] + at[2] + at[-2 * kTileW] + at[2 * kTileW] + q[-2] + q[2]) +
          C::c3 * (at[-3] + at[3] + at[-3 * kTileW] + at[3 * kTileW] + q[-3] + q[3]) +
          C::c4 * (at[-4] + at[4] + at[-4 * kTileW] + at[4 * kTileW] + q[-4] + q[4]);
      a.uNext[columnAt(r) + z * a.plane] =
          Real(2) * q[0] - prev[r] + vel[r] * vel[r] * a.scale * laplacian;
    }
    if (!more)
      break;
    // The queues move on; plane z + 1 into the other buffer.
    Real *const next = shared + ((z + 1 - z0) & 1) * kTileW * kTileH;
    REFERENCE_UNROLL
    for (int r = 0; r < kRows; ++r) {
      REFERENCE_UNROLL
      for (int k = 0; k + 1 < kQ; ++k)
        queue[r][k] = queue[r][k + 1];
      queue[r][kQ - 1] = front[r];
      if constexpr (S::kAhead > 1) {
        prev[r] = prevNext[r];
        vel[r] = velNext[r];
      }
      if (rowActive(r))
        next[(ty + r * kBy + kR) * kTileW + tx + kR] = queue[r][kR];
    }
    REFERENCE_UNROLL
    for (int h = 0; h < kHaloPerThread; ++h)
      if (haloLoads[h])
        next[haloTo[h]] = haloNext[h];
    __syncthreads(); // plane z + 1 is in; every thread is done with plane z's buffer
  }
}

template <typename Real, typename S>
void launchMarch(const AcousticArgs<Real> &a, cudaStream_t stream) {
  const dim3 grid(ceilDiv(a.nx, S::kBx), ceilDiv(a.ny, S::kTileY), ceilDiv(a.nz, S::kPlanes));
  using Kernel = void (*)(AcousticArgs<Real>);
  const Kernel kernel = acousticMarchKernel<Real, S>;
  STENCILC_LAUNCH(kernel, grid, dim3(S::kBx, S::kBy), S::sharedBytes(sizeof(Real)), stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

} // namespace

template <typename Real, int Bx, int By, int Rows, int Planes, int Ahead>
void acousticMarch(const rt::ErasedArgs &args, cudaStream_t stream) {
  launchMarch<Real, MarchShape<Bx, By, Rows, Planes, Ahead>>(acousticArgs<Real>(args), stream);
}

// The shapes Reference.h lists.
template void acousticMarch<float, 32, 8, 2, 64, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 8, 2, 64, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<float, 32, 8, 1, 64, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 8, 1, 64, 1>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<float, 32, 8, 2, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 8, 2, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<float, 32, 8, 1, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 8, 1, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<float, 32, 16, 1, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 16, 1, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<float, 32, 8, 4, 64, 2>(const rt::ErasedArgs &, cudaStream_t);
template void acousticMarch<double, 32, 8, 4, 64, 2>(const rt::ErasedArgs &, cudaStream_t);

} // namespace stencilc::bench::reference
