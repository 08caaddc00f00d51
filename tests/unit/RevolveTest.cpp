//===- RevolveTest.cpp - Binomial checkpointing schedules ------------------===//
//
// Every schedule is replayed on integer states: each action must find the
// state it claims, slots hold what was stored in them, the turns come in
// order n, n−1, …, 1, each from the state just before it, and the forward
// steps number exactly Revolve's t·n − β(s+1, t−1), which a brute-force
// dynamic programme over all checkpoint placements confirms for small n.
//
//===----------------------------------------------------------------------===//
#include "stencilc/timeloop/Revolve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace rt = stencilc::rt;

namespace {

struct Replay {
  long long advances = 0; ///< forward steps outside the turns
  int turns = 0;
  int restores = 0;
  int slotsUsed = 0; ///< highest slot index + 1
};

/// Replays `schedule` for n steps and s slots, failing the test on any
/// inconsistency.
Replay replay(const std::vector<rt::RevolveStep> &schedule, int n, int s) {
  Replay r;
  std::vector<int> slot(size_t(s), -1);
  int current = 0;
  int nextTurn = n;
  for (size_t a = 0; a < schedule.size(); ++a) {
    const rt::RevolveStep &step = schedule[a];
    SCOPED_TRACE(testing::Message() << "action " << a << " (" << rt::revolveActionName(step.action)
                                    << " " << step.state << ")");
    switch (step.action) {
    case rt::RevolveAction::Advance:
      EXPECT_EQ(step.from, current);
      EXPECT_GT(step.state, step.from);
      EXPECT_LT(step.state, nextTurn) << "advances past the next step to reverse";
      r.advances += step.state - step.from;
      current = step.state;
      break;
    case rt::RevolveAction::Takeshot:
      EXPECT_EQ(step.state, current);
      EXPECT_GE(step.slot, 0);
      EXPECT_LT(step.slot, s);
      if (step.slot >= 0 && step.slot < s)
        slot[size_t(step.slot)] = current;
      r.slotsUsed = std::max(r.slotsUsed, step.slot + 1);
      break;
    case rt::RevolveAction::Restore:
      EXPECT_GE(step.slot, 0);
      EXPECT_LT(step.slot, s);
      if (step.slot >= 0 && step.slot < s)
        EXPECT_EQ(slot[size_t(step.slot)], step.state) << "slot " << step.slot;
      current = step.state;
      ++r.restores;
      break;
    case rt::RevolveAction::Firsturn:
    case rt::RevolveAction::Youturn:
      EXPECT_EQ(step.action == rt::RevolveAction::Firsturn, r.turns == 0);
      EXPECT_EQ(step.state, nextTurn);
      EXPECT_EQ(current, step.state - 1) << "a turn needs the state before its step";
      current = step.state;
      --nextTurn;
      ++r.turns;
      break;
    }
  }
  EXPECT_EQ(r.turns, n);
  EXPECT_EQ(nextTurn, 0);
  return r;
}

/// The fewest advances over every placement of checkpoints (the recursion
/// Revolve's formula solves): reverse l steps with s slots, the first
/// holding the chain's start.
long long bruteForce(int l, int s, std::map<std::pair<int, int>, long long> &memo) {
  if (l <= 1)
    return 0;
  if (s == 1)
    return (long long)l * (l - 1) / 2;
  auto [it, fresh] = memo.try_emplace({l, s}, 0);
  if (!fresh)
    return it->second;
  long long best = -1;
  for (int m = 1; m < l; ++m) {
    const long long cost = m + bruteForce(l - m, s - 1, memo) + bruteForce(m, s, memo);
    if (best < 0 || cost < best)
      best = cost;
  }
  memo[{l, s}] = best;
  return best;
}

TEST(Revolve, BinomialIsPascalsTriangle) {
  EXPECT_EQ(rt::revolveBeta(0, 0), 1u);
  EXPECT_EQ(rt::revolveBeta(2, 3), 10u);
  EXPECT_EQ(rt::revolveBeta(3, 2), 10u);
  EXPECT_EQ(rt::revolveBeta(5, -1), 0u);
  for (int s = 1; s < 30; ++s)
    for (int t = 1; t < 30; ++t)
      EXPECT_EQ(rt::revolveBeta(s, t), rt::revolveBeta(s - 1, t) + rt::revolveBeta(s, t - 1));
  EXPECT_EQ(rt::revolveBeta(60, 60), UINT64_MAX) << "saturates instead of overflowing";
}

TEST(Revolve, FormulaIsTheBruteForceOptimum) {
  std::map<std::pair<int, int>, long long> memo;
  for (int s = 1; s <= 8; ++s)
    for (int n = 1; n <= 160; ++n)
      ASSERT_EQ(rt::revolveMinimalAdvances(n, s), bruteForce(n, s, memo))
          << n << " steps, " << s << " slots";
}

TEST(Revolve, ScheduleTakesTheMinimalStepsForManySizes) {
  for (int s = 1; s <= 12; ++s)
    for (int n = 1; n <= 300; n += (n < 40 ? 1 : 7)) {
      SCOPED_TRACE(testing::Message() << n << " steps, " << s << " slots");
      const auto schedule = rt::revolveSchedule(n, s);
      ASSERT_FALSE(schedule.empty());
      EXPECT_EQ(schedule.front().action, rt::RevolveAction::Takeshot);
      EXPECT_EQ(schedule.front().state, 0);
      const Replay r = replay(schedule, n, s);
      EXPECT_EQ(r.advances, rt::revolveMinimalAdvances(n, s));
      EXPECT_LE(r.slotsUsed, s);
    }
}

TEST(Revolve, LargeRunsStayOptimal) {
  // Sizes of the RTM example and beyond: thousands of steps, tens of slots.
  for (auto [n, s] : {std::pair{1000, 10}, {2500, 20}, {4000, 7}, {3000, 64}, {777, 3}}) {
    SCOPED_TRACE(testing::Message() << n << " steps, " << s << " slots");
    const Replay r = replay(rt::revolveSchedule(n, s), n, s);
    EXPECT_EQ(r.advances, rt::revolveMinimalAdvances(n, s));
  }
}

TEST(Revolve, KnownCounts) {
  // Enough slots for every state: one pass forward, no recomputation.
  EXPECT_EQ(rt::revolveMinimalAdvances(50, 50), 49);
  EXPECT_EQ(rt::revolveMinimalAdvances(50, 200), 49);
  // One slot: from the start to every step in turn, n(n−1)/2.
  EXPECT_EQ(rt::revolveMinimalAdvances(10, 1), 45);
  // β(3, 2) = 10 steps with 3 slots: each step advanced at most twice,
  // 2·10 − β(4, 1) = 15.
  EXPECT_EQ(rt::revolveRepetitions(10, 3), 2);
  EXPECT_EQ(rt::revolveMinimalAdvances(10, 3), 15);
}

TEST(Revolve, RefusesEmptyRunsAndNoSlots) {
  EXPECT_THROW(rt::revolveSchedule(0, 4), std::invalid_argument);
  EXPECT_THROW(rt::revolveSchedule(10, 0), std::invalid_argument);
  EXPECT_THROW(rt::revolveRepetitions(10, 0), std::invalid_argument);
  try {
    rt::revolveSchedule(-3, 2);
    FAIL();
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("-3 steps"), std::string::npos) << e.what();
  }
}

} // namespace
