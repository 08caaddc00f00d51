//===- CExpr.h - Coefficient expressions as C++/CUDA text ------------------===//
//
// The factors and pointwise parts of a linear form (ir/linear/LinearForm.h) use a
// small vocabulary: numbers, scalars, `in` fields at offsets, table lookups
// with a concrete row, arithmetic and pointwise functions. The CPU and CUDA
// emitters print them with this one walk and differ only in how they spell
// the leaves (CExprNames).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <functional>
#include <string>

namespace stencilc::backend {

/// How an emitter spells the leaves of an expression.
struct CExprNames {
  std::function<std::string(int scalar)> scalar;
  std::function<std::string(int field, const ir::Offset &offset)> field;
  std::function<std::string(int table, int row, int indexField)> table;
};

/// `e` as a C++ expression of type Real (the generated files' element typedef).
std::string printCExpr(const ir::Expr &e, const CExprNames &names);

/// A numeric coefficient as a Real constant: `Real(2)`, `Real(-205.0 / 72.0)`,
/// or the shortest round-tripping decimal when it is not exact.
std::string realLiteral(const Coefficient &c);

/// `Real(c) * f1 * f2 ...`, leaving out a factor of 1 and folding a -1 into a
/// leading minus; `1` when there is nothing at all.
std::string coefficientProduct(const Coefficient &c, const std::vector<std::string> &factors);

} // namespace stencilc::backend
