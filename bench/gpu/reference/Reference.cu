//===- Reference.cu - The textbook hand-written kernels -------------------===//
//
// Reference.h says what each kernel is. Written for the generated kernels'
// storage (the runtime's padded grids: every field's halo is at least the
// stencil's reach, so neighbours of any interior point are memory) and for
// any extent, odd ones included; not tuned beyond what the published
// algorithm does, since they stand for what a user writes by hand.
//
//===----------------------------------------------------------------------===//
#include "ReferenceSupport.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace stencilc::bench::reference {
namespace {

//===----------------------------------------------------------------------===//
// acoustic_iso8: 2.5D blocking with a register queue (Micikevicius 2009)
//===----------------------------------------------------------------------===//

constexpr int kR = 4;                // the stencil's reach on each axis
constexpr int kBx = 32, kBy = 16;    // threads per block, one output column each
constexpr int kTileW = kBx + 2 * kR; // a shared plane's row, halo included
constexpr int kPlanesPerBlock = 64; // a block marches this many planes, so that blocks fill the SMs

template <typename Real>
__global__ void __launch_bounds__(kBx *kBy) acousticIso8Kernel(const AcousticArgs<Real> a) {
  STENCILC_DYNAMIC_SHARED(Real, tile);
  using C = Order8<Real>;
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int x0 = int(blockIdx.x) * kBx, y0 = int(blockIdx.y) * kBy;
  const int x = x0 + tx, y = y0 + ty;
  const int z0 = int(blockIdx.z) * kPlanesPerBlock;
  const int z1 = z0 + kPlanesPerBlock < a.nz ? z0 + kPlanesPerBlock : a.nz;
  // The tile's columns and rows that are points: the halo follows them.
  const int width = kBx < a.nx - x0 ? kBx : a.nx - x0;
  const int height = kBy < a.ny - y0 ? kBy : a.ny - y0;
  const bool active = x < a.nx && y < a.ny;
  Real *const at = tile + (ty + kR) * kTileW + tx + kR;
  const std::ptrdiff_t column = x + y * a.line;

  // The queue: behind[k] is plane z - 1 - k, infront[k] plane z + 1 + k.
  Real behind[kR] = {}, current = 0, infront[kR] = {};
  if (active) {
    REFERENCE_UNROLL
    for (int k = 0; k < kR; ++k) {
      behind[k] = a.u[column + (z0 - 1 - k) * a.plane];
      infront[k] = a.u[column + (z0 + 1 + k) * a.plane];
    }
    current = a.u[column + z0 * a.plane];
  }
  for (int z = z0; z < z1; ++z) {
    if (z > z0) {
      REFERENCE_UNROLL
      for (int k = kR - 1; k > 0; --k)
        behind[k] = behind[k - 1];
      behind[0] = current;
      current = infront[0];
      REFERENCE_UNROLL
      for (int k = 0; k + 1 < kR; ++k)
        infront[k] = infront[k + 1];
      infront[kR - 1] = active ? a.u[column + (z + kR) * a.plane] : Real(0);
    }
    __syncthreads(); // every thread is done with the previous plane
    const Real *const plane = a.u + z * a.plane;
    if (active)
      at[0] = current;
    if (tx < kR && y < a.ny) { // the x halo, left and right of the tile's points
      tile[(ty + kR) * kTileW + tx] = plane[x0 - kR + tx + y * a.line];
      tile[(ty + kR) * kTileW + width + kR + tx] = plane[x0 + width + tx + y * a.line];
    }
    if (ty < kR && x < a.nx) { // the y halo, below and above
      tile[ty * kTileW + tx + kR] = plane[x + (y0 - kR + ty) * a.line];
      tile[(height + kR + ty) * kTileW + tx + kR] = plane[x + (y0 + height + ty) * a.line];
    }
    __syncthreads(); // plane z is in
    if (!active)
      continue;
    const Real laplacian =
        Real(3) * C::c0 * current +
        C::c1 * (at[-1] + at[1] + at[-kTileW] + at[kTileW] + behind[0] + infront[0]) +
        C::c2 * (at[-2] + at[2] + at[-2 * kTileW] + at[2 * kTileW] + behind[1] + infront[1]) +
        C::c3 * (at[-3] + at[3] + at[-3 * kTileW] + at[3 * kTileW] + behind[2] + infront[2]) +
        C::c4 * (at[-4] + at[4] + at[-4 * kTileW] + at[4 * kTileW] + behind[3] + infront[3]);
    const std::ptrdiff_t p = column + z * a.plane;
    const Real v = a.v[p];
    a.uNext[p] = Real(2) * current - a.uPrev[p] + v * v * a.scale * laplacian;
  }
}

//===----------------------------------------------------------------------===//
// ete37: one thread per point, the table column through the read-only cache
//===----------------------------------------------------------------------===//

constexpr int kEteBx = 32, kEteBy = 8;

template <typename Real>
__global__ void __launch_bounds__(kEteBx *kEteBy) ete37Kernel(const EteArgs<Real> a) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = int(blockIdx.z);
  if (x >= a.nx || y >= a.ny)
    return;
  const std::ptrdiff_t L = a.line, P = a.plane;
  const Real *const p = a.p + x + y * L + z * P;
  const Real *const c =
      a.table + __ldg(&a.index[x + y * a.indexLine + z * a.indexPlane]) * a.colStride;
  auto coefficient = [&](int klass) { return __ldg(&c[klass * a.rowStride]); };
  // The classes of ETE-37 (dsl-examples/ete37.stencil: axes(4) | diagonals(1) under x, y and
  // z reflections and the x-y swap) in the order stencilc numbers the table's rows.
  const Real sum =
      coefficient(0) * (p[-4 * P] + p[4 * P]) + coefficient(1) * (p[-3 * P] + p[3 * P]) +
      coefficient(2) * (p[-2 * P] + p[2 * P]) +
      coefficient(3) * (p[-L - P] + p[-1 - P] + p[1 - P] + p[L - P] + p[-L + P] + p[-1 + P] +
                        p[1 + P] + p[L + P]) +
      coefficient(4) * (p[-P] + p[P]) + coefficient(5) * (p[-4 * L] + p[-4] + p[4] + p[4 * L]) +
      coefficient(6) * (p[-3 * L] + p[-3] + p[3] + p[3 * L]) +
      coefficient(7) * (p[-2 * L] + p[-2] + p[2] + p[2 * L]) +
      coefficient(8) * (p[-1 - L] + p[1 - L] + p[-1 + L] + p[1 + L]) +
      coefficient(9) * (p[-L] + p[-1] + p[1] + p[L]) + coefficient(10) * p[0];
  const std::ptrdiff_t at = x + y * L + z * P;
  a.pNext[at] = Real(2) * sum - a.pPrev[at];
}

} // namespace

