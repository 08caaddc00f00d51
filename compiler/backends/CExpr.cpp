//===- CExpr.cpp ----------------------------------------------------------===//
#include "backends/CExpr.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stencilc::backend {

using Kind = ir::Expr::Kind;

namespace {
const char *cFunction(ir::FuncKind f) {
  switch (f) {
  case ir::FuncKind::Sin: return "std::sin";
  case ir::FuncKind::Cos: return "std::cos";
  case ir::FuncKind::Sqrt: return "std::sqrt";
  case ir::FuncKind::Exp: return "std::exp";
  case ir::FuncKind::Abs: return "std::abs";
  }
  return "?";
}

std::string wrap(const std::string &text, bool parens) { return parens ? "(" + text + ")" : text; }
} // namespace

std::string printCExpr(const ir::Expr &e, const CExprNames &names) {
  auto operand = [&](const ir::Expr &op, int minPrec) {
    return wrap(printCExpr(op, names), ir::exprPrecedence(op) < minPrec);
  };
  switch (e.kind) {
  case Kind::Number: return "Real(" + e.spelling + ")";
  case Kind::ScalarRef: return names.scalar(e.id);
  case Kind::FieldRef: return names.field(e.id, e.offset);
  case Kind::TableRef: return names.table(e.id, e.row, e.indexField);
  case Kind::Neg: return "-" + operand(*e.operands[0], ir::UnaryPrecedence);
  case Kind::Add:
    return operand(*e.operands[0], ir::AddPrecedence) + " + " +
           operand(*e.operands[1], ir::AddPrecedence);
  case Kind::Sub:
    return operand(*e.operands[0], ir::AddPrecedence) + " - " +
           operand(*e.operands[1], ir::MulPrecedence);
  case Kind::Mul:
    return operand(*e.operands[0], ir::MulPrecedence) + " * " +
           operand(*e.operands[1], ir::MulPrecedence);
  case Kind::Div:
    return operand(*e.operands[0], ir::MulPrecedence) + " / " +
           operand(*e.operands[1], ir::UnaryPrecedence);
  case Kind::Call:
    return std::string(cFunction(e.func)) + "(" + printCExpr(*e.operands[0], names) + ")";
  case Kind::Min:
  case Kind::Max:
    // std::fmin/fmax have float and double overloads on the host and in CUDA device code, and
    // the reference evaluator's semantics: a NaN operand yields the other (docs/DSL.md).
    return std::string(e.kind == Kind::Min ? "std::fmin(" : "std::fmax(") +
           printCExpr(*e.operands[0], names) + ", " + printCExpr(*e.operands[1], names) + ")";
  case Kind::Compare:
    return operand(*e.operands[0], ir::AddPrecedence) + " " + ir::compareOpSpelling(e.compare) +
           " " + operand(*e.operands[1], ir::AddPrecedence);
  case Kind::Select:
    // A nested conditional is parenthesised, so C's right associativity is never relied on.
    return operand(*e.operands[0], ir::SelectPrecedence) + " ? " +
           operand(*e.operands[1], ir::AddPrecedence) + " : " +
           operand(*e.operands[2], ir::AddPrecedence);
  case Kind::Sum:
  case Kind::Deriv: break;
  }
  throw std::logic_error("printCExpr: sums and derivatives are expanded before code generation");
}

std::string realLiteral(const Coefficient &c) {
  if (c.isExact()) {
    const Rational &r = *c.exact();
    if (r.isInteger())
      return fmt::format("Real({})", r.num());
    return fmt::format("Real({}.0 / {}.0)", r.num(), r.den());
  }
  return fmt::format("Real({})", c.value());
}

std::string coefficientProduct(const Coefficient &c, const std::vector<std::string> &factors) {
  std::string product;
  for (const std::string &f : factors)
    product += (product.empty() ? "" : " * ") + f;
  if (product.empty())
    return realLiteral(c);
  if (c.isOne())
    return product;
  if (c.isMinusOne())
    return "-" + product;
  return realLiteral(c) + " * " + product;
}

} // namespace stencilc::backend
