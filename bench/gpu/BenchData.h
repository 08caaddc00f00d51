//===- BenchData.h - The GPU benchmark's timed data: fills and rotations ---===//
//
// What gpu-bench times on: every field filled as `stencilc bench` fills it
// (bounded values, small table coefficients), the index fields at random or
// from a smooth layered model (rt::fillLayered), and time levels that move on
// after every step, as a simulation's do, so that no two timed steps read the
// same storages in the same roles.
//
// The grids are large (4x the device's L2 at least: gigabytes), so the random
// fill runs plane by plane over the host's threads, each plane from its own
// seed: reproducible for a given shape and thread count alike.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/KernelData.h>
#include <stencilc/Random.h>
#include <stencilc/bench/LayeredIndex.h>

#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace stencilc::bench {

/// How the index fields are filled: uniformly at random over the table's columns, or from a
/// smooth layered model (runs of equal index along x, a few values per plane).
enum class IndexFill { Random, Layered };

/// Interior and halo of `grid` get uniform values in [lo, hi), plane by plane in parallel.
template <typename T> void fillRandomParallel(rt::Grid<T> &grid, std::uint64_t seed, T lo, T hi) {
  const int h = grid.halo(), hz = grid.haloZ();
  const int nx = grid.nx(), ny = grid.ny(), nz = grid.nz();
#pragma omp parallel for schedule(static)
  for (int k = -hz; k < nz + hz; ++k) {
    rt::RandomEngine rng(seed * 1000003u + std::uint64_t(k + hz));
    for (int j = -h; j < ny + h; ++j)
      for (int i = -h; i < nx + h; ++i) {
        if constexpr (std::is_floating_point_v<T>)
          grid(i, j, k) = T(rt::uniformReal(rng, double(lo), double(hi)));
        else
          grid(i, j, k) = T(rt::uniformInt(rng, std::int64_t(lo), std::int64_t(hi)));
      }
  }
}

/// Every field, table and scalar of `data` as the benchmark times them (`nd` table columns).
template <typename Real> void fillForTiming(rt::KernelData &data, int nd, IndexFill index) {
  const rt::KernelInfo &k = data.info();
  for (std::size_t f = 0; f < k.fields.size(); ++f) {
    const std::string role = k.fields[f].role;
    std::visit(
        [&](auto &grid) {
          using T = typename std::decay_t<decltype(grid)>::value_type;
          if (role == "index") {
            if (index == IndexFill::Random)
              fillRandomParallel(grid, 1000 + f, T(0), T(nd));
          } else if constexpr (std::is_floating_point_v<T>) {
            fillRandomParallel(grid, 1000 + f, role == "in" ? T(0.5) : T(-1),
                               role == "in" ? T(1.5) : T(1));
          }
        },
        data.field(int(f)));
  }
  if (index == IndexFill::Layered)
    rt::fillLayered(data, nd);
  for (std::size_t t = 0; t < k.tables.size(); ++t) {
    auto &table = data.table<Real>(int(t));
    table.fillRandom(77 + t, Real(-1) / Real(table.rows()), Real(1) / Real(table.rows()));
  }
  for (double &s : data.scalars())
    s = 0.5;
}

/// The time levels move on by one step in `fields` (field order), every field in a storage of
/// its own: the level a time field held goes to the level before it (or, with none, to the
/// output), the output's to the time field, and the storage nothing reads any more to the
/// output. rt::KernelData::rotate does the same on slots.
inline void rotateOneStep(const rt::KernelInfo &info, std::vector<rt::ErasedField> &fields) {
  for (std::size_t o = 0; o < info.fields.size(); ++o) {
    const rt::KernelFieldInfo &out = info.fields[o];
    if (out.advances < 0)
      continue;
    rt::ErasedField &O = fields[o], &F = fields[std::size_t(out.advances)];
    if (out.overwrites < 0) {
      std::swap(O, F);
      continue;
    }
    rt::ErasedField &G = fields[std::size_t(out.overwrites)];
    const rt::ErasedField oldest = G;
    G = F;
    F = O;
    O = oldest;
  }
}

/// The levels move on by the two steps of one two-step launch (runTwoSteps): each time field
/// takes the second step's level (in `second`, one per output in field order), the level
/// before it (if any) the first step's, and the output and the second storage the two that
/// nothing reads any more. The generated rotateTwoSteps does the same on its Args.
inline void rotateTwoSteps(const rt::KernelInfo &info, std::vector<rt::ErasedField> &fields,
                           std::vector<rt::ErasedField> &second) {
  std::size_t s = 0;
  for (std::size_t o = 0; o < info.fields.size(); ++o) {
    const rt::KernelFieldInfo &out = info.fields[o];
    if (std::string(out.role) != "out")
      continue;
    rt::ErasedField &S = second[s++];
    if (out.advances < 0)
      continue;
    rt::ErasedField &O = fields[o], &F = fields[std::size_t(out.advances)];
    const rt::ErasedField firstStep = O, secondStep = S, current = F;
    if (out.overwrites < 0) {
      F = secondStep;
      O = current;
      S = firstStep;
      continue;
    }
    rt::ErasedField &G = fields[std::size_t(out.overwrites)];
    const rt::ErasedField previous = G;
    G = firstStep;
    F = secondStep;
    O = previous;
    S = current;
  }
}

} // namespace stencilc::bench
