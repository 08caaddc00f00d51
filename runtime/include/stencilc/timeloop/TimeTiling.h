//===- TimeTiling.h - Several time steps per pass over memory --------------===//
//
// Temporal blocking of an explicit time-stepping kernel (docs/DESIGN.md
// §Temporal blocking). A single sweep streams every field through memory once
// per step, so a kernel whose fields exceed the caches runs at the memory
// bandwidth whatever its arithmetic. Here T steps are made per pass: the grid
// is cut into tiles, and each tile computes its part of levels t+1, ..., t+T
// while its data is in cache.
//
// The tiles are parallelograms in space-time: level l of tile (a, b, c) is
//
//   x in [a Bx - l sx, (a+1) Bx - l sx), y likewise with By, sy, z with Bz, sz
//
// clipped to the grid, where s is how far one step reads the time levels
// along the axis (x is usually one tile: whole rows keep the vector loops
// long). Taking tiles in lexicographic order, or diagonal by diagonal, and
// the levels of a tile in order computes every point of every level exactly
// once, after every value it reads and before any value it reads is
// overwritten: level l+2 overwrites level l in place, and the skew of s keeps
// the readers of level l at a point (level l+1 within s of it) in the same or
// an earlier tile. So the result equals T single steps bit for bit: each point
// is the same expression of the same values. `scheduleViolation` below checks
// this point by point, for tests.
//
// Threads do not wait for whole diagonals: each tile starts once the tiles of
// earlier diagonals near enough to touch what it touches are done
// (`tileOrder`; `dependencyViolation` checks the waits point by point), which
// computes what the diagonal order computes without a barrier per diagonal.
//
// Each (tile, level) box is one call of the generated kernel with a region
// (Kernel.h), so every variant of every kernel runs time-tiled unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"
#include "stencilc/KernelSupport.h"
#include "stencilc/PackedTables.h"
#include "stencilc/abi/TimeTiles.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// OpenMP where the includer is built with it; sequential, and silent about
// the pragmas, where it is not.
#ifdef _OPENMP
#define STENCILC_TIME_TILING_OMP(directive) _Pragma(#directive)
#else
#define STENCILC_TIME_TILING_OMP(directive)
#endif

namespace stencilc::rt {

/// How far one step reads the levels it advances, per axis: the skew of the
/// parallelograms (the larger of the reach below and above).
struct TimeSkew {
  int x = 0, y = 0, z = 0;
};

/// The skew of `kernel`: the largest reach per axis over its time fields.
inline TimeSkew timeSkewOf(const KernelInfo &kernel) {
  TimeSkew s;
  for (const KernelFieldInfo &f : kernel.fields) {
    if (std::string(f.role) != "time")
      continue;
    s.x = std::max({s.x, f.reach[0], f.reach[1]});
    s.y = std::max({s.y, f.reach[2], f.reach[3]});
    s.z = std::max({s.z, f.reach[4], f.reach[5]});
  }
  return s;
}

/// One tile of a pass: its index along each axis.
struct TileIndex {
  int a = 0, b = 0, c = 0; ///< along x, y, z
};

/// The boxes of a time-tiled pass of `depth` steps over `extent`, or over
/// nested boxes, one per level (a deep-halo round under MPI: each step's box
/// the next one's grown by the reach, mpi/DeepHaloKernel.h).
///
/// Tiles on one anti-diagonal (a + b + c = d) neither write what another
/// reads nor write the same points, so they may run concurrently once the
/// tiles of earlier diagonals that they touch are done (tileOrder);
/// `scheduleViolation` checks this too.
class TimeTileSchedule {
public:
  /// Tile extents are clamped to [1, extent]; 0 or less means the whole axis.
  TimeTileSchedule(const Extent &extent, TimeSkew skew, int depth, int tileX, int tileY, int tileZ)
      : TimeTileSchedule(std::vector<Box>(size_t(std::max(1, depth)), wholeBox(extent)), skew,
                         tileX, tileY, tileZ) {}

