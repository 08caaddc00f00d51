//===- IR.cpp - Small helpers of the Stencilc IR ---------------------------===//
#include "ir/IR.h"

#include <algorithm>
#include <cstdlib>

namespace stencilc::ir {

bool offsetLess(const Offset &a, const Offset &b) {
  if (a[2] != b[2])
    return a[2] < b[2];
  if (a[1] != b[1])
    return a[1] < b[1];
  return a[0] < b[0];
}

int offsetRadius(const Offset &o) {
  return std::max({std::abs(o[0]), std::abs(o[1]), std::abs(o[2])});
}

int offsetNonZeros(const Offset &o) { return (o[0] != 0) + (o[1] != 0) + (o[2] != 0); }

const char *elemTypeName(ElemType t) { return t == ElemType::Float ? "float" : "double"; }

const char *indexTypeName(IndexType t) {
  switch (t) {
  case IndexType::UInt8: return "uint8";
  case IndexType::UInt16: return "uint16";
  case IndexType::Int32: return "int32";
  }
  return "?";
}

const char *fieldRoleName(FieldRole r) {
  switch (r) {
  case FieldRole::Time: return "time";
  case FieldRole::Input: return "in";
  case FieldRole::Index: return "index";
  case FieldRole::Output: return "out";
  }
  return "?";
}

int elemTypeBytes(ElemType t) { return t == ElemType::Float ? 4 : 8; }

int indexTypeBytes(IndexType t) {
  switch (t) {
  case IndexType::UInt8: return 1;
  case IndexType::UInt16: return 2;
  case IndexType::Int32: return 4;
  }
  return 4;
}

const char *derivKindName(DerivKind k) {
  switch (k) {
  case DerivKind::Dx: return "dx";
  case DerivKind::Dy: return "dy";
  case DerivKind::Dz: return "dz";
  case DerivKind::Dxx: return "dxx";
  case DerivKind::Dyy: return "dyy";
  case DerivKind::Dzz: return "dzz";
  case DerivKind::Dxy: return "dxy";
  case DerivKind::Dxz: return "dxz";
  case DerivKind::Dyz: return "dyz";
  case DerivKind::Laplacian: return "laplacian";
  }
  return "?";
}

int derivativeMaxAxis(DerivKind kind) {
  switch (kind) {
  case DerivKind::Dx:
  case DerivKind::Dxx: return 0;
  case DerivKind::Dy:
  case DerivKind::Dyy:
  case DerivKind::Dxy: return 1;
  case DerivKind::Dz:
  case DerivKind::Dzz:
  case DerivKind::Dxz:
  case DerivKind::Dyz: return 2;
  case DerivKind::Laplacian:
    // Adapts to the grid: x and y in 2D, all three axes in 3D.
    return 1;
  }
  return 2;
}

const char *funcKindName(FuncKind k) {
  switch (k) {
  case FuncKind::Sin: return "sin";
  case FuncKind::Cos: return "cos";
  case FuncKind::Sqrt: return "sqrt";
  case FuncKind::Exp: return "exp";
  case FuncKind::Abs: return "abs";
  }
  return "?";
}

const char *compareOpSpelling(CompareOp op) {
  switch (op) {
  case CompareOp::Lt: return "<";
  case CompareOp::Le: return "<=";
  case CompareOp::Gt: return ">";
  case CompareOp::Ge: return ">=";
  case CompareOp::Eq: return "==";
  case CompareOp::Ne: return "!=";
  }
  return "?";
}

int exprPrecedence(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Compare:
  case Expr::Kind::Select: return SelectPrecedence;
  case Expr::Kind::Add:
  case Expr::Kind::Sub: return AddPrecedence;
  case Expr::Kind::Mul:
  case Expr::Kind::Div: return MulPrecedence;
  case Expr::Kind::Neg: return UnaryPrecedence;
  default: return AtomPrecedence;
  }
}

size_t exprArity(Expr::Kind k) {
  switch (k) {
  case Expr::Kind::Neg:
  case Expr::Kind::Call:
  case Expr::Kind::Sum: return 1;
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
  case Expr::Kind::Mul:
  case Expr::Kind::Div:
  case Expr::Kind::Min:
  case Expr::Kind::Max:
  case Expr::Kind::Compare: return 2;
  case Expr::Kind::Select: return 3;
  default: return 0;
  }
}

ExprPtr Expr::clone() const {
  auto copy = std::make_unique<Expr>(kind, loc);
  copy->number = number;
  copy->exact = exact;
  copy->spelling = spelling;
  copy->id = id;
  copy->offset = offset;
  copy->sumVar = sumVar;
  copy->varName = varName;
  copy->row = row;
  copy->rowIsClass = rowIsClass;
  copy->indexField = indexField;
  copy->pointSet = pointSet;
  copy->deriv = deriv;
  copy->order = order;
  copy->func = func;
  copy->compare = compare;
  for (const ExprPtr &op : operands)
    copy->operands.push_back(op->clone());
  return copy;
}

template <typename T> static int findByName(const std::vector<T> &items, const std::string &n) {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].name == n)
      return int(i);
  return -1;
}

int Stencil::findField(const std::string &n) const { return findByName(fields, n); }
int Stencil::findScalar(const std::string &n) const { return findByName(scalars, n); }
int Stencil::findSymmetry(const std::string &n) const { return findByName(symmetries, n); }
int Stencil::findPointSet(const std::string &n) const { return findByName(pointSets, n); }
int Stencil::findTable(const std::string &n) const { return findByName(tables, n); }

} // namespace stencilc::ir
