//===- TimeTilingTest.cpp - Temporal blocking of the CPU kernels -----------===//
//
// Every generated CPU kernel whose outputs advance time levels, in each
// variant, run time-tiled against single steps and the reference evaluator
// (TimeTilingCheck.h). The schedule itself is checked point by point, and a
// wrong skew is caught.
//
//===----------------------------------------------------------------------===//
#include "StencilOfKernel.h"
#include "TimeTilingCheck.h"

#include <stencilc/KernelData.h>
#include <stencilc/TimeTiling.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
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
        for (Tiles t : {Tiles{0, 1, 1}, Tiles{0, 3, 4}, Tiles{5, 5, 3}, Tiles{2, 64, 64}}) {
          const rt::TimeTileSchedule schedule(e, skew, depth, t.x, t.y, t.z);
          EXPECT_EQ(rt::scheduleViolation(schedule, e, skew), "")
              << e.nx << "x" << e.ny << "x" << e.nz << " skew " << skew.x << "," << skew.y << ","
              << skew.z << " T = " << depth << " tiles " << t.x << " x " << t.y << " x " << t.z;
        }
}

TEST(TimeTileSchedule, TooSmallASkewIsCaught) {
  const rt::Extent e{8, 30, 20};
  const rt::TimeTileSchedule schedule(e, rt::TimeSkew{0, 1, 1}, 3, 0, 5, 4);
  const std::string why = rt::scheduleViolation(schedule, e, rt::TimeSkew{0, 2, 2});
  EXPECT_NE(why.find("reads"), std::string::npos) << why;
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
