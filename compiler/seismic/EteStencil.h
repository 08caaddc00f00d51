//===- EteStencil.h - ETE fits for the tables of a stencil -----------------===//
//
// Connects the IR to the fit: the rows of a coefficient table declared as
// `table C[classes(S)]` (one row per symmetry class of point set S) or
// `table C[points(S)]` (one row per point) are the unknowns of the ETE fit
// (EteFit.h) for S's offsets. The fitted table is handed to kernels as an
// rt::CoefficientTable, or written as a .npy file of shape (rows, Nd) in C
// order: row r, column c at r * Nd + c, the runtime's row-major layout
// (TableLayout::RowMajor), so numpy.load gives C[row][column].
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "seismic/EteFit.h"

#include "stencilc/CoefficientTable.h"

#include <string>
#include <variant>

namespace stencilc::seismic {

/// The offsets of the point set table `table` follows, with one class per
/// table row; or a message saying why the table cannot be fitted.
std::variant<EtePoints, std::string> etePointsForTable(const ir::Stencil &stencil, int table);

/// The fitted coefficients as a rows x Nd table: element (class, velocity).
template <typename T>
rt::CoefficientTable<T> makeCoefficientTable(const EteFit &fit,
                                             rt::TableLayout layout = rt::TableLayout::RowMajor) {
  const int rows = int(fit.coefficients.at(0).size()), cols = int(fit.coefficients.size());
  rt::CoefficientTable<T> table(rows, cols, layout);
  for (int v = 0; v < cols; ++v)
    for (int r = 0; r < rows; ++r)
      table(r, v) = T(fit.coefficients[v][r]);
  return table;
}

/// Writes the table as .npy, shape (rows, Nd), elements of `type`.
/// Throws std::runtime_error if the file cannot be written.
void writeTableNpy(const EteFit &fit, ir::ElemType type, const std::string &path);

} // namespace stencilc::seismic
