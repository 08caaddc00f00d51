//===- Counters.cpp - The counting build's hooks and the warp model --------===//
//
// See stencilc/emulator/Counters.h. The hooks below are the entry points
// `-fsanitize=thread` makes the compiler call; this library defines them in
// place of libtsan, which must not be linked with it. Each hook does nothing
// unless the OS thread is running a block of a counted launch; then it keeps
// the access (instruction site, address, size, kind) in the running emulated
// thread's list. At each barrier and at the end of the block, the lists of the
// interval just finished are grouped into warp requests and counted; the
// lists are emptied, so memory grows with one interval of one block only.
//
//===----------------------------------------------------------------------===//
#include "stencilc/emulator/Counters.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace stencilc::cuda::emu {
namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kSectorShift = 5; ///< 32-byte sectors
constexpr unsigned kWordShift = 2;   ///< shared memory banks serve 4-byte words
constexpr std::uint64_t kBanks = 32;
constexpr std::uint64_t kSectorBytes = 32;

enum class Kind : std::uint8_t { GlobalLoad, GlobalStore, SharedLoad, SharedStore };

struct Access {
  std::uintptr_t site;    ///< the return address of the hook: one load or store instruction
  std::uintptr_t address; ///< global: absolute; shared: offset in the block's shared memory
  std::uint32_t bytes;
  Kind kind;
};

/// What every block of the running launch adds to, behind a lock.
struct LaunchState {
  std::vector<detail::DeviceRange> allocations; ///< sorted by address
  std::mutex mutex;
  LaunchCounts totals;
  std::unordered_set<std::uint64_t> loadSectors, storeSectors; ///< the launch's distinct sectors

  bool isGlobal(std::uintptr_t a) const {
    auto it = std::upper_bound(
        allocations.begin(), allocations.end(), a,
        [](std::uintptr_t x, const detail::DeviceRange &r) { return x < r.begin; });
    return it != allocations.begin() && a < std::prev(it)->end;
  }
};

/// Sector bits in BlockState::sectors.
constexpr std::uint8_t kLoaded = 1, kStored = 2;

/// The block an OS thread is running, with the accesses of its current interval.
struct BlockState {
  LaunchState *launch = nullptr;
  std::uintptr_t sharedBegin = 0;
  std::size_t sharedBytes = 0;
  dim3 blockDim;
  std::vector<std::vector<Access>> threads;                ///< by linear thread index
  LaunchCounts counts;                                     ///< this block's
  std::unordered_map<std::uint64_t, std::uint8_t> sectors; ///< distinct, kLoaded | kStored

  // Scratch space of flush(), kept to save allocations.
  struct Request {
    Kind kind;
    std::vector<std::pair<std::uintptr_t, std::uint32_t>> lanes; ///< address, bytes
  };
  std::vector<Request> requests;
  std::unordered_map<std::uint64_t, std::uint32_t> occurrences; ///< per instruction of a lane
  /// (site * 4 + kind, k): the k-th execution of an instruction, one request.
  using Execution = std::pair<std::uint64_t, std::uint32_t>;
  struct ExecutionHash {
    std::size_t operator()(const Execution &e) const {
      return std::hash<std::uint64_t>()(e.first * 0x9e3779b97f4a7c15ULL ^ e.second);
    }
  };
  std::unordered_map<Execution, std::uint32_t, ExecutionHash> requestOf;
  std::vector<std::uint64_t> scratch;

  void flush();
  void countRequest(const Request &r);
};

thread_local BlockState tState;
/// &tState while this OS thread runs a block of a counted launch, else null:
/// the one test every hook makes.
thread_local BlockState *tBlock = nullptr;

