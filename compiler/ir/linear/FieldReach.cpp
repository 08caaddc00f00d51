//===- FieldReach.cpp -----------------------------------------------------===//
#include "ir/linear/FieldReach.h"

#include "stencilc/abi/Neighbours.h"

#include <algorithm>

namespace stencilc {

namespace {

void addRead(FieldReach &r, const ir::Offset &o) {
  for (int axis = 0; axis < 3; ++axis) {
    r.minus[axis] = std::max(r.minus[axis], -o[axis]);
    r.plus[axis] = std::max(r.plus[axis], o[axis]);
  }
  r.zOffsets.insert(o[2]);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int d[3] = {dx, dy, dz};
        bool reaches = dx || dy || dz;
        for (int axis = 0; axis < 3; ++axis)
          if (d[axis] && (o[axis] == 0 || (o[axis] > 0) != (d[axis] > 0)))
            reaches = false;
        if (reaches)
          r.neighbours |= std::uint32_t(1) << rt::neighbourBit(dx, dy, dz);
      }
}

void addExpr(const ir::Expr &e, std::vector<FieldReach> &reaches) {
  if (e.kind == ir::Expr::Kind::FieldRef)
    addRead(reaches[e.id], e.offset);
  if (e.kind == ir::Expr::Kind::TableRef && e.indexField >= 0)
    addRead(reaches[e.indexField], {0, 0, 0});
  for (const ir::ExprPtr &op : e.operands)
    addExpr(*op, reaches);
}

void addTerm(const Term &t, std::vector<FieldReach> &reaches) {
  addRead(reaches[t.field], t.offset);
  for (const ir::ExprPtr &f : t.factors)
    addExpr(*f, reaches);
}

} // namespace

std::vector<FieldReach> fieldReaches(const ir::Stencil &s, const LinearStencil &linear) {
  std::vector<FieldReach> reaches(s.fields.size());
  for (const LinearForm &form : linear.updates) {
    for (const Term &t : form.terms)
      addTerm(t, reaches);
    if (form.pointwise)
      addExpr(*form.pointwise, reaches);
  }
  return reaches;
}

std::vector<FieldReach> fieldReaches(const ir::Stencil &s, const LinearStencil &linear,
                                     const std::vector<std::vector<int>> &groupsOf) {
  std::vector<FieldReach> reaches(s.fields.size());
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    if (u < groupsOf.size())
      for (int g : groupsOf[u])
        for (int t : form.groups[g].terms)
          addTerm(form.terms[t], reaches);
    if (form.pointwise)
      addExpr(*form.pointwise, reaches);
  }
  return reaches;
}

} // namespace stencilc
