//===- ExprVisitor.h - Walks of an expression tree ------------------------===//
//
// The one recursion over ir::Expr that the passes, the lowering and the
// analyses need: each node, then its operands in order (pre-order), as the
// expression reads left to right. Callers pick the nodes they care about
// (table lookups, field reads) in the callback.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

namespace stencilc::ir {

/// Calls `visit(node)` on `e` and every expression under it, pre-order.
template <typename Visit> void forEachExpr(const Expr &e, Visit &&visit) {
  visit(e);
  for (const ExprPtr &op : e.operands)
    forEachExpr(*op, visit);
}

/// Does `pred(node)` hold for `e` or any expression under it?
template <typename Pred> bool anyExpr(const Expr &e, Pred &&pred) {
  if (pred(e))
    return true;
  for (const ExprPtr &op : e.operands)
    if (anyExpr(*op, pred))
      return true;
  return false;
}

} // namespace stencilc::ir
