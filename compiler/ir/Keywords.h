//===- Keywords.h - The words of the DSL, in one place --------------------===//
//
// The parser reads these words, the IR printer writes them (derivKindName and
// funcKindName in IR.h spell the built-ins) and `lift` keeps a C++ name that
// is one of them out of the stencils it writes. docs/DSL.md specifies them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace stencilc::ir {

/// The words that start a declaration inside a stencil (an update starts with
/// its output's name instead): grid, type, order, field, scalar, symmetry,
/// points, table, plan.
llvm::ArrayRef<llvm::StringLiteral> statementKeywords();

/// The derivative sugar and pointwise function named `name` (derivKindName,
/// funcKindName spell them), or nullopt.
std::optional<DerivKind> derivKindNamed(llvm::StringRef name);
std::optional<FuncKind> funcKindNamed(llvm::StringRef name);

/// The built-in names a declaration may not take: sum, min, max, the
/// derivatives and the pointwise functions.
bool isBuiltinName(llvm::StringRef name);

/// Every word the DSL reserves: `stencil`, the statement keywords and the
/// built-in names. `lift` renames a C++ name that is one of them.
bool isReservedWord(llvm::StringRef name);

} // namespace stencilc::ir
