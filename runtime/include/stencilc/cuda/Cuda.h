//===- Cuda.h - One CUDA dialect for nvcc and for the CPU emulator ---------===//
//
// Generated .cu files and the CUDA host runtime include this header and
// nothing else from CUDA. Under nvcc (__CUDACC__) it is real CUDA:
// cuda_runtime.h, and the macros below expand to the CUDA syntax they stand
// for. Under a host C++ compiler it is the CPU emulator (Emulator.h,
// HostApi.h), so that every generated kernel can be run and checked on a
// machine without a GPU.
//
// Host C++ files of a real CUDA build (compiled by the host compiler, with no
// kernels in them) define STENCILC_CUDA_RUNTIME to get cuda_runtime.h too.
//
// The dialect, beyond the keywords and builtins both sides share
// (__global__ __device__ __host__ __forceinline__ __restrict__
// __launch_bounds__(N) __shared__ __constant__; threadIdx blockIdx blockDim
// gridDim warpSize; dim3; __syncthreads(); __ldg):
//
//   STENCILC_LAUNCH(kernel, grid, block, sharedBytes, stream)(args...);
//       kernel<<<grid, block, sharedBytes, stream>>>(args...). `kernel` must
//       name one function: a kernel, a template specialisation or a function
//       pointer (a template-id with a comma needs parentheses or an alias).
//       Check it with STENCILC_CUDA_CHECK(cudaGetLastError()) as under nvcc.
//   STENCILC_DYNAMIC_SHARED(T, name);
//       Declares `T *name`, the launch's dynamic shared memory (sharedBytes
//       bytes, 16-byte aligned). Under nvcc this is the block's
//       `extern __shared__` array; it is declared as bytes and cast so that
//       kernels of different element types can share one translation unit.
//   STENCILC_CUDA_CHECK(expr);
//       Throws stencilc::cuda::CudaError ("file:line: CUDA error ...") when
//       the cudaError_t `expr` is not cudaSuccess.
//
//===----------------------------------------------------------------------===//
#pragma once

#if defined(__CUDACC__) || defined(STENCILC_CUDA_RUNTIME)

#include <cuda_runtime.h>

#if defined(__CUDACC__)
#define STENCILC_LAUNCH(kernel, grid, block, sharedBytes, stream)                                  \
  kernel<<<(grid), (block), (sharedBytes), (stream)>>>

#define STENCILC_DYNAMIC_SHARED(T, name)                                                           \
  extern __shared__ __align__(16) unsigned char stencilc_dynamic_shared_[];                        \
  T *const name = reinterpret_cast<T *>(stencilc_dynamic_shared_)
#endif

#else // the CPU emulator

#include "stencilc/emulator/Emulator.h"

#define STENCILC_LAUNCH(kernel, grid, block, sharedBytes, stream)                                  \
  ::stencilc::cuda::emu::Launch(kernel, #kernel, (grid), (block), (sharedBytes), (stream))

#define STENCILC_DYNAMIC_SHARED(T, name) T *const name = ::stencilc::cuda::emu::dynamicShared<T>()

#endif

#include "stencilc/cuda/Check.h"

#define STENCILC_CUDA_CHECK(expr) ::stencilc::cuda::check((expr), #expr, __FILE__, __LINE__)
