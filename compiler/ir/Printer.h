//===- Printer.h - Print the IR and linear forms as readable text ---------===//
//
// `stencilc dump-ir` output: expressions are printed back in DSL syntax with
// the fewest parentheses that keep the tree, and declarations, point sets
// (one line per z-plane) and linear forms in a stable layout that golden
// tests diff. The format is described in printStencil's comment in
// Printer.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/LinearForm.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace stencilc::ir {

/// `e` in DSL syntax: `2 * sum(d in S, C[d.class][vidx] * p_cur[d]) - p_prev`.
void printExpr(const Stencil &s, const Expr &e, llvm::raw_ostream &os);
std::string exprToString(const Stencil &s, const Expr &e);

/// `[1,0,-2]` in 3D, `[1,0]` in 2D.
std::string offsetToString(const Stencil &s, const Offset &o);

/// The declarations, point sets with their planes and classes, and each update as written.
void printStencil(const Stencil &s, llvm::raw_ostream &os);
/// Every stencil of the module, separated by blank lines.
void printModule(const Module &m, llvm::raw_ostream &os);

/// printStencil, with each update followed by its linear form (`linear` from linearize(s)).
void printStencilWithLinearForm(const Stencil &s, const LinearStencil &linear,
                                llvm::raw_ostream &os);
/// The linear form of one update: reads per field and z-plane, groups, pointwise part, counts.
void printLinearForm(const Stencil &s, const LinearForm &form, llvm::raw_ostream &os,
                     unsigned indent = 0);
/// One coefficient group: `2 * C[3][vidx] * (p_cur[1,0,0] + p_cur[-1,0,0])`.
std::string groupToString(const Stencil &s, const LinearForm &form, const CoefGroup &group);

} // namespace stencilc::ir
