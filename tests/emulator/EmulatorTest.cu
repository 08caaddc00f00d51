//===- EmulatorTest.cu - The CUDA emulator's semantics ---------------------===//
//
// Each test launches a small kernel through STENCILC_LAUNCH, exactly as
// generated host code does, and checks one promise of Emulator.h: built-in
// indices, per-thread argument copies, barriers, shared memory per block,
// the three schedules, and the faults a GPU would leave undefined.
//
//===----------------------------------------------------------------------===//
#include "stencilc/cuda/Cuda.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace emu = stencilc::cuda::emu;

namespace {

/// A device array of n ints that the test reads back.
struct DeviceInts {
  explicit DeviceInts(std::size_t n) : size(n) {
    STENCILC_CUDA_CHECK(cudaMalloc(&data, n * sizeof(int)));
    STENCILC_CUDA_CHECK(cudaMemset(data, 0, n * sizeof(int)));
  }
  ~DeviceInts() { cudaFree(data); }
  std::vector<int> read() const {
    std::vector<int> host(size);
    STENCILC_CUDA_CHECK(cudaMemcpy(host.data(), data, size * sizeof(int), cudaMemcpyDeviceToHost));
    return host;
  }
  int *data = nullptr;
  std::size_t size;
};

__global__ void writeGlobalIndex(int *out) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  const unsigned nx = gridDim.x * blockDim.x, ny = gridDim.y * blockDim.y;
  out[(z * ny + y) * nx + x] = int((z * ny + y) * nx + x) + 1;
}

TEST(Emulator, EveryThreadOfEveryBlockRunsWithItsIndices) {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  DeviceInts out(3 * 4 * 2 * 3 * 2 * 2);
  STENCILC_LAUNCH(writeGlobalIndex, grid, block, 0, nullptr)(out.data);
  STENCILC_CUDA_CHECK(cudaGetLastError());
  std::vector<int> got = out.read();
  for (std::size_t n = 0; n < got.size(); ++n)
    ASSERT_EQ(got[n], int(n) + 1) << "element " << n;
}

/// Each thread advances its own copy of the pointer argument.
__global__ void advanceOwnPointer(int *out, int stride) {
  out += threadIdx.x * stride;
  *out = int(threadIdx.x);
}

TEST(Emulator, EachThreadGetsItsOwnCopyOfTheArguments) {
  DeviceInts out(64);
  // The launch converts 2.0 to the int parameter, as CUDA does.
  STENCILC_LAUNCH(advanceOwnPointer, 1, 32, 0, nullptr)(out.data, 2.0);
  std::vector<int> got = out.read();
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(got[2 * t], t);
}

/// Rotates values through shared memory: correct only with the barrier.
__global__ void rotateThroughShared(const int *in, int *out) {
  __shared__ int tile[256];
  const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile[t] = in[base + t];
  __syncthreads();
  out[base + t] = tile[(t + 1) % blockDim.x];
}

