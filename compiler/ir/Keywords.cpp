//===- Keywords.cpp -------------------------------------------------------===//
#include "ir/Keywords.h"

#include "llvm/ADT/STLExtras.h"

namespace stencilc::ir {

namespace {

constexpr llvm::StringLiteral kStatementKeywords[] = {
    "grid", "type", "order", "field", "scalar", "symmetry", "points", "table", "plan"};

constexpr DerivKind kDerivKinds[] = {
    DerivKind::Dx,  DerivKind::Dy,  DerivKind::Dz,  DerivKind::Dxx, DerivKind::Dyy,
    DerivKind::Dzz, DerivKind::Dxy, DerivKind::Dxz, DerivKind::Dyz, DerivKind::Laplacian};

constexpr FuncKind kFuncKinds[] = {FuncKind::Sin, FuncKind::Cos, FuncKind::Sqrt, FuncKind::Exp,
                                   FuncKind::Abs};

} // namespace

llvm::ArrayRef<llvm::StringLiteral> statementKeywords() { return kStatementKeywords; }

std::optional<DerivKind> derivKindNamed(llvm::StringRef name) {
  for (DerivKind k : kDerivKinds)
    if (name == derivKindName(k))
      return k;
  return std::nullopt;
}

std::optional<FuncKind> funcKindNamed(llvm::StringRef name) {
  for (FuncKind k : kFuncKinds)
    if (name == funcKindName(k))
      return k;
  return std::nullopt;
}

bool isBuiltinName(llvm::StringRef name) {
  return name == "sum" || name == "min" || name == "max" || derivKindNamed(name) ||
         funcKindNamed(name);
}

bool isReservedWord(llvm::StringRef name) {
  return name == "stencil" || llvm::is_contained(kStatementKeywords, name) || isBuiltinName(name);
}

} // namespace stencilc::ir
