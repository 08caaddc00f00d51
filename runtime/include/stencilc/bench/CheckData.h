//===- CheckData.h - The inputs `stencilc` writes for a harness's check ----===//
//
// `stencilc bench` and `stencilc tune` check every kernel they time against
// the reference evaluator: they write the reference's inputs on a small odd
// grid into a folder, a harness runs the kernel on them and writes its
// outputs back as .npy, and `stencilc` compares. The folder holds
//   shape.txt           "NX NY NZ HALO TABLE_COLUMNS"
//   in_F.npy            field F (every field but the outputs), halo included
//   table_T.npy         table T, one row per column of the table
//   scalars.txt         the scalars, in the kernel's order
// This is the harness's side: reading them into a rt::KernelData.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/KernelData.h>
#include <stencilc/io/Npy.h>

#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

namespace stencilc::rt {

/// The check data in `dir` for kernel `k`, with element type `Real`; outputs unset.
template <typename Real>
std::unique_ptr<KernelData> readCheckData(const KernelInfo &k, const std::string &dir) {
  std::ifstream shapeFile(dir + "/shape.txt");
  GridShape shape;
  int cols = 0;
  shapeFile >> shape.nx >> shape.ny >> shape.nz >> shape.halo >> cols;
  shape.dims = k.dims;
  if (!shapeFile)
    throw std::runtime_error("cannot read " + dir + "/shape.txt");
  auto data = std::make_unique<KernelData>(k, shape, cols, /*inPlace=*/false);
  const int h = shape.halo, hz = k.dims == 3 ? h : 0;
  GridShape box{k.dims, shape.nx + 2 * h, shape.ny + 2 * h, shape.nz + 2 * hz, 0};
  for (std::size_t f = 0; f < k.fields.size(); ++f) {
    if (std::string(k.fields[f].role) == "out")
      continue;
    std::visit(
        [&](auto &grid) {
          using T = typename std::decay_t<decltype(grid)>::value_type;
          Grid<T> whole(box);
          readNpyInto(whole, dir + "/in_" + std::to_string(f) + ".npy");
          // whole(i + h, ...) is grid(i, ...).
          grid.forEachPointWithHalo(
              [&](int i, int j, int kk) { grid(i, j, kk) = whole(i + h, j + h, kk + hz); });
        },
        data->field(int(f)));
  }
  for (std::size_t t = 0; t < k.tables.size(); ++t) {
    Grid<Real> values(GridShape{2, cols, k.tables[t].rows, 1, 0});
    readNpyInto(values, dir + "/table_" + std::to_string(t) + ".npy");
    auto &table = data->template table<Real>(int(t));
    for (int r = 0; r < table.rows(); ++r)
      for (int c = 0; c < cols; ++c)
        table(r, c) = values(c, r);
  }
  std::ifstream scalarFile(dir + "/scalars.txt");
  for (double &s : data->scalars())
    scalarFile >> s;
  return data;
}

} // namespace stencilc::rt