void BlockState::countRequest(const Request &r) {
  scratch.clear();
  if (r.kind == Kind::GlobalLoad || r.kind == Kind::GlobalStore) {
    for (const auto &[address, bytes] : r.lanes)
      for (std::uint64_t s = address >> kSectorShift; s <= (address + bytes - 1) >> kSectorShift;
           ++s)
        scratch.push_back(s);
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    const bool load = r.kind == Kind::GlobalLoad;
    (load ? counts.globalLoadRequests : counts.globalStoreRequests) += 1;
    (load ? counts.globalLoadSectors : counts.globalStoreSectors) += scratch.size();
    for (std::uint64_t s : scratch)
      sectors[s] |= load ? kLoaded : kStored;
    return;
  }
  // Shared: each bank serves one 4-byte word per wavefront; lanes that touch
  // the same word share it.
  for (const auto &[offset, bytes] : r.lanes)
    for (std::uint64_t w = offset >> kWordShift; w <= (offset + bytes - 1) >> kWordShift; ++w)
      scratch.push_back(w);
  std::sort(scratch.begin(), scratch.end());
  scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
  std::uint32_t perBank[kBanks] = {};
  std::uint32_t wavefronts = 0;
  for (std::uint64_t w : scratch)
    wavefronts = std::max(wavefronts, ++perBank[w % kBanks]);
  counts.sharedRequests += 1;
  counts.sharedWavefronts += wavefronts;
}

/// Groups the interval's accesses into requests, warp by warp, and counts them.
void BlockState::flush() {
  const std::size_t n = threads.size();
  for (std::size_t w0 = 0; w0 < n; w0 += kWarpSize) {
    const std::size_t w1 = std::min(n, w0 + kWarpSize);
    requests.clear();
    // Most warps run one path: every lane that made an access made the same
    // sequence of them. Then the j-th access of each lane belongs to request j.
    const std::vector<Access> *reference = nullptr;
    bool samePath = true;
    for (std::size_t t = w0; t < w1 && samePath; ++t) {
      const std::vector<Access> &list = threads[t];
      if (list.empty())
        continue;
      if (!reference) {
        reference = &list;
        continue;
      }
      samePath = list.size() == reference->size() &&
                 std::equal(list.begin(), list.end(), reference->begin(),
                            [](const Access &a, const Access &b) {
                              return a.site == b.site && a.kind == b.kind;
                            });
    }
    if (!reference)
      continue;
    if (samePath) {
      requests.resize(reference->size());
      for (std::size_t j = 0; j < reference->size(); ++j) {
        requests[j].kind = (*reference)[j].kind;
        requests[j].lanes.clear();
      }
      for (std::size_t t = w0; t < w1; ++t)
        for (std::size_t j = 0; j < threads[t].size(); ++j)
          requests[j].lanes.push_back({threads[t][j].address, threads[t][j].bytes});
    } else {
      // The general rule: the k-th execution of a site (of one kind) by each lane.
      requestOf.clear();
      for (std::size_t t = w0; t < w1; ++t) {
        occurrences.clear();
        for (const Access &a : threads[t]) {
          const std::uint64_t instruction = std::uint64_t(a.site) * 4 + std::uint64_t(a.kind);
          const std::uint32_t k = occurrences[instruction]++;
          auto [it, added] =
              requestOf.try_emplace(Execution{instruction, k}, std::uint32_t(requests.size()));
          if (added) {
            requests.emplace_back();
            requests.back().kind = a.kind;
          }
          requests[it->second].lanes.push_back({a.address, a.bytes});
        }
      }
    }
    for (const Request &r : requests)
      countRequest(r);
  }
  for (std::vector<Access> &list : threads)
    list.clear();
}

/// One load or store of `bytes` at `p` by the running emulated thread.
inline void onAccess(const void *p, std::uint32_t bytes, bool store, const void *site) {
  BlockState *b = tBlock;
  if (!b)
    return;
  ++b->counts.accessesSeen;
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  Access a{reinterpret_cast<std::uintptr_t>(site), address, bytes, Kind::GlobalLoad};
  if (address - b->sharedBegin < b->sharedBytes) {
    a.address = address - b->sharedBegin;
    a.kind = store ? Kind::SharedStore : Kind::SharedLoad;
  } else if (b->launch->isGlobal(address)) {
    a.kind = store ? Kind::GlobalStore : Kind::GlobalLoad;
  } else {
    return; // local: the thread's stack, its parameters, thread_local built-ins
  }
  const dim3 d = b->blockDim;
  const std::size_t linear =
      threadIdx.x + std::size_t(d.x) * (threadIdx.y + std::size_t(d.y) * threadIdx.z);
  b->threads[linear].push_back(a);
}

