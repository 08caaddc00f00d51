//===- GpuTraffic.h - What a CUDA variant moves, counted from its plan -----===//
//
// The memory requests a generated CUDA kernel issues, derived from the sweep
// plan the printer follows (passes/SweepPlan.h) rather than from running it:
// per warp of 32 threads (x fastest in the block), each load or store
// instruction is one request; a global request touches the 32-byte sectors
// its lanes' addresses fall in; a shared request needs as many wavefronts as
// the most distinct 4-byte words any one of the 32 banks must serve. The
// counters of `stencilc emulate` measure the same quantities on the
// emulator; both are defined in docs/PERFORMANCE-MODEL.md (§GPU model), and
// a test holds the two within 10 % of each other.
//
// The grids follow rt::Grid: x fastest, every row's first interior point on
// a 64-byte boundary. Index fields are modelled as the benchmarks fill them:
// uniformly random columns, or layered (one column per warp: a broadcast).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc::analysis {

/// How a launch is shaped: the block, and the planes each marching block takes.
struct GpuLaunchShape {
  int blockX = 32, blockY = 8;
  int planesPerBlock = 32; ///< nw of traditional and planes
  int rowsPerThread = 1;   ///< rows of traditional (LaunchOptions::rows), blockDim.y apart
};

/// The interior points a step computes (x first).
struct GridExtent {
  int nx = 512, ny = 512, nz = 400;
  double points() const { return double(nx) * ny * nz; }
};

enum class IndexFill { Random, Layered };

/// Counts per interior point of one step (every sweep of the plan), as the
/// emulator's counters name them.
struct GpuTraffic {
  double globalLoadRequests = 0, globalLoadSectors = 0;
  double globalStoreRequests = 0, globalStoreSectors = 0;
  double sharedRequests = 0, sharedWavefronts = 0;
  double barriers = 0;          ///< __syncthreads() a block reaches, per point
  double l1DistinctSectors = 0; ///< sectors distinct within each block, summed
  double dramBytesEstimate = 0; ///< 32 x sectors distinct over the whole launch
  /// Of l1DistinctSectors: the table gathers through L1 (global or read-only
  /// rows), and the bytes of those rows: L1 keeps them across blocks when they fit.
  double tableBlockSectors = 0;
  double tableRowBytes = 0;
  /// Per sweep: does the kernel issue global loads a thread waits for apart
  /// from its tiles and queues (coefficients, centre-only fields, global rows)?
  std::vector<bool> directLoads;
  /// Per sweep: the elements one tile copy of a thread moves (16 bytes' worth where the
  /// kernel's loadTile copies vectors, else 1; 1 for the variants without tiles).
  std::vector<int> tileElementsPerCopy;
  /// The sectors of one plane's reads that a later plane reads again: how many
  /// bytes L2 must hold for the launch to move only its distinct sectors.
  double reuseWindowBytes = 0;
};

/// The output rows a thread of `variant` computes in a launch of `shape`: its
/// rowsPerThread where the kernel IR gives the variant several counts
/// (Function::rowCounts), else 1.
int rowsPerThreadOf(const CompiledStencil &c, const std::string &variant,
                    const GpuLaunchShape &shape);

/// The traffic of `variant` ("gmem", "ro", "traditional", "planes") of `c`.
GpuTraffic gpuTraffic(const CompiledStencil &c, const std::string &variant,
                      const GpuLaunchShape &shape, const GridExtent &extent, IndexFill index,
                      int tableColumns);

} // namespace stencilc::analysis