  /// Level l computes `levels[l]`; the tiles are laid from the corner of the
  /// first box. Level l reads level l - 1 within the skew, so each box grown
  /// by the skew must lie inside the one before it, except at faces the two
  /// share (a boundary, beyond which nothing is computed). The constructor
  /// checks that each box lies inside the one before (std::invalid_argument);
  /// `scheduleViolation` checks the reads.
  TimeTileSchedule(std::vector<Box> levels, TimeSkew skew, int tileX, int tileY, int tileZ)
      : levels_(std::move(levels)), reach_(skew) {
    if (levels_.empty())
      throw std::invalid_argument("a time-tile schedule needs at least one level");
    for (size_t l = 1; l < levels_.size(); ++l)
      if (!inside(levels_[l], levels_[l - 1]))
        throw std::invalid_argument("level " + std::to_string(l) + "'s box " + boxText(levels_[l]) +
                                    " is not inside level " + std::to_string(l - 1) + "'s " +
                                    boxText(levels_[l - 1]));
    const Box &first = levels_.front();
    const int nx = first.x1 - first.x0, ny = first.y1 - first.y0, nz = first.z1 - first.z0;
    tileX_ = clampTile(tileX, nx);
    tileY_ = clampTile(tileY, ny);
    tileZ_ = clampTile(tileZ, nz);
    // An axis one tile spans whole needs no skew: every level of it is in
    // that tile. Skewing it anyway would cut slivers s points wide off every
    // level (along x: rows too short to vectorise).
    skew_.x = tileX_ < nx ? skew.x : 0;
    skew_.y = tileY_ < ny ? skew.y : 0;
    skew_.z = tileZ_ < nz ? skew.z : 0;
    // Enough tiles that the last level, shifted by (depth - 1) s, still
    // reaches the far end of the first level's box.
    tilesX_ = tilesAlong(nx, skew_.x, tileX_);
    tilesY_ = tilesAlong(ny, skew_.y, tileY_);
    tilesZ_ = tilesAlong(nz, skew_.z, tileZ_);
  }

  int depth() const { return int(levels_.size()); }
  /// How far a level reads the one before, per axis: the skew given.
  TimeSkew reach() const { return reach_; }
  /// Tile extents, after clamping.
  std::tuple<int, int, int> tileExtents() const { return {tileX_, tileY_, tileZ_}; }
  /// Tile counts along x, y and z.
  std::tuple<int, int, int> tileCounts() const { return {tilesX_, tilesY_, tilesZ_}; }
  int tiles() const { return tilesX_ * tilesY_ * tilesZ_; }
  int diagonals() const { return tilesX_ + tilesY_ + tilesZ_ - 2; }
  /// The points level `level` computes, over all tiles.
  const Box &levelBox(int level) const { return levels_[size_t(level)]; }

  /// Level `level` (0: the first step of the pass) of tile t, clipped to the
  /// level's box; may be empty near the box's low faces.
  Box box(const TileIndex &t, int level) const {
    const Box &first = levels_.front(), &clip = levels_[size_t(level)];
    Box out;
    std::tie(out.x0, out.x1) = range(t.a, tileX_, skew_.x, level, first.x0, clip.x0, clip.x1);
    std::tie(out.y0, out.y1) = range(t.b, tileY_, skew_.y, level, first.y0, clip.y0, clip.y1);
    std::tie(out.z0, out.z1) = range(t.c, tileZ_, skew_.z, level, first.z0, clip.z0, clip.z1);
    return out;
  }

  /// The bounding box of tile t's level boxes: every point it writes (empty
  /// where it writes none).
  Box hull(const TileIndex &t) const {
    Box h{0, 0, 0, 0, 0, 0};
    bool any = false;
    for (int level = 0; level < depth(); ++level) {
      const Box b = box(t, level);
      if (b.empty())
        continue;
      h = any ? Box{std::min(h.x0, b.x0), std::min(h.y0, b.y0), std::min(h.z0, b.z0),
                    std::max(h.x1, b.x1), std::max(h.y1, b.y1), std::max(h.z1, b.z1)}
              : b;
      any = true;
    }
    return h;
  }

