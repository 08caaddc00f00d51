//===- TrafficTest.cpp - The traffic counter on kernels of known traffic ---===//
//
// Each kernel of TrafficKernels.cu (a counting build) runs on the emulator
// under a TrafficCounter; the counts must be the ones worked out by hand from
// the rules of stencilc/emulator/Counters.h: 32-byte sectors per global
// request, the most distinct 4-byte words one of 32 banks serves per shared
// request, one request per warp and execution of an instruction.
//
//===----------------------------------------------------------------------===//
#include "TrafficKernels.h"

#include <stencilc/cuda/Cuda.h>
#include <stencilc/emulator/Counters.h>

#include <gtest/gtest.h>

#include <vector>

namespace emu = stencilc::cuda::emu;

namespace {

/// A device array of `n` T, freed at the end of the scope.
template <typename T> class DeviceArray {
public:
  explicit DeviceArray(std::size_t n) {
    EXPECT_EQ(cudaMalloc(&data_, n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemset(data_, 0, n * sizeof(T)), cudaSuccess);
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  T *get() const { return data_; }

private:
  T *data_ = nullptr;
};

/// The counts of the one launch `launch` makes.
template <typename F> emu::LaunchCounts countOne(F launch) {
  emu::TrafficCounter counter;
  launch();
  EXPECT_EQ(counter.launches().size(), 1u);
  if (counter.launches().empty())
    return {};
  const emu::LaunchCounts c = counter.launches().front();
  EXPECT_GT(c.accessesSeen, 0u) << "TrafficKernels.cu was not compiled with -fsanitize=thread";
  return c;
}

TEST(TrafficCounter, CoalescedFloatRowIsFourSectorsPerRequest) {
  DeviceArray<float> in(256), out(256);
  // 4 blocks of 2 warps: each warp reads and writes 32 consecutive floats, one
  // 128-byte line (cudaMalloc aligns to 256 bytes).
  const emu::LaunchCounts c = countOne([&] { traffic::copyRow(in.get(), out.get(), 4, 64); });
  EXPECT_EQ(c.kernel, "copyRowKernel");
  EXPECT_EQ(c.grid.x, 4u);
  EXPECT_EQ(c.block.x, 64u);
  EXPECT_EQ(c.globalLoadRequests, 8u);
  EXPECT_EQ(c.globalLoadSectors, 32u);
  EXPECT_EQ(c.globalStoreRequests, 8u);
  EXPECT_EQ(c.globalStoreSectors, 32u);
  EXPECT_EQ(c.sharedRequests, 0u);
  EXPECT_EQ(c.barriers, 0u);
  // Each block touches 64 floats in and 64 out: 8 + 8 sectors.
  EXPECT_EQ(c.l1DistinctSectors, 4u * 16u);
  // The launch reads 1 KiB and writes 1 KiB, each once.
  EXPECT_EQ(c.dramBytesEstimate, 2048u);
}

TEST(TrafficCounter, BlocksOnSeveralThreadsAddUp) {
  // 32768 threads: the emulator spreads the blocks over OpenMP threads, each
  // counting its own blocks; the launch's counts are their sum.
  constexpr int kBlocks = 256, kThreads = 128;
  DeviceArray<float> in(kBlocks * kThreads), out(kBlocks * kThreads);
  const emu::LaunchCounts c =
      countOne([&] { traffic::copyRow(in.get(), out.get(), kBlocks, kThreads); });
  constexpr unsigned kWarps = kBlocks * kThreads / 32;
  EXPECT_EQ(c.globalLoadRequests, kWarps);
  EXPECT_EQ(c.globalLoadSectors, 4u * kWarps);
  EXPECT_EQ(c.globalStoreSectors, 4u * kWarps);
  EXPECT_EQ(c.l1DistinctSectors, 8u * kWarps);
  EXPECT_EQ(c.dramBytesEstimate, 2u * 4u * 32u * kWarps);
}

TEST(TrafficCounter, StridedAccessTouchesASectorPerLane) {
  DeviceArray<float> in(32 * 8), out(32);
  // A stride of 8 floats is 32 bytes: every lane in a sector of its own, 32
  // sectors for the request, 8 times the coalesced row's 4.
  emu::LaunchCounts c = countOne([&] { traffic::stridedRead(in.get(), out.get(), 8); });
  EXPECT_EQ(c.globalLoadRequests, 1u);
  EXPECT_EQ(c.globalLoadSectors, 32u);
  EXPECT_EQ(c.globalStoreSectors, 4u);
  // A stride of 2 floats: 256 bytes, 8 sectors.
  c = countOne([&] { traffic::stridedRead(in.get(), out.get(), 2); });
  EXPECT_EQ(c.globalLoadSectors, 8u);
}

TEST(TrafficCounter, SharedBankConflicts) {
  DeviceArray<float> out(3 * 64);
  // Stride 32 words: every lane in bank 0 at a word of its own, a 32-way
  // conflict for the store and for the load. 3 blocks of 2 warps.
  emu::LaunchCounts c = countOne([&] { traffic::sharedStrided(out.get(), 32, 3, 64); });
  EXPECT_EQ(c.sharedRequests, 3u * 2u * 2u);
  EXPECT_EQ(c.sharedWavefronts, 3u * 2u * 2u * 32u);
  EXPECT_EQ(c.barriers, 3u); // one __syncthreads() per block
  // Stride 1: conflict-free, one wavefront a request.
  c = countOne([&] { traffic::sharedStrided(out.get(), 1, 3, 64); });
  EXPECT_EQ(c.sharedRequests, 12u);
  EXPECT_EQ(c.sharedWavefronts, 12u);
  // Stride 2: lanes i and i + 16 share a bank, a 2-way conflict.
  c = countOne([&] { traffic::sharedStrided(out.get(), 2, 3, 64); });
  EXPECT_EQ(c.sharedWavefronts, 12u * 2u);
}

TEST(TrafficCounter, SharedBroadcastIsOneWavefront) {
  DeviceArray<float> out(32);
  const emu::LaunchCounts c = countOne([&] { traffic::sharedBroadcast(out.get()); });
  // One lane's store, then all 32 lanes reading one word: one wavefront each.
  EXPECT_EQ(c.sharedRequests, 2u);
  EXPECT_EQ(c.sharedWavefronts, 2u);
  EXPECT_EQ(c.barriers, 1u);
}

TEST(TrafficCounter, SharedDoublesTakeTwoWavefronts) {
  DeviceArray<double> out(32);
  // 32 consecutive doubles are 64 words, two in every bank.
  const emu::LaunchCounts c = countOne([&] { traffic::sharedDoubles(out.get()); });
  EXPECT_EQ(c.sharedRequests, 2u);
  EXPECT_EQ(c.sharedWavefronts, 4u);
  EXPECT_EQ(c.globalStoreSectors, 8u); // 256 bytes
}

TEST(TrafficCounter, LanesOnDifferentPathsFormRequestsBySite) {
  DeviceArray<float> in(64), out(32);
  const emu::LaunchCounts c = countOne([&] { traffic::divergentLoad(in.get(), out.get()); });
  // in[t] by all lanes (4 sectors) and in[32 + t] by the odd ones (16 lanes
  // over the next 128 bytes: 4 sectors).
  EXPECT_EQ(c.globalLoadRequests, 2u);
  EXPECT_EQ(c.globalLoadSectors, 8u);
  EXPECT_EQ(c.globalStoreRequests, 1u);
}

TEST(TrafficCounter, EachExecutionOfALoadIsARequest) {
  DeviceArray<float> in(128), out(32);
  const emu::LaunchCounts c = countOne([&] { traffic::loopLoads(in.get(), out.get()); });
  EXPECT_EQ(c.globalLoadRequests, 4u);
  EXPECT_EQ(c.globalLoadSectors, 16u);
  EXPECT_EQ(c.dramBytesEstimate, 32u * (16u + 4u));
}

TEST(TrafficCounter, CountsOnlyWhileItLives) {
  DeviceArray<float> in(64), out(64);
  traffic::copyRow(in.get(), out.get(), 1, 64); // before: not counted
  emu::TrafficCounter counter;
  EXPECT_TRUE(counter.launches().empty());
  traffic::copyRow(in.get(), out.get(), 1, 64);
  ASSERT_EQ(counter.launches().size(), 1u);
  EXPECT_EQ(counter.launches()[0].globalLoadRequests, 2u);
  // A second counter at once is refused: launches have one observer.
  EXPECT_THROW(emu::TrafficCounter second, std::logic_error);
}

} // namespace
