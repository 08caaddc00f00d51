//===- GroupSums.h - The statements that evaluate coefficient groups -------===//
//
// The body of a stencil, printed in one place for both backends: statements
// `target = / += K * (c1 * S1 + c2 * S2 ...)`, one per set of coefficient
// groups that share their factors K, each group's signed sum of reads S
// times its number c, every group in DSL syntax as a comment above it. A
// backend says only how a read and a coefficient leaf are spelled (BodyReads),
// so the CPU's row pointers and staged coefficients and the GPU's shared
// planes, register queues and staged table rows all go through the same walk.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/CExpr.h"
#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::backend {

/// How a backend spells what a body reads.
struct BodyReads {
  /// A time-field read at `offset` from the output point.
  std::function<std::string(int field, const ir::Offset &offset)> read;
  /// The leaves of coefficient expressions.
  CExprNames exprNames;
  /// The name of a constant holding `product` (scalars and numbers only),
  /// computed once outside the point loop; unset keeps such factors inline.
  std::function<std::string(const std::string &product)> invariant;
};

struct SumOptions {
  std::optional<int> dz = std::nullopt; ///< only the groups' points on this plane offset
  bool pointwise = false;               ///< add the update's pointwise part
  bool withoutSharedFactors = false;    ///< leave out the factors K (applied elsewhere)
  bool comments = true;                 ///< each group in DSL syntax above its statement
  std::string indent = "    ";
};

/// Statements `target = / += ...` for `groups` of `form`; with `assign` the
/// first one assigns (Real(0) if there is nothing to sum).
std::string sumStatements(const ir::Stencil &s, const LinearForm &form,
                          const std::vector<int> &groups, const BodyReads &reads,
                          const std::string &target, bool assign, const SumOptions &options = {});

/// The coefficient factors of a group, each ready to be a multiplicand; with
/// reads.invariant set, the point-invariant ones become one named constant.
std::vector<std::string> factorTexts(const LinearForm &form, const CoefGroup &group,
                                     const BodyReads &reads);

/// Does group `g` have a point on plane offset dz?
bool groupTouchesPlane(const LinearForm &form, const CoefGroup &g, int dz);

} // namespace stencilc::backend
