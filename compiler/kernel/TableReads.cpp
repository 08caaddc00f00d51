//===- TableReads.cpp -----------------------------------------------------===//
#include "kernel/TableReads.h"
#include "passes/Pipeline.h"

#include <algorithm>

namespace stencilc::kernel {

namespace {
void addExpr(const ir::Expr &e, ColumnRows &columns) {
  if (e.kind == ir::Expr::Kind::TableRef) {
    auto [it, fresh] = columns.try_emplace({e.id, e.indexField}, e.row, e.row);
    it->second.first = std::min(it->second.first, e.row);
    it->second.second = std::max(it->second.second, e.row);
  }
  for (const ir::ExprPtr &op : e.operands)
    addExpr(*op, columns);
}
} // namespace

void addTableReads(const LinearForm &form, const std::vector<int> &groups, bool pointwise,
                   ColumnRows &columns) {
  for (int g : groups)
    for (int t : form.groups[g].terms)
      for (const ir::ExprPtr &f : form.terms[t].factors)
        addExpr(*f, columns);
  if (pointwise && form.pointwise)
    addExpr(*form.pointwise, columns);
}

} // namespace stencilc::kernel
