//===- RunBudgetTest.cpp - The points and bytes a benchmark run needs -----===//
//
// The byte counts are derived by hand from the layout of runtime/include/
// stencilc/Grid.h (rows padded to whole cache lines, a line or plane one
// cache line longer where it is a multiple of 8 lines, a front pad that puts
// x = 0 on a cache line) and AlignedBuffer.h (whole cache lines, whole 2 MiB
// pages from 2 MiB up).
//
//===----------------------------------------------------------------------===//
#include "analysis/RunBudget.h"

#include "PlanTestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace stencilc;
using namespace stencilc::analysis;
using stencilc::testing::compileExample;

namespace {

HarnessRun grid(int nx, int ny, int nz, int tableColumns = 902) {
  HarnessRun run;
  run.nx = nx;
  run.ny = ny;
  run.nz = nz;
  run.tableColumns = tableColumns;
  return run;
}

TEST(RunBudget, AnAxisNeedsTheReachOnBothSidesAndThePoint) {
  auto acoustic = compileExample("acoustic_iso8");
  for (const AxisNeed &need : gridNeeds(acoustic.only())) {
    EXPECT_EQ(need.reach, 4);
    EXPECT_EQ(need.points, 9);
  }
  // ete37 reads 4 along the axes and 1 along the diagonals.
  auto ete37 = compileExample("ete37");
  for (const AxisNeed &need : gridNeeds(ete37.only()))
    EXPECT_EQ(need.points, 9);
  // 2D: nothing is read along z, so one plane is enough.
  auto heat = compileExample("heat2d");
  const auto needs = gridNeeds(heat.only());
  EXPECT_EQ(needs[0].points, 3);
  EXPECT_EQ(needs[1].points, 3);
  EXPECT_EQ(needs[2].reach, 0);
  EXPECT_EQ(needs[2].points, 1);
}

// acoustic_iso8, float, 400 x 300 x 200, halo 4: a row of 408 points takes 416
// floats (26 lines), 308 rows make a plane of 128128 floats (8008 lines, a
// multiple of 8, so one line more: 128144), 208 planes and a front pad of 12:
// 26653964 floats, 106615856 bytes, 51 huge pages: 106954752 bytes a grid.
constexpr std::uint64_t kAcousticGrid = 106954752;

TEST(RunBudget, OneGridPerFieldOutOfPlace) {
  auto acoustic = compileExample("acoustic_iso8");
  const ir::Stencil &s = *acoustic.only().stencil;
  EXPECT_EQ(harnessPeakBytes(s, grid(400, 300, 200)), 4 * kAcousticGrid);
}

TEST(RunBudget, InPlaceTheOutputSharesTheLevelItOverwrites) {
  auto acoustic = compileExample("acoustic_iso8");
  HarnessRun run = grid(400, 300, 200);
  run.inPlace = true;
  EXPECT_EQ(harnessPeakBytes(*acoustic.only().stencil, run), 3 * kAcousticGrid);
}

TEST(RunBudget, IndexFieldsInTheirOwnTypeAndTablesOfNdColumns) {
  auto ete37 = compileExample("ete37");
  const ir::Stencil &s = *ete37.only().stencil;
  ASSERT_EQ(s.tables.size(), 1u);
  ASSERT_EQ(s.tables[0].rows, 11);
  // vidx, uint16: a row of 408 points takes 416 (13 lines of 32), a plane
  // 128128 (4004 lines), the front pad 28: 26650652 values, 53301304 bytes,
  // 26 huge pages. The table: 11 rows of 902 floats, 39688 bytes, 621 lines.
  const std::uint64_t index = 26 * (std::uint64_t(2) << 20), table = 621 * 64;
  EXPECT_EQ(harnessPeakBytes(s, grid(400, 300, 200)), 3 * kAcousticGrid + index + table);
  EXPECT_EQ(harnessPeakBytes(s, grid(400, 300, 200, 0)), 3 * kAcousticGrid + index);
}

TEST(RunBudget, DoublesTakeTwiceTheBytesOfFloats) {
  auto acoustic = compileExample("acoustic_iso8", /*asDouble=*/true);
  // A row of 408 doubles takes 408 (51 lines), a plane 125664 (15708 lines),
  // 208 planes and a front pad of 4: 26138116 doubles, 209104928 bytes, 100
  // huge pages.
  EXPECT_EQ(harnessPeakBytes(*acoustic.only().stencil, grid(400, 300, 200)),
            4 * 100 * (std::uint64_t(2) << 20));
}

TEST(RunBudget, TheTriadArraysCountWhenTheyAreTheLarger) {
  auto heat = compileExample("heat2d");
  const ir::Stencil &s = *heat.only().stencil;
  // heat2d, 100 x 50, halo 1: rows of 112 floats, 52 rows, a front pad of 15:
  // 5839 floats, 23356 bytes, 365 lines a grid; two grids.
  HarnessRun run = grid(100, 50, 1);
  EXPECT_EQ(harnessPeakBytes(s, run), 2 * 365 * 64u);
  // The triad's three arrays of 2^25 doubles, freed before the grids come.
  run.triad = true;
  EXPECT_EQ(harnessPeakBytes(s, run), 3u << 28);
  // Four grids of 100 huge pages (acoustic_iso8 in double, below) are the larger.
  auto acoustic = compileExample("acoustic_iso8", /*asDouble=*/true);
  run = grid(400, 300, 200);
  run.triad = true;
  EXPECT_EQ(harnessPeakBytes(*acoustic.only().stencil, run), 4 * 100 * (std::uint64_t(2) << 20));
}

TEST(RunBudget, TheTimeTilingCheckAddsTwoSmallDataSets) {
  auto heat = compileExample("heat2d");
  const ir::Stencil &s = *heat.only().stencil;
  HarnessRun run = grid(100, 50, 1);
  run.timeTilingCheck = true;
  // 37 x 21, halo 1: rows of 48 floats, 23 rows, a front pad of 15: 1119
  // floats, 4476 bytes, 70 lines a grid; two grids in each of two data sets.
  EXPECT_EQ(harnessPeakBytes(s, run), 2 * 365 * 64u + 2 * 2 * 70 * 64u);
}

TEST(RunBudget, ExtentsFarBeyondMemoryDoNotOverflow) {
  auto acoustic = compileExample("acoustic_iso8");
  // 4 grids of about 5008^3 floats: 1.8 TiB.
  const std::uint64_t bytes = harnessPeakBytes(*acoustic.only().stencil, grid(5000, 5000, 5000));
  EXPECT_GT(bytes, std::uint64_t(1) << 40);
  EXPECT_EQ(bytesText(double(bytes)), "1.8 TiB");
  // 4 grids of about 10^15 floats: 2^53 bytes is 9.0e15.
  EXPECT_GT(harnessPeakBytes(*acoustic.only().stencil, grid(100000, 100000, 100000)),
            std::uint64_t(1) << 53);
}

std::string fakeMeminfo(const std::string &name, const std::string &text) {
  const auto path = std::filesystem::temp_directory_path() / ("stencilc-meminfo-" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(RunBudget, ReadsMemAvailableInKibibytes) {
  const std::string meminfo = fakeMeminfo("available", "MemTotal:       24684092 kB\n"
                                                       "MemFree:        23613996 kB\n"
                                                       "MemAvailable:   24259832 kB\n"
                                                       "Buffers:           45320 kB\n");
  EXPECT_EQ(readAvailableMemory(meminfo), std::uint64_t(24259832) * 1024);
}

TEST(RunBudget, WithoutMemAvailableTheFreePagesCount) {
  // Kernels before 3.14 have no MemAvailable; sysconf's free pages stand in.
  const std::string meminfo = fakeMeminfo("old", "MemTotal:       24684092 kB\n"
                                                 "MemFree:        23613996 kB\n");
  EXPECT_GT(readAvailableMemory(meminfo), 0u);
  EXPECT_GT(readAvailableMemory("/nonexistent/meminfo"), 0u);
}

TEST(RunBudget, BytesInBinaryUnits) {
  EXPECT_EQ(bytesText(512), "512 B");
  EXPECT_EQ(bytesText(1536), "1.5 KiB");
  EXPECT_EQ(bytesText(3u << 28), "768.0 MiB");
  EXPECT_EQ(bytesText(double(std::uint64_t(24259832) * 1024)), "23.1 GiB");
}

} // namespace
