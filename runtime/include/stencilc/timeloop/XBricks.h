//===- XBricks.h - Time tiles in x, each in storage of its own --------------===//
//
// A time-tiled run on long rows (docs/PERFORMANCE.md §Bricks in x) cuts x into
// tiles W points wide, parallelograms skewed by the reach s of a step like y
// and z (TimeTiling.h), and gives each column of tiles a brick: a copy of
// every field holding the x range the column's tiles touch, as a grid of its
// own (the layout of Grid.h). Rows cut out of whole rows in the caller's
// storage ran slower than the whole rows (§Tiles cut in x); a brick's short
// rows lie one after another in memory, so the prefetchers see long streams,
// and a tile's rows stay in L1 and L2.
//
// Level m of x-tile a computes x in [aW - ms, (a+1)W - ms) (clipped to the
// extent), into brick a: that brick *owns* level m there. A level reads the
// levels before it within the reach; where they are owned by another brick
// (always the one to the left within a pass, as the skew makes tiles read
// only what earlier tiles wrote), `pullFor` copies them into the tile's brick
// first, on the rows the level reads. After a pass `settle` brings every
// brick's own range [aW, (a+1)W) up to date (the last levels there were
// computed by the brick to the right), which the next pass reads as its input
// (owned by brick floor(x / W)). So every step computes the same expression of
// the same values as a single grid would, bit for bit; `copyBack` writes the
// interiors back into the caller's storage.
//
// Each brick's fields are addressed in the caller's coordinates (the origin
// offset by the brick's first x), so the generated kernel runs on a brick
// unchanged, with a region.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/AlignedBuffer.h"
#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifdef _OPENMP
#define STENCILC_X_BRICKS_OMP(directive) _Pragma(#directive)
#else
#define STENCILC_X_BRICKS_OMP(directive)
#endif

namespace stencilc::rt {

/// Brick widths are whole multiples of this many points, so that every tile's
/// first point starts a vector of any element type.
inline constexpr int kBrickAlignPoints = 16;

/// `brickX` rounded up to whole kBrickAlignPoints.
inline int brickWidth(int brickX) {
  return std::max(kBrickAlignPoints,
                  (brickX + kBrickAlignPoints - 1) / kBrickAlignPoints * kBrickAlignPoints);
}

class XBricks {
public:
  /// Copies every field of `args` (each storage once, in place sharing kept)
  /// into the bricks of x-tiles `width` points wide (brickWidth) for passes
  /// of up to `maxDepth` steps skewed by `skewX` per step.
  XBricks(const KernelInfo &kernel, const ErasedArgs &args, int width, int maxDepth, int skewX)
      : width_(width), skew_(skewX), extent_(args.extent), dims_(kernel.dims) {
    count_ = (extent_.nx + (maxDepth - 1) * skew_ + width_ - 1) / width_;
    // The time levels rotate through the storages the steps write: each of
    // those needs the reach of every time field.
    Reach timeReach;
    for (const KernelFieldInfo &f : kernel.fields)
      if (std::string(f.role) == "time")
        timeReach = timeReach.grown(reachOf(f));
    fieldStorage_.assign(kernel.fields.size(), -1);
    for (size_t f = 0; f < kernel.fields.size(); ++f) {
      const ErasedField &field = args.fields[f];
      for (size_t s = 0; s < storages_.size() && fieldStorage_[f] < 0; ++s)
        if (storages_[s].caller.origin == field.origin)
          fieldStorage_[f] = int(s);
      if (fieldStorage_[f] < 0) {
        fieldStorage_[f] = int(storages_.size());
        storages_.push_back({field, elementBytesOf(kernel.fields[f].type), {}, false, {}, {}});
      }
      Storage &s = storages_[size_t(fieldStorage_[f])];
      const std::string role = kernel.fields[f].role;
      const bool written = role == "time" || role == "out";
      s.written |= written;
      s.reach = s.reach.grown(written ? timeReach : reachOf(kernel.fields[f]));
    }
    for (Storage &s : storages_)
      allocate(s, maxDepth);
    bricks_.resize(size_t(count_));
    for (int a = 0; a < count_; ++a) {
      bricks_[size_t(a)] = args;
      for (size_t f = 0; f < kernel.fields.size(); ++f)
        bricks_[size_t(a)].fields[f] = storages_[size_t(fieldStorage_[f])].bricks[size_t(a)];
    }
    for (const Storage &s : storages_)
      for (int a = 0; a < count_; ++a) {
        const auto [x0, x1] = span(a, maxDepth, s.reach.x);
        copyRows(s.caller, s.bricks[size_t(a)], s.bytes, x0, x1, -s.reach.y,
                 extent_.ny + s.reach.y, -s.reach.z, extent_.nz + s.reach.z);
      }
  }

