//===- StencilLifter.h - From a C++ loop nest to a stencil ----------------===//
//
// Reads the assignment at the bottom of a recognised loop nest. Subscripts
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

namespace clang {
class ASTContext;
}

namespace stencilc::tooling {

/// Lifts `nest` into a stencil called `name`, or says why not (`error`).
std::optional<LiftedStencil> liftLoopNest(const LoopNest &nest, const std::string &name,
                                          clang::ASTContext &context, LiftError &error);

} // namespace stencilc::tooling
