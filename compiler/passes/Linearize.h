//===- Linearize.h - The linearize pass -----------------------------------===//
//
// Writes each update of a stencil as a linear form in the time levels
// (ir/linear/LinearForm.h), the form every later pass and the kernel IR work on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "support/Diagnostics.h"

#include <optional>

namespace stencilc {

/// Linearizes every update of `stencil`. Non-linear updates (a product of two
/// time-field expressions, division by one, a function of one) and division
/// by a literal zero are reported as located errors; returns nullopt then.
std::optional<LinearStencil> linearize(const ir::Stencil &stencil, DiagnosticEngine &diag);

} // namespace stencilc
