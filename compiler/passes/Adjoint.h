//===- Adjoint.h - The exact adjoint of a linear time-stepping update ------===//
//
// A stencil whose outputs advance time levels (`out advances cur overwrites
// prev`) is one step of a linear recurrence; its linear form (LinearForm.h)
// is a sum of terms c · f(x) · F(x + o). The adjoint recurrence, run
// backwards in time, has the same shape with every term transposed:
//
//   c · f(x) · F_j(x + o)  in the update of family i
//   becomes  c · f(x − o) · λ_i(x − o)  in the adjoint update of family j,
//
// where F_j is family j's current level (or its previous one) and λ_i the
// adjoint's current (or previous) level of family i: the coefficients are read
// at the neighbour. An index field read at the neighbour becomes an index
// field of its own (stencilc/ShiftedField.h), bound by the caller to the same
// storage shifted. docs/DSL.md "Adjoint" says what is adjoined and what is
// refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "support/Diagnostics.h"

#include <optional>

namespace stencilc {

/// The adjoint of `stencil` (whose linear form is `linear`), named
/// `<name>_adjoint`, with the same fields, scalars and tables in the same
/// order, followed by the shifted index fields it needs. Reports a located
/// error and returns nullopt for what has no adjoint recurrence: an output
/// that advances no time level, a time level no output advances or
/// overwrites, an affine update (a part that reads no time level).
std::optional<ir::Stencil> adjointStencil(const ir::Stencil &stencil, const LinearStencil &linear,
                                          DiagnosticEngine &diag);

/// Every stencil of `module` replaced by its adjoint; nullopt after any error.
std::optional<ir::Module> adjointModule(const ir::Module &module, DiagnosticEngine &diag);

/// Whether the adjoint's updates are the forward ones (same terms, same
/// coefficients, same fields): the step is its own adjoint and one kernel
/// serves both directions.
bool isSelfAdjoint(const LinearStencil &forward, const LinearStencil &adjoint);

} // namespace stencilc
