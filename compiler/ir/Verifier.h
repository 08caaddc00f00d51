//===- Verifier.h - Internal consistency checks of the IR ------------------===//
//
// Like MLIR's verifier: run after the frontend and after every pass, it
// checks the invariants the rest of the compiler relies on (ids in range and
// of the right kind, canonical point sets and classes, one update per output,
// linearity bookkeeping). A failure is a compiler bug, not a user error, so
// problems are plain messages naming the object, not located diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/LinearForm.h"

#include <string>
#include <vector>

namespace stencilc::ir {

/// Appends one message per violated invariant of `s` to `problems`; true if there were none.
bool verifyStencil(const Stencil &s, std::vector<std::string> &problems);

/// Checks `linear` against `s`: one form per update writing its output, terms
/// reading Time fields within the radius in canonical order without
/// duplicates or zeros, factors and pointwise parts free of time fields and
/// sum variables, and groups that partition the terms consistently.
bool verifyLinearForm(const Stencil &s, const LinearStencil &linear,
                      std::vector<std::string> &problems);

} // namespace stencilc::ir
