//===- HostApi.h - The CUDA runtime API subset the emulator provides ------===//
//
// Under a host compiler, Cuda.h gives the host side of CUDA from here: the
// calls the Stencilc runtime and generated host code make, with the real
// names, signatures and error codes, working on host memory. "Device"
// allocations are ordinary aligned host memory, but they are tracked, so a
// copy that runs past an allocation, a copy whose direction does not match
// its pointers, or a free of a pointer that was never allocated fails as it
// would (or should) on a GPU. New device memory is filled with 0xff bytes
// (NaN in float and double) because a GPU does not clear it either.
//
// Everything completes before the call returns: streams keep their identity
// and order trivially, events record the host time, and the *Async calls are
// synchronous. Errors are reported as by CUDA: a return code, remembered per
// host thread for cudaGetLastError().
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

// The CUDA runtime's names live in the global namespace; so do these.

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4, ///< direction inferred from the pointers
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

inline constexpr unsigned cudaStreamDefault = 0x0;
inline constexpr unsigned cudaStreamNonBlocking = 0x1;
inline constexpr unsigned cudaEventDefault = 0x0;
inline constexpr unsigned cudaEventBlockingSync = 0x1;
inline constexpr unsigned cudaEventDisableTiming = 0x2;
inline constexpr unsigned cudaHostAllocDefault = 0x0;
inline constexpr unsigned cudaHostRegisterDefault = 0x0;

/// The fields of CUDA's cudaDeviceProp that the emulator can answer.
struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  std::size_t sharedMemPerBlockOptin;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int multiProcessorCount;
  int l2CacheSize; ///< bytes
  int major;
  int minor;
};

const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceSynchronize();

cudaError_t cudaMalloc(void **devPtr, std::size_t bytes);
/// The emulated device's memory is the host's: free is what the host has unused, total its RAM.
cudaError_t cudaMemGetInfo(std::size_t *freeBytes, std::size_t *totalBytes);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void **ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void *ptr);

template <typename T> cudaError_t cudaMalloc(T **devPtr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void **>(devPtr), bytes);
}
template <typename T> cudaError_t cudaMallocHost(T **ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void **>(ptr), bytes);
}

cudaError_t cudaMemcpy(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void *devPtr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void *devPtr, int value, std::size_t bytes,
                            cudaStream_t stream = nullptr);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
template <typename R, typename... Params>
cudaError_t cudaFuncSetAttribute(R (*kernel)(Params...), cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel), attr, value);
}

namespace stencilc::cuda::emu {

/// What the emulated device accepts: the largest of the targets Stencilc
/// generates for (sm_90), so that any launch valid on one of them runs.
inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
inline constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535, 65535};
/// Dynamic shared memory a launch may ask for without cudaFuncSetAttribute.
inline constexpr std::size_t kDefaultSharedBytes = 48 * 1024;
/// The most it may ask for with cudaFuncAttributeMaxDynamicSharedMemorySize.
inline constexpr std::size_t kMaxOptInSharedBytes = 227 * 1024;

namespace detail {
/// Remembers `error` for cudaGetLastError() on this host thread and returns it.
cudaError_t recordError(cudaError_t error);
/// The dynamic shared memory `kernel` may use (cudaFuncSetAttribute).
std::size_t maxDynamicSharedBytes(const void *kernel);
/// Whether `stream` is null or a live stream.
bool isValidStream(cudaStream_t stream);
} // namespace detail

} // namespace stencilc::cuda::emu
