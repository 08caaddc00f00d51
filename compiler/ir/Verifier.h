//===- Verifier.h - Internal consistency checks of the IR ------------------===//
//
// Like MLIR's verifier: run after the frontend, it checks the invariants the
// rest of the compiler relies on (ids in range and of the right kind,
// canonical point sets and classes, one update per output). Each pass checks
// what it derives with its own verifier (linear forms:
// ir/linear/LinearFormVerifier.h). A failure is a compiler bug, not a user
// error, so problems are plain messages naming the object, not located
// diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace stencilc::ir {

/// Appends one message per violated invariant of `s` to `problems`; true if there were none.
bool verifyStencil(const Stencil &s, std::vector<std::string> &problems);

} // namespace stencilc::ir