TEST(Emulator, BarrierMakesEveryWriteVisibleUnderEverySchedule) {
  const int blocks = 5, threads = 96;
  std::vector<int> host(blocks * threads);
  std::iota(host.begin(), host.end(), 7);
  DeviceInts in(host.size()), out(host.size());
  STENCILC_CUDA_CHECK(
      cudaMemcpy(in.data, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  for (emu::Schedule s :
       {emu::Schedule::InOrder, emu::Schedule::Reversed, emu::Schedule::Shuffled}) {
    emu::ScopedSchedule schedule(s, 42);
    STENCILC_LAUNCH(rotateThroughShared, blocks, threads, 0, nullptr)(in.data, out.data);
    std::vector<int> got = out.read();
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t)
        ASSERT_EQ(got[b * threads + t], host[b * threads + (t + 1) % threads]);
  }
}

/// Every block writes its own index into shared memory, waits, and checks
/// that no other block's value appeared there (blocks run in parallel).
__global__ void sharedIsPerBlock(int *mismatches, int rounds) {
  __shared__ int mine[64];
  for (int r = 0; r < rounds; ++r) {
    mine[threadIdx.x] = int(blockIdx.x) * 1000 + r;
    __syncthreads();
    for (unsigned n = 0; n < blockDim.x; ++n)
      if (mine[n] != int(blockIdx.x) * 1000 + r)
        mismatches[blockIdx.x * blockDim.x + threadIdx.x] += 1;
    __syncthreads();
  }
}

TEST(Emulator, StaticSharedMemoryBelongsToOneBlock) {
  // Enough threads for the emulator to run blocks on several OS threads at once.
  const int blocks = 640, threads = 64;
  DeviceInts mismatches(blocks * threads);
  emu::ScopedSchedule schedule(emu::Schedule::Shuffled, 3);
  STENCILC_LAUNCH(sharedIsPerBlock, blocks, threads, 0, nullptr)(mismatches.data, 4);
  std::vector<int> got = mismatches.read();
  EXPECT_EQ(std::count(got.begin(), got.end(), 0), blocks * threads);
}

__global__ void dynamicSharedSum(const float *in, float *out, int n) {
  STENCILC_DYNAMIC_SHARED(float, staged);
  if (threadIdx.x == 0)
    out[1] = staged[0]; // read before anything was staged: uninitialised
  __syncthreads();
  for (int i = int(threadIdx.x); i < n; i += int(blockDim.x))
    staged[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0;
    for (int i = 0; i < n; ++i)
      sum += staged[i];
    out[0] = sum;
  }
}

TEST(Emulator, DynamicSharedMemoryHasTheLaunchSizeAndStartsPoisoned) {
  const int n = 20000; // 80 KB: more than the default 48 KB
  std::vector<float> host(n, 0.5f);
  float *in = nullptr, *out = nullptr;
  STENCILC_CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
  STENCILC_CUDA_CHECK(cudaMalloc(&out, 2 * sizeof(float)));
  STENCILC_CUDA_CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  STENCILC_LAUNCH(dynamicSharedSum, 1, 128, n * sizeof(float), nullptr)(in, out, n);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue) << "80 KB needs the opt-in";

  STENCILC_CUDA_CHECK(cudaFuncSetAttribute(
      dynamicSharedSum, cudaFuncAttributeMaxDynamicSharedMemorySize, int(n * sizeof(float))));
  STENCILC_LAUNCH(dynamicSharedSum, 1, 128, n * sizeof(float), nullptr)(in, out, n);
  STENCILC_CUDA_CHECK(cudaGetLastError());
  float got[2];
  STENCILC_CUDA_CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
  EXPECT_EQ(got[0], 0.5f * n);
  EXPECT_TRUE(std::isnan(got[1]));
  cudaFree(in);
  cudaFree(out);
}

/// Records the order in which the threads of a block start.
__global__ void recordStartOrder(int *order, int *counter) {
  order[(*counter)++] = int(threadIdx.x + threadIdx.y * blockDim.x);
}

std::vector<int> startOrder(emu::Schedule s, std::uint64_t seed) {
  emu::ScopedSchedule schedule(s, seed);
  DeviceInts order(64), counter(1);
  STENCILC_LAUNCH(recordStartOrder, 1, dim3(16, 4), 0, nullptr)(order.data, counter.data);
  return order.read();
}

TEST(Emulator, SchedulesOrderTheThreadsOfABlock) {
  std::vector<int> ascending(64);
  std::iota(ascending.begin(), ascending.end(), 0);
  std::vector<int> descending(ascending.rbegin(), ascending.rend());
  EXPECT_EQ(startOrder(emu::Schedule::InOrder, 0), ascending);
  EXPECT_EQ(startOrder(emu::Schedule::Reversed, 0), descending);

  std::vector<int> shuffled = startOrder(emu::Schedule::Shuffled, 1);
  EXPECT_NE(shuffled, ascending);
  EXPECT_NE(shuffled, descending);
  EXPECT_TRUE(std::is_permutation(shuffled.begin(), shuffled.end(), ascending.begin()));
  EXPECT_EQ(startOrder(emu::Schedule::Shuffled, 1), shuffled) << "a seed gives one order";
  EXPECT_NE(startOrder(emu::Schedule::Shuffled, 2), shuffled) << "another seed, another order";
}

