//===- Counters.h - What a GPU would move, counted on the emulator ---------===//
//
// The emulator runs a kernel's threads one after another, so it cannot time
// memory; it can count what a warp would ask of it. A *counting build* of a
// kernel is its translation unit compiled with `-fsanitize=thread`, which makes
// the compiler call __tsan_readN(addr) / __tsan_writeN(addr) before every load
// and store. stencilc_cuda_counting defines those hooks itself (libtsan is not
// linked): while a TrafficCounter lives, the hooks record the accesses that
// emulated threads make, and the counter turns them into the requests a warp
// would issue. Only the instrumented translation unit pays for a hook; the
// emulator and every other build are untouched (docs/EMULATOR-COUNTERS.md).
//
// The rules (per launch; docs/EMULATOR-COUNTERS.md defines each counter):
//   * An access is global if it lies in a cudaMalloc allocation, shared if it
//     lies in the running block's dynamic shared memory, else local (the
//     thread's stack, kernel parameters) and not counted.
//   * A warp is 32 consecutive threads by linear index (x fastest). The k-th
//     execution of one instruction site (the hook's return address) by the
//     threads of one warp between two barriers is one *request*.
//   * Global: a request's sectors are the distinct 32-byte segments its lanes
//     touch. Shared: its wavefronts are the most distinct 4-byte words any one
//     of the 32 banks must serve (lanes reading one word share it: a
//     broadcast); an 8-byte access touches two words (two banks), a 16-byte
//     access four.
//   * A barrier is one __syncthreads() reached by a block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/emulator/LaunchObserver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stencilc::cuda::emu {

/// The counts of one kernel launch (summed over its blocks).
struct LaunchCounts {
  std::string kernel; ///< the name STENCILC_LAUNCH gave, as one word: "sweep0_gmem"
  dim3 grid, block;
  std::size_t sharedBytes = 0;
  std::uint64_t globalLoadRequests = 0, globalLoadSectors = 0;
  std::uint64_t globalStoreRequests = 0, globalStoreSectors = 0;
  std::uint64_t sharedRequests = 0, sharedWavefronts = 0; ///< loads and stores
  std::uint64_t barriers = 0;
  /// Distinct sectors each block touches (loads and stores), summed over blocks.
  std::uint64_t l1DistinctSectors = 0;
  /// 32 B x (distinct sectors the launch loads + distinct sectors it stores).
  std::uint64_t dramBytesEstimate = 0;
  /// Every access the hooks saw from emulated threads, local ones too: 0 means
  /// the kernel was not compiled as a counting build.
  std::uint64_t accessesSeen = 0;
};

/// Counts every launch made while it lives (one at a time in a process).
/// Launches may spread their blocks over OpenMP threads as usual.
class TrafficCounter {
public:
  TrafficCounter();
  ~TrafficCounter();
  TrafficCounter(const TrafficCounter &) = delete;
  TrafficCounter &operator=(const TrafficCounter &) = delete;

  /// One entry per launch that ran, in launch order.
  const std::vector<LaunchCounts> &launches() const;

private:
  struct State;
  State *state_;
};

} // namespace stencilc::cuda::emu
