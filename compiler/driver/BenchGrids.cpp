//===- BenchGrids.cpp - The grids `bench` and `tune` time, and whether they fit ===//
//
// The default grid (a working set of at least 4x the last-level cache), the
// production row set beside it, the sizes a user gives, and the memory a run
// needs against what the machine has. Bench.cpp builds and runs the harness.
//
//===----------------------------------------------------------------------===//
#include "driver/Bench.h"

#include "analysis/CostModel.h"
#include "analysis/HostCaches.h"
#include "analysis/ModelDefaults.h"
#include "analysis/RunBudget.h"
#include "driver/Driver.h"
#include "kernel/RunDefaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace stencilc {

/// Bytes of grid per point: every field in its own element type, none sharing
/// storage (out of place, the larger of the two set-ups).
int gridBytesPerPoint(const ir::Stencil &s) { return analysis::compulsoryBytes(s); }

/// The default grid: the smallest N (a multiple of 8, at least 64) whose N^3
/// (N^2 in 2D) points make a working set of at least 4x the last-level cache,
/// so that the timings measure memory, not a cache; 256^3 (8192^2) when the
/// cache size is unknown.
int defaultGridSide(const ir::Stencil &s, long long lastLevelCache) {
  if (lastLevelCache <= 0)
    return s.dims == 3 ? 256 : 8192;
  const double points = 4.0 * double(lastLevelCache) / gridBytesPerPoint(s);
  const double side = s.dims == 3 ? std::cbrt(points) : std::sqrt(points);
  return std::max(64, int(std::ceil(side / 8)) * 8);
}

std::array<int, 3> timedGridSize(const ir::Stencil &s, const BenchOptions &o,
                                 long long lastLevelCache) {
  std::array<int, 3> size{o.nx, o.ny, o.nz};
  if (o.nx == 0)
    size.fill(defaultGridSide(s, lastLevelCache));
  if (s.dims == 2)
    size[2] = 1;
  return size;
}

bool checkRunFits(const CompiledStencil &compiled, const std::string &command,
                  const BenchOptions &o, const analysis::HarnessRun &run) {
  const ir::Stencil &s = *compiled.stencil;
  const std::string size = fmt::format("{}x{}x{}", run.nx, run.ny, run.nz);
  const std::string given =
      o.sizeText.empty() ? "the default size " + size : "--size " + o.sizeText;
  const std::array<analysis::AxisNeed, 3> needs = analysis::gridNeeds(compiled);
  const int points[3] = {run.nx, run.ny, run.nz};
  for (int axis = 0; axis < 3; ++axis)
    if (points[axis] < needs[axis].points) {
      driver::reportError(fmt::format(
          "{} is too small for {}: {} has {} point{} and needs at least {} (the stencil reaches "
          "{} point{} on each side of a point)",
          given, s.name, "xyz"[axis], points[axis], points[axis] == 1 ? "" : "s",
          needs[axis].points, needs[axis].reach, needs[axis].reach == 1 ? "" : "s"));
      return false;
    }
  // Unknown available memory (0) refuses nothing: the harness reports what it cannot allocate.
  const std::uint64_t needed = analysis::harnessPeakBytes(s, run);
  const std::uint64_t available = availableMemory();
  if (available && needed > available) {
    driver::reportError(fmt::format("{} of {} ({}) at {} needs {} of memory; this machine has {} "
                                    "available: give a smaller --size",
                                    command, s.name, ir::elemTypeName(s.elemType), size,
                                    analysis::bytesText(double(needed)),
                                    analysis::bytesText(double(available))));
    return false;
  }
  return true;
}

std::uint64_t availableMemory() {
  const char *meminfo = std::getenv("STENCILC_MEMINFO");
  return analysis::readAvailableMemory(meminfo && *meminfo ? meminfo : "/proc/meminfo");
}

analysis::HarnessRun benchRun(const ir::Stencil &s, const BenchOptions &o,
                              const std::array<int, 3> &size) {
  const bool allowsInPlace = std::any_of(s.fields.begin(), s.fields.end(),
                                         [](const ir::Field &f) { return f.overwrites >= 0; });
  analysis::HarnessRun run;
  run.nx = size[0];
  run.ny = size[1];
  run.nz = size[2];
  run.tableColumns = o.nd;
  run.inPlace = o.inPlace == BenchOptions::InPlace::On && allowsInPlace;
  run.triad = true;
  run.timeTilingCheck = kernel::isTimeTileable(s) && !o.timeDepths.empty();
  return run;
}

const char *chosenName(BenchGrid::Chosen chosen) {
  switch (chosen) {
  case BenchGrid::Chosen::Option: return "option";
  case BenchGrid::Chosen::LastLevelCache: return "last-level cache";
  case BenchGrid::Chosen::Production: return "production";
  }
  return "option";
}

