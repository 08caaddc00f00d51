//===- LoopNest.h - The shape of a stencil loop nest in the Clang AST ------===//
//
// A stencil loop nest is 2 or 3 perfectly nested `for` loops with unit steps
// whose innermost body is one assignment to an array element, optionally after
// declarations of integer index variables (`size_t pos = i + line*j + ...;`).
// The innermost loop walks x, the outermost z (y in 2D).
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
  /// Integer variables declared in the innermost body, substituted into subscripts.
  std::vector<const clang::VarDecl *> indexLocals;
  const clang::BinaryOperator *assignment = nullptr;
  /// The last character of the nest (the closing brace or semicolon).
  clang::SourceLocation end;
};

/// The number of perfectly nested `for` loops starting at `loop` (1 if its body
/// is not a single `for`).
int perfectNestDepth(const clang::ForStmt *loop);

/// Whether the innermost body under `loop` is index declarations plus one
/// assignment: the shape `--all` looks for.
bool hasStencilBody(const clang::ForStmt *loop);

/// Recognises the nest at `outer`, or says why it is not a stencil loop nest.
std::optional<LoopNest> recogniseLoopNest(const clang::ForStmt *outer, clang::ASTContext &context,
                                          LiftError &error);

} // namespace stencilc::tooling
