//===- DistributedSupport.h - One global problem, and a rank's part of it --===//
//
// What the distributed tests share: every rank builds the same random global
// problem (rt::KernelData), takes its box and halo of it, and after the steps
// counts the points of its box whose bits differ from the global run's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "RandomProblem.h"

#include <stencilc/KernelData.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace stencilc::distributedtest {

using namespace stencilc::rt;

inline int tableColumns() { return 7; }

/// The global problem, the same on every rank (RandomProblem.h).
inline void fillGlobal(KernelData &data, bool inPlace) {
  kerneltest::fillRandomProblem(data, inPlace, tableColumns());
}

/// This rank's part of the global problem: its box and the halo around it.
/// Where a deep halo (DeepHaloKernel.h) reaches past the global grid's halo,
/// which no step reads, reals are NaN and integers 0.
inline void scatter(KernelData &global, KernelData &local, const Box &owned) {
  const KernelInfo &info = global.info();
  for (size_t f = 0; f < info.fields.size(); ++f)
    std::visit(
        [&](auto &l) {
          using G = std::decay_t<decltype(l)>;
          using T = typename G::value_type;
          const G &g = std::get<G>(global.field(int(f)));
          l.forEachPointWithHalo([&](int i, int j, int k) {
            const int x = i + owned.x0, y = j + owned.y0, z = k + owned.z0;
            const bool held = x >= -g.halo() && x < g.nx() + g.halo() && y >= -g.halo() &&
                              y < g.ny() + g.halo() && z >= -g.haloZ() && z < g.nz() + g.haloZ();
            if (held)
              l(i, j, k) = g(x, y, z);
            else if constexpr (std::is_floating_point_v<T>)
              l(i, j, k) = T(NAN);
            else
              l(i, j, k) = T(0);
          });
        },
        local.field(int(f)));
  // Tables are replicated: every rank holds all of them.
  auto copyTable = [](const auto &from, auto &to) {
    for (int r = 0; r < from.rows(); ++r)
      for (int c = 0; c < from.cols(); ++c)
        to(r, c) = from(r, c);
  };
  for (size_t t = 0; t < info.tables.size(); ++t) {
    if (std::string(info.elemType) == "float")
      copyTable(global.table<float>(int(t)), local.table<float>(int(t)));
    else
      copyTable(global.table<double>(int(t)), local.table<double>(int(t)));
  }
  local.scalars() = global.scalars();
}

/// Points of this rank's box whose bits differ from the global run's, over every level.
inline long long differences(KernelData &global, KernelData &local, const Box &owned) {
  const KernelInfo &info = global.info();
  long long differing = 0;
  for (size_t f = 0; f < info.fields.size(); ++f) {
    const std::string role = info.fields[f].role;
    if (role != "time" && role != "out")
      continue;
    std::visit(
        [&](auto &l) {
          using G = std::decay_t<decltype(l)>;
          const G &g = std::get<G>(global.field(int(f)));
          l.forEachInteriorPoint([&](int i, int j, int k) {
            auto a = l(i, j, k);
            auto b = g(i + owned.x0, j + owned.y0, k + owned.z0);
            differing += std::memcmp(&a, &b, sizeof a) != 0;
          });
        },
        local.field(int(f)));
  }
  return differing;
}

} // namespace stencilc::distributedtest
