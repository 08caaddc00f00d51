//===- DeviceTriad.cu - A STREAM-like triad on the GPU ---------------------===//
//
// The device counterpart of runtime/include/stencilc/bench/Stream.h: kernels that
// move memory are judged against what this GPU's memory delivers in the same
// run (docs/DESIGN.md §Performance model). 3 x 1 GiB arrays by default, far beyond any L2 cache;
// timed with events on one stream; the best of the trials.
//
//===----------------------------------------------------------------------===//
#include "DeviceTriad.h"

#include <stencilc/cuda/Cuda.h>
#include <stencilc/cuda/DeviceBuffer.h>
#include <stencilc/cuda/Streams.h>

#include <algorithm>

namespace stencilc::bench {
namespace {

constexpr int kThreads = 256;

__global__ void fill(double *a, double *b, double *c, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
}

__global__ void triad(double *__restrict__ a, const double *__restrict__ b,
                      const double *__restrict__ c, double scalar, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = b[i] + scalar * c[i];
}

__global__ void fill4(float *a, float *b, float *c, float *d, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    a[i] = 1.0f;
    b[i] = 2.0f;
    c[i] = 0.5f;
    d[i] = 0.25f;
  }
}

__global__ void stream3r1w(float *__restrict__ a, const float *__restrict__ b,
                           const float *__restrict__ c, const float *__restrict__ d,
                           std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = b[i] + c[i] + d[i];
}

/// Blocks of kThreads threads for `elements` (the kernels stride over the rest).
unsigned blocksFor(std::size_t elements) {
  return unsigned(std::min<std::size_t>((elements + kThreads - 1) / kThreads, 1u << 20));
}

/// The shortest time in seconds of `launch` on `stream` over `trials`, one event pair each.
template <typename Launch> double bestSeconds(cudaStream_t stream, int trials, Launch launch) {
  float best = 1e30f;
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  for (int t = 0; t < trials; ++t) {
    start.record(stream);
    launch();
    STENCILC_CUDA_CHECK(cudaGetLastError());
    end.record(stream);
    end.synchronize();
    best = std::min(best, end.millisecondsSince(start));
  }
  return double(best) * 1e-3;
}

} // namespace

double measureDeviceStream3r1wBandwidth(std::size_t elements, int trials) {
  cuda::DeviceBuffer<float> a(elements), b(elements), c(elements), d(elements);
  cuda::Stream stream;
  const unsigned blocks = blocksFor(elements);
  STENCILC_LAUNCH(fill4, blocks, kThreads, 0, stream)
  (a.data(), b.data(), c.data(), d.data(), elements);
  STENCILC_CUDA_CHECK(cudaGetLastError());
  const double seconds = bestSeconds(stream, trials, [&] {
    STENCILC_LAUNCH(stream3r1w, blocks, kThreads, 0, stream)
    (a.data(), b.data(), c.data(), d.data(), elements);
  });
  return 16.0 * double(elements) / seconds / 1e9;
}

double measureDeviceTriadBandwidth(std::size_t elements, int trials) {
  cuda::DeviceBuffer<double> a(elements), b(elements), c(elements);
  cuda::Stream stream;
  const unsigned blocks = blocksFor(elements);
  STENCILC_LAUNCH(fill, blocks, kThreads, 0, stream)(a.data(), b.data(), c.data(), elements);
  STENCILC_CUDA_CHECK(cudaGetLastError());
  const double seconds = bestSeconds(stream, trials, [&] {
    STENCILC_LAUNCH(triad, blocks, kThreads, 0, stream)
    (a.data(), b.data(), c.data(), 3.0, elements);
  });
  return 24.0 * double(elements) / seconds / 1e9;
}

} // namespace stencilc::bench