  /// The x-tiles (and bricks) of a pass of `maxDepth` steps.
  int count() const { return count_; }
  int width() const { return width_; }
  /// The caller's arguments with every field in brick a's storage.
  const ErasedArgs &args(int a) const { return bricks_[size_t(a)]; }

  /// Before level `level` of a pass computes `box` in brick `a`: copies into
  /// brick a what the level reads of each time field and brick a does not own,
  /// from the bricks that do. `slotLevels[f]` is the level field f holds then
  /// (-1: the pass's input); `levelArgs[b]` are brick b's arguments at this level.
  void pullFor(const KernelInfo &kernel, int a, const std::vector<const ErasedArgs *> &levelArgs,
               const std::vector<int> &slotLevels, const Box &box) const {
    for (size_t f = 0; f < kernel.fields.size(); ++f) {
      const KernelFieldInfo &field = kernel.fields[f];
      if (std::string(field.role) != "time")
        continue;
      const int bytes = elementBytesOf(field.type);
      const int m = slotLevels[f];
      const int y0 = std::max(0, box.y0 - field.reach[2]),
                y1 = std::min(extent_.ny, box.y1 + field.reach[3]);
      const int z0 = dims_ == 3 ? std::max(0, box.z0 - field.reach[4]) : 0,
                z1 = dims_ == 3 ? std::min(extent_.nz, box.z1 + field.reach[5]) : 1;
      const int x0 = std::max(0, box.x0 - field.reach[0]),
                x1 = std::min(extent_.nx, box.x1 + field.reach[1]);
      forOwners(m, x0, x1, [&](int owner, int from, int to) {
        if (owner != a)
          copyRowsSerial(levelArgs[size_t(owner)]->fields[f], levelArgs[size_t(a)]->fields[f],
                         bytes, from, to, y0, y1, z0, z1);
      });
    }
  }

  /// After a pass: every written storage of each brick a, holding level
  /// `lastLevel[s]` of the pass (-1: none written), gets the values of that
  /// level on [aW, (a+1)W) from the bricks that own them. `brickArgs[a]` are
  /// brick a's arguments, any rotation alike.
  void settle(const std::vector<int> &lastLevel) const {
    for (size_t s = 0; s < storages_.size(); ++s) {
      if (!storages_[s].written || lastLevel[s] < 0)
        continue;
      const int bytes = storages_[s].bytes;
      STENCILC_X_BRICKS_OMP(omp parallel for schedule(dynamic))
      for (int a = 0; a < count_; ++a) {
        const int x0 = std::min(extent_.nx, a * width_),
                  x1 = std::min(extent_.nx, (a + 1) * width_);
        forOwners(lastLevel[s], x0, x1, [&](int owner, int from, int to) {
          if (owner != a)
            copyRowsSerial(storages_[s].bricks[size_t(owner)], storages_[s].bricks[size_t(a)],
                           bytes, from, to, 0, extent_.ny, 0, extent_.nz);
        });
      }
    }
  }

  /// The storage (an index into lastLevel) of brick a's field `origin`, or -1.
  int storageOf(int a, const void *origin) const {
    for (size_t s = 0; s < storages_.size(); ++s)
      if (storages_[s].bricks[size_t(a)].origin == origin)
        return int(s);
    return -1;
  }
  int storages() const { return int(storages_.size()); }

  /// Writes the interior of every storage the steps write (time levels and
  /// outputs) back into the caller's, field f of the bricks into field f of
  /// `args`: the bricks' arguments and `args` rotated alike since the copy,
  /// and the bricks settled.
  void copyBack(const KernelInfo &kernel, const std::vector<ErasedArgs> &brickArgs,
                const ErasedArgs &args) const {
    std::vector<const void *> done;
    for (size_t f = 0; f < kernel.fields.size(); ++f) {
      const std::string role = kernel.fields[f].role;
      if (role != "time" && role != "out")
        continue;
      if (std::find(done.begin(), done.end(), args.fields[f].origin) != done.end())
        continue;
      done.push_back(args.fields[f].origin);
      const int bytes = elementBytesOf(kernel.fields[f].type);
      for (int a = 0; a < count_ && a * width_ < extent_.nx; ++a)
        copyRows(brickArgs[size_t(a)].fields[f], args.fields[f], bytes, a * width_,
                 std::min(extent_.nx, (a + 1) * width_), 0, extent_.ny, 0, extent_.nz);
    }
  }

private:
  /// How far a field is read around a point, per axis (the larger side).
  struct Reach {
    int x = 0, y = 0, z = 0;
    Reach grown(const Reach &o) const {
      return {std::max(x, o.x), std::max(y, o.y), std::max(z, o.z)};
    }
  };
  Reach reachOf(const KernelFieldInfo &f) const {
    return {std::max(f.reach[0], f.reach[1]), std::max(f.reach[2], f.reach[3]),
            dims_ == 3 ? std::max(f.reach[4], f.reach[5]) : 0};
  }

