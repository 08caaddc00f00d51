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
#include "ir/linear/LinearForm.h"
#include "passes/Decompose.h"

#include <map>
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
std::string fieldInfoList(const ir::Stencil &s, const LinearStencil &linear, int indent);
std::string tableInfoList(const ir::Stencil &s);
std::string scalarInfoList(const ir::Stencil &s);

/// The members of `Args`: a view per field (with its role as a comment), per
/// table and per scalar.
std::string argMembers(const ir::Stencil &s, const KernelNames &names);

/// "p_prev <- p_cur <- p_next": how rotate() moves the levels on.
std::string rotationSummary(const ir::Stencil &s);

/// The header comment both backends open a generated file with: the stencil,
/// each update with its reads, and the plan's sweeps, ending with a full stop.
std::string stencilSummary(const ir::Stencil &s, const LinearStencil &linear,
                           const Decomposition &decomposition);

/// The statements of the kernel's checkArgs(const Args &a): every field set,
/// every table of the stencil's row count with at least one column, and an
/// output sharing storage only with the level it overwrites, with its layout.
std::string argumentChecks(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel);

/// Template values every generated header and source file takes from the
/// stencil alone (templates/README.md lists them): the kernel ABI's pieces.
/// `fileValues` (the backend's values for both files) are merged in;
/// `fieldInfoIndent` is the column of the template's field list.
using TemplateValues = std::map<std::string, std::string>;
TemplateValues abiHeaderValues(const ir::Stencil &s, const KernelNames &names,
                               const TemplateValues &fileValues);
TemplateValues abiSourceValues(const ir::Stencil &s, const LinearStencil &linear,
                               const KernelNames &names, const std::string &kernel, int sweeps,
                               int fieldInfoIndent, const TemplateValues &fileValues);

/// The comment line that opens a sweep's kernels in a generated file.
std::string sweepBanner(int sweep, const std::string &reason);

} // namespace stencilc::backend
