//===- LaunchSpace.h - The ways a generated CUDA step may be launched ------===//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/). How a CUDA kernel's step is launched is five choices:
// the variant, the block's threads along x and y, the planes a marching
// block (traditional, planes) takes in z (LaunchOptions::nw) and the output
// rows each thread computes (LaunchOptions::rows, the variants that take it). `stencilc tune
// --backend cuda` times the launches of this space on a device
// (stencilc/cuda/LaunchSearch.h); `stencilc gen --backend cuda --machine`
// predicts them with the GPU model and takes the best.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace stencilc::rt {

/// One way to launch a step; zeros take the architecture's defaults, nw is 0
/// for the variants that do not march in z and rows 1 for those that take no
/// rows per thread.
struct CudaLaunch {
  std::string variant;
  int blockX = 0, blockY = 0, nw = 0, rows = 1;

  auto key() const { return std::tie(variant, blockX, blockY, nw, rows); }
  bool operator<(const CudaLaunch &o) const { return key() < o.key(); }
  bool operator==(const CudaLaunch &o) const { return key() == o.key(); }
};

/// The values each choice takes. Blocks are at least one warp wide, so that
/// rows are read coalesced, and hold 64 threads or more, so that a block is
/// not mostly halo; at most the kernel's __launch_bounds__.
struct CudaLaunchSpace {
  std::vector<std::string> variants;
  std::set<std::string> marching; ///< the variants that read nw
  /// The rows per thread of the variants that take them (the header's kRowCounts).
  std::map<std::string, std::vector<int>> rowCounts;
  int maxThreadsPerBlock = 256;
  std::vector<int> blockXs = {32, 64, 128, 256};
  std::vector<int> blockYs = {1, 2, 4, 8, 16};
  std::vector<int> nws = {16, 32, 64, 128};

  bool blockFits(int bx, int by) const { return bx * by >= 64 && bx * by <= maxThreadsPerBlock; }

  /// The rows per thread variant `v` takes: {1} where it takes none.
  std::vector<int> rowsOf(const std::string &v) const {
    auto it = rowCounts.find(v);
    return it == rowCounts.end() ? std::vector<int>{1} : it->second;
  }

  /// Every launch of the space, variant by variant.
  std::vector<CudaLaunch> all() const {
    std::vector<CudaLaunch> out;
    for (const std::string &v : variants)
      for (int bx : blockXs)
        for (int by : blockYs) {
          if (!blockFits(bx, by))
            continue;
          for (int rows : rowsOf(v)) {
            if (!marching.count(v)) {
              out.push_back({v, bx, by, 0, rows});
              continue;
            }
            for (int nw : nws)
              out.push_back({v, bx, by, nw, rows});
          }
        }
    return out;
  }

  /// The launches one choice away: one of blockX, blockY, nw or rows halved
  /// or doubled (blockX and blockY also traded for each other, keeping the
  /// threads), staying inside the space.
  std::vector<CudaLaunch> neighbours(const CudaLaunch &l) const {
    auto in = [](const std::vector<int> &values, int v) {
      return std::find(values.begin(), values.end(), v) != values.end();
    };
    std::vector<CudaLaunch> out;
    auto add = [&](int bx, int by, int nw, int rows) {
      if (in(blockXs, bx) && in(blockYs, by) && blockFits(bx, by) &&
          (!marching.count(l.variant) || in(nws, nw)) && in(rowsOf(l.variant), rows))
        out.push_back({l.variant, bx, by, nw, rows});
    };
    add(l.blockX * 2, l.blockY, l.nw, l.rows);
    add(l.blockX / 2, l.blockY, l.nw, l.rows);
    add(l.blockX, l.blockY * 2, l.nw, l.rows);
    add(l.blockX, l.blockY / 2, l.nw, l.rows);
    add(l.blockX * 2, l.blockY / 2, l.nw, l.rows);
    add(l.blockX / 2, l.blockY * 2, l.nw, l.rows);
    if (marching.count(l.variant)) {
      add(l.blockX, l.blockY, l.nw * 2, l.rows);
      add(l.blockX, l.blockY, l.nw / 2, l.rows);
    }
    add(l.blockX, l.blockY, l.nw, l.rows * 2);
    add(l.blockX, l.blockY, l.nw, l.rows / 2);
    return out;
  }
};

} // namespace stencilc::rt
