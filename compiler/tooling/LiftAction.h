//===- LiftAction.h - Running `lift` and `rewrite` over a C++ file ---------===//
//
// Parses one C++ file with Clang (LibTooling), finds the loop nests marked
// `#pragma stencil NAME` (a pragma handler records each mark; the nest is the
// `for` statement that follows it, found with AST matchers) and, with `all`,
// every other 2D/3D nest whose body is one assignment. Each nest is lifted
// into a stencil that the Stencilc frontend has accepted; what cannot be
// lifted is reported at its source location, clang-style. For `rewrite`, the
// marked nests are replaced by calls of their generated kernels
// (clang::Rewriter), with the kernels' headers included and everything else
// left as it was.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tooling/LiftedStencil.h"

#include <string>
#include <vector>

namespace stencilc::tooling {

struct LiftOptions {
  /// Also lift unmarked 2D/3D loop nests whose body is one assignment; those
  /// that do not lift get a warning, not an error.
  bool all = false;
  /// Produce the file with the lifted nests replaced by kernel calls.
  bool rewrite = false;
};

struct LiftResult {
  std::vector<LiftedStencil> stencils; ///< in source order
  std::string rewrittenSource;         ///< with `rewrite`
};

/// Runs Clang over `file` with `compilerArgs` (what follows `--` on the
/// command line). Diagnostics go to stderr; returns false after any error.
bool liftFile(const std::string &file, const std::vector<std::string> &compilerArgs,
              const LiftOptions &options, LiftResult &result);

} // namespace stencilc::tooling