  /// The tiles of anti-diagonal `d`, in a fixed order.
  std::vector<TileIndex> diagonal(int d) const {
    std::vector<TileIndex> tiles;
    for (int c = 0; c < tilesZ_ && c <= d; ++c)
      for (int b = 0; b < tilesY_ && b + c <= d; ++b) {
        const int a = d - b - c;
        if (a < tilesX_)
          tiles.push_back({a, b, c});
      }
    return tiles;
  }

private:
  static int clampTile(int tile, int n) { return tile <= 0 ? std::max(1, n) : std::min(tile, n); }
  static bool inside(const Box &b, const Box &in) {
    return b.x0 >= in.x0 && b.x1 <= in.x1 && b.y0 >= in.y0 && b.y1 <= in.y1 && b.z0 >= in.z0 &&
           b.z1 <= in.z1;
  }
  static std::string boxText(const Box &b) {
    return "[" + std::to_string(b.x0) + ", " + std::to_string(b.x1) + ") x [" +
           std::to_string(b.y0) + ", " + std::to_string(b.y1) + ") x [" + std::to_string(b.z0) +
           ", " + std::to_string(b.z1) + ")";
  }
  int tilesAlong(int n, int skew, int tile) const {
    return (n + (depth() - 1) * skew + tile - 1) / tile;
  }
  /// Tile `index` along an axis at `level`, tiles laid from `origin`, clipped to [lo, hi).
  static std::pair<int, int> range(int index, int tile, int skew, int level, int origin, int lo,
                                   int hi) {
    const int start = origin + index * tile - level * skew;
    return {std::clamp(start, lo, hi), std::clamp(start + tile, lo, hi)};
  }

