//===- NvccCheck.cu - The CUDA runtime headers compile under nvcc ----------===//
//
// Compiled by nvcc only (a ctest, no GPU needed): every header of
// stencilc/cuda and the staging kernels, with the templates instantiated,
// must compile for the GPU targets Stencilc generates for without a warning.
//
//===----------------------------------------------------------------------===//
#include "StagingKernels.cuh"

#include "stencilc/cuda/Cuda.h"
#include "stencilc/cuda/DeviceBuffer.h"
#include "stencilc/cuda/DeviceGrid.h"
#include "stencilc/cuda/DeviceKernelData.h"
#include "stencilc/cuda/DeviceSnapshotWriter.h"
#include "stencilc/cuda/Streams.h"

namespace {

__global__ void scaleThroughDynamicShared(stencilc::rt::FieldView<double> field, int n) {
  STENCILC_DYNAMIC_SHARED(double, staged);
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  staged[threadIdx.x] = i < n ? __ldg(field.origin + i) : 0.0;
  __syncthreads();
  if (i < n)
    field.origin[i] = 2 * staged[threadIdx.x];
}

__global__ void copyThroughDynamicShared(const float *in, float *out, int n) {
  STENCILC_DYNAMIC_SHARED(float, staged); // another element type in the same file
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  staged[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = staged[threadIdx.x];
}

} // namespace

/// Host code that uses every part of the runtime; compiled, never run.
void useTheRuntime(const stencilc::rt::Grid<double> &host, const std::string &path) {
  namespace cuda = stencilc::cuda;
  cuda::Stream stream;
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  cuda::DeviceGrid<double> grid(host);
  cuda::DeviceSnapshotWriter<double> writer(host.shape());
  start.record(stream);
  STENCILC_LAUNCH(scaleThroughDynamicShared, 4, 128, 128 * sizeof(double), stream)
  (grid.view(), host.nx());
  STENCILC_CUDA_CHECK(cudaGetLastError());
  writer.protect(grid, stream);
  writer.write(grid, path, stream);
  end.record(stream);
  end.synchronize();
  (void)end.millisecondsSince(start);
  writer.finish();

  cuda::DeviceBuffer<float> a(64), b(64);
  STENCILC_LAUNCH(copyThroughDynamicShared, 1, 64, 64 * sizeof(float), nullptr)
  (a.data(), b.data(), 64);
  STENCILC_LAUNCH((staging::stencil2d<true, true>), dim3(2, 2), dim3(16, 8), 0, stream)
  (a.data(), b.data(), 4, 4, 8L);
  STENCILC_CUDA_CHECK(cudaDeviceSynchronize());
}
