//===- ExprVisitorTest.cpp - ir::forEachExpr, ir::anyExpr, the DSL's words -===//
#include "ir/ExprVisitor.h"
#include "ir/Keywords.h"

#include <gtest/gtest.h>

#include <vector>

using namespace stencilc;
using namespace stencilc::ir;

namespace {

ExprPtr node(Expr::Kind kind, std::vector<ExprPtr> operands = {}, int id = -1) {
  auto e = std::make_unique<Expr>(kind);
  e->id = id;
  e->operands = std::move(operands);
  return e;
}

/// -(a + T[vidx] * sqrt(b)) / 2, built by hand.
ExprPtr sample() {
  std::vector<ExprPtr> sqrtArgs;
  sqrtArgs.push_back(node(Expr::Kind::FieldRef, {}, 1));
  std::vector<ExprPtr> mul;
  mul.push_back(node(Expr::Kind::TableRef, {}, 0));
  mul.push_back(node(Expr::Kind::Call, std::move(sqrtArgs)));
  std::vector<ExprPtr> add;
  add.push_back(node(Expr::Kind::FieldRef, {}, 0));
  add.push_back(node(Expr::Kind::Mul, std::move(mul)));
  std::vector<ExprPtr> neg;
  neg.push_back(node(Expr::Kind::Add, std::move(add)));
  std::vector<ExprPtr> div;
  div.push_back(node(Expr::Kind::Neg, std::move(neg)));
  div.push_back(node(Expr::Kind::Number));
  return node(Expr::Kind::Div, std::move(div));
}

TEST(ExprVisitor, VisitsEveryNodeParentsFirstOperandsInOrder) {
  ExprPtr e = sample();
  std::vector<Expr::Kind> kinds;
  forEachExpr(*e, [&](const Expr &n) { kinds.push_back(n.kind); });
  const std::vector<Expr::Kind> expected = {
      Expr::Kind::Div,      Expr::Kind::Neg,      Expr::Kind::Add,
      Expr::Kind::FieldRef, Expr::Kind::Mul,      Expr::Kind::TableRef,
      Expr::Kind::Call,     Expr::Kind::FieldRef, Expr::Kind::Number};
  EXPECT_EQ(kinds, expected);
}

TEST(ExprVisitor, AnyExprFindsADeepNodeAndStopsThere) {
  ExprPtr e = sample();
  int visited = 0;
  EXPECT_TRUE(anyExpr(*e, [&](const Expr &n) {
    ++visited;
    return n.kind == Expr::Kind::TableRef;
  }));
  EXPECT_EQ(visited, 6) << "Div, Neg, Add, FieldRef, Mul, TableRef";
  EXPECT_FALSE(anyExpr(*e, [](const Expr &n) { return n.kind == Expr::Kind::Select; }));
}

TEST(Keywords, OneTableForTheParserThePrinterAndLift) {
  for (DerivKind k : {DerivKind::Dx, DerivKind::Dzz, DerivKind::Dyz, DerivKind::Laplacian})
    EXPECT_EQ(derivKindNamed(derivKindName(k)), k);
  for (FuncKind k : {FuncKind::Sin, FuncKind::Sqrt, FuncKind::Abs})
    EXPECT_EQ(funcKindNamed(funcKindName(k)), k);
  EXPECT_FALSE(derivKindNamed("dw"));
  EXPECT_TRUE(isBuiltinName("sum"));
  EXPECT_TRUE(isBuiltinName("laplacian"));
  EXPECT_FALSE(isBuiltinName("plan"));
  // Every statement keyword is reserved for lift, `plan` included.
  for (llvm::StringRef kw : statementKeywords())
    EXPECT_TRUE(isReservedWord(kw)) << kw.str();
  EXPECT_TRUE(isReservedWord("plan"));
  EXPECT_TRUE(isReservedWord("stencil"));
  EXPECT_TRUE(isReservedWord("max"));
  EXPECT_FALSE(isReservedWord("p_next"));
}

} // namespace
