//===- AlignedBuffer.h - Cache-line aligned storage for the runtime -------===//
//
// The storage under grids and coefficient tables: a move-only array of a
// trivial element type whose first element sits on a cache-line boundary.
// The memory is deliberately left untouched on allocation so that the owner
// can first-touch it in the same parallel order as the kernels (NUMA
// placement follows the first write, not the allocation).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace stencilc::rt {

/// Cache line size the layouts are built around (x86 and NVIDIA/AMD L1 lines
/// are 64 or 128 bytes; 64 is the granularity of the padded layout of
/// docs/DESIGN.md §Runtime [4]).
inline constexpr std::size_t kCacheLineBytes = 64;

template <typename T> class AlignedBuffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "AlignedBuffer holds plain numbers: they are never constructed or destroyed");
  static_assert(kCacheLineBytes % sizeof(T) == 0,
                "a cache line must hold a whole number of elements");

public:
  AlignedBuffer() = default;

  /// Allocates `count` uninitialised elements, 64-byte aligned.
  explicit AlignedBuffer(std::size_t count) : size_(count) {
    if (count == 0)
      return;
    // Round the byte count up to whole cache lines so that the last line is
    // ours too and a vector load past the end of a row never leaves the block.
    std::size_t bytes =
        (count * sizeof(T) + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
    void *raw = ::operator new (bytes, std::align_val_t{kCacheLineBytes});
    data_.reset(static_cast<T *>(raw));
  }

  T *data() { return data_.get(); }
  const T *data() const { return data_.get(); }
  std::size_t size() const { return size_; }

  T &operator[](std::size_t i) { return data_.get()[i]; }
  const T &operator[](std::size_t i) const { return data_.get()[i]; }

private:
  struct Free {
    void operator()(T *p) const { ::operator delete (p, std::align_val_t{kCacheLineBytes}); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

} // namespace stencilc::rt
