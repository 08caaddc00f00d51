//===- LoopNest.h - The shape of a stencil loop nest in the Clang AST ------===//
//
// A stencil loop nest is 2 or 3 perfectly nested `for` loops with unit steps
// and rectangular bounds; the innermost loop walks x, the outermost z (y in
// 2D). Its innermost body is kept as a list of statements for the lifter
// (StencilLifter.h) to read. OpenMP directives on the loops (`parallel for`,
// `collapse`, `simd`) are looked through: they say how to run the loops, not
// what they compute. A group is a nest followed by nests over the same box
// that accumulate (`+=`) into what the first ones wrote: one stencil.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace stencilc::tooling {

/// Why a loop nest cannot be lifted, at the construct that stops it.
struct LiftError {
  clang::SourceLocation loc;
  std::string message;
};

struct LoopLevel {
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *counter = nullptr;
  const clang::Expr *lower = nullptr; ///< first value
  const clang::Expr *upper = nullptr; ///< bound of `<` (or `<=` when inclusive)
  bool inclusive = false;
};

struct LoopNest {
  std::vector<LoopLevel> levels; ///< outermost first
  /// The statements of the innermost body, in order.
  std::vector<const clang::Stmt *> body;
  /// The last character of the nest (the closing brace or semicolon).
  clang::SourceLocation end;
};

/// `s` without the OpenMP directives around it (`#pragma omp parallel for`
/// compiled with -fopenmp wraps the loop it governs).
const clang::Stmt *withoutOpenMP(const clang::Stmt *s);

/// The number of perfectly nested `for` loops starting at `loop` (1 if its body
/// is not a single `for`).
int perfectNestDepth(const clang::ForStmt *loop);

/// Whether the innermost body under `loop` ends in an assignment to an array
/// element after declarations, assignments and inner loops: the shape `--all`
/// looks for.
bool hasStencilBody(const clang::ForStmt *loop);

/// Whether every statement of the innermost body under `loop` adds to or
/// subtracts from an array element (`out[pos] += ...`), after declarations
/// and inner loops: a nest that continues the one before it.
bool onlyAccumulates(const clang::ForStmt *loop);

/// The variables whose elements the innermost body under `loop` assigns to.
std::vector<const clang::VarDecl *> writtenVariables(const clang::ForStmt *loop);

/// The loop headers of the nest at `loop` as written (`int i = 1; i < n - 1`),
/// for telling whether two nests cover the same box.
std::string headerText(const clang::ForStmt *loop, clang::ASTContext &context);

/// Reads `for (int i = lo; i < hi; ++i)` (also `<=`, `>`, `i++`, `i += 1`,
/// `i = i + 1`), or says why it is not such a loop.
bool readLoopHeader(const clang::ForStmt *loop, clang::ASTContext &context, LoopLevel &level,
                    LiftError &error);

/// Recognises the nest at `outer`, or says why it is not a stencil loop nest.
std::optional<LoopNest> recogniseLoopNest(const clang::ForStmt *outer, clang::ASTContext &context,
                                          LiftError &error);

} // namespace stencilc::tooling
