//===- LaunchObserver.h - What the emulator tells of a launch as it runs ---===//
//
// A hook into the emulator's launches for tools that watch kernels run: the
// traffic counter (Counters.h) is one. Kept out of Emulator.h, which every
// emulated kernel includes, since kernels need none of it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/emulator/Emulator.h"

#include <cstdint>
#include <vector>

namespace stencilc::cuda::emu::detail {

/// Told what a launch does, block by block. The calls come from the OS thread
/// that runs the block; blocks of one launch may run on several OS threads at
/// once. With no observer set (the default) a launch costs one pointer load
/// more, a block and a barrier one test.
class LaunchObserver {
public:
  virtual ~LaunchObserver() = default;
  /// Before the first block of a launch that passed validation.
  virtual void launchBegin(const LaunchConfig &config) = 0;
  /// A block starts on this OS thread; `shared` is its dynamic shared memory.
  virtual void blockBegin(const LaunchConfig &config, uint3 block, void *shared) = 0;
  /// Every thread of the running block that has not exited waits at one
  /// __syncthreads(); the next barrier interval starts after this call.
  virtual void barrier() = 0;
  /// The block is done (`completed`) or was stopped by a fault.
  virtual void blockEnd(bool completed) = 0;
  /// After the last block, unless the launch faulted.
  virtual void launchEnd(const LaunchConfig &config) = 0;
};

/// Sets the observer of every later launch (null: none); returns the previous one.
LaunchObserver *setLaunchObserver(LaunchObserver *observer);

/// One device allocation: the bytes [begin, end).
struct DeviceRange {
  std::uintptr_t begin, end;
};
/// Every live device allocation (cudaMalloc), by address.
std::vector<DeviceRange> deviceAllocations();

} // namespace stencilc::cuda::emu::detail
