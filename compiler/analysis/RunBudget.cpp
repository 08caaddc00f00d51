//===- RunBudget.cpp ------------------------------------------------------===//
#include "analysis/RunBudget.h"

#include "ir/linear/FieldReach.h"

#include <stencilc/AlignedBuffer.h>
#include <stencilc/Grid.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace stencilc::analysis {

namespace {

/// Bytes rt::AlignedBuffer takes for `bytes`: whole cache lines, or whole
/// huge pages from one huge page up (runtime/include/stencilc/AlignedBuffer.h).
std::uint64_t bufferBytes(std::uint64_t bytes) {
  if (bytes == 0)
    return 0;
  const std::uint64_t unit = bytes >= rt::kHugePageBytes ? rt::kHugePageBytes : rt::kCacheLineBytes;
  return (bytes + unit - 1) / unit * unit;
}

template <typename T> std::uint64_t gridBytes(const rt::GridShape &shape) {
  return bufferBytes(std::uint64_t(rt::GridLayout::of<T>(shape).elements) * sizeof(T));
}

/// The grid rt::KernelData allocates for `field`, in the field's element type.
std::uint64_t fieldBytes(const ir::Stencil &s, const ir::Field &field, const rt::GridShape &shape) {
  if (field.role == ir::FieldRole::Index)
    switch (field.indexType) {
    case ir::IndexType::UInt8: return gridBytes<std::uint8_t>(shape);
    case ir::IndexType::UInt16: return gridBytes<std::uint16_t>(shape);
    case ir::IndexType::Int32: return gridBytes<std::int32_t>(shape);
    }
  return s.elemType == ir::ElemType::Float ? gridBytes<float>(shape) : gridBytes<double>(shape);
}

/// One rt::KernelData: a grid per storage slot and a table per table.
std::uint64_t kernelDataBytes(const ir::Stencil &s, const rt::GridShape &shape, int tableColumns,
                              bool inPlace) {
  std::uint64_t bytes = 0;
  for (const ir::Field &field : s.fields)
    if (!(inPlace && field.overwrites >= 0))
      bytes += fieldBytes(s, field, shape);
  for (const ir::Table &table : s.tables)
    bytes += bufferBytes(std::uint64_t(table.rows) * std::uint64_t(std::max(0, tableColumns)) *
                         std::uint64_t(ir::elemTypeBytes(s.elemType)));
  return bytes;
}

/// rt::measureTriadBandwidth's arrays (runtime/include/stencilc/bench/Stream.h):
/// three of 2^25 doubles, as the harness calls it.
constexpr std::uint64_t kTriadArrays = 3, kTriadElements = std::uint64_t(1) << 25;

/// The grid that `timeTilingMatches` in runtime/src/bench/BenchHarness.cpp checks
/// time tiling on, twice (single steps and tiled passes).
constexpr int kTilingCheckNx = 37, kTilingCheckNy = 21, kTilingCheckNz = 13;

} // namespace

std::array<AxisNeed, 3> gridNeeds(const CompiledStencil &compiled) {
  std::array<AxisNeed, 3> needs;
  for (const FieldReach &reach : fieldReaches(*compiled.stencil, compiled.linear))
    for (int axis = 0; axis < 3; ++axis)
      needs[axis].reach = std::max({needs[axis].reach, reach.minus[axis], reach.plus[axis]});
  for (AxisNeed &need : needs)
    need.points = 2 * need.reach + 1;
  return needs;
}

std::uint64_t harnessPeakBytes(const ir::Stencil &s, const HarnessRun &run) {
  const bool is3d = s.dims == 3;
  const rt::GridShape timed{s.dims, run.nx, run.ny, is3d ? run.nz : 1, s.radius};
  std::uint64_t grids = kernelDataBytes(s, timed, run.tableColumns, run.inPlace);
  if (run.timeTilingCheck) {
    const rt::GridShape small{s.dims, kTilingCheckNx, kTilingCheckNy, is3d ? kTilingCheckNz : 1,
                              s.radius};
    grids += 2 * kernelDataBytes(s, small, run.tableColumns, run.inPlace);
  }
  const std::uint64_t triad =
      run.triad ? kTriadArrays * bufferBytes(kTriadElements * sizeof(double)) : 0;
  return std::max(grids, triad);
}

std::uint64_t readAvailableMemory(const std::string &meminfo) {
  std::ifstream in(meminfo);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key, unit;
    std::uint64_t value = 0;
    // "MemAvailable:   24259832 kB", where kB means 1024 bytes.
    if (words >> key >> value && key == "MemAvailable:")
      return words >> unit && unit == "kB" ? value << 10 : value;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageBytes > 0 ? std::uint64_t(pages) * std::uint64_t(pageBytes) : 0;
}

std::string bytesText(double bytes) {
  static const char *const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024)
    return fmt::format("{:.0f} B", bytes);
  int unit = 0;
  bytes /= 1024;
  while (bytes >= 1024 && unit + 1 < int(std::size(kUnits))) {
    bytes /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

} // namespace stencilc::analysis
