//===- PlantedBarrierTest.cu - A missing __syncthreads() is caught ---------===//
//
// The acceptance test of the emulator's schedules: the kernels of
// StagingKernels.cuh with the barrier between staging and computing left
// out are checked against the host reference, with poisoned output, on an
// odd-sized grid of several blocks. The check must fail under the reversed
// and shuffled schedules (the upwind kernel passes in order, by luck), and
// the same kernels with the barrier must pass under every schedule.
//
//===----------------------------------------------------------------------===//
#include "StagingKernels.cuh"

#include "stencilc/cuda/DeviceGrid.h"

#include <gtest/gtest.h>

#include <cmath>

namespace emu = stencilc::cuda::emu;
namespace rt = stencilc::rt;
using stencilc::cuda::DeviceGrid;

namespace {

constexpr int kNx = 37, kNy = 21; // not multiples of the 16 x 8 block

/// Points of the kernel's output that differ from the reference (NaN counts).
template <bool kCentred, bool kBarrier> int mismatchedPoints() {
  rt::Grid<float> in = rt::Grid<float>::make2d(kNx, kNy, staging::kRadius);
  in.fillRandom(2024, -1.0f, 1.0f);
  DeviceGrid<float> deviceIn(in);
  DeviceGrid<float> deviceOut(in.shape());
  deviceOut.poison();

  const dim3 block(staging::kBlockX, staging::kBlockY);
  const dim3 grid((kNx + block.x - 1) / block.x, (kNy + block.y - 1) / block.y);
  STENCILC_LAUNCH((staging::stencil2d<kCentred, kBarrier>), grid, block, 0, nullptr)
  (deviceIn.origin(), deviceOut.origin(), kNx, kNy, long(deviceIn.lineStride()));
  STENCILC_CUDA_CHECK(cudaGetLastError());

  rt::Grid<float> out = deviceOut.toHost();
  auto input = [&](int x, int y) { return in(x, y); };
  int wrong = 0;
  out.forEachInteriorPoint([&](int x, int y, int) {
    float want = staging::reference<kCentred>(input, x, y);
    if (!(std::fabs(out(x, y) - want) <= 1e-6f * (1 + std::fabs(want))))
      ++wrong;
  });
  return wrong;
}

constexpr emu::Schedule kEverySchedule[] = {emu::Schedule::InOrder, emu::Schedule::Reversed,
                                            emu::Schedule::Shuffled};

TEST(PlantedMissingBarrier, UpwindKernelPassesInOrderByLuck) {
  emu::ScopedSchedule schedule(emu::Schedule::InOrder);
  EXPECT_EQ((mismatchedPoints</*kCentred=*/false, /*kBarrier=*/false>()), 0);
}

TEST(PlantedMissingBarrier, IsCaughtUnderReversedAndShuffledSchedules) {
  {
    emu::ScopedSchedule schedule(emu::Schedule::Reversed);
    EXPECT_GT((mismatchedPoints<false, false>()), 0) << "reversed schedule";
  }
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    emu::ScopedSchedule schedule(emu::Schedule::Shuffled, seed);
    EXPECT_GT((mismatchedPoints<false, false>()), 0) << "shuffled schedule, seed " << seed;
  }
}

TEST(PlantedMissingBarrier, CentredKernelIsCaughtUnderEverySchedule) {
  for (emu::Schedule s : kEverySchedule) {
    emu::ScopedSchedule schedule(s, 11);
    EXPECT_GT((mismatchedPoints</*kCentred=*/true, false>()), 0)
        << "schedule " << static_cast<int>(s);
  }
}

TEST(PlantedMissingBarrier, KernelsWithTheBarrierPassUnderEverySchedule) {
  for (emu::Schedule s : kEverySchedule)
    for (std::uint64_t seed : {1, 2, 3}) {
      emu::ScopedSchedule schedule(s, seed);
      EXPECT_EQ((mismatchedPoints<false, /*kBarrier=*/true>()), 0)
          << "upwind, schedule " << static_cast<int>(s) << ", seed " << seed;
      EXPECT_EQ((mismatchedPoints<true, true>()), 0)
          << "centred, schedule " << static_cast<int>(s) << ", seed " << seed;
    }
}

} // namespace
