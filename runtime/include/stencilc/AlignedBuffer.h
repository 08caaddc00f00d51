//===- AlignedBuffer.h - Cache-line aligned storage for the runtime -------===//
//
// The storage under grids and coefficient tables: a move-only array of a
// trivial element type whose first element sits on a cache-line boundary.
// The memory is deliberately left untouched on allocation so that the owner
// can first-touch it in the same parallel order as the kernels (NUMA
// placement follows the first write, not the allocation).
//
// Buffers of 2 MiB or more are aligned to 2 MiB and, on Linux, marked for
// transparent huge pages (madvise; the kernel's default is often "madvise",
// so without the mark a grid gets 4 KiB pages). A grid much larger than the
// caches, streamed through 4 KiB pages, misses the TLB at every page; huge
// pages cut those misses, and the memory-bound kernels and the triad ran
// faster with them (docs/PERFORMANCE.md §Huge pages).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace stencilc::rt {

/// Cache line size the layouts are built around (x86 and NVIDIA/AMD L1 lines
/// are 64 or 128 bytes; 64 is the granularity of the padded layout of
/// docs/DESIGN.md §Runtime [4]).
inline constexpr std::size_t kCacheLineBytes = 64;

/// Buffers at least this large are aligned to it and offered huge pages.
inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

template <typename T> class AlignedBuffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "AlignedBuffer holds plain numbers: they are never constructed or destroyed");
  static_assert(kCacheLineBytes % sizeof(T) == 0,
                "a cache line must hold a whole number of elements");

public:
  AlignedBuffer() = default;

  /// Allocates `count` uninitialised elements, 64-byte aligned (2 MiB
  /// aligned, in huge pages where the system gives them, from 2 MiB up).
  explicit AlignedBuffer(std::size_t count) : size_(count) {
    if (count == 0)
      return;
    // Round the byte count up to whole alignment units, so that the last
    // cache line is ours too and a vector load past the end of a row never
    // leaves the block (and aligned_alloc gets a multiple of its alignment).
    const std::size_t alignment =
        count * sizeof(T) >= kHugePageBytes ? kHugePageBytes : kCacheLineBytes;
    const std::size_t bytes = (count * sizeof(T) + alignment - 1) / alignment * alignment;
    void *raw = std::aligned_alloc(alignment, bytes);
    if (!raw)
      throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: where huge pages are off, the buffer keeps 4 KiB pages.
    if (alignment == kHugePageBytes)
      madvise(raw, bytes, MADV_HUGEPAGE);
#endif
    data_.reset(static_cast<T *>(raw));
  }

  T *data() { return data_.get(); }
  const T *data() const { return data_.get(); }
  std::size_t size() const { return size_; }

  T &operator[](std::size_t i) { return data_.get()[i]; }
  const T &operator[](std::size_t i) const { return data_.get()[i]; }

private:
  struct Free {
    void operator()(T *p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

} // namespace stencilc::rt
