//===- StencilText.h - A lifted stencil as .stencil text ------------------===//
//
// Writes the `stencil` block `lift` prints, and checks it with the same
// frontend and pass pipeline `stencilc check` runs, so that `lift` never hands
// out a file that `gen` would reject.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "tooling/LiftedStencil.h"

#include <optional>
#include <string>

namespace stencilc::tooling {

/// One `stencil NAME { ... }` block with a comment naming the loop it came from.
std::string stencilText(const LiftedStencil &stencil);

/// Parses, checks and runs the pass pipeline over `text`: the module `gen`
/// will compile, or nothing with the frontend's diagnostics in `diagnostics`.
std::optional<ir::Module> checkStencilText(const std::string &text, const std::string &bufferName,
                                           std::string &diagnostics);

} // namespace stencilc::tooling
