//===- TableReads.cpp -----------------------------------------------------===//
#include "kernel/TableReads.h"
#include "ir/ExprVisitor.h"

#include <algorithm>

namespace stencilc::kernel {

namespace {
void addExpr(const ir::Expr &e, ColumnRows &columns) {
  ir::forEachExpr(e, [&](const ir::Expr &n) {
    if (n.kind != ir::Expr::Kind::TableRef)
      return;
    auto [it, fresh] = columns.try_emplace({n.id, n.indexField}, n.row, n.row);
    it->second.first = std::min(it->second.first, n.row);
    it->second.second = std::max(it->second.second, n.row);
  });
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