  struct Storage {
    ErasedField caller;
    int bytes = 0;
    Reach reach; ///< of every field this storage holds, at any step
    bool written = false;
    std::vector<ErasedField> bricks; ///< in the caller's coordinates
    std::vector<AlignedBuffer<unsigned char>> buffers;
  };

  /// The x range brick a holds of a storage read `reach` around a point:
  /// what its tiles compute in passes of `maxDepth` steps, and read.
  std::pair<int, int> span(int a, int maxDepth, int reach) const {
    return {std::max(-reach, a * width_ - (maxDepth - 1) * skew_ - reach),
            std::min(extent_.nx + reach, (a + 1) * width_ + reach)};
  }

  /// Calls `copy(owner, x0, x1)` for the parts of [from, to) by the brick that
  /// owns level m there: tile floor((x + m s) / W) for a level of the pass,
  /// floor(x / W) for its input (m < 0).
  template <typename Copy> void forOwners(int m, int from, int to, Copy &&copy) const {
    const int shift = m < 0 ? 0 : m * skew_;
    for (int x = from; x < to;) {
      const int owner = std::min(count_ - 1, (x + shift) / width_);
      const int end = std::min(to, (owner + 1) * width_ - shift);
      copy(owner, x, end);
      x = end;
    }
  }

  /// Each brick a Grid.h layout wide enough for span(), x = 0 of it at a
  /// multiple of kBrickAlignPoints of the caller's x, so that the caller's
  /// aligned points stay aligned.
  void allocate(Storage &s, int maxDepth) {
    const int halo = std::max({s.reach.x, s.reach.y, s.reach.z});
    for (int a = 0; a < count_; ++a) {
      const auto [lo, hi] = span(a, maxDepth, s.reach.x);
      // lo + halo >= 0: span() starts at -reach.x or later.
      const int start = (lo + halo) / kBrickAlignPoints * kBrickAlignPoints;
      const GridShape shape{dims_, std::max(1, hi - halo - start), extent_.ny, extent_.nz, halo};
      GridLayout layout;
      switch (s.bytes) {
      case 1: layout = GridLayout::of<std::uint8_t>(shape); break;
      case 2: layout = GridLayout::of<std::uint16_t>(shape); break;
      case 4: layout = GridLayout::of<float>(shape); break;
      default: layout = GridLayout::of<double>(shape); break;
      }
      s.buffers.emplace_back(layout.elements * size_t(s.bytes));
      // The brick's point 0 is the caller's x = start; point (x, y, z) is
      // x - start elements from it, so that the field's origin is start before it.
      unsigned char *origin = s.buffers.back().data() + layout.originIndex * s.bytes;
      s.bricks.push_back({origin - std::ptrdiff_t(start) * s.bytes, layout.line, layout.plane});
    }
  }

  static unsigned char *at(const ErasedField &f, int bytes, int x, int y, int z) {
    return static_cast<unsigned char *>(f.origin) +
           (std::ptrdiff_t(x) + y * f.line + z * f.plane) * bytes;
  }

  /// Copies points [x0, x1) of rows [y0, y1) x [z0, z1), planes shared among threads.
  static void copyRows(const ErasedField &from, const ErasedField &to, int bytes, int x0, int x1,
                       int y0, int y1, int z0, int z1) {
    if (x0 >= x1)
      return;
    STENCILC_X_BRICKS_OMP(omp parallel for schedule(static))
    for (int z = z0; z < z1; ++z)
      for (int y = y0; y < y1; ++y)
        std::memcpy(at(to, bytes, x0, y, z), at(from, bytes, x0, y, z), size_t(x1 - x0) * bytes);
  }

  /// copyRows on the calling thread.
  static void copyRowsSerial(const ErasedField &from, const ErasedField &to, int bytes, int x0,
                             int x1, int y0, int y1, int z0, int z1) {
    if (x0 >= x1)
      return;
    for (int z = z0; z < z1; ++z)
      for (int y = y0; y < y1; ++y)
        std::memcpy(at(to, bytes, x0, y, z), at(from, bytes, x0, y, z), size_t(x1 - x0) * bytes);
  }

  int width_ = 0, skew_ = 0, count_ = 0;
  Extent extent_;
  int dims_ = 3;
  std::vector<Storage> storages_;
  std::vector<int> fieldStorage_; ///< the storage of each field of the kernel
  std::vector<ErasedArgs> bricks_;
};

} // namespace stencilc::rt
