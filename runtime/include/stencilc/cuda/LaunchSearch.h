//===- LaunchSearch.h - The search `stencilc tune --backend cuda` runs -----===//
//
// How a CUDA kernel's step is launched is four choices: the variant, the
// block's threads along x and y, and the planes a marching block (traditional,
// planes) takes in z (LaunchOptions::nw). This header holds the space of those
// choices and the search over it, timed by a function the caller gives (a
// device, or the emulator in a dry run), in three rounds:
//
//   1. coarse: every launch once, the defaults first;
//   2. fine: the three fastest of round 1 and their neighbours (one choice
//      halved or doubled), median of 3;
//   3. confirmation: the fastest of round 2 and the defaults, in turn, median
//      of 7 each, so that "tuned >= defaults" is measured in one run; where
//      the pick is not faster, the defaults are kept.
//
// Rounds 1 and 2 start no launch once 60% and 90% of the budget have passed;
// the defaults are timed in every round. It is the CPU tuner's schedule
// (docs/PERFORMANCE.md "Tuning") over the GPU's choices.
//
// Plain C++: it makes no CUDA call, so tests drive it with a made-up timer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace stencilc::cuda {

/// One way to launch a step; zeros take the architecture's defaults, and nw
/// is 0 for the variants that do not march in z.
struct Launch {
  std::string variant;
  int blockX = 0, blockY = 0, nw = 0;

  auto key() const { return std::tie(variant, blockX, blockY, nw); }
  bool operator<(const Launch &o) const { return key() < o.key(); }
  bool operator==(const Launch &o) const { return key() == o.key(); }
};

/// The values each choice takes. Blocks are at least one warp wide, so that
/// rows are read coalesced, and hold 64 threads or more, so that a block is
/// not mostly halo; at most the kernel's __launch_bounds__.
struct LaunchSpace {
  std::vector<std::string> variants;
  std::set<std::string> marching; ///< the variants that read nw
  int maxThreadsPerBlock = 256;
  std::vector<int> blockXs = {32, 64, 128, 256};
  std::vector<int> blockYs = {1, 2, 4, 8, 16};
  std::vector<int> nws = {16, 32, 64, 128};

  bool blockFits(int bx, int by) const { return bx * by >= 64 && bx * by <= maxThreadsPerBlock; }

  /// Every launch of the space, variant by variant.
  std::vector<Launch> all() const {
    std::vector<Launch> out;
    for (const std::string &v : variants)
      for (int bx : blockXs)
        for (int by : blockYs) {
          if (!blockFits(bx, by))
            continue;
          if (!marching.count(v)) {
            out.push_back({v, bx, by, 0});
            continue;
          }
          for (int nw : nws)
            out.push_back({v, bx, by, nw});
        }
    return out;
  }

  /// The launches one choice away: one of blockX, blockY or nw halved or
  /// doubled (blockX and blockY also traded for each other, keeping the
  /// threads), staying inside the space.
  std::vector<Launch> neighbours(const Launch &l) const {
    auto in = [](const std::vector<int> &values, int v) {
      return std::find(values.begin(), values.end(), v) != values.end();
    };
    std::vector<Launch> out;
    auto add = [&](int bx, int by, int nw) {
      if (in(blockXs, bx) && in(blockYs, by) && blockFits(bx, by) &&
          (!marching.count(l.variant) || in(nws, nw)))
        out.push_back({l.variant, bx, by, nw});
    };
    add(l.blockX * 2, l.blockY, l.nw);
    add(l.blockX / 2, l.blockY, l.nw);
    add(l.blockX, l.blockY * 2, l.nw);
    add(l.blockX, l.blockY / 2, l.nw);
    add(l.blockX * 2, l.blockY / 2, l.nw);
    add(l.blockX / 2, l.blockY * 2, l.nw);
    if (marching.count(l.variant)) {
      add(l.blockX, l.blockY, l.nw * 2);
      add(l.blockX, l.blockY, l.nw / 2);
    }
    return out;
  }
};

