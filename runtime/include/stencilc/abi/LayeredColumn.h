//===- LayeredColumn.h - The column a layered model gives a grid point -----===//
//
// One formula, shared by the runtime and the compiler (hence abi/), for the
// layered index fields of the benchmarks (bench/LayeredIndex.h fills them with
// it) and of the GPU model (compiler/analysis/GpuTraffic.cpp counts the
// gathers it causes): the value grows with depth, the layers
// dipping and undulating along x and y, so that a row holds runs of equal
// columns and a plane a few values.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cmath>

namespace stencilc::rt {

/// The column of point (i, j) at depth `z` (the z index in 3D, j in 2D) of an
/// nx x ny grid `depth` deep, over `nd` columns.
inline int layeredColumn(double i, double j, double z, double nx, double ny, double depth, int nd) {
  const double surface = 0.08 * depth * (std::sin(6.2832 * i / nx) * 0.5 + j / ny * 0.5);
  const double v = std::clamp((z + surface) / (1.1 * depth), 0.0, 1.0);
  return std::min(nd - 1, int(v * nd));
}

} // namespace stencilc::rt
