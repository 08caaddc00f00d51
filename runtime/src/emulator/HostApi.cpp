//===- HostApi.cpp - The emulator's CUDA runtime API on host memory -------===//
//
// See stencilc/emulator/HostApi.h for what is emulated. Device allocations are
// kept in an ordered map so that every copy can be checked against them.
//
//===----------------------------------------------------------------------===//
#include "stencilc/emulator/HostApi.h"
#include "stencilc/emulator/LaunchObserver.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <unordered_map>
#include <vector>

#include <unistd.h>

struct CUstream_st {
  unsigned flags;
};

struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
};

namespace stencilc::cuda::emu {
namespace {

/// cudaMalloc's alignment guarantee.
constexpr std::size_t kDeviceAlignment = 256;

thread_local cudaError_t tLastError = cudaSuccess;

/// Everything the emulated device owns, behind one lock: API calls are rare
/// next to the kernels they feed.
struct DeviceState {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> allocations; ///< device memory: begin -> bytes
  std::set<const void *> pinned;                     ///< cudaMallocHost blocks
  std::set<cudaStream_t> streams;
  std::set<cudaEvent_t> events;
  std::unordered_map<const void *, std::size_t> maxDynamicShared;
};

DeviceState &device() {
  static DeviceState state;
  return state;
}

cudaError_t fail(cudaError_t error) { return detail::recordError(error); }

/// Whether [p, p + bytes) lies inside one device allocation. Caller holds the lock.
bool isDeviceRange(const DeviceState &d, const void *p, std::size_t bytes) {
  auto address = reinterpret_cast<std::uintptr_t>(p);
  auto it = d.allocations.upper_bound(address);
  if (it == d.allocations.begin())
    return false;
  --it;
  return address - it->first <= it->second && bytes <= it->second - (address - it->first);
}

/// Whether p points into some device allocation. Caller holds the lock.
bool isDevicePointer(const DeviceState &d, const void *p) { return isDeviceRange(d, p, 1); }

void *allocateAligned(std::size_t bytes) {
  std::size_t rounded = (std::max<std::size_t>(bytes, 1) + kDeviceAlignment - 1) /
                        kDeviceAlignment * kDeviceAlignment;
  return ::operator new (rounded, std::align_val_t{kDeviceAlignment}, std::nothrow);
}

void freeAligned(void *p) { ::operator delete (p, std::align_val_t{kDeviceAlignment}); }

/// Checks both sides of a copy against the allocations, for `kind`.
cudaError_t checkCopy(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0)
    return cudaSuccess;
  if (!dst || !src)
    return cudaErrorInvalidValue;
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  bool dstDevice = isDevicePointer(d, dst), srcDevice = isDevicePointer(d, src);
  if (kind == cudaMemcpyDefault)
    kind = dstDevice ? (srcDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                     : (srcDevice ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  bool wantDst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool wantSrc = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  switch (kind) {
  case cudaMemcpyHostToHost:
  case cudaMemcpyHostToDevice:
  case cudaMemcpyDeviceToHost:
  case cudaMemcpyDeviceToDevice: break;
  default: return cudaErrorInvalidMemcpyDirection;
  }
  // A host pointer where device memory belongs (or the reverse) is a swapped
  // argument or a wrong kind; a device range that overruns its allocation is
  // an out-of-bounds copy.
  if (wantDst != dstDevice || wantSrc != srcDevice)
    return cudaErrorInvalidValue;
  if ((wantDst && !isDeviceRange(d, dst, bytes)) || (wantSrc && !isDeviceRange(d, src, bytes)))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

bool isLiveEvent(cudaEvent_t event) {
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  return d.events.count(event) != 0;
}

} // namespace

namespace detail {

cudaError_t recordError(cudaError_t error) {
  if (error != cudaSuccess)
    tLastError = error;
  return error;
}

std::size_t maxDynamicSharedBytes(const void *kernel) {
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  auto it = d.maxDynamicShared.find(kernel);
  return it == d.maxDynamicShared.end() ? kDefaultSharedBytes : it->second;
}

bool isValidStream(cudaStream_t stream) {
  if (!stream)
    return true;
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  return d.streams.count(stream) != 0;
}

std::vector<DeviceRange> deviceAllocations() {
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  std::vector<DeviceRange> ranges;
  ranges.reserve(d.allocations.size());
  for (const auto &[begin, bytes] : d.allocations)
    ranges.push_back({begin, begin + bytes});
  return ranges;
}

} // namespace detail
} // namespace stencilc::cuda::emu

using namespace stencilc::cuda::emu;

//===----------------------------------------------------------------------===//
// Errors and the device
//===----------------------------------------------------------------------===//

const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotReady: return "cudaErrorNotReady";
  case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidDevicePointer: return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorInvalidResourceHandle: return "invalid resource handle";
  case cudaErrorNotReady: return "device not ready";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unknown error";
}

cudaError_t cudaGetLastError() {
  cudaError_t error = tLastError;
  tLastError = cudaSuccess;
  return error;
}

cudaError_t cudaPeekAtLastError() { return tLastError; }

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop)
    return fail(cudaErrorInvalidValue);
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::strncpy(prop->name, "Stencilc CPU emulator", sizeof(prop->name) - 1);
  prop->totalGlobalMem = std::size_t(1) << 34;
  prop->sharedMemPerBlock = kDefaultSharedBytes;
  prop->sharedMemPerBlockOptin = kMaxOptInSharedBytes;
  prop->sharedMemPerMultiprocessor = kMaxOptInSharedBytes + 1024;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = kMaxThreadsPerBlock;
  for (int d = 0; d < 3; ++d) {
    prop->maxThreadsDim[d] = int(kMaxBlockDim[d]);
    prop->maxGridSize[d] = int(kMaxGridDim[d]);
  }
  prop->multiProcessorCount = 1;
  prop->l2CacheSize = 1 << 20; // the emulator has no cache; a small figure keeps defaults small
  prop->major = 9;
  prop->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

