//===- StencilText.h - A lifted stencil as .stencil text ------------------===//
//
// Writes the `stencil` block `lift` prints, and checks it with the same
// frontend and pass pipeline `stencilc check` runs, so that `lift` never hands
// out a file that `gen` would reject.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tooling/LiftedStencil.h"

#include <string>

namespace stencilc::tooling {

/// One `stencil NAME { ... }` block with a comment naming the loop it came from.
std::string stencilText(const LiftedStencil &stencil);

/// Parses, checks and runs the pass pipeline over `text`; on failure returns
/// false with the frontend's diagnostics in `diagnostics`.
bool checkStencilText(const std::string &text, const std::string &bufferName,
                      std::string &diagnostics);

} // namespace stencilc::tooling
