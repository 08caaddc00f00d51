//===- TimeTilingTest.cpp - Temporal blocking of the CPU kernels -----------===//
//
// Every generated CPU kernel whose outputs advance time levels, in each
// variant, run time-tiled against single steps and the reference evaluator
// (TimeTilingCheck.h). The schedule itself is checked point by point, and a
// wrong skew is caught.
//
//===----------------------------------------------------------------------===//
#include "RandomProblem.h"
#include "StencilOfKernel.h"
#include "TimeTilingCheck.h"

#include <stencilc/KernelData.h>
#include <stencilc/timeloop/TimeTiling.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace stencilc;

namespace {

using kerneltest::tileableKernels;

class TimeTiled : public testing::TestWithParam<const rt::KernelInfo *> {};

TEST_P(TimeTiled, EqualsSingleStepsBitForBit) {
  const rt::KernelInfo &info = *GetParam();
  const ir::Stencil stencil = kerneltest::stencilOfKernel(info);
  std::vector<kerneltest::BoxLauncher> launchers;
  for (rt::Variant variant : {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes})
    launchers.push_back(
        {rt::variantName(variant),
         [&info, variant](const rt::ErasedArgs &args, const std::optional<rt::Box> &region) {
           rt::RunOptions options{variant, 0, 0};
           options.region = region;
           info.run(args, options);
         }});
  if (std::string(info.elemType) == "float")
    kerneltest::checkTimeTiling<float>(info, stencil, launchers);
  else
    kerneltest::checkTimeTiling<double>(info, stencil, launchers);
}

INSTANTIATE_TEST_SUITE_P(Generated, TimeTiled, testing::ValuesIn(tileableKernels()),
                         [](const testing::TestParamInfo<const rt::KernelInfo *> &info) {
                           return std::string(info.param->name);
                         });

/// `steps` single steps of `info` on a random problem of `shape`, and the same problem through
/// rt::runTimeTiled with `tiling`, both with `options`; `inspect(args, tables)` sees the tiled
/// run's arguments after it and the tables they held before. Every time level and output must
/// then hold the same bits.
template <typename Real, typename Inspect>
void expectTiledEqualsSingleSteps(const rt::KernelInfo &info, const rt::GridShape &shape, int steps,
                                  const rt::TimeTiling &tiling, const rt::RunOptions &options,
                                  Inspect inspect) {
  rt::KernelData single(info, shape, 29, /*inPlace=*/false), tiled(info, shape, 29, false);
  kerneltest::fillRandomProblem(single, /*inPlace=*/false, 29);
  kerneltest::fillRandomProblem(tiled, /*inPlace=*/false, 29);
  for (int s = 0; s < steps; ++s) {
    info.run(single.args(), options);
    single.rotate();
  }
  rt::ErasedArgs args = tiled.args();
  const std::vector<rt::ErasedTable> callers = args.tables;
  rt::runTimeTiled(info, args, steps, tiling, options);
  for (int s = 0; s < steps; ++s)
    tiled.rotate();
  inspect(args, callers);
  for (size_t f = 0; f < info.fields.size(); ++f) {
    const std::string role = info.fields[f].role;
    if (role != "time" && role != "out")
      continue;
    const rt::Grid<Real> &a = single.field<Real>(int(f)), &b = tiled.field<Real>(int(f));
    int differing = 0;
    a.forEachInteriorPoint([&](int i, int j, int k) {
      const Real x = a(i, j, k), y = b(i, j, k);
      differing += std::memcmp(&x, &y, sizeof x) != 0;
    });
    EXPECT_EQ(differing, 0) << info.name << ": field " << info.fields[f].name;
  }
}

template <typename Real> void checkTablesPackedOnce(const rt::KernelInfo &info) {
  const rt::GridShape shape{info.dims, 19, 13, info.dims == 3 ? 11 : 1, info.radius};
  expectTiledEqualsSingleSteps<Real>(
      info, shape, 5, rt::TimeTiling{2, 0, 5, 3}, rt::RunOptions{rt::Variant::Blocked, 0, 0},
      [&info](const rt::ErasedArgs &args, const std::vector<rt::ErasedTable> &callers) {
        for (size_t t = 0; t < callers.size(); ++t) {
          EXPECT_EQ(args.tables[t].data, callers[t].data) << info.name << ": table " << t;
          EXPECT_FALSE(args.tables[t].packed) << info.name << ": table " << t;
        }
      });
}

/// rt::runTimeTiled packs a kernel's tables once and every tile's call uses them in place
/// (TableView::packed): the same bits as single steps, and the caller's tables in `args` after.
TEST(TimeTiling, PacksTablesOnceWithTheSameBits) {
  int checked = 0;
  for (const rt::KernelInfo *info : tileableKernels()) {
    if (info->tables.empty())
      continue;
    if (std::string(info->elemType) == "float")
      checkTablesPackedOnce<float>(*info);
    else
      checkTablesPackedOnce<double>(*info);
    ++checked;
  }
  EXPECT_GE(checked, 4) << "ete37 and ete73 in both precisions";
}

/// Time-tiled with the default tiles on rows of at least kLongRowBytes (32 x 16 tiles), on an
/// extent that neither tile extent divides, 5 steps in passes of 3: the same bits as single steps.
template <typename Real> void checkLongRowDefaults(const rt::KernelInfo &info) {
  const int nx = int(rt::kLongRowBytes / sizeof(Real)) + 3;
  const rt::GridShape shape{info.dims, nx, 35, info.dims == 3 ? 37 : 1, info.radius};
  const rt::TimeTiling tiling{3, 0, 0, 0};
  ASSERT_EQ(rt::tilesOf(info, tiling, rt::Extent{shape.nx, shape.ny, shape.nz}),
            std::make_tuple(0, rt::kTimeTileY, info.dims == 3 ? rt::kLongRowTileZ : 1))
      << info.name;
  expectTiledEqualsSingleSteps<Real>(info, shape, 5, tiling,
                                     rt::RunOptions{rt::Variant::Naive, 0, 0},
                                     [](const rt::ErasedArgs &, const auto &) {});
}

TEST(TimeTiling, DefaultTilesOnLongRowsEqualSingleStepsBitForBit) {
  int checked = 0;
  for (const rt::KernelInfo *info : tileableKernels()) {
    if (std::string(info->elemType) == "float")
      checkLongRowDefaults<float>(*info);
    else
      checkLongRowDefaults<double>(*info);
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

/// Without tile extents a pass takes kTimeTileY rows and, in z, kTimeTileZ planes on rows
/// shorter than kLongRowBytes and kLongRowTileZ on longer ones (stencilc/abi/TimeTiles.h).
TEST(TimeTiling, DefaultTilesAreTallerOnLongRows) {
  static_assert(rt::kLongRowBytes == 1024 && rt::kLongRowTileZ > rt::kTimeTileZ);
  int checked = 0;
  for (const rt::KernelInfo *info : tileableKernels()) {
    const int bytes = rt::elementBytesOf(info->elemType);
    const int longRow = int(rt::kLongRowBytes) / bytes;
    const rt::TimeTiling defaults{4, 0, 0, 0};
    const int flat = info->dims == 3 ? 0 : 1; // 2D: one plane, whatever the row
    for (const auto &[nx, tileZ] :
         {std::pair{longRow - 1, rt::kTimeTileZ}, std::pair{longRow, rt::kLongRowTileZ},
          std::pair{4 * longRow, rt::kLongRowTileZ}})
      EXPECT_EQ(rt::tilesOf(*info, defaults, rt::Extent{nx, 40, 40}),
                std::make_tuple(0, rt::kTimeTileY, flat ? 1 : tileZ))
          << info->name << " " << info->elemType << " at rows of " << nx;
    EXPECT_EQ(rt::tilesOf(*info, rt::TimeTiling{4, 64, 16, 4}, rt::Extent{4 * longRow, 40, 40}),
              std::make_tuple(64, 16, flat ? 1 : 4))
        << info->name << ": extents given are kept";
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

TEST(TimeTiling, CoversTheExamplesThatStepInTime) {
  std::vector<std::string> names;
  for (const rt::KernelInfo *k : tileableKernels())
    names.push_back(k->name);
  for (const char *name :
       {"acoustic_iso8_f32", "ete37_f32", "ete73_f32", "tti_f32", "lwc_elastic_f64", "heat2d_f32"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(TimeTileSchedule, IsValidForManyShapes) {
  struct Tiles {
    int x, y, z;
  };
  for (rt::Extent e : {rt::Extent{9, 17, 23}, rt::Extent{4, 1, 1}, rt::Extent{7, 40, 3}})
    for (rt::TimeSkew skew : {rt::TimeSkew{0, 0, 0}, rt::TimeSkew{1, 1, 2}, rt::TimeSkew{4, 4, 4}})
      for (int depth : {1, 2, 3, 5})
        for (Tiles t :
             {Tiles{0, 1, 1}, Tiles{0, 3, 4}, Tiles{5, 5, 3}, Tiles{2, 64, 64}, Tiles{0, 8, 8}}) {
          const rt::TimeTileSchedule schedule(e, skew, depth, t.x, t.y, t.z);
          const std::string shape =
              std::to_string(e.nx) + "x" + std::to_string(e.ny) + "x" + std::to_string(e.nz) +
              " skew " + std::to_string(skew.x) + "," + std::to_string(skew.y) + "," +
              std::to_string(skew.z) + " T = " + std::to_string(depth) + " tiles " +
              std::to_string(t.x) + " x " + std::to_string(t.y) + " x " + std::to_string(t.z);
          EXPECT_EQ(rt::scheduleViolation(schedule, skew), "") << shape;
          // The pass starts tiles by these waits, not diagonal by diagonal.
          EXPECT_EQ(rt::dependencyViolation(schedule, skew), "") << shape;
        }
}

/// Tiles laid for no reach wait for no neighbour; a stencil that reads one
/// point further would need them to, and the checker names the pair.
TEST(TimeTileSchedule, WaitsTooFewForTheReadsAreCaught) {
  const rt::TimeTileSchedule schedule(rt::Extent{8, 30, 20}, rt::TimeSkew{0, 0, 0}, 3, 0, 5, 4);
  EXPECT_EQ(rt::dependencyViolation(schedule, rt::TimeSkew{0, 0, 0}), "");
  const std::string why = rt::dependencyViolation(schedule, rt::TimeSkew{0, 1, 1});
  EXPECT_NE(why.find("does not wait for tile"), std::string::npos) << why;
}

/// With the default tiles at a production size, a tile waits for a handful of
/// neighbours, never for one of its own or a later diagonal.
TEST(TimeTileSchedule, WaitsOnlyForNearbyTilesOfEarlierDiagonals) {
  const rt::TimeTileSchedule schedule(rt::Extent{208, 208, 208}, rt::TimeSkew{4, 4, 4}, 4, 0,
                                      rt::kTimeTileY, rt::kTimeTileZ);
  const rt::TileOrder order = rt::tileOrder(schedule);
  ASSERT_EQ(order.tiles.size(), size_t(schedule.tiles()));
  size_t waits = 0;
  for (size_t t = 0; t < order.tiles.size(); ++t) {
    const rt::TileIndex &late = order.tiles[t];
    for (int e : order.waitsFor[t]) {
      const rt::TileIndex &early = order.tiles[size_t(e)];
      EXPECT_LT(early.a + early.b + early.c, late.a + late.b + late.c);
      EXPECT_LE(std::abs(early.b - late.b) + std::abs(early.c - late.c), 4);
    }
    waits += order.waitsFor[t].size();
  }
  EXPECT_LT(waits, 8 * order.tiles.size());
}

TEST(TimeTileSchedule, TooSmallASkewIsCaught) {
  const rt::Extent e{8, 30, 20};
  const rt::TimeTileSchedule schedule(e, rt::TimeSkew{0, 1, 1}, 3, 0, 5, 4);
  const std::string why = rt::scheduleViolation(schedule, rt::TimeSkew{0, 2, 2});
  EXPECT_NE(why.find("reads"), std::string::npos) << why;
}

/// The boxes of a deep-halo round (mpi/DeepHaloKernel.h): each level's box
/// the next one's grown by the skew toward neighbours, in coordinates that
/// reach below 0, and clipped where a side is a boundary.
std::vector<rt::Box> nestedLevels(const rt::Extent &owned, rt::TimeSkew s, int depth,
                                  const bool grows[6]) {
  std::vector<rt::Box> levels;
  for (int l = 0; l < depth; ++l) {
    const int by = depth - 1 - l;
    levels.push_back({grows[0] ? -s.x * by : 0, grows[2] ? -s.y * by : 0, grows[4] ? -s.z * by : 0,
                      owned.nx + (grows[1] ? s.x * by : 0), owned.ny + (grows[3] ? s.y * by : 0),
                      owned.nz + (grows[5] ? s.z * by : 0)});
  }
  return levels;
}

TEST(TimeTileSchedule, IsValidForNestedLevelBoxes) {
  struct Tiles {
    int x, y, z;
  };
  const bool sides[][6] = {{true, true, true, true, true, true},
                           {false, true, false, false, true, false},
                           {true, false, false, true, false, false}};
  // Kept small: the checker is O(points x depth x (2 s + 1)^3), and the
  // first box grows by s (T - 1) on each side.
  for (rt::Extent e : {rt::Extent{9, 17, 23}, rt::Extent{7, 30, 5}})
    for (rt::TimeSkew skew : {rt::TimeSkew{0, 1, 2}, rt::TimeSkew{2, 2, 3}})
      for (int depth : {1, 2, 3, 5})
        for (const bool *grows : sides)
          for (Tiles t : {Tiles{0, 3, 4}, Tiles{5, 5, 3}, Tiles{0, 64, 64}}) {
            const rt::TimeTileSchedule schedule(nestedLevels(e, skew, depth, grows), skew, t.x, t.y,
                                                t.z);
            EXPECT_EQ(rt::scheduleViolation(schedule, skew), "")
                << e.nx << "x" << e.ny << "x" << e.nz << " skew " << skew.x << "," << skew.y << ","
                << skew.z << " T = " << depth << " tiles " << t.x << " x " << t.y << " x " << t.z;
            EXPECT_EQ(rt::dependencyViolation(schedule, skew), "")
                << e.nx << "x" << e.ny << "x" << e.nz << " T = " << depth;
          }
}

/// Level boxes that do not shrink by the skew leave a level reading points
/// its predecessor did not compute; the checker names one.
TEST(TimeTileSchedule, LevelBoxesThatShrinkTooFastAreCaught) {
  const bool all[6] = {true, true, true, true, true, true};
  const rt::TimeTileSchedule schedule(nestedLevels({8, 20, 20}, rt::TimeSkew{0, 1, 1}, 3, all),
                                      rt::TimeSkew{0, 2, 2}, 0, 5, 4);
  const std::string why = rt::scheduleViolation(schedule, rt::TimeSkew{0, 2, 2});
  EXPECT_NE(why.find("reads"), std::string::npos) << why;
}

TEST(TimeTileSchedule, RefusesLevelBoxesThatAreNotNested) {
  try {
    rt::TimeTileSchedule({rt::Box{0, 0, 0, 8, 8, 8}, rt::Box{1, 0, 0, 9, 8, 8}},
                         rt::TimeSkew{1, 1, 1}, 0, 4, 4);
    ADD_FAILURE() << "accepted a level box outside the one before";
  } catch (const std::invalid_argument &e) {
    EXPECT_EQ(std::string(e.what()), "level 1's box [1, 9) x [0, 8) x [0, 8) is not inside "
                                     "level 0's [0, 8) x [0, 8) x [0, 8)");
  }
}

/// The one rule for "steps can be tiled in time" that the runtime, the bench harness and these
/// tests share: each way a kernel's levels would fail to only rotate is named.
TEST(TimeTiling, ObstacleNamesWhatKeepsLevelsFromRotating) {
  const rt::KernelInfo *info = rt::findKernel("acoustic_iso8_f32");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(rt::timeTilingObstacle(*info), "");
  EXPECT_TRUE(rt::isTimeTileable(*info));
  const auto outputAt =
      std::find_if(info->fields.begin(), info->fields.end(),
                   [](const rt::KernelFieldInfo &f) { return std::string(f.role) == "out"; });
  ASSERT_NE(outputAt, info->fields.end());
  const size_t output = size_t(outputAt - info->fields.begin());
  ASSERT_GE(outputAt->overwrites, 0) << "acoustic_iso8's u_next reuses u_prev's storage";

  rt::KernelInfo advancesNothing = *info;
  advancesNothing.fields[output].advances = -1;
  EXPECT_EQ(rt::timeTilingObstacle(advancesNothing),
            "acoustic_iso8_f32: output 'u_next' advances no time level, so steps cannot be tiled "
            "in time");
  EXPECT_FALSE(rt::isTimeTileable(advancesNothing));

  rt::KernelInfo levelLeftBehind = *info;
  levelLeftBehind.fields[output].overwrites = -1;
  EXPECT_EQ(rt::timeTilingObstacle(levelLeftBehind),
            std::string("acoustic_iso8_f32: time level '") +
                info->fields[size_t(outputAt->overwrites)].name +
                "' is neither advanced nor overwritten by an output");

  rt::KernelInfo noOutput = *info;
  noOutput.fields[output].role = "in";
  EXPECT_EQ(rt::timeTilingObstacle(noOutput),
            "acoustic_iso8_f32: no output advances a time level, so steps cannot be tiled in time");
}

/// What cannot be tiled in time is refused, naming the kernel and the value.
TEST(TimeTiling, RefusesWhatItCannotRun) {
  const rt::KernelInfo *info = rt::findKernel("acoustic_iso8_f32");
  ASSERT_NE(info, nullptr);
  rt::KernelData data(*info, rt::GridShape{3, 9, 8, 7, 4}, 1, /*inPlace=*/true);
  rt::ErasedArgs args = data.args();
  auto message = [&](int steps, rt::TimeTiling tiling, rt::RunOptions options) {
    try {
      rt::runTimeTiled(*info, args, steps, tiling, options);
    } catch (const rt::KernelError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(3, {0, 0, 0, 0}, {}).rfind("acoustic_iso8_f32: time tiling of depth 0", 0), 0u);
  EXPECT_EQ(message(-1, {2, 0, 0, 0}, {}).rfind("acoustic_iso8_f32: -1 time steps", 0), 0u);
  rt::RunOptions withRegion;
  withRegion.region = rt::Box{0, 0, 0, 2, 2, 2};
  EXPECT_NE(message(3, {2, 0, 0, 0}, withRegion).find("takes no region"), std::string::npos);
  // A kernel whose output advances nothing.
  rt::KernelInfo noTime = *info;
  noTime.fields[2].advances = -1;
  rt::ErasedArgs same = args;
  try {
    rt::runTimeTiled(noTime, same, 2, {2, 0, 0, 0}, {});
    ADD_FAILURE() << "an output that advances nothing was accepted";
  } catch (const rt::KernelError &e) {
    EXPECT_NE(std::string(e.what()).find("'u_next' advances no time level"), std::string::npos)
        << e.what();
  }
}

} // namespace
