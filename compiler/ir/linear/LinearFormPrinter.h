//===- LinearFormPrinter.h - Print linear forms as readable text ----------===//
//
// The linear forms in `stencilc dump-ir` output and in the group comments of
// generated kernels; the format is described at the top of
// LinearFormPrinter.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace stencilc {

/// ir::printStencil, with each update followed by its linear form (`linear` from linearize(s)).
void printStencilWithLinearForm(const ir::Stencil &s, const LinearStencil &linear,
                                llvm::raw_ostream &os);
/// The linear form of one update: reads per field and z-plane, groups, pointwise part, counts.
void printLinearForm(const ir::Stencil &s, const LinearForm &form, llvm::raw_ostream &os,
                     unsigned indent = 0);
/// One coefficient group: `2 * C[3][vidx] * (p_cur[1,0,0] + p_cur[-1,0,0])`.
std::string groupToString(const ir::Stencil &s, const LinearForm &form, const CoefGroup &group);

} // namespace stencilc
