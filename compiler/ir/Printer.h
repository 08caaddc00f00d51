//===- Printer.h - Print the IR as readable text --------------------------===//
//
// `stencilc dump-ir` output: expressions are printed back in DSL syntax with
// the fewest parentheses that keep the tree, and declarations and point sets
// (one line per z-plane) in a stable layout that golden tests diff. The
// format is described at the top of Printer.cpp; linear forms are printed by
// ir/linear/LinearFormPrinter.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace stencilc::ir {

/// `e` in DSL syntax: `2 * sum(d in S, C[d.class][vidx] * p_cur[d]) - p_prev`,
/// in parentheses if it binds less tightly than `minPrecedence`.
void printExpr(const Stencil &s, const Expr &e, llvm::raw_ostream &os,
               int minPrecedence = SelectPrecedence);
std::string exprToString(const Stencil &s, const Expr &e, int minPrecedence = SelectPrecedence);

/// `[1,0,-2]` in 3D, `[1,0]` in 2D.
std::string offsetToString(const Stencil &s, const Offset &o);
/// `(1,0)`: the in-plane part of a point, as listed on a `dz=` line.
std::string planePointToString(const Offset &o);
/// The name of field `id`, or `<field #id>` if there is none (broken IR prints too).
std::string fieldName(const Stencil &s, int id);

/// The declarations, point sets with their planes and classes, and each update as written.
void printStencil(const Stencil &s, llvm::raw_ostream &os);
/// Every stencil of the module, separated by blank lines.
void printModule(const Module &m, llvm::raw_ostream &os);

/// The parts of printStencil, for printers that add lines after each update:
/// everything but the updates, and one update's line.
void printDeclarations(const Stencil &s, llvm::raw_ostream &os);
void printUpdateLine(const Stencil &s, const Update &u, llvm::raw_ostream &os);

} // namespace stencilc::ir
