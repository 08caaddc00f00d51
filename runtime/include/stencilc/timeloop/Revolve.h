//===- Revolve.h - Optimal checkpointing of a time-stepping reversal -------===//
//
// Reverse-time migration and adjoint methods run a time loop backwards: the
// adjoint step i needs the forward state after step i - 1 (docs/SEISMIC.md
// §Reverse-time migration). Keeping every state costs n copies of the field;
// Griewank and Walther's binomial checkpointing (Revolve, ACM TOMS 26(1),
// 2000, Algorithm 799) keeps s of them and recomputes the rest, with the
// fewest forward steps any schedule with s slots can take:
//
//   advances(n, s) = t·n − β(s + 1, t − 1),  β(s, t) = (s + t)! / (s! t!),
//
// where t, the repetition number, is the least with β(s, t) ≥ n. Here the s
// slots include the one holding the initial state, and the forward step that
// immediately precedes each adjoint step (a "turn") is not an advance: a
// reversal takes advances(n, s) + n forward steps and n adjoint steps.
//
// revolveSchedule(n, s) lists the actions; a caller replays them on its own
// states (RevolveTest replays them on integers and counts).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace stencilc::rt {

enum class RevolveAction {
  Advance,  ///< step the forward state from `from` to `state` (state − from steps)
  Takeshot, ///< store the current state (`state`) in `slot`
  Restore,  ///< make the state stored in `slot` (`state`) the current one
  Firsturn, ///< the first turn: forward step `state` from state − 1, then adjoint step `state`
  Youturn,  ///< every later turn, the same
};

inline const char *revolveActionName(RevolveAction a) {
  switch (a) {
  case RevolveAction::Advance: return "advance";
  case RevolveAction::Takeshot: return "takeshot";
  case RevolveAction::Restore: return "restore";
  case RevolveAction::Firsturn: return "firsturn";
  case RevolveAction::Youturn: return "youturn";
  }
  return "?";
}

struct RevolveStep {
  RevolveAction action;
  int state = 0; ///< the state the action leaves current (a turn: the step it reverses)
  int slot = -1; ///< Takeshot, Restore
  int from = 0;  ///< Advance: the state it starts from
};

/// β(s, t) = C(s + t, s), saturating at UINT64_MAX; 0 for t < 0.
inline uint64_t revolveBeta(int s, int t) {
  if (t < 0 || s < 0)
    return 0;
  // C(s + t, k) for k = 1..min(s, t), each an exact integer.
  const int k = s < t ? s : t;
  const int n = s + t;
  uint64_t c = 1;
  for (int i = 1; i <= k; ++i) {
    const uint64_t factor = uint64_t(n - k + i);
    if (c > std::numeric_limits<uint64_t>::max() / factor)
      return std::numeric_limits<uint64_t>::max();
    c = c * factor / uint64_t(i); // exact: c·(n−k+i) = C(n−k+i, i)·i
  }
  return c;
}

/// The repetition number: the least t with β(s, t) ≥ n (0 for n ≤ 1).
inline int revolveRepetitions(long long n, int s) {
  if (s < 1 && n > 1)
    throw std::invalid_argument("revolve: no slot to reverse " + std::to_string(n) + " steps with");
  int t = 0;
  while (revolveBeta(s, t) < uint64_t(n))
    ++t;
  return t;
}

/// The fewest forward steps (turns not counted) that reverse n steps with s
/// slots, the initial state's included: t·n − β(s + 1, t − 1).
inline long long revolveMinimalAdvances(long long n, int s) {
  if (n < 1 || s < 1)
    throw std::invalid_argument("revolve: needs at least one step and one slot (got " +
                                std::to_string(n) + " steps, " + std::to_string(s) + " slots)");
  const int t = revolveRepetitions(n, s);
  return t * n - (long long)revolveBeta(s + 1, t - 1);
}

namespace detail {

/// Where to take the next checkpoint in a chain of l > 1 steps with s ≥ 2
/// slots: an optimal split m (m + advances(l − m, s − 1) + advances(m, s) is
/// minimal), the largest that Griewank's bounds allow.
inline int revolveSplit(int l, int s) {
  const int t = revolveRepetitions(l, s);
  auto capped = [](uint64_t v) {
    return v > uint64_t(1) << 40 ? (long long)1 << 40 : (long long)v;
  };
  long long m = capped(revolveBeta(s, t - 1));
  m = std::min<long long>(m, l - capped(revolveBeta(s - 1, t - 1)));
  m = std::min<long long>(m, l - 1);
  return int(std::max<long long>(m, 1));
}

class RevolveBuilder {
public:
  explicit RevolveBuilder(std::vector<RevolveStep> &out) : out_(out) {}

  /// Reverses steps start+1 .. start+l; the current state is `start`, held
  /// in `slot`, and slots slot .. slot+s−1 are this call's.
  void reverse(int start, int l, int s, int slot) {
    for (;;) {
      if (l > 1 && s > 1) {
        // Checkpoint state start + m, reverse the tail with one slot fewer,
        // then the head [start, start + m] with every slot again.
        const int m = revolveSplit(l, s);
        advance(start, start + m);
        out_.push_back({RevolveAction::Takeshot, start + m, slot + 1, 0});
        reverse(start + m, l - m, s - 1, slot + 1);
        l = m;
      } else {
        // One slot (or one step): walk up to the last step's start and turn.
        advance(start, start + l - 1);
        turn(start + l);
        l -= 1;
      }
      if (l == 0)
        return;
      out_.push_back({RevolveAction::Restore, start, slot, 0});
    }
  }

private:
  void advance(int from, int to) {
    if (to > from)
      out_.push_back({RevolveAction::Advance, to, -1, from});
  }
  void turn(int step) {
    out_.push_back({first_ ? RevolveAction::Firsturn : RevolveAction::Youturn, step, -1, step - 1});
    first_ = false;
  }

  std::vector<RevolveStep> &out_;
  bool first_ = true;
};

} // namespace detail

/// The actions that reverse `steps` steps with `slots` checkpoint slots
/// (the initial state's included): first Takeshot of state 0 in slot 0, then
/// advances, checkpoints, restores and turns, the turns in order steps,
/// steps − 1, …, 1. Slots are used last-in first-out, 0 .. slots − 1. Throws
/// std::invalid_argument naming the value for steps < 1 or slots < 1.
inline std::vector<RevolveStep> revolveSchedule(int steps, int slots) {
  revolveMinimalAdvances(steps, slots); // validates
  std::vector<RevolveStep> out;
  out.push_back({RevolveAction::Takeshot, 0, 0, 0});
  detail::RevolveBuilder(out).reverse(0, steps, slots, 0);
  return out;
}

} // namespace stencilc::rt