template <typename Real> void acousticTextbook(const rt::ErasedArgs &args, cudaStream_t stream) {
  const AcousticArgs<Real> a = acousticArgs<Real>(args);
  const dim3 grid(ceilDiv(a.nx, kBx), ceilDiv(a.ny, kBy), ceilDiv(a.nz, kPlanesPerBlock));
  const std::size_t shared = sizeof(Real) * kTileW * (kBy + 2 * kR);
  STENCILC_LAUNCH(acousticIso8Kernel<Real>, grid, dim3(kBx, kBy), shared, stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

template <typename Real> void etePlain(const rt::ErasedArgs &args, cudaStream_t stream) {
  const EteArgs<Real> a = eteArgs<Real>(args);
  const dim3 grid(ceilDiv(a.nx, kEteBx), ceilDiv(a.ny, kEteBy), unsigned(a.nz));
  STENCILC_LAUNCH(ete37Kernel<Real>, grid, dim3(kEteBx, kEteBy), 0, stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

template void acousticTextbook<float>(const rt::ErasedArgs &, cudaStream_t);
template void acousticTextbook<double>(const rt::ErasedArgs &, cudaStream_t);
template void etePlain<float>(const rt::ErasedArgs &, cudaStream_t);
template void etePlain<double>(const rt::ErasedArgs &, cudaStream_t);

} // namespace stencilc::bench::reference