/// Odd threads wait at one barrier, even threads at another.
__global__ void divergentBarrier(int *out) {
  if (threadIdx.x % 2) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

TEST(Emulator, DivergentBarrierIsAFault) {
  DeviceInts out(32);
  try {
    STENCILC_LAUNCH(divergentBarrier, 2, 32, 0, nullptr)(out.data);
    FAIL() << "no fault";
  } catch (const emu::KernelFault &e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'divergentBarrier'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("divergent __syncthreads()"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("EmulatorTest.cu:"), std::string::npos) << e.what();
  }
}

/// Threads past `live` return before the barrier the others wait at.
__global__ void earlyExit(int *out, int live) {
  if (int(threadIdx.x) >= live)
    return;
  out[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  const int next = out[(threadIdx.x + 1) % live];
  __syncthreads();
  out[threadIdx.x] += next;
}

TEST(Emulator, ThreadsExitingBeforeABarrierAreAFaultUnlessPolicyAllowsIt) {
  DeviceInts out(32);
  {
    emu::ScopedSchedule strict(emu::Schedule::InOrder);
    try {
      STENCILC_LAUNCH(earlyExit, 1, 32, 0, nullptr)(out.data, 20);
      FAIL() << "no fault";
    } catch (const emu::KernelFault &e) {
      EXPECT_NE(std::string(e.what()).find("exited while thread"), std::string::npos) << e.what();
    }
  }
  emu::ScopedSchedule lenient(emu::Schedule::Reversed, 0, emu::BarrierPolicy::ExitedThreadsArrive);
  STENCILC_LAUNCH(earlyExit, 1, 32, 0, nullptr)(out.data, 20);
  std::vector<int> got = out.read();
  for (int t = 0; t < 20; ++t)
    EXPECT_EQ(got[t], t + (t + 1) % 20);
}

__global__ void throwsInThreadFive() {
  if (threadIdx.x == 5 && blockIdx.x == 1)
    throw std::runtime_error("bad thing");
}

TEST(Emulator, AnExceptionInAKernelNamesBlockAndThread) {
  try {
    STENCILC_LAUNCH(throwsInThreadFive, 3, 8, 0, nullptr)();
    FAIL() << "no fault";
  } catch (const emu::KernelFault &e) {
    EXPECT_STREQ(e.what(), "kernel 'throwsInThreadFive', block (1, 0, 0): thread (5, 0, 0) "
                           "threw: bad thing");
  }
}

TEST(Emulator, ConfigurationsAGpuRefusesFailAsOnAGpu) {
  DeviceInts out(2048);
  STENCILC_LAUNCH(advanceOwnPointer, 1, 2048, 0, nullptr)(out.data, 1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  STENCILC_LAUNCH(advanceOwnPointer, dim3(1, 70000), 1, 0, nullptr)(out.data, 1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  STENCILC_LAUNCH(advanceOwnPointer, 0, 32, 0, nullptr)(out.data, 1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "reading the error clears it";
  EXPECT_EQ(out.read()[0], 0) << "a refused launch does not run";
}

TEST(Emulator, SyncthreadsOutsideAKernelIsAFault) {
  EXPECT_THROW(__syncthreads(), emu::KernelFault);
}

} // namespace

namespace {

// Run by ctest with STENCILC_EMU_SCHEDULE=shuffled:9 (CMakeLists.txt), so
// that any test binary can be rerun under another schedule without changes.
TEST(EmulatorEnvironment, FirstScheduleComesFromTheEnvironment) {
  if (!std::getenv("STENCILC_EMU_SCHEDULE"))
    GTEST_SKIP() << "STENCILC_EMU_SCHEDULE is not set";
  EXPECT_EQ(emu::currentSchedule(), emu::Schedule::Shuffled);
  EXPECT_EQ(emu::currentSeed(), 9u);
}

} // namespace
