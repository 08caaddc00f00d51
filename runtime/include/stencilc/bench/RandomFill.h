//===- RandomFill.h - The random values benchmarks give each kind of field -===//
//
// One rule for `stencilc bench` (BenchHarness.cpp) and `stencilc emulate`
// (EmulateHarness.cpp), so that both time and count kernels on the same data:
// index values uniform in [0, nd), inputs in [0.5, 1.5) (velocities,
// densities: away from zero), time levels and outputs in [-1, 1).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/KernelData.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

namespace stencilc::rt {

/// Fills `field`, of the role the kernel's field table names ("index", "in",
/// "time", "out"), from `seed`.
inline void fillRole(AnyGrid &field, const std::string &role, std::uint64_t seed, int nd) {
  std::visit(
      [&](auto &grid) {
        using T = typename std::decay_t<decltype(grid)>::value_type;
        if (role == "index")
          grid.fillRandom(seed, T(0), T(nd));
        else if constexpr (std::is_floating_point_v<T>) {
          if (role == "in")
            grid.fillRandom(seed, T(0.5), T(1.5));
          else
            grid.fillRandom(seed, T(-1), T(1));
        }
      },
      field);
}

} // namespace stencilc::rt
