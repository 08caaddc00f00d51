//===- StagingKernels.cuh - Shared-memory stencils with a plantable bug ----===//
//
// Two 2D stencils of radius kRadius that stage the block's tile of the input
// (with the halo the stencil reads) in shared memory and then compute from
// it, as the `traditional` and `planes` CUDA variants do with each plane.
// With kBarrier false the __syncthreads() between staging and computing is
// missing: a thread may read a cell before the thread that stages it has.
//
//   upwind:  out = sum over r of w_r * (in(x - r, y) + in(x, y - r)). Every
//            cell it reads is staged by a thread with a lower linear index,
//            or by itself, so the unsynchronised kernel is right by luck
//            when threads run in order.
//   centred: the 4*kRadius+1-point star; reads from both sides, so it is
//            wrong without the barrier whatever the order.
//
// Threads outside the interior (odd sizes) stage nothing and write nothing,
// but still reach the barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/cuda/Cuda.h"

namespace staging {

constexpr int kRadius = 2;
constexpr int kBlockX = 16, kBlockY = 8;
constexpr int kTileX = kBlockX + 2 * kRadius, kTileY = kBlockY + 2 * kRadius;

/// The weight of the points at distance r (r = 0 is the centre).
__host__ __device__ inline float weight(int r) { return 1.0f / float(1 + r * r); }

/// The host's reference for out(x, y), from any accessor in(x, y).
template <bool kCentred, typename In>
__host__ __device__ float reference(const In &in, int x, int y) {
  float sum = weight(0) * in(x, y);
  for (int r = 1; r <= kRadius; ++r) {
    sum += weight(r) * (in(x - r, y) + in(x, y - r));
    if (kCentred)
      sum += weight(r) * (in(x + r, y) + in(x, y + r));
  }
  return sum;
}

/// in and out: origin of the interior and the line stride; the input has a
/// halo of kRadius.
template <bool kCentred, bool kBarrier>
__global__ void __launch_bounds__(kBlockX *kBlockY)
    stencil2d(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, long line) {
  __shared__ float tile[kTileY][kTileX];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int x = int(blockIdx.x) * kBlockX + tx, y = int(blockIdx.y) * kBlockY + ty;
  const bool inside = x < nx && y < ny;
  const float *at = in + y * line + x;
  // Each inside thread stages its own cell; the threads on the block's (or
  // the grid's) edges also stage the halo next to them.
  if (inside) {
    tile[ty + kRadius][tx + kRadius] = __ldg(at);
    for (int r = 1; r <= kRadius; ++r) {
      if (tx == 0)
        tile[ty + kRadius][kRadius - r] = __ldg(at - r);
      if (ty == 0)
        tile[kRadius - r][tx + kRadius] = __ldg(at - r * line);
      if (kCentred && (tx == kBlockX - 1 || x == nx - 1))
        tile[ty + kRadius][tx + kRadius + r] = __ldg(at + r);
      if (kCentred && (ty == kBlockY - 1 || y == ny - 1))
        tile[ty + kRadius + r][tx + kRadius] = __ldg(at + r * line);
    }
  }
  if constexpr (kBarrier)
    __syncthreads();
  if (!inside)
    return;
  auto staged = [&](int dx, int dy) { return tile[ty + kRadius + dy][tx + kRadius + dx]; };
  out[y * line + x] = reference<kCentred>(staged, 0, 0);
}

} // namespace staging
