//===- LaunchSearchTest.cpp - The search `tune --backend cuda` runs --------===//
//
// stencilc/cuda/LaunchSearch.h driven by a made-up timer: the space it covers,
// the neighbours round 2 tries, and that the defaults are kept unless the pick
// is measured faster in the same run.
//
//===----------------------------------------------------------------------===//
#include <stencilc/cuda/LaunchSearch.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace stencilc;
using namespace stencilc::cuda;

namespace {

rt::CudaLaunchSpace space() {
  rt::CudaLaunchSpace s;
  s.variants = {"gmem", "ro", "traditional", "planes"};
  s.marching = {"traditional", "planes"};
  s.rowCounts = {{"traditional", {1, 2, 4}}};
  return s;
}

bool contains(const std::vector<rt::CudaLaunch> &list, const rt::CudaLaunch &l) {
  return std::find(list.begin(), list.end(), l) != list.end();
}

const rt::CudaLaunch kDefaults{"gmem", 32, 8, 0};

} // namespace

TEST(LaunchSearch, SpaceHoldsEveryBlockFromTwoWarpsToTheLaunchBound) {
  const std::vector<rt::CudaLaunch> all = space().all();
  // 9 blocks (64 to 256 threads, at least 32 wide); 4 nw for each marching variant; 3 rows per
  // thread for traditional.
  EXPECT_EQ(all.size(), 2u * 9 + 9u * 4 * 3 + 9u * 4);
  for (const rt::CudaLaunch &l : all) {
    EXPECT_GE(l.blockX * l.blockY, 64);
    EXPECT_LE(l.blockX * l.blockY, 256);
    EXPECT_EQ(l.nw > 0, l.variant == "traditional" || l.variant == "planes") << l.variant;
    EXPECT_TRUE(l.rows == 1 || l.variant == "traditional") << l.variant;
  }
  EXPECT_TRUE(contains(all, kDefaults));
  EXPECT_TRUE(contains(all, {"traditional", 32, 8, 64}));
  EXPECT_TRUE(contains(all, {"traditional", 32, 8, 64, 4}));
}

TEST(LaunchSearch, NeighboursChangeOneChoiceInsideTheSpace) {
  const std::vector<rt::CudaLaunch> near = space().neighbours({"traditional", 64, 2, 32});
  for (const rt::CudaLaunch &l :
       {rt::CudaLaunch{"traditional", 128, 2, 32}, rt::CudaLaunch{"traditional", 32, 2, 32},
        rt::CudaLaunch{"traditional", 64, 4, 32}, rt::CudaLaunch{"traditional", 64, 1, 32},
        rt::CudaLaunch{"traditional", 128, 1, 32}, rt::CudaLaunch{"traditional", 64, 2, 64},
        rt::CudaLaunch{"traditional", 64, 2, 16}, rt::CudaLaunch{"traditional", 64, 2, 32, 2}})
    EXPECT_TRUE(contains(near, l)) << l.blockX << "x" << l.blockY << " nw " << l.nw;
  const std::vector<rt::CudaLaunch> all = space().all();
  for (const rt::CudaLaunch &l : near)
    EXPECT_TRUE(contains(all, l)) << l.blockX << "x" << l.blockY << " nw " << l.nw;
  for (const rt::CudaLaunch &l : space().neighbours(kDefaults))
    EXPECT_TRUE(l.nw == 0 && l.rows == 1) << "gmem neither marches nor takes rows";
}

TEST(LaunchSearch, FindsTheFastestAndConfirmsItAgainstTheDefaults) {
  // Made-up seconds: traditional 64 x 4, nw 32 is fastest; the defaults are twice as slow.
  const rt::CudaLaunchSpace s = space();
  std::map<rt::CudaLaunch, int> timings;
  const TimeLaunch time = [&](const rt::CudaLaunch &l, int) -> std::optional<double> {
    ++timings[l];
    if (l.variant == "planes" && l.blockX == 256)
      return std::nullopt; // refused
    double t = 2.0 + 0.01 * std::abs(l.blockX - 64) + 0.01 * std::abs(l.blockY - 4) +
               0.001 * std::abs(l.nw - 32);
    if (l.variant == "traditional")
      t -= 1.0;
    if (l == kDefaults)
      t = 2.0;
    return t;
  };
  const SearchResult r = searchLaunches(s, s.all(), kDefaults, time, 60);
  EXPECT_EQ(r.pick, (rt::CudaLaunch{"traditional", 64, 4, 32}));
  EXPECT_FALSE(r.keptDefaults);
  EXPECT_DOUBLE_EQ(r.defaultSeconds, 2.0);
  EXPECT_DOUBLE_EQ(r.pickSeconds, 1.0);
  // The defaults first in round 1 and in every round; round 3 is 7 timings of each.
  ASSERT_FALSE(r.timings.empty());
  EXPECT_EQ(r.timings.front().launch, kDefaults);
  for (int round : {1, 2, 3})
    EXPECT_TRUE(std::any_of(
        r.timings.begin(), r.timings.end(),
        [&](const TimedLaunch &t) { return t.round == round && t.launch == kDefaults; }))
        << "round " << round;
  EXPECT_EQ(std::count_if(r.timings.begin(), r.timings.end(),
                          [](const TimedLaunch &t) { return t.round == 3; }),
            14);
}

TEST(LaunchSearch, KeepsTheDefaultsWhereThePickIsNotFasterInTheConfirmation) {
  // Rounds 1 and 2 see traditional 32 x 8, nw 64 fast; in round 3 it is slow (the drift a
  // noisy machine has): the defaults stay.
  const rt::CudaLaunchSpace s = space();
  const rt::CudaLaunch lucky{"traditional", 32, 8, 64};
  int luckyTimings = 0;
  const TimeLaunch time = [&](const rt::CudaLaunch &l, int) -> std::optional<double> {
    if (l == lucky)
      return ++luckyTimings <= 2 ? 0.5 : 3.0;
    return l == kDefaults ? 1.0 : 2.0;
  };
  const SearchResult r = searchLaunches(s, s.all(), kDefaults, time, 60);
  EXPECT_EQ(r.pick, kDefaults);
  EXPECT_TRUE(r.keptDefaults);
  EXPECT_DOUBLE_EQ(r.pickSeconds, 1.0);
}

TEST(LaunchSearch, StartsNoLaunchPastTheBudgetButStillTimesTheDefaults) {
  const rt::CudaLaunchSpace s = space();
  int timed = 0;
  const TimeLaunch time = [&](const rt::CudaLaunch &l, int) -> std::optional<double> {
    ++timed;
    return l == kDefaults ? 1.0 : 2.0;
  };
  // A budget of zero: round 1 and 2 time the defaults alone; round 3 confirms them.
  const SearchResult r = searchLaunches(s, s.all(), kDefaults, time, 0);
  EXPECT_EQ(r.pick, kDefaults);
  EXPECT_FALSE(r.keptDefaults);
  EXPECT_EQ(timed, 2 + 7);
}
