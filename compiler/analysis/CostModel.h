//===- CostModel.h - Flops and compulsory bytes per grid point -------------===//
//
// The numbers behind GFLOP/s, effective bandwidth and operational intensity
// (docs/DESIGN.md §Performance model). Flops are counted from the linear
// forms as the generated naive kernel executes them: per coefficient group,
// the additions of its points, the multiplications that form and apply its
// coefficient (symmetry factoring included), the operations inside
// coefficient factors, and the addition into the running sum; plus the
// pointwise part. Compulsory bytes read every field
// once (index fields included) and write every output once; tables are
// assumed to stay in cache and write-allocate traffic is not counted.
// docs/PERFORMANCE-MODEL.md has the rules with worked examples.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <vector>

namespace stencilc::analysis {

/// Arithmetic operations in an expression of the factor vocabulary (each
/// +, -, *, / and unary minus is one flop, each function call one).
int expressionFlops(const ir::Expr &e);

/// Flops per output point of one update.
int updateFlops(const LinearForm &form);

/// Flops per output point of the groups `groups` of `form` (ascending), with
/// the pointwise part when `withPointwise`: what one sweep of a decomposed
/// update evaluates, before it stores or adds its sum.
int groupsFlops(const LinearForm &form, const std::vector<int> &groups, bool withPointwise);

/// Flops per grid point of a whole step (all updates).
int stencilFlops(const LinearStencil &linear);

/// Compulsory bytes per grid point of a step.
int compulsoryBytes(const ir::Stencil &s);

} // namespace stencilc::analysis
