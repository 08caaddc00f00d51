//===- EteColumn.cu - ETE-37 by columns, the table in L1 or shared memory -===//
//
// Reference.h's ete37 `column` and `column-shared`: each thread marches
// kPlanesPerBlock planes of its (x, y) column. The eight points on the z axis
// and the centre come from a register queue that takes one new plane per step
// (loaded a step ahead); the other 28 points are read from global memory,
// where the block's neighbouring threads read the same lines (L1). The
// point's 11 coefficients are gathered from its index's table column: through
// the read-only cache (`column`), or from a copy of the whole table that the
// block makes in shared memory first (`column-shared`), where 32 random
// columns cost a few bank conflicts instead of 32 cache lines.
//
//===----------------------------------------------------------------------===//
#include "ReferenceSupport.h"

#include <cstddef>

namespace stencilc::bench::reference {
namespace {

constexpr int kR = 4;
constexpr int kClasses = 11;
constexpr int kBx = 32, kBy = 8;
constexpr int kPlanesPerBlock = 64;

template <typename Real, bool kSharedTable>
__global__ void __launch_bounds__(kBx *kBy) eteColumnKernel(const EteArgs<Real> a) {
  STENCILC_DYNAMIC_SHARED(Real, shared);
  if constexpr (kSharedTable) { // shared[k * cols + c] = C[k][c]
    for (int i = int(threadIdx.y * kBx + threadIdx.x); i < kClasses * a.cols; i += kBx * kBy)
      shared[i] = a.table[(i / a.cols) * a.rowStride + (i % a.cols) * a.colStride];
    __syncthreads();
  }
  const ColumnMarch m = columnMarch<kBx, kBy, kPlanesPerBlock>(a.nz);
  if (m.x >= a.nx || m.y >= a.ny)
    return;
  const std::ptrdiff_t L = a.line, P = a.plane;
  const std::ptrdiff_t column = m.x + m.y * L;
  ColumnQueue<Real, kR> queue(a.p + column, P, m.z0);
  for (int z = m.z0; z < m.z1; ++z) {
    queue.advance(z, z + 1 < m.z1);
    const std::ptrdiff_t at = column + z * P;
    const int index = a.index[m.x + m.y * a.indexLine + z * a.indexPlane];
    auto c = [&](int klass) {
      if constexpr (kSharedTable)
        return shared[klass * a.cols + index];
      else
        return __ldg(&a.table[klass * a.rowStride + index * a.colStride]);
    };
    const Real *const p = a.p + at;
    const Real *const q = queue.centre();
    // The classes in the order stencilc numbers the table's rows (Reference.cu, etePlain).
    const Real sum =
        c(0) * (q[-4] + q[4]) + c(1) * (q[-3] + q[3]) + c(2) * (q[-2] + q[2]) +
        c(3) * (__ldg(&p[-L - P]) + __ldg(&p[-1 - P]) + __ldg(&p[1 - P]) + __ldg(&p[L - P]) +
                __ldg(&p[-L + P]) + __ldg(&p[-1 + P]) + __ldg(&p[1 + P]) + __ldg(&p[L + P])) +
        c(4) * (q[-1] + q[1]) +
        c(5) * (__ldg(&p[-4 * L]) + __ldg(&p[-4]) + __ldg(&p[4]) + __ldg(&p[4 * L])) +
        c(6) * (__ldg(&p[-3 * L]) + __ldg(&p[-3]) + __ldg(&p[3]) + __ldg(&p[3 * L])) +
        c(7) * (__ldg(&p[-2 * L]) + __ldg(&p[-2]) + __ldg(&p[2]) + __ldg(&p[2 * L])) +
        c(8) * (__ldg(&p[-1 - L]) + __ldg(&p[1 - L]) + __ldg(&p[-1 + L]) + __ldg(&p[1 + L])) +
        c(9) * (__ldg(&p[-L]) + __ldg(&p[-1]) + __ldg(&p[1]) + __ldg(&p[L])) + c(10) * q[0];
    a.pNext[at] = Real(2) * sum - a.pPrev[at];
  }
}

template <typename Real, bool kSharedTable>
void launchEteColumn(const EteArgs<Real> &a, cudaStream_t stream) {
  const dim3 grid(ceilDiv(a.nx, kBx), ceilDiv(a.ny, kBy), ceilDiv(a.nz, kPlanesPerBlock));
  using Kernel = void (*)(EteArgs<Real>);
  const Kernel kernel = eteColumnKernel<Real, kSharedTable>;
  const std::size_t shared = kSharedTable ? sizeof(Real) * kClasses * std::size_t(a.cols) : 0;
  if (shared > 48 * 1024) // above 48 KiB a block needs the opt-in
    STENCILC_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  STENCILC_LAUNCH(kernel, grid, dim3(kBx, kBy), shared, stream)(a);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}

} // namespace

template <typename Real, bool SharedTable>
void eteColumn(const rt::ErasedArgs &args, cudaStream_t stream) {
  launchEteColumn<Real, SharedTable>(eteArgs<Real>(args), stream);
}

template void eteColumn<float, false>(const rt::ErasedArgs &, cudaStream_t);
template void eteColumn<double, false>(const rt::ErasedArgs &, cudaStream_t);
template void eteColumn<float, true>(const rt::ErasedArgs &, cudaStream_t);
template void eteColumn<double, true>(const rt::ErasedArgs &, cudaStream_t);

} // namespace stencilc::bench::reference
