//===- RunBudget.h - Whether a benchmark grid fits the stencil and memory --===//
//
// `stencilc bench` and `stencilc tune` time kernels on grids that the bench
// harness (runtime/src/bench/BenchHarness.cpp) allocates. A grid with fewer points
// along an axis than the stencil reaches measures no real sweep, and grids
// larger than memory kill the harness only after the kernels were generated
// and compiled. Both are known from the stencil and the machine alone, so
// the driver refuses such a run before any work, from what is here: the
// fewest points an axis needs, the bytes the harness holds at once, and the
// memory this machine has available.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/Pipeline.h"

#include <array>
#include <cstdint>
#include <string>

namespace stencilc::analysis {

/// What a stencil needs along one axis.
struct AxisNeed {
  int reach = 0;  ///< the farthest any read goes from its point, on either side
  int points = 1; ///< the fewest points: the reach on both sides and the point itself
};

/// The needs along x, y and z (z needs 1 point in 2D), from the offsets every
/// field is read at (ir/linear/FieldReach.h).
std::array<AxisNeed, 3> gridNeeds(const CompiledStencil &compiled);

/// What one harness process holds at once.
struct HarnessRun {
  int nx = 1, ny = 1, nz = 1; ///< the timed grid's interior (nz 1 in 2D)
  int tableColumns = 0;       ///< Nd: the columns of every coefficient table
  /// Outputs that may overwrite a time level share its storage instead of a
  /// grid of their own (rt::KernelData).
  bool inPlace = false;
  /// Measures the triad bandwidth first, on three arrays of its own that are
  /// freed before the grids are allocated (`harness run`).
  bool triad = false;
  /// Checks time-tiled passes against single steps on two small data sets
  /// while the timed grids are held (`run` with time depths, `time`).
  bool timeTilingCheck = false;
};

/// The most bytes the harness holds at once for `run` of `s`: every grid in
/// its field's element type, laid out and aligned as rt::Grid and
/// rt::AlignedBuffer lay them out (halo of the stencil's radius, padded rows
/// and planes), and every table of Nd columns; or the triad's arrays, where
/// they are the larger. The kernels' per-thread scratch rows are left out:
/// they hold a few rows of x per thread, not a grid.
std::uint64_t harnessPeakBytes(const ir::Stencil &s, const HarnessRun &run);

/// Bytes of memory that a new process can have here without swapping:
/// MemAvailable of `meminfo`, else the free pages sysconf reports; 0 when
/// neither is known.
std::uint64_t readAvailableMemory(const std::string &meminfo = "/proc/meminfo");

/// `bytes` in binary units for people: "512 B", "768.0 MiB", "1.8 TiB".
std::string bytesText(double bytes);

} // namespace stencilc::analysis
