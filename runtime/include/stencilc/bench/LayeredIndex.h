//===- LayeredIndex.h - Index fields from a smooth layered model ----------===//
//
// Real velocity models are layered, so the per-point index into a
// coefficient table (one column per velocity) comes in runs of equal values
// along x and a few values per depth plane. Benchmarks fill index fields this
// way beside the uniform random fill, which is the worst case for the table
// gathers: the CPU bench harness (`stencilc bench --index layered`) and the
// GPU benchmark (bench/gpu) use the same model.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/KernelData.h"
#include "stencilc/abi/LayeredColumn.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

namespace stencilc::rt {

/// Index fields of `data` from a smooth layered model over `nd` values: the value grows with
/// depth (z in 3D, y in 2D), the layers gently dipping and undulating along x and y, as a
/// velocity model's column would. Other fields are left alone.
inline void fillLayered(KernelData &data, int nd) {
  const KernelInfo &k = data.info();
  for (std::size_t f = 0; f < k.fields.size(); ++f) {
    if (std::string(k.fields[f].role) != "index")
      continue;
    std::visit(
        [&](auto &grid) {
          using T = typename std::decay_t<decltype(grid)>::value_type;
          if constexpr (std::is_integral_v<T>) {
            const double nx = grid.nx(), ny = grid.ny(), depth = k.dims == 3 ? grid.nz() : ny;
            grid.fillWith([&](int i, int j, int kk) {
              return T(layeredColumn(i, j, k.dims == 3 ? kk : j, nx, ny, depth, nd));
            });
          }
        },
        data.field(int(f)));
  }
}

} // namespace stencilc::rt
