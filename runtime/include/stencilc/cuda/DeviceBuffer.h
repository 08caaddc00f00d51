//===- DeviceBuffer.h - An owned, typed array in device memory ------------===//
//
// The storage under device grids and tables: cudaMalloc'd, freed on
// destruction, move-only, every call checked (a failure throws CudaError
// naming the call). Copies with a stream are asynchronous on that stream;
// without one they complete before returning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/cuda/Cuda.h"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace stencilc::cuda {

template <typename T> class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device memory holds plain data");

public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : size_(count) {
    if (count)
      STENCILC_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_)
      cudaFree(data_); // a destructor must not throw; the memory is gone either way
  }

  DeviceBuffer(DeviceBuffer &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

  /// Copies `count` elements from host memory to the start of the buffer.
  void copyFromHost(const T *host, std::size_t count, cudaStream_t stream = nullptr) {
    checkCount(count);
    if (stream)
      STENCILC_CUDA_CHECK(
          cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
    else
      STENCILC_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }

  /// Copies the first `count` elements of the buffer to host memory.
  void copyToHost(T *host, std::size_t count, cudaStream_t stream = nullptr) const {
    checkCount(count);
    if (stream)
      STENCILC_CUDA_CHECK(
          cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
    else
      STENCILC_CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

  /// Every byte becomes `byte` (0xff makes floats and doubles NaN).
  void fillBytes(int byte, cudaStream_t stream = nullptr) {
    if (stream)
      STENCILC_CUDA_CHECK(cudaMemsetAsync(data_, byte, bytes(), stream));
    else
      STENCILC_CUDA_CHECK(cudaMemset(data_, byte, bytes()));
  }

private:
  void checkCount(std::size_t count) const {
    if (count > size_)
      throw CudaError(cudaErrorInvalidValue, "DeviceBuffer: copy of " + std::to_string(count) +
                                                 " elements into a buffer of " +
                                                 std::to_string(size_));
  }

  T *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace stencilc::cuda
