//===- Random.h - Reproducible random numbers for test data ---------------===//
//
// Grids and tables filled "at random" must hold the same values on every
// machine and compiler, so that a failure seen in CI reproduces locally. The
// std:: distributions are implementation-defined; std::mt19937_64's sequence
// is not, so the values are derived from its raw output here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <random>

namespace stencilc::rt {

using RandomEngine = std::mt19937_64;

/// Uniform in [0, 1) with 53 random bits.
inline double uniformUnit(RandomEngine &rng) { return double(rng() >> 11) * 0x1.0p-53; }

/// Uniform in [lo, hi).
inline double uniformReal(RandomEngine &rng, double lo, double hi) {
  return lo + (hi - lo) * uniformUnit(rng);
}

/// Uniform integer in [lo, hi), hi > lo. The modulo bias is below 2^-32 for
/// the spans test data uses, and keeps the mapping obvious.
inline int64_t uniformInt(RandomEngine &rng, int64_t lo, int64_t hi) {
  return lo + int64_t(rng() % uint64_t(hi - lo));
}

} // namespace stencilc::rt
