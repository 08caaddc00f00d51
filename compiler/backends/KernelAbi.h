//===- KernelAbi.h - Generated code both backends share: the kernel ABI ----===//
//
// Every generated kernel, CPU or CUDA, presents the same face to the runtime
// (runtime/include/stencilc/Kernel.h): an Args struct filled from type-erased
// arguments, a rotate() that moves the time levels on, and a KernelInfo entry
// in the registry. The text of those pieces depends only on the stencil, so it
// is written here once; the backends differ only in their kernels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/KernelNames.h"
#include "ir/IR.h"

#include <string>

namespace stencilc::backend {

/// The C++ element type of a field in generated code: `Real`, or the index
/// field's integer type.
std::string fieldElementType(const ir::Field &f);

/// Statements of `rotate(Args &a)`: each `out advances F [overwrites G]` moves
/// its levels on, reusing the freed storage (in place when the output shares
/// the overwritten level's storage).
std::string rotateBody(const ir::Stencil &s, const KernelNames &names);

/// Statements that fill `Args a` from `rt::ErasedArgs e`, checking the counts;
/// `kernel` names the kernel in the error message.
std::string erasedArgsBody(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel);

/// The KernelInfo initialisers: fields (continuation lines indented by
/// `indent` spaces, to sit under the template's brace), tables and scalars.
std::string fieldInfoList(const ir::Stencil &s, int indent);
std::string tableInfoList(const ir::Stencil &s);
std::string scalarInfoList(const ir::Stencil &s);

} // namespace stencilc::backend