/// The kernel as STENCILC_LAUNCH spelt it, as one word: without the parentheses a template
/// argument list with a comma needs in the macro, nor the spaces
/// ("sweep0_traditional<false,kRows>").
std::string kernelWord(const char *spelling) {
  std::string word;
  for (const char *c = spelling; *c; ++c)
    if (*c != ' ')
      word += *c;
  if (word.size() > 1 && word.front() == '(' && word.back() == ')')
    word = word.substr(1, word.size() - 2);
  return word;
}

class Observer final : public detail::LaunchObserver {
public:
  std::vector<LaunchCounts> launches;

  void launchBegin(const detail::LaunchConfig &config) override {
    current_ = std::make_unique<LaunchState>();
    current_->allocations = detail::deviceAllocations();
    LaunchCounts &t = current_->totals;
    t.kernel = kernelWord(config.kernelName);
    t.grid = config.grid;
    t.block = config.block;
    t.sharedBytes = config.sharedBytes;
  }

  void blockBegin(const detail::LaunchConfig &config, uint3, void *shared) override {
    BlockState &b = tState;
    b.launch = current_.get();
    b.sharedBegin = reinterpret_cast<std::uintptr_t>(shared);
    b.sharedBytes = config.sharedBytes;
    b.blockDim = config.block;
    b.threads.resize(std::size_t(config.block.x) * config.block.y * config.block.z);
    for (std::vector<Access> &list : b.threads)
      list.clear();
    b.counts = LaunchCounts{};
    b.sectors.clear();
    tBlock = &b;
  }

  void barrier() override {
    BlockState &b = tState;
    b.flush();
    b.counts.barriers += 1;
  }

  void blockEnd(bool completed) override {
    BlockState &b = tState;
    tBlock = nullptr;
    if (!completed)
      return; // the launch throws; nothing of it is kept
    b.flush();
    LaunchState &l = *b.launch;
    std::lock_guard lock(l.mutex);
    LaunchCounts &t = l.totals;
    const LaunchCounts &c = b.counts;
    t.globalLoadRequests += c.globalLoadRequests;
    t.globalLoadSectors += c.globalLoadSectors;
    t.globalStoreRequests += c.globalStoreRequests;
    t.globalStoreSectors += c.globalStoreSectors;
    t.sharedRequests += c.sharedRequests;
    t.sharedWavefronts += c.sharedWavefronts;
    t.barriers += c.barriers;
    t.accessesSeen += c.accessesSeen;
    t.l1DistinctSectors += b.sectors.size();
    for (const auto &[sector, how] : b.sectors) {
      if (how & kLoaded)
        l.loadSectors.insert(sector);
      if (how & kStored)
        l.storeSectors.insert(sector);
    }
  }

  void launchEnd(const detail::LaunchConfig &) override {
    LaunchCounts t = current_->totals;
    t.dramBytesEstimate =
        kSectorBytes * (current_->loadSectors.size() + current_->storeSectors.size());
    launches.push_back(std::move(t));
    current_.reset();
  }

private:
  std::unique_ptr<LaunchState> current_;
};

} // namespace

struct TrafficCounter::State {
  Observer observer;
  detail::LaunchObserver *previous = nullptr;
};

TrafficCounter::TrafficCounter() : state_(new State) {
  state_->previous = detail::setLaunchObserver(&state_->observer);
  if (state_->previous) {
    detail::setLaunchObserver(state_->previous);
    delete state_;
    throw std::logic_error("TrafficCounter: another observer already watches the launches");
  }
}

TrafficCounter::~TrafficCounter() {
  detail::setLaunchObserver(state_->previous);
  delete state_;
}

const std::vector<LaunchCounts> &TrafficCounter::launches() const {
  return state_->observer.launches;
}

} // namespace stencilc::cuda::emu