std::vector<BenchGrid> benchGrids(const CompiledStencil &compiled, const BenchOptions &o,
                                  long long lastLevelCache, std::uint64_t availableBytes,
                                  std::vector<std::string> &notes) {
  const ir::Stencil &s = *compiled.stencil;
  BenchGrid first;
  first.size = timedGridSize(s, o, lastLevelCache);
  if (o.nx != 0)
    return {first};
  first.chosen = BenchGrid::Chosen::LastLevelCache;
  const char *shape = s.dims == 3 ? "N^3" : "N^2";
  first.reason = lastLevelCache > 0
                     ? fmt::format("the smallest {} of at least 4x the last-level cache", shape)
                     : fmt::format("the last-level cache size is unknown: {}",
                                   s.dims == 3 ? "256^3" : "8192^2");
  std::vector<BenchGrid> grids{first};
  // 2D grids' default rows are already thousands of points long: the production
  // shape is a 3D matter (long x rows against the caches holding the planes).
  if (s.dims != 3)
    return grids;
  const int side = first.size[0];
  if (side >= kProductionSide) {
    notes.push_back(fmt::format("no production row set: the default {}^3 is at least {}^3", side,
                                kProductionSide));
    return grids;
  }
  // The largest cube up to kProductionSide^3 (a multiple of 8) whose run fits in
  // memory, by the same rule as the refusal (checkRunFits).
  auto needs = [&](int n) { return analysis::harnessPeakBytes(s, benchRun(s, o, {n, n, n})); };
  int n = kProductionSide;
  while (n > side && availableBytes && needs(n) > availableBytes)
    n -= 8;
  if (n <= side) {
    notes.push_back(fmt::format(
        "no production row set: {}^3 needs {} and {} is available; no cube between {}^3 and "
        "{}^3 fits",
        kProductionSide, analysis::bytesText(double(needs(kProductionSide))),
        analysis::bytesText(double(availableBytes)), side, kProductionSide));
    return grids;
  }
  BenchGrid production;
  production.size = {n, n, n};
  production.chosen = BenchGrid::Chosen::Production;
  if (n == kProductionSide)
    production.reason = fmt::format("{}^3, rows as long as a production grid's", kProductionSide);
  else {
    production.reason =
        fmt::format("the largest cube up to {}^3 whose run fits in the {} available ({}^3 "
                    "needs {})",
                    kProductionSide, analysis::bytesText(double(availableBytes)), kProductionSide,
                    analysis::bytesText(double(needs(kProductionSide))));
    notes.push_back(fmt::format("production size {}^3: {}", n, production.reason));
  }
  grids.push_back(production);
  return grids;
}

bool checkBenchFits(const CompiledStencil &compiled, const BenchOptions &o,
                    const std::vector<BenchGrid> &grids) {
  const ir::Stencil &s = *compiled.stencil;
  if (s.dims == 2 && o.sizeExtents == 3 && o.nz > 1) {
    driver::reportError(fmt::format("--size {}: {} is 2D, so z has 1 point, not {}: give N or "
                                    "NX,NY",
                                    o.sizeText, s.name, o.nz));
    return false;
  }
  for (const BenchGrid &grid : grids)
    if (!checkRunFits(compiled, "bench", o, benchRun(s, o, grid.size)))
      return false;
  return true;
}

/// "256" -> 256^3 (256^2 for 2D, decided later), "64,32,16" or "64x32x16" -> each extent.
bool parseGridSize(const std::string &text, BenchOptions &o, std::string *why) {
  if (text.empty())
    return true;
  o.sizeText = text;
  auto fail = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return false;
  };
  // Commas separate the extents; without any, "x" does (the older spelling).
  const llvm::StringRef whole(text);
  llvm::SmallVector<llvm::StringRef, 3> parts;
  whole.split(parts, whole.contains(',') ? ',' : 'x');
  if (parts.size() > 3)
    return fail(fmt::format("has {} extents, at most 3 (x, y, z)", parts.size()));
  constexpr long long kMaxExtent = 100000;
  int values[3] = {0, 0, 0};
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string axis = parts.size() == 1 ? "the side" : std::string(1, "xyz"[i]);
    long long v = 0;
    if (parts[i].trim().getAsInteger(10, v))
      return fail(fmt::format("{} '{}' is not a whole number", axis, parts[i].str()));
    if (v < 1)
      return fail(fmt::format("{} is {}: an extent is a positive number of points", axis, v));
    if (v > kMaxExtent)
      return fail(fmt::format("{} is {}, more than {} points", axis, v, kMaxExtent));
    values[i] = int(v);
  }
  o.sizeExtents = int(parts.size());
  if (parts.size() == 1)
    o.nx = o.ny = o.nz = values[0];
  else {
    o.nx = values[0];
    o.ny = values[1];
    o.nz = parts.size() == 3 ? values[2] : 1;
  }
  return true;
}

} // namespace stencilc
