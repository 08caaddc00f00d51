//===- KernelCall.h - The call that replaces a lifted loop nest ----------===//
//
// `rewrite` puts a block in place of the loops that fills the generated
// kernel's Args with views of the program's own arrays (origin at the first
// interior point, the arrays' own line and plane strides: no copies) and runs
// one step.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "tooling/LiftedStencil.h"

#include <string>

namespace stencilc::tooling {

/// Sets the Args member of each field, table and scalar of `stencil` to the
/// name `gen` gives it for `checked` (backends/KernelNames.h, the one source
/// of C++ names): a DSL name that is a C++ keyword or a generated local gets
/// a trailing `_` in both.
void nameKernelMembers(LiftedStencil &stencil, const ir::Stencil &checked);

/// The generated header a rewritten file includes for `stencil`.
std::string kernelHeaderName(const LiftedStencil &stencil);

/// The replacement block. Its first line has no indentation (it takes the
/// place of the `for`); the others start with `indent`.
std::string kernelCallText(const LiftedStencil &stencil, const std::string &indent);

} // namespace stencilc::tooling