  std::vector<Box> levels_;
  TimeSkew reach_; ///< the kernel's
  TimeSkew skew_;  ///< per axis: the kernel's, or 0 where one tile spans the axis
  int tileX_ = 1, tileY_ = 1, tileZ_ = 1;
  int tilesX_ = 0, tilesY_ = 0, tilesZ_ = 0;
};

/// The tiles of a pass in the order they start, diagonal by diagonal, and for
/// each the tiles of earlier diagonals it waits for: those whose hull meets
/// its own grown by the reach. Two tiles of different diagonals without such
/// an overlap touch no point that either writes, so they commute, and the
/// tiles of one diagonal never conflict (scheduleViolation). So a pass that
/// starts each tile once those it waits for are done computes what the
/// diagonal order computes, bit for bit, without a barrier after each
/// diagonal (where, on two threads, one idles whenever the other has the
/// diagonal's last tile: docs/PERFORMANCE.md §Time tiles without a barrier per
/// diagonal).
/// `dependencyViolation` checks the waits point by point.
struct TileOrder {
  std::vector<TileIndex> tiles;
  std::vector<std::vector<int>> waitsFor; ///< positions in `tiles`, each earlier
};

inline TileOrder tileOrder(const TimeTileSchedule &schedule) {
  TileOrder order;
  const auto [countX, countY, countZ] = schedule.tileCounts();
  std::vector<int> position(size_t(countX) * size_t(countY) * size_t(countZ), -1);
  auto at = [&, countX = countX, countY = countY](const TileIndex &t) -> int & {
    return position[(size_t(t.c) * size_t(countY) + size_t(t.b)) * size_t(countX) + size_t(t.a)];
  };
  for (int d = 0; d < schedule.diagonals(); ++d)
    for (const TileIndex &t : schedule.diagonal(d)) {
      at(t) = int(order.tiles.size());
      order.tiles.push_back(t);
    }
  // A tile's hull spans (depth - 1) skews beyond the tile, and reads a reach
  // further: tiles further apart along an axis than this never meet.
  const TimeSkew reach = schedule.reach();
  const auto [tileX, tileY, tileZ] = schedule.tileExtents();
  auto apart = [&](int r, int tile) { return ((schedule.depth() + 1) * r + tile - 1) / tile + 1; };
  const int kx = apart(reach.x, tileX), ky = apart(reach.y, tileY), kz = apart(reach.z, tileZ);
  std::vector<Box> hulls;
  for (const TileIndex &t : order.tiles)
    hulls.push_back(schedule.hull(t));
  order.waitsFor.resize(order.tiles.size());
  for (size_t q = 0; q < order.tiles.size(); ++q) {
    const TileIndex &t = order.tiles[q];
    const Box &h = hulls[q];
    if (h.empty())
      continue;
    const Box grown{h.x0 - reach.x, h.y0 - reach.y, h.z0 - reach.z,
                    h.x1 + reach.x, h.y1 + reach.y, h.z1 + reach.z};
    for (int c = std::max(0, t.c - kz); c <= std::min(countZ - 1, t.c + kz); ++c)
      for (int b = std::max(0, t.b - ky); b <= std::min(countY - 1, t.b + ky); ++b)
        for (int a = std::max(0, t.a - kx); a <= std::min(countX - 1, t.a + kx); ++a) {
          if (a + b + c >= t.a + t.b + t.c)
            continue;
          const int p = at({a, b, c});
          const Box &o = hulls[size_t(p)];
          if (!o.empty() && o.x0 < grown.x1 && grown.x0 < o.x1 && o.y0 < grown.y1 &&
              grown.y0 < o.y1 && o.z0 < grown.z1 && grown.z0 < o.z1)
            order.waitsFor[q].push_back(p);
        }
  }
  return order;
}

/// Checks, point by point, that `schedule` computes each level once at every
/// point of that level's box, in order, after the previous level within the
/// skew and before any of it is overwritten (the kernels run in place: level
/// l + 2 overwrites level l), diagonal by diagonal; and that no tile of a
/// diagonal writes a point another tile of it reads or writes. Returns an empty string, or the
/// first violation. For tests: O(points x depth x (2 s + 1)^3).
inline std::string scheduleViolation(const TimeTileSchedule &schedule, TimeSkew skew) {
  // Points are those of the first level's box; beyond it is the boundary (or
  // what a deep-halo round does not compute), which no level reads in place.
  const Box &all = schedule.levelBox(0);
  const Extent extent{all.x1 - all.x0, all.y1 - all.y0, all.z1 - all.z0};
  const size_t points = size_t(extent.nx) * size_t(extent.ny) * size_t(extent.nz);
  auto index = [&](int x, int y, int z) {
    return (size_t(z - all.z0) * size_t(extent.ny) + size_t(y - all.y0)) * size_t(extent.nx) +
           size_t(x - all.x0);
  };
  auto where = [](int x, int y, int z) {
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
  };
  auto inGrid = [&](int x, int y, int z) {
    return x >= all.x0 && x < all.x1 && y >= all.y0 && y < all.y1 && z >= all.z0 && z < all.z1;
  };
  // done[p]: how many levels of the pass point p holds. Level l needs l done
  // at p (level l - 1 there, level l - 2 still in the storage it overwrites)
  // and l or l + 1 done within the skew (level l - 1 computed, not yet
  // overwritten by level l + 1).
  std::vector<int> done(points, 0);
  // writer[p * depth + l]: 1 + the position in its diagonal of the tile that
  // writes level l of p there, in the diagonal `writerDiagonal[...]`.
  const size_t depth = size_t(schedule.depth());
  std::vector<int> writer(points * depth, 0), writerDiagonal(points * depth, -1);
  for (int d = 0; d < schedule.diagonals(); ++d) {
    const std::vector<TileIndex> tiles = schedule.diagonal(d);
    for (size_t t = 0; t < tiles.size(); ++t)
      for (int level = 0; level < schedule.depth(); ++level) {
        const Box b = schedule.box(tiles[t], level);
        for (int z = b.z0; z < b.z1; ++z)
          for (int y = b.y0; y < b.y1; ++y)
            for (int x = b.x0; x < b.x1; ++x) {
              const size_t w = index(x, y, z) * depth + size_t(level);
              writer[w] = int(t) + 1;
              writerDiagonal[w] = d;
            }
      }
    // Tiles of one diagonal run concurrently: none may write a level of a
    // point that another reads (level l - 1 within the skew, l - 2 at the
    // point), nor overwrite it (levels l + 1 and l, in place).
    auto otherWrites = [&](size_t t, int x, int y, int z, int level) {
      if (level < 0 || level >= schedule.depth() || !inGrid(x, y, z))
        return false;
      const size_t w = index(x, y, z) * depth + size_t(level);
      return writerDiagonal[w] == d && writer[w] != int(t) + 1;
    };
    for (size_t t = 0; t < tiles.size(); ++t)
      for (int level = 0; level < schedule.depth(); ++level) {
        const Box b = schedule.box(tiles[t], level);
        if (b.empty())
          continue;
        for (int z = b.z0 - skew.z; z < b.z1 + skew.z; ++z)
          for (int y = b.y0 - skew.y; y < b.y1 + skew.y; ++y)
            for (int x = b.x0 - skew.x; x < b.x1 + skew.x; ++x) {
              const bool centre =
                  x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1 && z >= b.z0 && z < b.z1;
              if (otherWrites(t, x, y, z, level - 1) || otherWrites(t, x, y, z, level + 1) ||
                  (centre &&
                   (otherWrites(t, x, y, z, level - 2) || otherWrites(t, x, y, z, level))))
                return "level " + std::to_string(level) + " of a tile of diagonal " +
                       std::to_string(d) + " reads " + where(x, y, z) +
                       " while another tile of it writes there";
            }
      }
    for (const TileIndex &tile : tiles)
      for (int level = 0; level < schedule.depth(); ++level) {
        const Box b = schedule.box(tile, level);
        for (int z = b.z0; z < b.z1; ++z)
          for (int y = b.y0; y < b.y1; ++y)
            for (int x = b.x0; x < b.x1; ++x) {
              if (done[index(x, y, z)] != level)
                return "level " + std::to_string(level) + " at " + where(x, y, z) + " found " +
                       std::to_string(done[index(x, y, z)]) + " levels done";
              for (int dz = -skew.z; dz <= skew.z; ++dz)
                for (int dy = -skew.y; dy <= skew.y; ++dy)
                  for (int dx = -skew.x; dx <= skew.x; ++dx) {
                    if (!inGrid(x + dx, y + dy, z + dz))
                      continue;
                    const int n = done[index(x + dx, y + dy, z + dz)];
                    if (n < level || n > level + 1)
                      return "level " + std::to_string(level) + " at " + where(x, y, z) +
                             " reads " + where(x + dx, y + dy, z + dz) + ", which has " +
                             std::to_string(n) + " levels done";
                  }
            }
        // Marked after the whole box: its points are computed in any order.
        for (int z = b.z0; z < b.z1; ++z)
          for (int y = b.y0; y < b.y1; ++y)
            for (int x = b.x0; x < b.x1; ++x)
              ++done[index(x, y, z)];
      }
  }
  // Each point holds the levels whose boxes hold it (nested: a prefix of them).
  for (int z = all.z0; z < all.z1; ++z)
    for (int y = all.y0; y < all.y1; ++y)
      for (int x = all.x0; x < all.x1; ++x) {
        int levels = 0;
        for (int l = 0; l < schedule.depth(); ++l) {
          const Box &b = schedule.levelBox(l);
          levels += x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1 && z >= b.z0 && z < b.z1;
        }
        if (done[index(x, y, z)] != levels)
          return where(x, y, z) + " has " + std::to_string(done[index(x, y, z)]) + " of " +
                 std::to_string(levels) + " levels";
      }
  return {};
}

/// Checks, point by point, that tileOrder(schedule) makes every tile wait
/// for each tile of an earlier diagonal that writes a point it reads or
/// writes, or reads or overwrites a point it writes (any level; reads reach
/// `skew`). Returns an empty string, or the first pair it misses. For tests.
inline std::string dependencyViolation(const TimeTileSchedule &schedule, TimeSkew skew) {
  const TileOrder order = tileOrder(schedule);
  const Box &all = schedule.levelBox(0);
  const int nx = all.x1 - all.x0, ny = all.y1 - all.y0, nz = all.z1 - all.z0;
  const size_t points = size_t(nx) * size_t(ny) * size_t(nz);
  // writers[p], touchers[p]: the tiles (positions) that write p, and that read or write it.
  std::vector<std::vector<int>> writers(points), touchers(points);
  auto add = [](std::vector<int> &list, int q) {
    if (list.empty() || list.back() != q)
      list.push_back(q);
  };
  for (size_t q = 0; q < order.tiles.size(); ++q)
    for (int level = 0; level < schedule.depth(); ++level) {
      const Box b = schedule.box(order.tiles[q], level);
      if (b.empty())
        continue;
      for (int z = std::max(all.z0, b.z0 - skew.z); z < std::min(all.z1, b.z1 + skew.z); ++z)
        for (int y = std::max(all.y0, b.y0 - skew.y); y < std::min(all.y1, b.y1 + skew.y); ++y)
          for (int x = std::max(all.x0, b.x0 - skew.x); x < std::min(all.x1, b.x1 + skew.x); ++x) {
            const size_t p = (size_t(z - all.z0) * size_t(ny) + size_t(y - all.y0)) * size_t(nx) +
                             size_t(x - all.x0);
            add(touchers[p], int(q));
            if (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1 && z >= b.z0 && z < b.z1)
              add(writers[p], int(q));
          }
    }
  auto diagonalOf = [&](int q) {
    const TileIndex &t = order.tiles[size_t(q)];
    return t.a + t.b + t.c;
  };
  for (size_t p = 0; p < points; ++p)
    for (int w : writers[p])
      for (int u : touchers[p]) {
        if (diagonalOf(w) == diagonalOf(u))
          continue;
        const int early = std::min(w, u), late = std::max(w, u);
        const std::vector<int> &waits = order.waitsFor[size_t(late)];
        if (std::find(waits.begin(), waits.end(), early) == waits.end()) {
          const TileIndex &e = order.tiles[size_t(early)], &l = order.tiles[size_t(late)];
          auto text = [](const TileIndex &t) {
            return "(" + std::to_string(t.a) + ", " + std::to_string(t.b) + ", " +
                   std::to_string(t.c) + ")";
          };
          return "tile " + text(l) + " does not wait for tile " + text(e) +
                 ", though both touch a point one of them writes";
        }
      }
  return {};
}

/// The time levels move on by one step, as a generated `rotate()`
/// and KernelData::rotate do (`overwrites <- advances <- output`).
inline void rotateTimeLevels(const KernelInfo &kernel, ErasedArgs &args) {
  for (size_t o = 0; o < kernel.fields.size(); ++o) {
    const KernelFieldInfo &out = kernel.fields[o];
    if (out.advances < 0)
      continue;
    ErasedField &O = args.fields[o], &F = args.fields[size_t(out.advances)];
    if (out.overwrites < 0) {
      std::swap(O, F);
      continue;
    }
    ErasedField &G = args.fields[size_t(out.overwrites)];
    const bool sharing = O.origin == G.origin;
    const ErasedField oldest = G;
    G = F;
    F = O;
    O = sharing ? G : oldest;
  }
}

/// Why `kernel`'s steps cannot be tiled in time, naming the kernel and the
/// field, or an empty string when they can: every output advances a time level
/// and every time level is advanced or overwritten, so that the levels only
/// rotate. In place or not, a level's storage is then reused only for a level
/// two or more steps later, whose readers the schedule has already run.
inline std::string timeTilingObstacle(const KernelInfo &kernel) {
  const std::string name = kernel.name;
  std::vector<bool> rotated(kernel.fields.size(), false);
  bool outputs = false;
  for (const KernelFieldInfo &out : kernel.fields) {
    if (std::string(out.role) != "out")
      continue;
    outputs = true;
    if (out.advances < 0)
      return name + ": output '" + out.name +
             "' advances no time level, so steps cannot be tiled in time";
    rotated[size_t(out.advances)] = true;
    if (out.overwrites >= 0)
      rotated[size_t(out.overwrites)] = true;
  }
  if (!outputs)
    return name + ": no output advances a time level, so steps cannot be tiled in time";
  for (size_t f = 0; f < kernel.fields.size(); ++f)
    if (std::string(kernel.fields[f].role) == "time" && !rotated[f])
      return name + ": time level '" + kernel.fields[f].name +
             "' is neither advanced nor overwritten by an output";
  return {};
}

/// Whether `kernel`'s steps can be tiled in time (timeTilingObstacle).
inline bool isTimeTileable(const KernelInfo &kernel) { return timeTilingObstacle(kernel).empty(); }

/// Throws KernelError, naming the kernel and the field, unless `args` fits
/// `kernel` and its steps can be tiled in time (timeTilingObstacle).
inline void requireTimeTileable(const KernelInfo &kernel, const ErasedArgs &args) {
  if (args.fields.size() != kernel.fields.size())
    throw KernelError(std::string(kernel.name) + ": wrong number of fields for a time-tiled run");
  if (const std::string obstacle = timeTilingObstacle(kernel); !obstacle.empty())
    throw KernelError(obstacle);
}

/// Called after each box of each step: `step` counts from the first step of
/// the run, `args` are that step's (its outputs hold the new level on `box`).
/// Sources add to the new level there; receivers read it there. Calls may
/// come concurrently from several threads, for disjoint boxes.
using AfterBox = std::function<void(int step, const Box &box, const ErasedArgs &args)>;

/// Runs one (tile, level) box of a time-tiled pass on that level's `args`:
/// the generated CPU kernel with a region, or a CUDA kernel launched on one.
using BoxRun = std::function<void(const ErasedArgs &args, const Box &box)>;

/// Whether the tiles of one anti-diagonal run on concurrent OpenMP threads
/// (CPU kernels) or one after another (launches through one CUDA stream).
enum class TileConcurrency { Threads, Serial };

/// Waits until `flag` is set: spinning briefly, then yielding the core (the
/// threads may outnumber the cores, as under ctest -j or MPI).
inline void waitUntilSet(const std::atomic<bool> &flag) {
  for (int spins = 0; !flag.load(std::memory_order_acquire); ++spins)
    if (spins >= 64)
      std::this_thread::yield();
}

/// Runs every (tile, level) box of `schedule` through `runLevelBox(level,
/// box)`, each tile's levels in order: the tiles in tileOrder's order, each
/// started by the next free OpenMP thread once the tiles it waits for are done
/// (Threads), or one after another (Serial). Either way the results are those
/// of running the diagonals in turn. An exception from a box is rethrown as
/// KernelError after the pass.
inline void runTimeTilePass(const TimeTileSchedule &schedule,
                            const std::function<void(int level, const Box &box)> &runLevelBox,
                            TileConcurrency concurrency = TileConcurrency::Threads) {
  const TileOrder order = tileOrder(schedule);
  const size_t count = order.tiles.size();
  // Exceptions may not leave an OpenMP region.
  std::string failure;
  auto runTile = [&](const TileIndex &tile) {
    for (int level = 0; level < schedule.depth(); ++level) {
      const Box box = schedule.box(tile, level);
      if (box.empty())
        continue;
      try {
        runLevelBox(level, box);
      } catch (const std::exception &e) {
        // clang-format off
STENCILC_TIME_TILING_OMP(omp critical(stencilc_time_tiling_failure))
        // clang-format on
        if (failure.empty())
          failure = e.what();
      }
    }
  };
  if (concurrency == TileConcurrency::Serial) {
    for (const TileIndex &tile : order.tiles)
      runTile(tile);
  } else {
    const auto done = std::make_unique<std::atomic<bool>[]>(count); // all false
    std::atomic<size_t> next{0};
    // clang-format off
STENCILC_TIME_TILING_OMP(omp parallel)
    for (size_t t = next.fetch_add(1); t < count; t = next.fetch_add(1)) {
      for (int earlier : order.waitsFor[t])
        waitUntilSet(done[size_t(earlier)]);
      runTile(order.tiles[t]);
      done[t].store(true, std::memory_order_release);
    }
    // clang-format on
  }
  if (!failure.empty())
    throw KernelError(failure);
}

/// `args` rotated 0, 1, ..., depth - 1 times: the arguments of each step of a pass.
inline std::vector<ErasedArgs> passLevels(const KernelInfo &kernel, const ErasedArgs &args,
                                          int depth) {
  std::vector<ErasedArgs> levels(size_t(depth), args);
  for (int l = 1; l < depth; ++l) {
    levels[size_t(l)] = levels[size_t(l - 1)];
    rotateTimeLevels(kernel, levels[size_t(l)]);
  }
  return levels;
}

/// Throws KernelError naming `kernel` unless `tiling` has a depth of at
/// least 1 and no negative tile.
inline void requireTiling(const KernelInfo &kernel, const TimeTiling &tiling) {
  if (tiling.depth < 1 || tiling.tileX < 0 || tiling.tileY < 0 || tiling.tileZ < 0)
    throw KernelError(std::string(kernel.name) + ": time tiling of depth " +
                      std::to_string(tiling.depth) + " with tiles " + std::to_string(tiling.tileX) +
                      " x " + std::to_string(tiling.tileY) + " x " + std::to_string(tiling.tileZ) +
                      " (the depth must be at least 1, the tiles 0 or more)");
}

/// The default tile extent in z for `kernel` on rows of `nx` points.
inline int defaultTileZ(const KernelInfo &kernel, int nx) {
  return defaultTimeTileZ(nx, elementBytesOf(kernel.elemType));
}

/// The tile extents `tiling` asks for on `extent`, with 0 in y and z replaced
/// by the defaults (stencilc/abi/TimeTiles.h; `stencilc bench --search` finds
/// this machine's best).
inline std::tuple<int, int, int> tilesOf(const KernelInfo &kernel, const TimeTiling &tiling,
                                         const Extent &extent) {
  return {tiling.tileX, tiling.tileY > 0 ? tiling.tileY : kTimeTileY,
          kernel.dims == 3 ? (tiling.tileZ > 0 ? tiling.tileZ : defaultTileZ(kernel, extent.nx))
                           : 1};
}

/// Runs `steps` steps of `kernel` on `args` in passes of `tiling.depth` steps,
/// each (tile, level) box one call of `runBox`. On return `args` are rotated
/// `steps` times, as after `steps` pairs of run and rotate, and the results
/// equal those single steps (with `afterBox` applied to each step's whole
/// output) bit for bit.
inline void runTimeTiledBoxes(const KernelInfo &kernel, ErasedArgs &args, int steps,
                              const TimeTiling &tiling, const BoxRun &runBox,
                              const AfterBox &afterBox = {},
                              TileConcurrency concurrency = TileConcurrency::Threads) {
  const std::string name = kernel.name;
  if (steps < 0)
    throw KernelError(name + ": " + std::to_string(steps) + " time steps");
  requireTiling(kernel, tiling);
  requireTimeTileable(kernel, args);
  const TimeSkew skew = timeSkewOf(kernel);
  const auto [tileX, tileY, tileZ] = tilesOf(kernel, tiling, args.extent);
  for (int done = 0; done < steps;) {
    const int depth = std::min(tiling.depth, steps - done);
    const std::vector<ErasedArgs> levelArgs = passLevels(kernel, args, depth);
    const TimeTileSchedule schedule(args.extent, skew, depth, tileX, tileY, tileZ);
    runTimeTilePass(
        schedule,
        [&](int level, const Box &box) {
          runBox(levelArgs[size_t(level)], box);
          if (afterBox)
            afterBox(done + level, box, levelArgs[size_t(level)]);
        },
        concurrency);
    args = levelArgs[size_t(depth - 1)];
    rotateTimeLevels(kernel, args);
    done += depth;
  }
}

/// runTimeTiledBoxes with the generated CPU kernel: each box one call of
/// `kernel.run` with `options` (its variant and blocks; options.region must
/// be unset), the tiles shared among the OpenMP threads (runTimeTilePass). The
/// tables are packed once per run (rt::PackedTables): `afterBox` sees the
/// packed copies in its arguments, the same coefficients in another layout,
/// and on return `args` holds the caller's tables again.
inline void runTimeTiled(const KernelInfo &kernel, ErasedArgs &args, int steps,
                         const TimeTiling &tiling, const RunOptions &options,
                         const AfterBox &afterBox = {}) {
  if (options.region)
    throw KernelError(std::string(kernel.name) +
                      ": a time-tiled run covers the whole extent; it takes no region");
  const PackedTables packed(kernel, args.tables);
  ErasedArgs tiledArgs = args;
  tiledArgs.tables = packed.tables();
  runTimeTiledBoxes(
      kernel, tiledArgs, steps, tiling,
      [&](const ErasedArgs &levelArgs, const Box &box) {
        RunOptions boxOptions = options;
        boxOptions.region = box;
        kernel.run(levelArgs, boxOptions);
      },
      afterBox);
  tiledArgs.tables = std::move(args.tables); // the caller's, not the copies that end here
  args = std::move(tiledArgs);
}

} // namespace stencilc::rt
