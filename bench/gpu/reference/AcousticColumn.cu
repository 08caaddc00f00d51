//===- AcousticColumn.cu - acoustic_iso8 by columns, no shared memory -----===//
//
// Reference.h's `column`: each thread marches a block's planes of its
// (x, y) column. The column's z neighbours stay in a register queue that
// takes one new plane per step (loaded a step ahead, so it is in flight while
// the step computes); the x and y neighbours are read from global memory,
// where the block's neighbouring threads read the same lines, so they come
// from L1. It asks how far a GPU's L1 makes a shared tile unnecessary.
//
//===----------------------------------------------------------------------===//
#include "ReferenceSupport.h"

#include <cstddef>

namespace stencilc::bench::reference {
namespace {

constexpr int kR = 4;

/// Blocks of kBx x kBy threads, each marching kPlanes planes.
template <typename Real, int kBx, int kBy, int kPlanesPerBlock>
__global__ void __launch_bounds__(kBx *kBy) acousticColumnKernel(const AcousticArgs<Real> a) {
  using C = Order8<Real>;
  const ColumnMarch m = columnMarch<kBx, kBy, kPlanesPerBlock>(a.nz);
  if (m.x >= a.nx || m.y >= a.ny)
    return;
  const std::ptrdiff_t L = a.line, P = a.plane;
  const std::ptrdiff_t column = m.x + m.y * L;
  ColumnQueue<Real, kR> queue(a.u + column, P, m.z0);
  for (int z = m.z0; z < m.z1; ++z) {
    queue.advance(z, z + 1 < m.z1);
    const std::ptrdiff_t p = column + z * P;
    const Real *const at = a.u + p;
    const Real *const q = queue.centre();
    const Real laplacian =
        Real(3) * C::c0 * q[0] +
        C::c1 * (__ldg(&at[-1]) + __ldg(&at[1]) + __ldg(&at[-L]) + __ldg(&at[L]) + q[-1] + q[1]) +
        C::c2 * (__ldg(&at[-2]) + __ldg(&at[2]) + __ldg(&at[-2 * L]) + __ldg(&at[2 * L]) + q[-2] +
                 q[2]) +
        C::c3 * (__ldg(&at[-3]) + __ldg(&at[3]) + __ldg(&at[-3 * L]) + __ldg(&at[3 * L]) + q[-3] +
                 q[3]) +
        C::c4 * (__ldg(&at[-4]) + __ldg(&at[4]) + __ldg(&at[-4 * L]) + __ldg(&at[4 * L]) + q[-4] +
                 q[4]);
    const Real v = a.v[p];
    a.uNext[p] = Real(2) * q[0] - a.uPrev[p] + v * v * a.scale * laplacian;
  }
}

} // namespace

template <typename Real, int Bx, int By, int Planes>
void acousticColumn(const rt::ErasedArgs &args, cudaStream_t stream) {
  const AcousticArgs<Real> a = acousticArgs<Real>(args);
  const dim3 grid(ceilDiv(a.nx, Bx), ceilDiv(a.ny, By), ceilDiv(a.nz, Planes));
  using Kernel = void (*)(AcousticArgs<Real>);
  const Kernel kernel = acousticColumnKernel<Real, Bx, By, Planes>;
  STENCILC_LAUNCH(kernel, grid, dim3(Bx, By), 0, stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

// The shapes Reference.h lists.
template void acousticColumn<float, 32, 8, 32>(const rt::ErasedArgs &, cudaStream_t);
template void acousticColumn<double, 32, 8, 32>(const rt::ErasedArgs &, cudaStream_t);
template void acousticColumn<float, 32, 16, 64>(const rt::ErasedArgs &, cudaStream_t);
template void acousticColumn<double, 32, 16, 64>(const rt::ErasedArgs &, cudaStream_t);
template void acousticColumn<float, 32, 4, 64>(const rt::ErasedArgs &, cudaStream_t);
template void acousticColumn<double, 32, 4, 64>(const rt::ErasedArgs &, cudaStream_t);

} // namespace stencilc::bench::reference
