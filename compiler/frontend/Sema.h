//===- Sema.h - Whole-stencil semantic checks ------------------------------===//
//
// The parser checks what one statement can see; Sema checks what needs the
// whole stencil: derivative orders, offsets against the radius, outputs that
// are never written, in-place overwrites, and linearity in the time levels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace stencilc {

/// Checks `stencil` and completes it (derivative orders, derived radius).
/// Reports every problem found; returns false if there was any.
bool checkStencil(ir::Stencil &stencil, DiagnosticEngine &diag);

} // namespace stencilc
