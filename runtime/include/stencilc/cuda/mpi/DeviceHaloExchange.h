//===- DeviceHaloExchange.h - Halo exchange of grids in device memory -----===//
//
// The CUDA path of a distributed run (docs/DISTRIBUTED.md §CUDA): the cells a
// neighbour reads are packed on the device by a small kernel into a
// contiguous device buffer, copied to the message's host buffer and sent; a
// received buffer goes back to the device and is unpacked there. With an MPI
// that reads device memory itself (CUDA-aware: MPIX_Query_cuda_support says
// so), MPI sends from and receives into the device buffers directly and the
// host copies are skipped. Header-only: it is compiled with the generated .cu
// files, by nvcc or against the CUDA emulator.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/cuda/Cuda.h"
#include "stencilc/cuda/DeviceBuffer.h"
#include "stencilc/mpi/HaloExchange.h"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // Open MPI declares MPIX_Query_cuda_support here
#endif

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace stencilc::cuda::mpi {

/// Does the MPI library read and write device memory itself?
inline bool cudaAwareMpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

namespace detail {

/// Element (x, y, z) of a box, x fastest: thread t of the launch copies element t.
template <typename Word>
__global__ void packBox(const Word *origin, std::ptrdiff_t line, std::ptrdiff_t plane, rt::Box box,
                        Word *packed) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long w = box.x1 - box.x0, h = box.y1 - box.y0;
  if (t >= w * h * (box.z1 - box.z0))
    return;
  const long long x = box.x0 + t % w, y = box.y0 + t / w % h, z = box.z0 + t / (w * h);
  packed[t] = origin[x + y * line + z * plane];
}

template <typename Word>
__global__ void unpackBox(Word *origin, std::ptrdiff_t line, std::ptrdiff_t plane, rt::Box box,
                          const Word *packed) {
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long w = box.x1 - box.x0, h = box.y1 - box.y0;
  if (t >= w * h * (box.z1 - box.z0))
    return;
  const long long x = box.x0 + t % w, y = box.y0 + t / w % h, z = box.z0 + t / (w * h);
  origin[x + y * line + z * plane] = packed[t];
}

} // namespace detail

/// Whether MPI is handed device buffers: with a CUDA-aware MPI, or when
/// STENCILC_MPI_DEVICE_BUFFERS=1 says so (under the CUDA emulator device
/// memory is host memory, so any MPI reads it: the tests run this path).
inline bool mpiTakesDeviceBuffers() {
  const char *forced = std::getenv("STENCILC_MPI_DEVICE_BUFFERS");
  if (forced && *forced)
    return std::strcmp(forced, "0") != 0;
  return cudaAwareMpi();
}

/// A HaloExchange whose field lives in device memory (an rt::ErasedField of
/// device pointers, as DeviceKernelData lends them).
class DeviceHaloExchange : public rt::mpi::HaloExchange {
  using Buffers = std::vector<DeviceBuffer<std::byte>>;

public:
  DeviceHaloExchange(const rt::mpi::DomainSplit &d, const rt::mpi::Reach &reach, int elementBytes,
                     int tag, bool direct = mpiTakesDeviceBuffers())
      : DeviceHaloExchange(d, reach, elementBytes, tag,
                           direct ? std::make_shared<Buffers>() : nullptr) {}

  /// MPI reads and writes the device buffers itself (no host copies).
  bool direct() const { return transfer_ != nullptr; }

  /// A MakeExchange for rt::mpi::DistributedKernel.
  static std::unique_ptr<rt::mpi::HaloExchange>
  make(const rt::mpi::DomainSplit &d, const rt::mpi::Reach &reach, int elementBytes, int tag) {
    return std::make_unique<DeviceHaloExchange>(d, reach, elementBytes, tag);
  }

private:
  DeviceHaloExchange(const rt::mpi::DomainSplit &d, const rt::mpi::Reach &reach, int elementBytes,
                     int tag, std::shared_ptr<Buffers> transfer)
      : HaloExchange(d, reach, elementBytes, tag, allocator(transfer)),
        transfer_(std::move(transfer)) {}

  /// Device memory for MPI to use directly, kept alive by the exchange.
  static Allocate allocator(const std::shared_ptr<Buffers> &buffers) {
    if (!buffers)
      return {};
    return [buffers](std::size_t bytes) -> void * {
      buffers->emplace_back(bytes);
      return buffers->back().data();
    };
  }

protected:
  void pack(const rt::ErasedField &field, Message &m) const override {
    if (elementBytes() == 8)
      move<std::uint64_t>(field, m, true);
    else
      move<std::uint32_t>(field, m, true);
  }
  void unpack(const rt::ErasedField &field, const Message &m) const override {
    if (elementBytes() == 8)
      move<std::uint64_t>(field, const_cast<Message &>(m), false);
    else
      move<std::uint32_t>(field, const_cast<Message &>(m), false);
  }

private:
  /// Pack (device -> staging -> m.buffer) or unpack (m.buffer -> staging ->
  /// device); in direct mode the staging buffer is the one MPI uses.
  template <typename Word> void move(const rt::ErasedField &field, Message &m, bool out) const {
    const std::size_t count = std::size_t(m.cells.points());
    if (!count)
      return;
    DeviceBuffer<Word> staging(direct() ? 0 : count);
    Word *packed = direct() ? static_cast<Word *>(m.transfer) : staging.data();
    constexpr int kThreads = 256;
    const dim3 grid(unsigned((count + kThreads - 1) / kThreads));
    Word *origin = static_cast<Word *>(field.origin);
    Word *host = reinterpret_cast<Word *>(m.buffer.data());
    if (out) {
      STENCILC_LAUNCH(detail::packBox<Word>, grid, kThreads, 0, nullptr)
      (origin, field.line, field.plane, m.cells, packed);
      STENCILC_CUDA_CHECK(cudaGetLastError());
      if (direct())
        STENCILC_CUDA_CHECK(cudaDeviceSynchronize()); // packed before MPI reads it
      else
        staging.copyToHost(host, count);
    } else {
      if (!direct())
        staging.copyFromHost(host, count);
      STENCILC_LAUNCH(detail::unpackBox<Word>, grid, kThreads, 0, nullptr)
      (origin, field.line, field.plane, m.cells, packed);
      STENCILC_CUDA_CHECK(cudaGetLastError());
      STENCILC_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  std::shared_ptr<Buffers> transfer_; ///< device buffers MPI uses directly, or null
};

} // namespace stencilc::cuda::mpi
