//===- Emulator.h - CUDA kernels as C++ on the CPU -------------------------===//
//
// The device side of the emulator Cuda.h selects under a host compiler. A
// kernel launch runs every block of the grid; a block runs each of its
// threads as a fiber (Boost.Context: a user-space switch of registers and
// stack, where ucontext's swapcontext also makes a system call per switch to
// save the signal mask). A barrier costs one such switch per thread.
// A thread runs until it reaches __syncthreads() or returns; when every
// thread of the block has done so, the threads at the barrier go on. The
// blocks of a large launch are spread over OpenMP threads; one OS thread
// runs one block at a time, start to end.
//
//   * __shared__ is `static thread_local`: one array per OS thread, hence
//     per running block. Like shared memory on a GPU it is not cleared
//     between blocks. Dynamic shared memory (STENCILC_DYNAMIC_SHARED) is
//     filled with 0xff bytes (NaN) when each block starts.
//   * Between two barriers the threads of a block run one after the other,
//     in the order setSchedule() chooses: InOrder (x fastest), Reversed or
//     Shuffled (a fresh permutation per block and barrier interval, drawn
//     from the seed). A kernel that reads what another thread wrote
//     without a barrier in between gives different results under different
//     schedules. The first schedule comes from STENCILC_EMU_SCHEDULE
//     ("inorder", "reversed", "shuffled" or "shuffled:SEED") if set.
//   * A barrier must be reached by every thread of the block, at the same
//     __syncthreads() call. Hardware completes a barrier once every thread
//     that has not exited has reached it; CUDA leaves a barrier that part of
//     the block skips undefined, so by default the emulator reports a
//     thread that exits while others wait as a fault (BarrierPolicy::Strict),
//     as it does threads waiting at different __syncthreads() calls.
//     BarrierPolicy::ExitedThreadsArrive emulates the hardware instead.
//   * More than 48 KiB of dynamic shared memory needs
//     cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
//     bytes) first, as on a GPU (up to 227 KiB, the sm_90 limit).
//   * A fault, or an exception thrown by the kernel, stops the launch and
//     is thrown from it as KernelFault, naming the kernel, block and thread.
//     (On a GPU it would surface at the next synchronising call.) A launch
//     whose configuration a GPU would refuse fails as on a GPU instead: the
//     kernel does not run and cudaGetLastError() returns the error.
//
// Not emulated: warps (there is no lockstep, so warp-synchronous code without
// __syncwarp is, correctly, not safe here), atomics, the static shared memory
// limit and register limits (see `ptxas -v`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/emulator/HostApi.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

//===----------------------------------------------------------------------===//
// Keywords
//===----------------------------------------------------------------------===//

#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static thread_local
// __restrict__ is already a keyword of GCC and Clang.

//===----------------------------------------------------------------------===//
// Built-in types and variables
//===----------------------------------------------------------------------===//

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// Set by the emulator on the OS thread that runs a block, before each switch
// into one of its threads.
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int warpSize = 32;

namespace stencilc::cuda::emu {

enum class Schedule {
  InOrder,  ///< linear thread index ascending, x fastest
  Reversed, ///< linear thread index descending
  Shuffled, ///< a pseudo-random permutation per block and barrier interval
};

/// The order of threads between barriers, for every later launch.
void setSchedule(Schedule schedule, std::uint64_t seed = 0);
Schedule currentSchedule();
std::uint64_t currentSeed();

enum class BarrierPolicy {
  Strict,              ///< a thread that exits while others wait at a barrier is a fault
  ExitedThreadsArrive, ///< as hardware since Volta: exited threads no longer count
};
void setBarrierPolicy(BarrierPolicy policy);
BarrierPolicy currentBarrierPolicy();

/// Schedule and policy for a scope, restored when it ends (tests).
class ScopedSchedule {
public:
  explicit ScopedSchedule(Schedule schedule, std::uint64_t seed = 0,
                          BarrierPolicy policy = BarrierPolicy::Strict)
      : schedule_(currentSchedule()), seed_(currentSeed()), policy_(currentBarrierPolicy()) {
    setSchedule(schedule, seed);
    setBarrierPolicy(policy);
  }
  ~ScopedSchedule() {
    setSchedule(schedule_, seed_);
    setBarrierPolicy(policy_);
  }
  ScopedSchedule(const ScopedSchedule &) = delete;
  ScopedSchedule &operator=(const ScopedSchedule &) = delete;

private:
  Schedule schedule_;
  std::uint64_t seed_;
  BarrierPolicy policy_;
};

/// A kernel did something CUDA leaves undefined, or threw.
class KernelFault : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {

struct LaunchConfig {
  const char *kernelName;
  const void *kernel; ///< identity, for cudaFuncSetAttribute
  dim3 grid, block;
  std::size_t sharedBytes;
  cudaStream_t stream;
};

/// What one emulated thread runs: the kernel on its own copy of the arguments.
struct ThreadBody {
  void (*run)(const void *state);
  const void *state;
};

void launch(const LaunchConfig &config, ThreadBody body);
void syncthreads(const char *file, unsigned line);
void *dynamicSharedBase();

} // namespace detail

/// The dynamic shared memory of the running block (STENCILC_DYNAMIC_SHARED).
template <typename T> T *dynamicShared() { return static_cast<T *>(detail::dynamicSharedBase()); }

/// STENCILC_LAUNCH(kernel, grid, block, sharedBytes, stream)(args...): the
/// arguments are converted to the kernel's parameter types once, like
/// CUDA's parameter buffer, and each thread gets its own copy.
template <typename... Params> class Launch {
public:
  Launch(void (*kernel)(Params...), const char *name, dim3 grid, dim3 block,
         std::size_t sharedBytes, cudaStream_t stream)
      : kernel_(kernel), config_{name,        reinterpret_cast<const void *>(kernel),
                                 grid,        block,
                                 sharedBytes, stream} {}

  template <typename... Args> void operator()(Args &&...args) const {
    static_assert(sizeof...(Args) == sizeof...(Params), "wrong number of kernel arguments");
    using Arguments = std::tuple<std::decay_t<Params>...>;
    struct State {
      void (*kernel)(Params...);
      Arguments arguments;
    };
    const State state{kernel_, Arguments(std::forward<Args>(args)...)};
    auto run = [](const void *s) {
      const State &st = *static_cast<const State *>(s);
      std::apply(st.kernel, st.arguments); // copies each argument into the call
    };
    detail::launch(config_, {run, &state});
  }

private:
  void (*kernel_)(Params...);
  detail::LaunchConfig config_;
};

} // namespace stencilc::cuda::emu

//===----------------------------------------------------------------------===//
// Device functions
//===----------------------------------------------------------------------===//

/// Waits until every thread of the block has reached this call.
inline void __syncthreads(std::source_location where = std::source_location::current()) {
  ::stencilc::cuda::emu::detail::syncthreads(where.file_name(), where.line());
}

/// A load through the read-only data cache: a plain load here.
template <typename T> inline T __ldg(const T *p) { return *p; }

/// Memory fences order nothing that is not already ordered: a block's threads
/// share one OS thread, and blocks do not communicate within a launch.
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// CUDA's min and max overloads, which host code under nvcc sees too.
inline int min(int a, int b) { return b < a ? b : a; }
inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return b < a ? b : a; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long min(long long a, long long b) { return b < a ? b : a; }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline float min(float a, float b) { return b < a ? b : a; }
inline float max(float a, float b) { return a < b ? b : a; }
inline double min(double a, double b) { return b < a ? b : a; }
inline double max(double a, double b) { return a < b ? b : a; }
