//===- CostModel.cpp ------------------------------------------------------===//
#include "analysis/CostModel.h"

#include <vector>

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
  case Kind::Call:
  case Kind::Min:
  case Kind::Max:
  case Kind::Compare: flops = 1; break;
  default: break;
  }
  for (const ir::ExprPtr &op : e.operands)
    flops += expressionFlops(*op);
  return flops;
}

int updateFlops(const LinearForm &form) {
  std::vector<int> all;
  for (size_t g = 0; g < form.groups.size(); ++g)
    all.push_back(int(g));
  return groupsFlops(form, all, true);
}

int groupsFlops(const LinearForm &form, const std::vector<int> &groups, bool withPointwise) {
  int flops = 0;
  bool first = true;
  for (const std::vector<int> &partition : partitionGroupsByFactors(form, groups)) {
    const std::vector<ir::ExprPtr> &factors =
        form.terms[form.groups[partition[0]].terms[0]].factors;
    for (int g : partition) {
      const CoefGroup &group = form.groups[g];
      flops += int(group.terms.size()) - 1;                           // add the group's points
      flops += group.coef.isOne() || group.coef.isMinusOne() ? 0 : 1; // apply its constant
    }
    flops += int(partition.size()) - 1; // add the groups of the partition
    for (const ir::ExprPtr &factor : factors)
      flops += expressionFlops(*factor) + 1; // evaluate the factor, multiply it in
    if (!first)
      flops += 1; // into the running sum
    first = false;
  }
  if (withPointwise && form.pointwise)
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
