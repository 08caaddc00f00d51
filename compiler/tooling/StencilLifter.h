//===- StencilLifter.h - From a C++ loop nest to a stencil ----------------===//
//
// Reads the body of a recognised loop nest: integer index variables are
// substituted into subscripts, floating-point temporaries into values, inner
// loops with constant trip counts are unrolled, and each array written at the
// loop point becomes an output whose update is the value it ends up with
// (reads of it at the point after the write see that value). Subscripts
// become integer polynomials (IndexPolynomial.h): the coefficient of each loop
// counter is the array's stride along that axis, the rest is the point's
// offset. The right-hand side becomes a DSL expression; arrays read at an
// offset or as a term of their own are time levels, arrays that multiply
// them are per-point (`in`) fields, `c[j][idx[pos]]` is a coefficient table
// read through an index field, and loop-invariant variables are scalars.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tooling/LiftedStencil.h"
#include "tooling/LoopNest.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace stencilc::tooling {

/// Lifts `group` (a loop nest, then the nests that accumulate into its
/// outputs over the same box) into a stencil called `name`, or says why not
/// (`error`).
std::optional<LiftedStencil> liftLoopNests(const std::vector<LoopNest> &group,
                                           const std::string &name, clang::ASTContext &context,
                                           LiftError &error);

} // namespace stencilc::tooling
