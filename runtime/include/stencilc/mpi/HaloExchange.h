//===- HaloExchange.h - The halo cells one field's neighbours read --------===//
//
// After a step each rank sends its neighbours the cells of a field they read
// and receives the cells it reads of theirs, for exactly the directions the
// stencil reaches (rt::KernelFieldInfo::neighbours: the six faces for a star,
// edges and corners where a read crosses two or three axes at once). The
// cells are packed into buffers bound to persistent requests made once, so a
// step only packs, starts, waits and unpacks.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"
#include "stencilc/mpi/DomainSplit.h"

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

namespace stencilc::rt::mpi {

/// How far a field's reads reach ({x-, x+, y-, y+, z-, z+}) and the
/// directions they reach, as rt::KernelFieldInfo carries them.
struct Reach {
  std::array<int, 6> cells = {0, 0, 0, 0, 0, 0};
  unsigned neighbours = 0; ///< bit neighbourBit(dx, dy, dz) per direction reached
  int below(int axis) const { return cells[2 * axis]; }
  int above(int axis) const { return cells[2 * axis + 1]; }
  /// Both reaches together: every cell and direction either reads.
  Reach merged(const Reach &other) const;
};

class HaloExchange {
public:
  /// Memory of `bytes` bytes for MPI to send from or receive into, when it is
  /// not the messages' host buffers (device memory for a CUDA-aware MPI).
  using Allocate = std::function<void *(std::size_t bytes)>;

  /// Persistent requests for a field of `elementBytes`-byte elements on this
  /// rank's local grid; `tag` tells this field's messages from others'.
  HaloExchange(const DomainSplit &d, const Reach &reach, int elementBytes, int tag,
               const Allocate &transferMemory = {});
  virtual ~HaloExchange();
  HaloExchange(const HaloExchange &) = delete;
  HaloExchange &operator=(const HaloExchange &) = delete;

  /// Packs the cells the neighbours read of `field` (local grid, origin at the
  /// first interior point) and starts every send and receive.
  void start(const ErasedField &field);
  /// Waits for them and unpacks the received cells into `field`'s halo.
  void finish(const ErasedField &field);

  /// Messages this rank sends per exchange (those it receives may differ
  /// for a stencil that reads one way more than the other).
  int sends() const { return int(sends_.size()); }
  int receives() const { return int(receives_.size()); }

protected:
  struct Message {
    Box cells; ///< local coordinates; may lie in the halo (receives)
    int peer = MPI_PROC_NULL;
    int tag = 0;
    std::vector<std::byte> buffer; ///< host memory, unless transfer memory was allocated
    void *transfer = nullptr;      ///< what MPI sends from or receives into
  };
  /// Copies `m.cells` of `field` into `m.buffer`, x fastest, and back. The
  /// defaults read and write host memory; a device grid stages through the
  /// host (cuda/DeviceHaloExchange.h).
  virtual void pack(const ErasedField &field, Message &m) const;
  virtual void unpack(const ErasedField &field, const Message &m) const;
  int elementBytes() const { return elementBytes_; }

private:
  int elementBytes_;
  std::vector<Message> sends_, receives_;
  std::vector<MPI_Request> requests_; ///< receives first, then sends
};

} // namespace stencilc::rt::mpi