//===----------------------------------------------------------------------===//
// The entry points -fsanitize=thread calls (GCC and Clang), as libtsan names them
//===----------------------------------------------------------------------===//

namespace emu = stencilc::cuda::emu;

// NOLINTBEGIN(readability-identifier-naming): the names are the compilers'.
#define STENCILC_TSAN_ACCESS(n)                                                                    \
  void __tsan_read##n(void *p) { emu::onAccess(p, n, false, __builtin_return_address(0)); }        \
  void __tsan_write##n(void *p) { emu::onAccess(p, n, true, __builtin_return_address(0)); }        \
  void __tsan_unaligned_read##n(void *p) {                                                         \
    emu::onAccess(p, n, false, __builtin_return_address(0));                                       \
  }                                                                                                \
  void __tsan_unaligned_write##n(void *p) {                                                        \
    emu::onAccess(p, n, true, __builtin_return_address(0));                                        \
  }                                                                                                \
  void __tsan_volatile_read##n(void *p) {                                                          \
    emu::onAccess(p, n, false, __builtin_return_address(0));                                       \
  }                                                                                                \
  void __tsan_volatile_write##n(void *p) { emu::onAccess(p, n, true, __builtin_return_address(0)); }

extern "C" {
STENCILC_TSAN_ACCESS(1)
STENCILC_TSAN_ACCESS(2)
STENCILC_TSAN_ACCESS(4)
STENCILC_TSAN_ACCESS(8)
STENCILC_TSAN_ACCESS(16)

void __tsan_read_range(void *p, unsigned long bytes) {
  if (bytes)
    emu::onAccess(p, std::uint32_t(bytes), false, __builtin_return_address(0));
}
void __tsan_write_range(void *p, unsigned long bytes) {
  if (bytes)
    emu::onAccess(p, std::uint32_t(bytes), true, __builtin_return_address(0));
}

// Atomics (inline library code may have them; kernels here do not): done, not
// counted. Every order is taken as sequentially consistent, which is never weaker.
#define STENCILC_TSAN_ATOMIC(bits, T)                                                              \
  T __tsan_atomic##bits##_load(const volatile T *a, int) { return __atomic_load_n(a, 5); }         \
  void __tsan_atomic##bits##_store(volatile T *a, T v, int) { __atomic_store_n(a, v, 5); }         \
  T __tsan_atomic##bits##_exchange(volatile T *a, T v, int) {                                      \
    return __atomic_exchange_n(a, v, 5);                                                           \
  }                                                                                                \
  T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int) {                                     \
    return __atomic_fetch_add(a, v, 5);                                                            \
  }                                                                                                \
  T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int) {                                     \
    return __atomic_fetch_sub(a, v, 5);                                                            \
  }                                                                                                \
  T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int) {                                     \
    return __atomic_fetch_and(a, v, 5);                                                            \
  }                                                                                                \
  T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int) { return __atomic_fetch_or(a, v, 5); } \
  T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int) {                                     \
    return __atomic_fetch_xor(a, v, 5);                                                            \
  }                                                                                                \
  T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int) {                                    \
    return __atomic_fetch_nand(a, v, 5);                                                           \
  }                                                                                                \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int, int) {          \
    return __atomic_compare_exchange_n(a, c, v, false, 5, 5);                                      \
  }                                                                                                \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int, int) {            \
    return __atomic_compare_exchange_n(a, c, v, true, 5, 5);                                       \
  }                                                                                                \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int, int) {                \
    __atomic_compare_exchange_n(a, &c, v, false, 5, 5);                                            \
    return c;                                                                                      \
  }
STENCILC_TSAN_ATOMIC(8, char)
STENCILC_TSAN_ATOMIC(16, short)
STENCILC_TSAN_ATOMIC(32, int)
STENCILC_TSAN_ATOMIC(64, long long)
void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(5); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(5); }

// Not counted: the module constructor, function entry and exit, and C++ vtable
// pointers (kernels have none).
void __tsan_init() {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}
} // extern "C"
// NOLINTEND(readability-identifier-naming)