/// One timing of the search.
struct TimedLaunch {
  int round = 0; ///< 1 coarse, 2 fine, 3 confirmation
  Launch launch;
  double seconds = 0; ///< per step, the median of the round's repeats
};

struct SearchResult {
  Launch pick;
  double pickSeconds = 0, defaultSeconds = 0; ///< round 3, per step
  bool keptDefaults = false;                  ///< the pick was not faster than the defaults
  std::vector<TimedLaunch> timings;           ///< every timing, in order
};

/// Seconds per step of `launch`, the median of `repeats` timings; nullopt if it
/// cannot be launched (more shared memory than the device allows).
using TimeLaunch = std::function<std::optional<double>(const Launch &launch, int repeats)>;

/// The three rounds over `candidates` (the defaults among them or not),
/// within `budgetSeconds` for rounds 1 and 2.
inline SearchResult searchLaunches(const LaunchSpace &space, const std::vector<Launch> &candidates,
                                   const Launch &defaults, const TimeLaunch &time,
                                   double budgetSeconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  SearchResult result;
  std::set<Launch> allowed(candidates.begin(), candidates.end());
  allowed.insert(defaults);

  // Times `list` once each in `round`, until `stopAt` seconds have passed; the timings.
  auto runRound = [&](int round, const std::vector<Launch> &list, int repeats, double stopAt) {
    std::map<Launch, double> seconds;
    for (const Launch &l : list) {
      if (!(l == defaults) && elapsed() >= stopAt)
        break;
      if (std::optional<double> s = time(l, repeats)) {
        seconds[l] = *s;
        result.timings.push_back({round, l, *s});
      }
    }
    return seconds;
  };
  auto fastest = [](const std::map<Launch, double> &seconds, std::size_t n) {
    std::vector<std::pair<double, Launch>> order;
    for (const auto &[l, s] : seconds)
      order.push_back({s, l});
    std::sort(order.begin(), order.end());
    std::vector<Launch> out;
    for (std::size_t i = 0; i < order.size() && i < n; ++i)
      out.push_back(order[i].second);
    return out;
  };

  std::vector<Launch> coarse = {defaults};
  for (const Launch &l : candidates)
    if (!(l == defaults))
      coarse.push_back(l);
  const std::map<Launch, double> round1 = runRound(1, coarse, 1, 0.6 * budgetSeconds);

  std::vector<Launch> fine = {defaults};
  std::set<Launch> seen = {defaults};
  for (const Launch &best : fastest(round1, 3)) {
    std::vector<Launch> near = space.neighbours(best);
    near.insert(near.begin(), best);
    for (const Launch &l : near)
      if (allowed.count(l) && seen.insert(l).second)
        fine.push_back(l);
  }
  const std::map<Launch, double> round2 = runRound(2, fine, 3, 0.9 * budgetSeconds);

  const std::vector<Launch> best = fastest(round2, 1);
  result.pick = best.empty() ? defaults : best.front();
  // Round 3: the pick and the defaults in turn, so that drift hits both alike.
  std::vector<double> pickTimes, defaultTimes;
  for (int r = 0; r < 7; ++r)
    for (const Launch *l : {static_cast<const Launch *>(&result.pick), &defaults}) {
      if (l == &result.pick && result.pick == defaults)
        continue;
      if (std::optional<double> s = time(*l, 1)) {
        (l == &defaults ? defaultTimes : pickTimes).push_back(*s);
        result.timings.push_back({3, *l, *s});
      }
    }
  auto median = [](std::vector<double> v) {
    if (v.empty())
      return 0.0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  };
  result.defaultSeconds = median(defaultTimes);
  result.pickSeconds = result.pick == defaults ? result.defaultSeconds : median(pickTimes);
  // The defaults stay unless the pick was measured faster.
  const bool pickWon =
      !pickTimes.empty() && (defaultTimes.empty() || result.pickSeconds < result.defaultSeconds);
  if (!(result.pick == defaults) && !pickWon) {
    result.keptDefaults = true;
    result.pick = defaults;
    result.pickSeconds = result.defaultSeconds;
  }
  return result;
}

} // namespace stencilc::cuda
