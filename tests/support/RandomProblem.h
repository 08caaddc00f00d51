//===- RandomProblem.h - Random levels, index and tables for any kernel ----===//
//
// One random problem for any generated kernel (rt::KernelData), the same on
// every process that builds it: the distributed tests build it on each rank,
// and the time-tiling tests once per run they compare.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/KernelData.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace stencilc::kerneltest {

/// Random levels and coefficients (halos included, as a run reads them at the
/// boundary), index values below `tableColumns` hashed from the point, table
/// coefficients in [0, 1), scalars 0.25, and output interiors poisoned (NaN)
/// unless they share storage with an input (`inPlace`).
inline void fillRandomProblem(rt::KernelData &data, bool inPlace, int tableColumns) {
  const rt::KernelInfo &info = data.info();
  for (size_t f = 0; f < info.fields.size(); ++f) {
    const std::string role = info.fields[f].role;
    if (inPlace && info.fields[f].overwrites >= 0)
      continue;
    std::visit(
        [&](auto &g) {
          using T = typename std::decay_t<decltype(g)>::value_type;
          if constexpr (std::is_floating_point_v<T>) {
            g.fillRandom(100 + f, role == "in" ? T(0.5) : T(-1), role == "in" ? T(1.5) : T(1));
            if (role == "out")
              g.forEachInteriorPoint([&](int i, int j, int k) { g(i, j, k) = T(NAN); });
          } else {
            g.fillWith([&](int i, int j, int k) {
              return T((unsigned(i * 7 + j * 13 + k * 31 + 97) * 2654435761u >> 7) %
                       unsigned(tableColumns));
            });
          }
        },
        data.field(int(f)));
  }
  uint64_t seed = 7;
  auto fillTable = [&](auto &t) {
    for (int r = 0; r < t.rows(); ++r)
      for (int c = 0; c < t.cols(); ++c)
        t(r, c) =
            float(((seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 40) % 1000) /
            1000.0f;
  };
  for (size_t t = 0; t < info.tables.size(); ++t) {
    if (std::string(info.elemType) == "float")
      fillTable(data.table<float>(int(t)));
    else
      fillTable(data.table<double>(int(t)));
  }
  for (double &s : data.scalars())
    s = 0.25;
}

} // namespace stencilc::kerneltest