cudaError_t cudaMalloc(void **devPtr, std::size_t bytes) {
  if (!devPtr)
    return fail(cudaErrorInvalidValue);
  void *p = allocateAligned(bytes);
  if (!p)
    return fail(cudaErrorMemoryAllocation);
  std::memset(p, 0xff, bytes); // a GPU hands out uncleared memory; NaN shows its use
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  d.allocations[reinterpret_cast<std::uintptr_t>(p)] = bytes;
  *devPtr = p;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t *freeBytes, std::size_t *totalBytes) {
  if (!freeBytes || !totalBytes)
    return fail(cudaErrorInvalidValue);
  const auto page = std::size_t(sysconf(_SC_PAGESIZE));
  *freeBytes = std::size_t(sysconf(_SC_AVPHYS_PAGES)) * page;
  *totalBytes = std::size_t(sysconf(_SC_PHYS_PAGES)) * page;
  return cudaSuccess;
}

cudaError_t cudaFree(void *devPtr) {
  if (!devPtr)
    return cudaSuccess;
  DeviceState &d = device();
  {
    std::lock_guard lock(d.mutex);
    if (d.allocations.erase(reinterpret_cast<std::uintptr_t>(devPtr)) == 0)
      return fail(cudaErrorInvalidValue);
  }
  freeAligned(devPtr);
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, std::size_t bytes) {
  return cudaHostAlloc(ptr, bytes, cudaHostAllocDefault);
}

cudaError_t cudaHostAlloc(void **ptr, std::size_t bytes, unsigned) {
  if (!ptr)
    return fail(cudaErrorInvalidValue);
  void *p = allocateAligned(bytes);
  if (!p)
    return fail(cudaErrorMemoryAllocation);
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  d.pinned.insert(p);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void *ptr) {
  if (!ptr)
    return cudaSuccess;
  DeviceState &d = device();
  {
    std::lock_guard lock(d.mutex);
    if (d.pinned.erase(ptr) == 0)
      return fail(cudaErrorInvalidValue);
  }
  freeAligned(ptr);
  return cudaSuccess;
}

// Host memory is what the emulated device copies from anyway.
cudaError_t cudaHostRegister(void *ptr, std::size_t bytes, unsigned) {
  return ptr && bytes ? cudaSuccess : fail(cudaErrorInvalidValue);
}
cudaError_t cudaHostUnregister(void *ptr) {
  return ptr ? cudaSuccess : fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemcpy(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind) {
  if (cudaError_t error = checkCopy(dst, src, bytes, kind))
    return fail(error);
  if (bytes)
    std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  if (!detail::isValidStream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void *devPtr, int value, std::size_t bytes) {
  {
    DeviceState &d = device();
    std::lock_guard lock(d.mutex);
    if (bytes && !isDeviceRange(d, devPtr, bytes))
      return fail(cudaErrorInvalidValue);
  }
  if (bytes)
    std::memset(devPtr, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, std::size_t bytes, cudaStream_t stream) {
  if (!detail::isValidStream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  return cudaMemset(devPtr, value, bytes);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  if (!stream)
    return fail(cudaErrorInvalidValue);
  *stream = new CUstream_st{flags};
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  d.streams.insert(*stream);
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  DeviceState &d = device();
  {
    std::lock_guard lock(d.mutex);
    if (!stream || d.streams.erase(stream) == 0)
      return fail(cudaErrorInvalidResourceHandle);
  }
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return detail::isValidStream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
  if (!detail::isValidStream(stream) || !isLiveEvent(event))
    return fail(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags) {
  if (!event)
    return fail(cudaErrorInvalidValue);
  *event = new CUevent_st{flags, false, {}};
  DeviceState &d = device();
  std::lock_guard lock(d.mutex);
  d.events.insert(*event);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  DeviceState &d = device();
  {
    std::lock_guard lock(d.mutex);
    if (!event || d.events.erase(event) == 0)
      return fail(cudaErrorInvalidResourceHandle);
  }
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!isLiveEvent(event) || !detail::isValidStream(stream))
    return fail(cudaErrorInvalidResourceHandle);
  // Everything queued before it is done: the emulator works synchronously.
  event->recorded = true;
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return isLiveEvent(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms)
    return fail(cudaErrorInvalidValue);
  if (!isLiveEvent(start) || !isLiveEvent(end) || !start->recorded || !end->recorded ||
      (start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
    return fail(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  if (!func)
    return fail(cudaErrorInvalidValue);
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    if (value < 0 || std::size_t(value) > kMaxOptInSharedBytes)
      return fail(cudaErrorInvalidValue);
    DeviceState &d = device();
    std::lock_guard lock(d.mutex);
    d.maxDynamicShared[func] = std::size_t(value);
    return cudaSuccess;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    return value >= -1 && value <= 100 ? cudaSuccess : fail(cudaErrorInvalidValue);
  }
  return fail(cudaErrorInvalidValue);
}
