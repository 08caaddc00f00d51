//===- CentreReads.h - What a min, max or conditional may read -------------===//
//
// `min`, `max` and `c ? a : b` are pointwise choices: a per-point coefficient
// like a velocity or a damping factor (docs/DSL.md "Expressions"). The update
// stays linear in the time levels only if they read none, and the adjoint and
// the kernels treat them as one value per point only if they read no
// neighbour. Sema reports the first such read to the user; Linearize checks
// again for IR that did not come through Sema.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <optional>
#include <string>

namespace stencilc::ir {

/// True for Min, Max and Select.
bool isPointwiseChoice(Expr::Kind k);
/// "min", "max" or "?:" (for messages).
const char *pointwiseChoiceName(Expr::Kind k);

/// A read a pointwise choice may not make, and why.
struct NonCentreRead {
  const Expr *at = nullptr;
  std::string why; ///< e.g. "'u' is a time-level field", "'vel' is read at [1, 0, 0]"
};

/// The first read in `e` other than a number, a scalar, a table lookup or a
/// coefficient field at the centre; nullopt when there is none.
std::optional<NonCentreRead> findNonCentreRead(const Stencil &s, const Expr &e);

/// The error for `read` inside a choice of kind `choice`, the same from every pass.
std::string nonCentreReadMessage(Expr::Kind choice, const NonCentreRead &read);

} // namespace stencilc::ir
