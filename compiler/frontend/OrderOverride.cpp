//===- OrderOverride.cpp - Re-derive a stencil's derivative sugar at an order ===//
#include "frontend/OrderOverride.h"

#include "frontend/ParserImpl.h"
#include "ir/Printer.h"

#include <fmt/format.h>

#include <functional>

namespace stencilc {

using ir::Expr;

bool overrideOrder(ir::Stencil &stencil, int order, DiagnosticEngine &diag) {
  int derivatives = 0;
  const Expr *handWritten = nullptr; // the first read away from the centre that is not sugar
  std::function<void(Expr &)> walk = [&](Expr &e) {
    if (e.kind == Expr::Kind::Deriv) {
      e.order = order;
      ++derivatives;
    } else if (e.kind == Expr::Kind::FieldRef && !handWritten &&
               (e.sumVar >= 0 || ir::offsetNonZeros(e.offset) > 0)) {
      handWritten = &e;
    }
    for (ir::ExprPtr &op : e.operands)
      walk(*op);
  };
  for (ir::Update &u : stencil.updates)
    walk(*u.rhs);
  if (derivatives == 0) {
    diag.error(stencil.loc,
               stencil.order
                   ? fmt::format("stencil '{}' declares 'order {}' but has no derivative sugar "
                                 "(laplacian, dxx, dxy, ...): its points are written by hand, so "
                                 "--orders cannot re-derive it at another order",
                                 stencil.name, stencil.order)
                   : fmt::format("stencil '{}' has neither 'order N' nor derivative sugar "
                                 "(laplacian, dxx, dxy, ...): --orders has nothing to re-derive",
                                 stencil.name));
    return false;
  }
  if (handWritten) {
    const Expr &e = *handWritten;
    std::string what = e.sumVar >= 0
                           ? fmt::format("'{}' read through a point set", stencil.fields[e.id].name)
                           : fmt::format("'{}{}'", stencil.fields[e.id].name,
                                         ir::offsetToString(stencil, e.offset));
    diag.error(e.loc, what + " is written by hand, not derivative sugar: --orders would "
                             "re-derive the sugar and leave this read as it is, so it refuses "
                             "the stencil");
    return false;
  }
  if (stencil.order) {
    stencil.order = order;
    stencil.radius = order / 2;
  }
  return true;
}

int maxAccuracyOrder() { return parser_detail::kMaxOrder; }

} // namespace stencilc
