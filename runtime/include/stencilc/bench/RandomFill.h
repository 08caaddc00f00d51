//===- RandomFill.h - The random values benchmarks give each kind of field -===//
//
// One rule for `stencilc bench` (BenchHarness.cpp), `stencilc emulate`
// (EmulateHarness.cpp) and `stencilc tune --backend cuda` (TuneHarness.cpp),
// so that they time and count kernels on the same data: index values uniform
// in [0, nd), inputs in [0.5, 1.5) (velocities, densities: away from zero),
// time levels and outputs in [-1, 1), table coefficients in ±1/rows, scalars 0.5.
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

/// Every field of `data` by its role, its tables (element type `Real`) with small
/// coefficients, which keep repeated in-place steps bounded, and its scalars.
template <typename Real> void fillForBench(KernelData &data, int nd) {
  const KernelInfo &k = data.info();
  for (std::size_t f = 0; f < k.fields.size(); ++f)
    fillRole(data.field(int(f)), k.fields[f].role, 1000 + f, nd);
  for (std::size_t t = 0; t < k.tables.size(); ++t) {
    auto &table = data.template table<Real>(int(t));
    table.fillRandom(77 + t, Real(-1) / Real(table.rows()), Real(1) / Real(table.rows()));
  }
  for (double &s : data.scalars())
    s = 0.5;
}

} // namespace stencilc::rt
