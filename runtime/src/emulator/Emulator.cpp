//===- Emulator.cpp - Blocks of fibers with real barrier semantics --------===//
//
// See stencilc/emulator/Emulator.h for the semantics. Each OS thread that runs
// blocks owns a BlockRunner: the fibers of the block it is running, a pool of
// fiber stacks reused from block to block, and the block's dynamic shared
// memory. The runner resumes the block's threads one by one in the
// schedule's order; each runs until it reaches a barrier or returns. When
// all have, the runner checks that the barrier is one the whole block
// reached, and starts the next interval.
//
//===----------------------------------------------------------------------===//
#include "stencilc/emulator/Emulator.h"
#include "stencilc/emulator/LaunchObserver.h"

#include "stencilc/AlignedBuffer.h"

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace stencilc::cuda::emu {
namespace {

namespace ctx = boost::context;

/// Stack of one emulated thread. Kernels keep small arrays (register queues)
/// and call no deep library code; a guard page catches an overflow.
constexpr std::size_t kStackBytes = 64 * 1024;

/// Emulated threads a launch needs before its blocks are spread over OpenMP
/// threads: below that (the many small grids of the kernel tests) waking
/// the thread team costs more than it saves, all the more on a loaded machine.
constexpr std::uint64_t kParallelThreshold = 32768;

/// Reads STENCILC_EMU_SCHEDULE: "inorder", "reversed", "shuffled" or "shuffled:SEED".
struct InitialSchedule {
  Schedule schedule = Schedule::InOrder;
  std::uint64_t seed = 0;
  InitialSchedule() {
    const char *env = std::getenv("STENCILC_EMU_SCHEDULE");
    if (!env || !*env)
      return;
    std::string text(env);
    std::string name = text.substr(0, text.find(':'));
    if (name == "reversed")
      schedule = Schedule::Reversed;
    else if (name == "shuffled")
      schedule = Schedule::Shuffled;
    else if (name != "inorder")
      throw std::invalid_argument("STENCILC_EMU_SCHEDULE: unknown schedule '" + text + "'");
    if (auto colon = text.find(':'); colon != std::string::npos)
      seed = std::stoull(text.substr(colon + 1));
  }
};

const InitialSchedule &initialSchedule() {
  static const InitialSchedule initial;
  return initial;
}

std::atomic<Schedule> gSchedule{initialSchedule().schedule};
std::atomic<std::uint64_t> gSeed{initialSchedule().seed};
std::atomic<BarrierPolicy> gPolicy{BarrierPolicy::Strict};
std::atomic<detail::LaunchObserver *> gObserver{nullptr};

/// splitmix64: a small, well-mixed generator for the shuffled schedule.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string formatIndex(uint3 v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

/// Fiber stacks of one OS thread, kept for the next block.
class StackPool {
public:
  StackPool() : make_(kStackBytes) {}
  ~StackPool() {
    for (ctx::stack_context &stack : free_)
      make_.deallocate(stack);
  }
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;

  ctx::stack_context take() {
    if (free_.empty())
      return make_.allocate();
    ctx::stack_context stack = free_.back();
    free_.pop_back();
    return stack;
  }
  void give(ctx::stack_context stack) noexcept { free_.push_back(stack); }
  /// So that give() never allocates, and so never throws.
  void reserve(std::size_t stacks) { free_.reserve(stacks); }

private:
  ctx::protected_fixedsize_stack make_;
  std::vector<ctx::stack_context> free_;
};

/// Boost.Context's StackAllocator concept over a StackPool.
class PooledStack {
public:
  explicit PooledStack(StackPool &pool) : pool_(&pool) {}
  ctx::stack_context allocate() { return pool_->take(); }
  void deallocate(ctx::stack_context &stack) noexcept { pool_->give(stack); }

private:
  StackPool *pool_;
};

struct EmulatedThread {
  enum class State { Ready, AtBarrier, Exited };
  uint3 index{};
  State state = State::Ready;
  const char *barrierFile = nullptr;
  unsigned barrierLine = 0;
  ctx::fiber fiber;     ///< this thread, while suspended
  ctx::fiber scheduler; ///< the runner, while this thread runs
};

class BlockRunner {
public:
  void run(const detail::LaunchConfig &config, detail::ThreadBody body, uint3 block,
           std::uint64_t blockLinear, detail::LaunchObserver *observer);
  void barrier(const char *file, unsigned line);
  void *dynamicShared() { return shared_.data(); }

private:
  void startThreads(const detail::LaunchConfig &config, detail::ThreadBody body);
  void orderThreads(std::uint64_t blockLinear, std::uint64_t interval);
  /// Throws KernelFault unless every live thread waits at the same barrier.
  void checkBarrier(const detail::LaunchConfig &config, uint3 block) const;
  [[noreturn]] void fault(const detail::LaunchConfig &config, uint3 block,
                          const std::string &what) const;

  StackPool stacks_;
  std::vector<EmulatedThread> threads_;
  std::vector<std::uint32_t> order_;
  EmulatedThread *running_ = nullptr;
  std::exception_ptr thrown_; ///< what a thread of the running block threw
  rt::AlignedBuffer<unsigned char> shared_;
};

thread_local BlockRunner tRunner;

void BlockRunner::startThreads(const detail::LaunchConfig &config, detail::ThreadBody body) {
  const dim3 b = config.block;
  const std::size_t count = std::size_t(b.x) * b.y * b.z;
  stacks_.reserve(count);
  threads_.clear();
  threads_.resize(count);
  for (std::size_t t = 0; t < count; ++t) {
    EmulatedThread &me = threads_[t];
    me.index = {unsigned(t % b.x), unsigned(t / b.x % b.y), unsigned(t / (std::size_t(b.x) * b.y))};
    me.fiber = ctx::fiber(std::allocator_arg, PooledStack(stacks_),
                          [this, &me, body](ctx::fiber &&scheduler) {
                            me.scheduler = std::move(scheduler);
                            try {
                              body.run(body.state);
                            } catch (const ctx::detail::forced_unwind &) {
                              throw; // the block is being torn down: let Boost unwind
                            } catch (...) {
                              if (!thrown_)
                                thrown_ = std::current_exception();
                            }
                            me.state = EmulatedThread::State::Exited;
                            return std::move(me.scheduler);
                          });
  }
}

void BlockRunner::orderThreads(std::uint64_t blockLinear, std::uint64_t interval) {
  order_.resize(threads_.size());
  std::iota(order_.begin(), order_.end(), 0u);
  switch (gSchedule.load(std::memory_order_relaxed)) {
  case Schedule::InOrder: break;
  case Schedule::Reversed: std::reverse(order_.begin(), order_.end()); break;
  case Schedule::Shuffled: {
    // Drawn from (seed, block, interval) alone, so a run is reproducible
    // whichever OS thread runs the block.
    std::uint64_t state = mix(mix(gSeed.load(std::memory_order_relaxed) ^ blockLinear) ^ interval);
    for (std::size_t n = order_.size(); n > 1; --n) {
      state = mix(state);
      std::swap(order_[n - 1], order_[state % n]);
    }
    break;
  }
  }
}

void BlockRunner::run(const detail::LaunchConfig &config, detail::ThreadBody body, uint3 block,
                      std::uint64_t blockLinear, detail::LaunchObserver *observer) {
  blockIdx = block;
  blockDim = config.block;
  gridDim = config.grid;
  if (shared_.size() < config.sharedBytes)
    shared_ = rt::AlignedBuffer<unsigned char>(config.sharedBytes);
  if (config.sharedBytes)
    std::memset(shared_.data(), 0xff, config.sharedBytes); // uninitialised reads show as NaN
  thrown_ = nullptr;
  startThreads(config, body);
  if (observer)
    observer->blockBegin(config, block, shared_.data());

  // Tearing the fibers down (by assigning threads_ anew) unwinds the stacks of
  // threads still waiting at a barrier; the observer hears of the end after that.
  struct TearDown {
    std::vector<EmulatedThread> &threads;
    detail::LaunchObserver *observer;
    bool completed = false;
    ~TearDown() {
      threads.clear();
      if (observer)
        observer->blockEnd(completed);
    }
  } tearDown{threads_, observer};

  for (std::uint64_t interval = 0;; ++interval) {
    orderThreads(blockLinear, interval);
    for (std::uint32_t t : order_) {
      EmulatedThread &me = threads_[t];
      if (me.state == EmulatedThread::State::Exited)
        continue;
      me.state = EmulatedThread::State::Ready;
      threadIdx = me.index;
      running_ = &me;
      me.fiber = std::move(me.fiber).resume();
      running_ = nullptr;
      if (thrown_) {
        std::string what = "an exception";
        try {
          std::rethrow_exception(thrown_);
        } catch (const std::exception &e) {
          what = e.what();
        } catch (...) {
        }
        fault(config, block, "thread " + formatIndex(me.index) + " threw: " + what);
      }
    }
    bool anyWaiting = std::any_of(threads_.begin(), threads_.end(), [](const EmulatedThread &t) {
      return t.state == EmulatedThread::State::AtBarrier;
    });
    if (!anyWaiting) {
      tearDown.completed = true;
      return;
    }
    checkBarrier(config, block);
    if (observer)
      observer->barrier();
  }
}

void BlockRunner::checkBarrier(const detail::LaunchConfig &config, uint3 block) const {
  const EmulatedThread *first = nullptr;
  for (const EmulatedThread &t : threads_)
    if (t.state == EmulatedThread::State::AtBarrier) {
      first = &t;
      break;
    }
  auto site = [](const EmulatedThread &t) {
    return std::string(t.barrierFile) + ":" + std::to_string(t.barrierLine);
  };
  const bool strict = gPolicy.load(std::memory_order_relaxed) == BarrierPolicy::Strict;
  for (const EmulatedThread &t : threads_) {
    if (t.state == EmulatedThread::State::Exited && strict)
      fault(config, block,
            "thread " + formatIndex(t.index) + " exited while thread " + formatIndex(first->index) +
                " waits at __syncthreads() at " + site(*first) +
                "; every thread of a block must reach each barrier");
    if (t.state == EmulatedThread::State::AtBarrier &&
        (t.barrierLine != first->barrierLine || std::strcmp(t.barrierFile, first->barrierFile)))
      fault(config, block,
            "divergent __syncthreads(): thread " + formatIndex(first->index) + " waits at " +
                site(*first) + ", thread " + formatIndex(t.index) + " at " + site(t));
  }
}

void BlockRunner::fault(const detail::LaunchConfig &config, uint3 block,
                        const std::string &what) const {
  throw KernelFault("kernel '" + std::string(config.kernelName) + "', block " + formatIndex(block) +
                    ": " + what);
}

void BlockRunner::barrier(const char *file, unsigned line) {
  if (!running_)
    throw KernelFault(std::string(file) + ":" + std::to_string(line) +
                      ": __syncthreads() called outside a kernel");
  EmulatedThread &me = *running_;
  me.state = EmulatedThread::State::AtBarrier;
  me.barrierFile = file;
  me.barrierLine = line;
  me.scheduler = std::move(me.scheduler).resume();
}

/// A configuration a GPU refuses, as the error code it returns.
cudaError_t validate(const detail::LaunchConfig &c) {
  const unsigned block[3] = {c.block.x, c.block.y, c.block.z};
  const unsigned grid[3] = {c.grid.x, c.grid.y, c.grid.z};
  for (int d = 0; d < 3; ++d)
    if (block[d] == 0 || block[d] > kMaxBlockDim[d] || grid[d] == 0 || grid[d] > kMaxGridDim[d])
      return cudaErrorInvalidConfiguration;
  if (std::size_t(c.block.x) * c.block.y * c.block.z > std::size_t(kMaxThreadsPerBlock))
    return cudaErrorInvalidConfiguration;
  if (c.sharedBytes > detail::maxDynamicSharedBytes(c.kernel))
    return cudaErrorInvalidValue;
  if (!detail::isValidStream(c.stream))
    return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

} // namespace

void setSchedule(Schedule schedule, std::uint64_t seed) {
  gSchedule = schedule;
  gSeed = seed;
}
Schedule currentSchedule() { return gSchedule; }
std::uint64_t currentSeed() { return gSeed; }
void setBarrierPolicy(BarrierPolicy policy) { gPolicy = policy; }
BarrierPolicy currentBarrierPolicy() { return gPolicy; }

namespace detail {

void launch(const LaunchConfig &config, ThreadBody body) {
  if (cudaError_t error = validate(config)) {
    recordError(error);
    return;
  }
  const std::uint64_t gx = config.grid.x, gy = config.grid.y;
  const std::int64_t blocks = std::int64_t(gx * gy * config.grid.z);
  const std::uint64_t threads =
      std::uint64_t(blocks) * config.block.x * config.block.y * config.block.z;
  detail::LaunchObserver *const observer = gObserver.load(std::memory_order_acquire);
  if (observer)
    observer->launchBegin(config);
  std::exception_ptr firstFault;
  std::mutex faultMutex;
  std::atomic<bool> stop{false};
  auto runBlock = [&](std::int64_t b) {
    if (stop.load(std::memory_order_relaxed))
      return;
    const std::uint64_t linear = std::uint64_t(b);
    const uint3 block{unsigned(linear % gx), unsigned(linear / gx % gy),
                      unsigned(linear / (gx * gy))};
    try {
      tRunner.run(config, body, block, linear, observer);
    } catch (...) {
      std::lock_guard lock(faultMutex);
      if (!firstFault)
        firstFault = std::current_exception();
      stop = true;
    }
  };
#ifdef _OPENMP
  // Not nested: a launch from inside a parallel region already has its thread.
#pragma omp parallel for schedule(dynamic) if (threads >= kParallelThreshold && !omp_in_parallel())
  for (std::int64_t b = 0; b < blocks; ++b)
    runBlock(b);
#else
  for (std::int64_t b = 0; b < blocks; ++b)
    runBlock(b);
#endif
  if (firstFault)
    std::rethrow_exception(firstFault);
  if (observer)
    observer->launchEnd(config);
}

void syncthreads(const char *file, unsigned line) { tRunner.barrier(file, line); }

void *dynamicSharedBase() { return tRunner.dynamicShared(); }

LaunchObserver *setLaunchObserver(LaunchObserver *observer) {
  return gObserver.exchange(observer, std::memory_order_acq_rel);
}

} // namespace detail
} // namespace stencilc::cuda::emu
