//===- CostModel.cpp ------------------------------------------------------===//
#include "analysis/CostModel.h"

namespace stencilc::analysis {

using Kind = ir::Expr::Kind;

int expressionFlops(const ir::Expr &e) {
  int flops = 0;
  switch (e.kind) {
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::Div:
  case Kind::Neg:
  case Kind::Call: flops = 1; break;
  default: break;
  }
  for (const ir::ExprPtr &op : e.operands)
    flops += expressionFlops(*op);
  return flops;
}

int updateFlops(const LinearForm &form) {
  int flops = 0;
  bool first = true;
  for (const CoefGroup &group : form.groups) {
    const Term &lead = form.terms[group.terms[0]];
    flops += int(group.terms.size()) - 1; // add the points of the group
    int multiplicands = int(lead.factors.size()) + (group.coef.isOne() || group.coef.isMinusOne() ? 0 : 1);
    flops += multiplicands; // form the coefficient and apply it to the sum
    for (const ir::ExprPtr &factor : lead.factors)
      flops += expressionFlops(*factor);
    if (!first)
      flops += 1; // into the running sum
    first = false;
  }
  if (form.pointwise)
    flops += expressionFlops(*form.pointwise) + (first ? 0 : 1);
  return flops;
}

int stencilFlops(const LinearStencil &linear) {
  int flops = 0;
  for (const LinearForm &form : linear.updates)
    flops += updateFlops(form);
  return flops;
}

int compulsoryBytes(const ir::Stencil &s) {
  int bytes = 0;
  for (const ir::Field &f : s.fields)
    bytes += f.role == ir::FieldRole::Index ? ir::indexTypeBytes(f.indexType)
                                            : ir::elemTypeBytes(s.elemType);
  return bytes;
}

} // namespace stencilc::analysis
