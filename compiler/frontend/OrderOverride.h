//===- OrderOverride.h - Re-derive a stencil's derivative sugar at an order --===//
//
// `stencilc analyze --orders` (docs/PERFORMANCE-MODEL.md §Order sweep) asks
// what the same equation costs at other accuracy orders. The points of
// derivative sugar (laplacian, dxx, dxy, ...) follow from an order
// (docs/DSL.md §Meaning, "Derivative sugar"), so the parsed stencil is re-derived by setting
// the order of every derivative and the declared `order` to the new one
// before Sema resolves and checks them; nothing is substituted in the text.
// Points written by hand (offsets, point sets) do not follow an order, so a
// stencil that has any, or has no derivative sugar at all, is refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace stencilc {

/// Sets every derivative of `stencil` and its declared order (when it has
/// one) to `order`, an even number in [2, 32]. Reports at the offending
/// location and returns false when the stencil cannot be re-derived: no
/// derivative sugar, or a read written by hand away from the centre.
bool overrideOrder(ir::Stencil &stencil, int order, DiagnosticEngine &diag);

/// The highest accuracy order the language accepts (`order N`, `dxx(u, N)`).
int maxAccuracyOrder();

} // namespace stencilc
