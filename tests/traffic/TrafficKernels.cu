//===- TrafficKernels.cu - Small kernels with known traffic ---------------===//
//
// The counting build of TrafficTest: CMake compiles this file, and only this
// one, with -fsanitize=thread (tests/traffic/CMakeLists.txt), so that every
// load and store below calls the traffic counter's hooks.
//
//===----------------------------------------------------------------------===//
#include "TrafficKernels.h"

#include <stencilc/cuda/Cuda.h>

namespace {

__global__ void copyRowKernel(const float *in, float *out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void stridedReadKernel(const float *in, float *out, int stride) {
  const unsigned i = threadIdx.x;
  out[i] = in[i * unsigned(stride)];
}

__global__ void sharedStridedKernel(float *out, int stride) {
  STENCILC_DYNAMIC_SHARED(float, shared);
  const unsigned t = threadIdx.x;
  shared[t * unsigned(stride)] = float(t);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = shared[t * unsigned(stride)];
}

__global__ void sharedBroadcastKernel(float *out) {
  STENCILC_DYNAMIC_SHARED(float, shared);
  if (threadIdx.x == 0)
    shared[0] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = shared[0];
}

__global__ void sharedDoublesKernel(double *out) {
  STENCILC_DYNAMIC_SHARED(double, shared);
  const unsigned t = threadIdx.x;
  shared[t] = double(t);
  __syncthreads();
  out[t] = shared[t];
}

__global__ void divergentLoadKernel(const float *in, float *out) {
  const unsigned t = threadIdx.x;
  float v = in[t];
  if (t % 2 == 1)
    v += in[32 + t];
  out[t] = v;
}

__global__ void loopLoadsKernel(const float *in, float *out) {
  const unsigned t = threadIdx.x;
  float sum = 0;
  for (unsigned k = 0; k < 4; ++k)
    sum += in[t + 32 * k];
  out[t] = sum;
}

} // namespace

namespace traffic {

void copyRow(const float *in, float *out, int blocks, int threads) {
  STENCILC_LAUNCH(copyRowKernel, dim3(blocks), dim3(threads), 0, nullptr)(in, out);
}
void stridedRead(const float *in, float *out, int stride) {
  STENCILC_LAUNCH(stridedReadKernel, dim3(1), dim3(32), 0, nullptr)(in, out, stride);
}
void sharedStrided(float *out, int stride, int blocks, int threads) {
  const std::size_t bytes = std::size_t(threads) * stride * sizeof(float);
  STENCILC_LAUNCH(sharedStridedKernel, dim3(blocks), dim3(threads), bytes, nullptr)(out, stride);
}
void sharedBroadcast(float *out) {
  STENCILC_LAUNCH(sharedBroadcastKernel, dim3(1), dim3(32), sizeof(float), nullptr)(out);
}
void sharedDoubles(double *out) {
  STENCILC_LAUNCH(sharedDoublesKernel, dim3(1), dim3(32), 32 * sizeof(double), nullptr)(out);
}
void divergentLoad(const float *in, float *out) {
  STENCILC_LAUNCH(divergentLoadKernel, dim3(1), dim3(32), 0, nullptr)(in, out);
}
void loopLoads(const float *in, float *out) {
  STENCILC_LAUNCH(loopLoadsKernel, dim3(1), dim3(32), 0, nullptr)(in, out);
}

} // namespace traffic
