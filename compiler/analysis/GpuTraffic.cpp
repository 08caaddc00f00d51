//===- GpuTraffic.cpp -----------------------------------------------------===//
//
// Each variant is replayed as its printer writes it (backends/cuda), block by
// block and warp by warp, but only as addresses: which lanes load which
// (field, x, y, z), which tile words they write and read. Rows of a grid
// start on a sector boundary (rt::Grid), so a row's sectors follow from x
// alone and a sector is named by (field, z, y, x * bytes / 32).
//
// Blocks that see the same addresses up to a shift count once, weighted:
// along y always (a row is a row), along x when a block's width is a whole
// number of sectors, along z for every full march of nw planes.
//
//===----------------------------------------------------------------------===//
#include "analysis/GpuTraffic.h"

#include "analysis/GpuSweepReads.h"

#include "ir/IR.h"
#include "kernel/KernelIR.h"

#include "stencilc/abi/LayeredColumn.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace stencilc::analysis {
namespace {

constexpr int kWarp = 32;
constexpr int kSectorBytes = 32;
constexpr int kBanks = 32;

long floorDiv(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// x intervals [lo, hi] of rows named (field, z, y): the sectors a set of loads touches.
class SectorSet {
public:
  void add(int field, long z, long y, long x0, long x1, int bytes) {
    if (x1 < x0)
      return;
    rows_[{field, z, y}].push_back(
        {floorDiv(x0 * bytes, kSectorBytes), floorDiv(x1 * bytes + bytes - 1, kSectorBytes)});
  }
  double count() {
    double n = 0;
    for (auto &[row, spans] : rows_) {
      std::sort(spans.begin(), spans.end());
      long end = -(1L << 62);
      for (auto [lo, hi] : spans) {
        lo = std::max(lo, end + 1);
        if (hi >= lo)
          n += double(hi - lo + 1);
        end = std::max(end, hi);
      }
    }
    return n;
  }

private:
  std::map<std::tuple<int, long, long>, std::vector<std::pair<long, long>>> rows_;
};

/// The lanes of warp `w` of a bx x by block: (tx, ty) per lane.
std::vector<std::pair<int, int>> warpLanes(int w, int bx, int by) {
  std::vector<std::pair<int, int>> lanes;
  for (int t = w * kWarp; t < std::min((w + 1) * kWarp, bx * by); ++t)
    lanes.push_back({t % bx, t / bx});
  return lanes;
}

/// Sectors of one request whose lanes read (y, x) of one field plane.
int requestSectors(const std::vector<std::pair<long, long>> &points, int bytes) {
  std::set<std::pair<long, long>> sectors;
  for (auto [y, x] : points) {
    sectors.insert({y, floorDiv(x * bytes, kSectorBytes)});
    sectors.insert({y, floorDiv(x * bytes + bytes - 1, kSectorBytes)});
  }
  return int(sectors.size());
}

/// Wavefronts of one shared request: per group of lanes that moves 128 bytes,
/// the most distinct 4-byte words one bank serves (one word to many lanes is
/// a broadcast).
int requestWavefronts(const std::vector<long> &byteAddresses, int bytes) {
  const size_t lanesPerPass = size_t(std::max(1, 128 / bytes));
  int total = 0;
  for (size_t first = 0; first < byteAddresses.size(); first += lanesPerPass) {
    std::map<int, std::set<long>> words;
    for (size_t l = first; l < std::min(byteAddresses.size(), first + lanesPerPass); ++l)
      for (int b = 0; b < bytes; b += 4) {
        long word = (byteAddresses[l] + b) / 4;
        words[int(word % kBanks)].insert(word);
      }
    size_t most = 0;
    for (const auto &[bank, set] : words)
      most = std::max(most, set.size());
    total += int(most);
  }
  return total;
}

/// Counts of one variant over the whole launch (divided by points at the end).
struct Tally {
  GpuTraffic t;
  void loadRequest(double sectors, double weight) {
    t.globalLoadRequests += weight;
    t.globalLoadSectors += sectors * weight;
  }
  void storeRequest(double sectors, double weight) {
    t.globalStoreRequests += weight;
    t.globalStoreSectors += sectors * weight;
  }
  void sharedRequest(double wavefronts, double weight) {
    t.sharedRequests += weight;
    t.sharedWavefronts += wavefronts * weight;
  }
};

struct Geometry {
  GpuLaunchShape shape;
  GridExtent extent;
  int warps() const { return (shape.blockX * shape.blockY + kWarp - 1) / kWarp; }
  int blocksX() const { return (extent.nx + shape.blockX - 1) / shape.blockX; }
  /// Rows of points a block covers: blockY threads, each with rowsPerThread rows.
  int blockRows() const { return shape.blockY * shape.rowsPerThread; }
  int blocksY() const { return (extent.ny + blockRows() - 1) / blockRows(); }
};

/// Blocks along x that stand for others: every one when a block is not a whole
/// number of sectors wide, else the first, one inner block for all, and the last.
std::vector<std::pair<int, double>> blockClassesX(const Geometry &g, int bytes) {
  std::vector<std::pair<int, double>> classes;
  int n = g.blocksX();
  if ((long(g.shape.blockX) * bytes) % kSectorBytes != 0 || n <= 3) {
    for (int b = 0; b < n; ++b)
      classes.push_back({b, 1.0});
    return classes;
  }
  classes = {{0, 1.0}, {1, double(n - 2)}, {n - 1, 1.0}};
  return classes;
}
std::vector<std::pair<int, double>> blockClassesY(const Geometry &g) {
  int n = g.blocksY();
  if (n <= 3) {
    std::vector<std::pair<int, double>> classes;
    for (int b = 0; b < n; ++b)
      classes.push_back({b, 1.0});
    return classes;
  }
  return {{0, 1.0}, {1, double(n - 2)}, {n - 1, 1.0}};
}

/// The table gathers of a warp: sectors per request through global or the
/// read-only cache, wavefronts per shared request.
struct GatherCost {
  double sectors = 1, wavefronts = 1, blockSectors = 1;
  double rowSectors = 1; ///< sectors of one table row
  /// Distinct sectors of the rows `threads` gathers touch: for a random index the
  /// expectation for that many uniform draws, else the sampled blocks' mean.
  double blockSectorsFor(IndexFill index, int threads) const {
    if (index != IndexFill::Random)
      return blockSectors;
    return rowSectors * (1 - std::pow(1 - 1 / rowSectors, threads));
  }
};
/// The gathers' costs, averaged over draws (deterministic: a fixed seed) that
/// the request rules count: with a random index, uniformly random columns per
/// lane; with a layered one, the columns rt::layeredColumn gives the lanes of
/// warps at random places of the grid.
class GatherCosts {
public:
  /// `planes`: the planes a block gathers on before it ends (nw for a march),
  /// over which its distinct sectors are counted.
  GatherCosts(IndexFill index, int columns, int elem, const Geometry &g, int planes) {
    constexpr int kDraws = 512, kBlockDraws = 32;
    std::uint64_t state = 0x5eed;
    auto next = [&state]() {
      state += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      return z ^ (z >> 31);
    };
    const GridExtent &e = g.extent;
    // A block's points (with several rows per thread, more than its threads).
    const int bx = g.shape.blockX, by = g.blockRows(), threads = bx * by;
    const bool threeD = e.nz > 1;
    const double depth = threeD ? e.nz : e.ny;
    double sectors = 0, wavefronts = 0, blockSectors = 0;
    int requests = 0, blocks = 0;
    for (int d = 0; d < kDraws; ++d) {
      // A block at a random place, and the columns its threads gather.
      const long x0 = long(next() % std::uint64_t(g.blocksX())) * bx;
      const long y0 = long(next() % std::uint64_t(g.blocksY())) * by;
      const long z = long(next() % std::uint64_t(std::max(1, e.nz)));
      std::vector<long> column(threads, -1);
      for (int t = 0; t < threads; ++t) {
        const long i = x0 + t % bx, j = y0 + t / bx;
        if (i >= e.nx || j >= e.ny)
          continue;
        column[t] = index == IndexFill::Random
                        ? long(next() % std::uint64_t(columns))
                        : rt::layeredColumn(double(i), double(j), double(threeD ? z : j), e.nx,
                                            e.ny, depth, columns);
      }
      std::set<long> blockSet;
      for (int w = 0; w * kWarp < threads; ++w) {
        std::vector<std::pair<long, long>> points;
        std::vector<long> bytes;
        for (int t = w * kWarp; t < std::min(threads, (w + 1) * kWarp); ++t)
          if (column[t] >= 0) {
            points.push_back({0, column[t]});
            bytes.push_back(column[t] * elem);
          }
        if (points.empty())
          continue;
        sectors += requestSectors(points, elem);
        wavefronts += requestWavefronts(bytes, elem);
        ++requests;
      }
      // The block's sectors over its planes (fewer draws: each covers a march).
      if (d < kBlockDraws) {
        const long zEnd = threeD ? std::min<long>(z + planes, e.nz) : z + 1;
        for (long zz = z; zz < zEnd; ++zz)
          for (int t = 0; t < threads; ++t) {
            const long i = x0 + t % bx, j = y0 + t / bx;
            if (i >= e.nx || j >= e.ny)
              continue;
            long col = index == IndexFill::Random
                           ? long(next() % std::uint64_t(columns))
                           : rt::layeredColumn(double(i), double(j), double(threeD ? zz : j), e.nx,
                                               e.ny, depth, columns);
            blockSet.insert(col * elem / kSectorBytes);
          }
      }
      if (d < kBlockDraws) {
        blockSectors += double(blockSet.size());
        ++blocks;
      }
    }
    cost_.sectors = requests ? sectors / requests : 1;
    cost_.wavefronts = requests ? wavefronts / requests : 1;
    cost_.blockSectors = blocks ? blockSectors / blocks : 1;
    cost_.rowSectors = std::ceil(double(columns) * elem / kSectorBytes);
  }
  const GatherCost &cost() const { return cost_; }

private:
  GatherCost cost_;
};

/// Distinct sectors over the whole launch: each field's reads as the union of
/// the box shifted by its offsets, each output once.
double launchDistinctSectors(const SweepReads &r, const GridExtent &e, int elem) {
  std::map<int, std::vector<Access>> byField;
  for (const Access &a : r.reads)
    byField[a.field].push_back(a);
  double sectors = 0;
  for (const auto &[field, accesses] : byField) {
    int zlo = 0, zhi = 0, ylo = 0, yhi = 0;
    for (const Access &a : accesses) {
      zlo = std::min(zlo, a.dz), zhi = std::max(zhi, a.dz);
      ylo = std::min(ylo, a.dy), yhi = std::max(yhi, a.dy);
    }
    const int bytes = accesses.front().bytes;
    // Rows alike in which accesses reach them count once, weighted.
    std::map<std::vector<int>, double> rowKinds;
    for (long z = zlo; z < e.nz + zhi; ++z)
      for (long y = ylo; y < e.ny + yhi; ++y) {
        std::vector<int> dxs;
        for (const Access &a : accesses)
          if (y - a.dy >= 0 && y - a.dy < e.ny && z - a.dz >= 0 && z - a.dz < e.nz)
            dxs.push_back(a.dx);
        if (dxs.empty())
          continue;
        std::sort(dxs.begin(), dxs.end());
        dxs.erase(std::unique(dxs.begin(), dxs.end()), dxs.end());
        rowKinds[dxs] += 1;
      }
    for (const auto &[dxs, rows] : rowKinds) {
      SectorSet row;
      for (int dx : dxs)
        row.add(field, 0, 0, dx, e.nx - 1 + dx, bytes);
      sectors += rows * row.count();
    }
  }
  const double rowSectors = std::ceil(double(e.nx) * elem / kSectorBytes);
  const double outputSectors = rowSectors * e.ny * e.nz;
  sectors += outputSectors * double(r.outputs.size()) * (r.accumulates ? 2 : 1);
  return sectors;
}

/// gmem and ro: a thread per point, every read a global load.
void countPointwise(const SweepReads &r, const Geometry &g, int elem, IndexFill index, int columns,
                    Tally &tally) {
  const GatherCost gc =
      r.lookups.empty() ? GatherCost{} : GatherCosts(index, columns, elem, g, 1).cost();
  const GridExtent &e = g.extent;
  const int bx = g.shape.blockX, by = g.shape.blockY;
  for (auto [bxi, wx] : blockClassesX(g, elem))
    for (auto [byi, wy] : blockClassesY(g)) {
      const double weight = wx * wy * e.nz; // every plane alike
      const long x0 = long(bxi) * bx, y0 = long(byi) * by;
      SectorSet block;
      int active = 0;
      for (int w = 0; w < g.warps(); ++w) {
        std::vector<std::pair<int, int>> lanes;
        for (auto [tx, ty] : warpLanes(w, bx, by))
          if (x0 + tx < e.nx && y0 + ty < e.ny)
            lanes.push_back({tx, ty});
        if (lanes.empty())
          continue;
        active += int(lanes.size());
        auto request = [&](int dx, int dy, int bytes) {
          std::vector<std::pair<long, long>> points;
          for (auto [tx, ty] : lanes)
            points.push_back({y0 + ty + dy, x0 + tx + dx});
          return requestSectors(points, bytes);
        };
        for (const Access &a : r.reads)
          tally.loadRequest(request(a.dx, a.dy, a.bytes), weight);
        for (size_t o = 0; o < r.outputs.size(); ++o) {
          if (r.accumulates)
            tally.loadRequest(request(0, 0, elem), weight);
          tally.storeRequest(request(0, 0, elem), weight);
        }
        for (size_t l = 0; l < r.lookups.size(); ++l)
          tally.loadRequest(gc.sectors, weight);
      }
      for (const Access &a : r.reads)
        for (int ty = 0; ty < by && y0 + ty < e.ny; ++ty)
          block.add(a.field, a.dz, y0 + ty + a.dy, x0 + a.dx,
                    std::min<long>(x0 + bx, e.nx) - 1 + a.dx, a.bytes);
      for (size_t o = 0; o < r.outputs.size(); ++o)
        for (int ty = 0; ty < by && y0 + ty < e.ny; ++ty)
          block.add(-1 - int(o), 0, y0 + ty, x0, std::min<long>(x0 + bx, e.nx) - 1, elem);
      const double tableSectors = gc.blockSectorsFor(index, active) * double(r.lookups.size());
      tally.t.l1DistinctSectors += weight * (block.count() + tableSectors);
      tally.t.tableBlockSectors += weight * tableSectors;
    }
  tally.t.tableRowBytes += double(r.lookups.size()) * columns * elem;
  tally.t.directLoads.push_back(true);
  tally.t.tileElementsPerCopy.push_back(1);
}

/// traditional and planes: a block of bx x by columns marches nw planes, the
/// tiled fields' planes through shared memory.
void countMarch(const SweepReads &r, const GpuSweepPlan &plan, bool traditional, bool vectorCopies,
                const Geometry &g, int elem, IndexFill index, int columns, Tally &tally) {
  const GatherCost gc = r.lookups.empty()
                            ? GatherCost{}
                            : GatherCosts(index, columns, elem, g, g.shape.planesPerBlock).cost();
  const GridExtent &e = g.extent;
  const int bx = g.shape.blockX, by = g.shape.blockY, nw = g.shape.planesPerBlock;
  const int rows = g.shape.rowsPerThread; // a block covers by * rows rows of points
  const std::set<int> &tiled = traditional ? plan.traditionalTiles : plan.planesTiles;
  const int rx = traditional ? plan.traditionalRx : plan.planesRx;
  const int ry = traditional ? plan.traditionalRy : plan.planesRy;
  const int tileW = bx + 2 * rx, tileSize = tileW * (by * rows + 2 * ry), threads = bx * by;
  int dzLow = 0, dzHigh = 0;
  for (const Access &a : r.reads)
    dzLow = std::min(dzLow, a.dz), dzHigh = std::max(dzHigh, a.dz);
  if (!traditional && !plan.planeOffsets.empty())
    dzLow = std::min(dzLow, plan.planeOffsets.front()),
    dzHigh = std::max(dzHigh, plan.planeOffsets.back());
  const int stagedRows = int(
      std::count_if(r.lookups.begin(), r.lookups.end(), [](const Lookup &l) { return l.shared; }));

  // loadTile's 16-byte copies (vectorCopies in the generated kernel): where the tiles, after
  // the staged table rows, start on 16 bytes, their rows hold whole vectors and the block's
  // first tile point starts on 16 bytes (grid rows start on a sector).
  const int vector = 16 / elem;
  const long stagedBytes = long(stagedRows) * columns * elem;
  auto vectorTiles = [&](long x0) {
    const long copied = g.extent.nx + rx - (x0 - rx); // a tile row's points inside the halo
    return vectorCopies && tileW % vector == 0 && (copied >= tileW || copied % vector == 0) &&
           stagedBytes % 16 == 0 && ((x0 - rx) * elem % 16 + 16) % 16 == 0;
  };
  // One tile plane's copies by warp w: each lane a vector, a request of 16-byte lanes loaded
  // and stored.
  auto countVectorTile = [&](int w, long x0, long y0, double weight) {
    const int lanes = std::min(kWarp, threads - w * kWarp);
    const int perRow = tileW / vector, vectors = perRow * (tileSize / tileW);
    for (int first = w * kWarp; first < vectors; first += threads) {
      std::vector<std::pair<long, long>> whole;
      std::vector<long> wholeWords;
      for (int i = first; i < std::min(first + kWarp, vectors); ++i) {
        if (i - first >= lanes)
          break;
        const int tx = i % perRow * vector, ty = i / perRow;
        const long gx = x0 - rx + tx, gy = y0 - ry + ty;
        if (gx < e.nx + rx && gy < e.ny + ry) {
          whole.push_back({gy, gx * elem / 16});
          wholeWords.push_back(long(ty * tileW + tx) * elem);
        }
      }
      if (!whole.empty()) {
        tally.loadRequest(requestSectors(whole, 16), weight);
        tally.sharedRequest(requestWavefronts(wholeWords, 16), weight);
      }
    }
  };

  // Marches along z: full ones of nw planes, and the last, shorter one.
  std::vector<std::pair<int, double>> marches;
  if (e.nz / nw > 0)
    marches.push_back({nw, double(e.nz / nw)});
  if (e.nz % nw)
    marches.push_back({e.nz % nw, 1.0});

  for (auto [bxi, wx] : blockClassesX(g, elem))
    for (auto [byi, wy] : blockClassesY(g))
      for (auto [planes, wz] : marches) {
        const double weight = wx * wy * wz;
        const long x0 = long(bxi) * bx, y0 = long(byi) * by * rows;
        SectorSet block;
        // Steps of the march: traditional one per output plane; planes one per
        // input plane, from dzLow below the first output to dzHigh above the last.
        const int steps = traditional ? planes : planes + dzHigh - dzLow;
        const int barriersPerStep = traditional && plan.traditionalBuffers == 2 ? 1 : 2;
        tally.t.barriers += weight * (steps * barriersPerStep + (stagedRows ? 1 : 0));
        for (int w = 0; w < g.warps(); ++w) {
          const std::vector<std::pair<int, int>> lanes = warpLanes(w, bx, by);
          // Tiles: 16-byte vectors where they fit (loadTile's vectorCopies), piece i of a
          // plane by thread i, i + threads, ...
          const bool vectors = vectorTiles(x0);
          for (size_t f = 0; f < tiled.size() && vectors; ++f)
            countVectorTile(w, x0, y0, weight * steps);
          for (size_t f = 0; f < tiled.size() && !vectors; ++f) {
            const int bytes = elem;
            for (int first = w * kWarp; first < tileSize; first += threads) {
              std::vector<std::pair<long, long>> points;
              std::vector<long> words;
              for (int i = first; i < std::min(first + kWarp, tileSize); ++i) {
                if (i - first >= int(lanes.size()))
                  break;
                long gx = x0 - rx + i % tileW, gy = y0 - ry + i / tileW;
                if (gx < e.nx + rx && gy < e.ny + ry) {
                  points.push_back({gy, gx});
                  words.push_back(long(i) * bytes);
                }
              }
              if (points.empty())
                continue;
              tally.loadRequest(requestSectors(points, bytes), weight * steps);
              tally.sharedRequest(requestWavefronts(words, bytes), weight * steps);
            }
          }
          // This warp's points: its lanes' columns on each of a thread's rows (blockDim.y apart).
          for (int row = 0; row < rows; ++row) {
            std::vector<std::pair<int, int>> activeLanes;
            for (auto [tx, ty] : lanes)
              if (x0 + tx < e.nx && y0 + ty + row * by < e.ny)
                activeLanes.push_back({tx, ty + row * by});
            if (activeLanes.empty())
              continue;
            auto request = [&](int dx, int dy, int bytes) {
              std::vector<std::pair<long, long>> points;
              for (auto [tx, ty] : activeLanes)
                points.push_back({y0 + ty + dy, x0 + tx + dx});
              return requestSectors(points, bytes);
            };
            auto sharedRead = [&](int dx, int dy) {
              std::vector<long> words;
              for (auto [tx, ty] : activeLanes)
                words.push_back(long((ty + ry + dy) * tileW + tx + rx + dx) * elem);
              return requestWavefronts(words, elem);
            };
            for (const Lookup &l : r.lookups) {
              const double times = traditional ? 1.0 : double(l.planesTimes);
              if (l.shared)
                tally.sharedRequest(gc.wavefronts, weight * planes * times);
              else
                tally.loadRequest(gc.sectors, weight * planes * times);
            }
            if (traditional) {
              // Queues: the newest plane of each column per step, the rest once per march.
              for (const auto &[column, span] : plan.queues) {
                auto [field, dx, dy] = column;
                int bytes = elem; // an index field's values may be narrower
                for (const Access &a : r.reads)
                  if (a.field == field)
                    bytes = a.bytes;
                tally.loadRequest(request(dx, dy, bytes),
                                  weight * (planes + span.second - span.first));
              }
              for (const Access &a : r.reads) {
                if (tiled.count(a.field) && a.dz == 0) { // the current plane, from the tile
                  tally.sharedRequest(sharedRead(a.dx, a.dy), weight * planes);
                  continue;
                }
                auto queue = plan.queues.find({a.field, a.dx, a.dy});
                if (queue != plan.queues.end() && a.dz >= queue->second.first &&
                    a.dz <= queue->second.second)
                  continue; // in the column's register queue
                tally.loadRequest(request(a.dx, a.dy, a.bytes), weight * planes);
              }
            } else {
              // Every point of a tiled field is read from the tile of its input plane; a
              // field read in the coefficients is loaded once per plane offset that uses it.
              for (const Access &a : r.reads) {
                if (tiled.count(a.field))
                  tally.sharedRequest(sharedRead(a.dx, a.dy), weight * planes);
                else {
                  auto loads = r.planesLoads.find(a.field);
                  double times = loads == r.planesLoads.end() ? 1.0 : double(loads->second);
                  tally.loadRequest(request(a.dx, a.dy, a.bytes), weight * planes * times);
                }
              }
            }
            for (size_t o = 0; o < r.outputs.size(); ++o) {
              if (r.accumulates)
                tally.loadRequest(request(0, 0, elem), weight * planes);
              tally.storeRequest(request(0, 0, elem), weight * planes);
            }
          }
        }
        // Table rows staged once per block: columns elements each, coalesced.
        if (stagedRows) {
          double rowRequests = std::ceil(double(columns) / kWarp);
          double rowSectors = std::ceil(double(columns) * elem / kSectorBytes);
          tally.loadRequest(rowSectors / rowRequests, weight * stagedRows * rowRequests);
          tally.sharedRequest(elem == 8 ? 2 : 1, weight * stagedRows * rowRequests);
        }
        // What the block touches: tiles and queues over its planes, other reads on its outputs.
        const long xEnd = std::min<long>(x0 + bx, e.nx) - 1;
        const long yEnd = std::min<long>(y0 + by * rows, e.ny) - 1;
        for (const Access &a : r.reads) {
          if (tiled.count(a.field)) {
            for (long y = y0 - ry; y <= std::min<long>(y0 + by * rows + ry - 1, e.ny + ry - 1); ++y)
              for (int z = dzLow; z < planes + dzHigh; ++z)
                block.add(a.field, z, y, x0 - rx, std::min<long>(x0 + bx + rx - 1, e.nx + rx - 1),
                          elem);
            continue;
          }
          for (long y = y0; y <= yEnd; ++y)
            for (int z = 0; z < planes; ++z)
              block.add(a.field, z + a.dz, y + a.dy, x0 + a.dx, xEnd + a.dx, a.bytes);
        }
        for (size_t o = 0; o < r.outputs.size(); ++o)
          for (long y = y0; y <= yEnd; ++y)
            for (int z = 0; z < planes; ++z)
              block.add(-1 - int(o), z, y, x0, xEnd, elem);
        double tableSectors = stagedRows * std::ceil(double(columns) * elem / kSectorBytes) +
                              double(r.lookups.size() - size_t(stagedRows)) * gc.blockSectors;
        tally.t.l1DistinctSectors += weight * (block.count() + tableSectors);
        tally.t.tableBlockSectors +=
            weight * double(r.lookups.size() - size_t(stagedRows)) * gc.blockSectors;
      }
  tally.t.tableRowBytes += double(r.lookups.size() - size_t(stagedRows)) * columns * elem;
  // Loads a thread waits for outside its tiles and queues.
  bool direct = r.accumulates || size_t(stagedRows) < r.lookups.size();
  for (const Access &a : r.reads) {
    auto queue = plan.queues.find({a.field, a.dx, a.dy});
    bool queued = traditional && queue != plan.queues.end() && a.dz >= queue->second.first &&
                  a.dz <= queue->second.second;
    bool inTile = tiled.count(a.field) && (!traditional || a.dz == 0);
    direct = direct || (!queued && !inTile);
  }
  tally.t.directLoads.push_back(direct);
  tally.t.tileElementsPerCopy.push_back(vectorTiles(0) ? vector : 1);
}

} // namespace

int rowsPerThreadOf(const CompiledStencil &c, const std::string &variant,
                    const GpuLaunchShape &shape) {
  return kernel::rowCounts(c.cudaKernels, variant).size() > 1 ? shape.rowsPerThread : 1;
}

GpuTraffic gpuTraffic(const CompiledStencil &c, const std::string &variant,
                      const GpuLaunchShape &shape, const GridExtent &extent, IndexFill index,
                      int tableColumns) {
  const ir::Stencil &s = *c.stencil;
  const int elem = ir::elemTypeBytes(s.elemType);
  Geometry g{shape, extent};
  g.shape.rowsPerThread = rowsPerThreadOf(c, variant, shape);
  if (s.dims == 2) {
    g.extent.nz = 1;
  }
  Tally tally;
  std::vector<SweepReads> sweeps = sweepReads(c);
  double window = 0;
  for (size_t i = 0; i < sweeps.size(); ++i) {
    const SweepReads &r = sweeps[i];
    if (variant == "traditional" || variant == "planes") {
      // Whether the kernel copies its tiles in vectors where aligned: the kernel IR's decision.
      const kernel::Function *f =
          i < c.cudaKernels.sweeps.size()
              ? c.cudaKernels.sweeps[i].find(fmt::format("sweep{}_{}", i, variant))
              : nullptr;
      countMarch(r, c.sweepPlan.gpu.sweeps[i], variant == "traditional", f && f->vectorTiles, g,
                 elem, index, tableColumns, tally);
    } else {
      countPointwise(r, g, elem, index, tableColumns, tally);
    }
    tally.t.dramBytesEstimate += kSectorBytes * launchDistinctSectors(r, g.extent, elem);
    // A plane of a field read at plane offsets lo..hi is read again hi - lo
    // planes later (rows and dy in 2D).
    const int axis = s.dims == 2 ? 1 : 2;
    std::map<int, std::pair<int, int>> span;
    for (const Access &a : r.reads) {
      const int d = axis == 2 ? a.dz : a.dy;
      auto &sp = span.try_emplace(a.field, d, d).first->second;
      sp.first = std::min(sp.first, d), sp.second = std::max(sp.second, d);
    }
    const double layerBytes = double(g.extent.nx) * elem * (axis == 2 ? g.extent.ny : 1);
    double sweepWindow = 0;
    for (const auto &[field, sp] : span)
      sweepWindow += double(sp.second - sp.first + 1) * layerBytes;
    window = std::max(window, sweepWindow);
  }
  GpuTraffic t = tally.t;
  const double points = g.extent.points();
  for (double *v : {&t.globalLoadRequests, &t.globalLoadSectors, &t.globalStoreRequests,
                    &t.globalStoreSectors, &t.sharedRequests, &t.sharedWavefronts, &t.barriers,
                    &t.l1DistinctSectors, &t.dramBytesEstimate, &t.tableBlockSectors})
    *v /= points;
  t.reuseWindowBytes = window;
  return t;
}

} // namespace stencilc::analysis
