//===- VectorBlocks.cpp - Whole vector blocks and shifted rows of CPU rows -===//
//
// The two decisions the CPU lowering makes after it has built a row
// function's x loop (docs/DESIGN.md §Kernel IR):
//
//  - whole blocks: the loop runs blocks of kW points on rt::Vec values, the
//    last, shorter block as a point loop, where the body is vector arithmetic
//    and either stages its own table coefficients (the blocks keep them in
//    registers) or has a row to cut from whole vectors. Other bodies without
//    tables run no faster in blocks than as an `omp simd` point loop
//    (docs/PERFORMANCE.md §x neighbours from whole vectors).
//  - shifted rows: in a block that stages no table, a row read at three or
//    more x offsets besides x, reaching eight points or more below and above x
//    together, is cut from the whole vectors all its reads share
//    (rt::shifted): two or three loads and a shuffle or two each replace as
//    many unaligned loads. Eight is a 256-bit vector of floats, the widest the
//    kernels use; rt::shifted finds its pair of vectors within that reach. A
//    block that transposes table columns keeps plain loads: its shuffles are
//    the ones the cuts would compete with.
//
//===----------------------------------------------------------------------===//
#include "ir/ExprVisitor.h"
#include "kernel/Lowering.h"
#include "passes/Pipeline.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace stencilc::kernel {

namespace {

constexpr size_t kShiftedOffsets = 3;
constexpr int kShiftedReach = 8;

/// Can `e` be computed on rt::Vec values as C++ spells it for one point?
/// Arithmetic on reads, table coefficients, scalars and numbers can; pointwise
/// functions, comparisons and selections have no lane-by-lane spelling there.
bool isVectorArithmetic(const ir::Stencil &s, const ir::Expr &e) {
  using Kind = ir::Expr::Kind;
  switch (e.kind) {
  case Kind::Number:
  case Kind::ScalarRef:
  case Kind::TableRef: return true;
  case Kind::FieldRef: return s.fields[e.id].role != ir::FieldRole::Index;
  case Kind::Neg:
  case Kind::Add:
  case Kind::Sub:
  case Kind::Mul:
  case Kind::Div:
    return std::all_of(e.operands.begin(), e.operands.end(),
                       [&](const ir::ExprPtr &op) { return isVectorArithmetic(s, *op); });
  default: return false;
  }
}

/// Can the statements of a row's x loop run on whole vectors: sums into
/// locals and stores, over updates whose factors are vector arithmetic?
bool isVectorBody(const ir::Stencil &s, const LinearStencil &linear,
                  const std::vector<const Node *> &statements) {
  for (const Node *n : statements) {
    if (n->kind == NodeKind::Sum && n->target == SumTarget::Partial)
      return false;
    if ((n->kind != NodeKind::Sum && n->kind != NodeKind::Store) || n->fromPartial)
      return false;
    const LinearForm &form = linear.updates[n->update];
    for (const Term &term : form.terms) {
      if (s.fields[term.field].role == ir::FieldRole::Index)
        return false;
      for (const ir::ExprPtr &factor : term.factors)
        if (!isVectorArithmetic(s, *factor))
          return false;
    }
    if (form.pointwise && !isVectorArithmetic(s, *form.pointwise))
      return false;
  }
  return true;
}

/// A row of a field at (dy, dz) from the row the function computes.
using Row = std::tuple<int, int, int>;

/// What the statements of an x loop read: the x offsets of each row, and
/// whether any table coefficient.
struct BodyReads {
  std::map<Row, std::set<int>> xOffsets;
  bool tables = false;

  void expr(const ir::Expr &e, int planeShift) {
    ir::forEachExpr(e, [&](const ir::Expr &n) {
      if (n.kind == ir::Expr::Kind::FieldRef)
        xOffsets[{n.id, n.offset[1], n.offset[2] + planeShift}].insert(n.offset[0]);
      if (n.kind == ir::Expr::Kind::TableRef)
        tables = true;
    });
  }

  /// The reads of a sum as backends/GroupSums.h spells it: each group's points
  /// (on plane dz only, where the node names one), its factors unless the
  /// store applies them, and the pointwise part.
  void sum(const LinearForm &form, const Node &n) {
    const int shift = n.inputRow ? -n.dz : n.planeShift;
    for (int g : n.groups) {
      const CoefGroup &group = form.groups[g];
      bool present = false;
      for (int t : group.terms) {
        const Term &term = form.terms[t];
        if (n.hasDz && term.offset[2] != n.dz)
          continue;
        present = true;
        xOffsets[{term.field, term.offset[1], term.offset[2] + shift}].insert(term.offset[0]);
      }
      if (present && !n.withoutSharedFactors)
        for (const ir::ExprPtr &factor : form.terms[group.terms[0]].factors)
          expr(*factor, shift);
    }
    if (n.pointwise && form.pointwise)
      expr(*form.pointwise, shift);
  }
};

bool shiftable(const std::set<int> &dx) {
  const int below = std::max(0, -*dx.begin()), above = std::max(0, *dx.rbegin());
  return dx.size() - dx.count(0) >= kShiftedOffsets && below + above >= kShiftedReach;
}

void planRow(const ir::Stencil &s, const LinearStencil &linear, Function &f) {
  if (f.kind != FunctionKind::Row || f.body.empty())
    return;
  const Node &xLoop = f.body.front();
  bool stages = false, staged = false;
  std::vector<const Node *> statements;
  BodyReads reads;
  for (const Node &n : xLoop.body) {
    if (n.kind == NodeKind::StageRows)
      stages = true;
    else if (n.kind == NodeKind::StagedRows)
      staged = true;
    else
      statements.push_back(&n);
    if (n.kind == NodeKind::Sum)
      reads.sum(linear.updates[n.update], n);
  }
  std::vector<ShiftedRow> rows;
  for (const auto &[row, dx] : reads.xOffsets)
    if (shiftable(dx))
      rows.push_back({std::get<0>(row), std::get<1>(row), std::get<2>(row),
                      std::max(0, -*dx.begin()), std::max(0, *dx.rbegin())});
  f.xLoop = f.outputPlanes > 1                     ? XLoop::SeveralPlanes
            : f.params.partialSums                 ? XLoop::PartialSums
            : staged                               ? XLoop::StagedElsewhere
            : !isVectorBody(s, linear, statements) ? XLoop::NotVectorArithmetic
            : !reads.tables && rows.empty()        ? XLoop::NothingToGain
                                                   : XLoop::WholeBlocks;
  if (f.wholeBlocks() && !stages)
    f.shiftedRows = std::move(rows);
}

} // namespace

void planVectorBlocks(const ir::Stencil &s, const LinearStencil &linear, SweepKernels &sweep) {
  for (Function &f : sweep.functions)
    planRow(s, linear, f);
}

} // namespace stencilc::kernel
