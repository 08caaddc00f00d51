//===- LaunchSearch.h - The search `stencilc tune --backend cuda` runs -----===//
//
// The search over the space of CUDA launches (stencilc/abi/LaunchSpace.h),
// timed by a function the caller gives (a device, or the emulator in a dry
// run), in three rounds:
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

#include <stencilc/abi/LaunchSpace.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::cuda {

/// One timing of the search.
struct TimedLaunch {
  int round = 0; ///< 1 coarse, 2 fine, 3 confirmation
  rt::CudaLaunch launch;
  double seconds = 0; ///< per step, the median of the round's repeats
};

struct SearchResult {
  rt::CudaLaunch pick;
  double pickSeconds = 0, defaultSeconds = 0; ///< round 3, per step
  bool keptDefaults = false;                  ///< the pick was not faster than the defaults
  std::vector<TimedLaunch> timings;           ///< every timing, in order
};

/// Seconds per step of `launch`, the median of `repeats` timings; nullopt if it
/// cannot be launched (more shared memory than the device allows).
using TimeLaunch = std::function<std::optional<double>(const rt::CudaLaunch &launch, int repeats)>;

/// The three rounds over `candidates` (the defaults among them or not),
/// within `budgetSeconds` for rounds 1 and 2.
inline SearchResult searchLaunches(const rt::CudaLaunchSpace &space,
                                   const std::vector<rt::CudaLaunch> &candidates,
                                   const rt::CudaLaunch &defaults, const TimeLaunch &time,
                                   double budgetSeconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  SearchResult result;
  std::set<rt::CudaLaunch> allowed(candidates.begin(), candidates.end());
  allowed.insert(defaults);

  // Times `list` once each in `round`, until `stopAt` seconds have passed; the timings.
  auto runRound = [&](int round, const std::vector<rt::CudaLaunch> &list, int repeats,
                      double stopAt) {
    std::map<rt::CudaLaunch, double> seconds;
    for (const rt::CudaLaunch &l : list) {
      if (!(l == defaults) && elapsed() >= stopAt)
        break;
      if (std::optional<double> s = time(l, repeats)) {
        seconds[l] = *s;
        result.timings.push_back({round, l, *s});
      }
    }
    return seconds;
  };
  auto fastest = [](const std::map<rt::CudaLaunch, double> &seconds, std::size_t n) {
    std::vector<std::pair<double, rt::CudaLaunch>> order;
    for (const auto &[l, s] : seconds)
      order.push_back({s, l});
    std::sort(order.begin(), order.end());
    std::vector<rt::CudaLaunch> out;
    for (std::size_t i = 0; i < order.size() && i < n; ++i)
      out.push_back(order[i].second);
    return out;
  };

  std::vector<rt::CudaLaunch> coarse = {defaults};
  for (const rt::CudaLaunch &l : candidates)
    if (!(l == defaults))
      coarse.push_back(l);
  const std::map<rt::CudaLaunch, double> round1 = runRound(1, coarse, 1, 0.6 * budgetSeconds);

  std::vector<rt::CudaLaunch> fine = {defaults};
  std::set<rt::CudaLaunch> seen = {defaults};
  for (const rt::CudaLaunch &best : fastest(round1, 3)) {
    std::vector<rt::CudaLaunch> near = space.neighbours(best);
    near.insert(near.begin(), best);
    for (const rt::CudaLaunch &l : near)
      if (allowed.count(l) && seen.insert(l).second)
        fine.push_back(l);
  }
  const std::map<rt::CudaLaunch, double> round2 = runRound(2, fine, 3, 0.9 * budgetSeconds);

  const std::vector<rt::CudaLaunch> best = fastest(round2, 1);
  result.pick = best.empty() ? defaults : best.front();
  // Round 3: the pick and the defaults in turn, so that drift hits both alike.
  std::vector<double> pickTimes, defaultTimes;
  for (int r = 0; r < 7; ++r)
    for (const rt::CudaLaunch *l : {static_cast<const rt::CudaLaunch *>(&result.pick), &defaults}) {
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
