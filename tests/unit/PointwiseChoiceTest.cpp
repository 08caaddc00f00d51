//===- PointwiseChoiceTest.cpp - min, max and `c ? a : b` through the layers ===//
//
// docs/DSL.md "Expressions": the parser's tree, the printer's text (which
// parses back to itself), the verifier's invariants, the linear form's refusal
// of IR that did not come through Sema, the reference evaluator's values
// (NaN included) and the C++ spelling of the kernels.
//
//===----------------------------------------------------------------------===//
#include "backends/CExpr.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "ir/linear/LinearForm.h"

#include "passes/Linearize.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace stencilc {
namespace {

using ir::Expr;
using ir::ExprPtr;
using Kind = ir::Expr::Kind;

/// A 2D stencil whose update is `out = RHS * u`: a and b are `in` fields, s a scalar.
std::string stencilText(const std::string &rhs) {
  return "stencil choice {\n  grid 2d;\n  order 2;\n  field u : time;\n  field out : out;\n"
         "  field a : in;\n  field b : in;\n  scalar s;\n  out = " +
         rhs + ";\n}\n";
}

ir::Stencil parsed(const std::string &rhs) {
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  std::optional<ir::Module> m = parseModuleFromString(stencilText(rhs), "choice.stencil", errs);
  EXPECT_TRUE(m && m->stencils.size() == 1) << errs.str();
  return m && m->stencils.size() == 1 ? std::move(m->stencils[0]) : ir::Stencil{};
}

std::string parseErrors(const std::string &rhs) {
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  EXPECT_FALSE(parseModuleFromString(stencilText(rhs), "choice.stencil", errs));
  return errs.str();
}

std::string printedRhs(const ir::Stencil &s) { return ir::exprToString(s, *s.updates.at(0).rhs); }

TEST(PointwiseChoice, ParsesIntoMinMaxSelectAndCompare) {
  ir::Stencil s = parsed("(a <= s ? min(a, b) : max(a, 2)) * u");
  ASSERT_EQ(s.updates.size(), 1u);
  const Expr &mul = *s.updates[0].rhs;
  ASSERT_EQ(mul.kind, Kind::Mul);
  const Expr &select = *mul.operands[0];
  ASSERT_EQ(select.kind, Kind::Select);
  ASSERT_EQ(select.operands.size(), 3u);
  const Expr &cond = *select.operands[0];
  EXPECT_EQ(cond.kind, Kind::Compare);
  EXPECT_EQ(cond.compare, ir::CompareOp::Le);
  EXPECT_EQ(cond.operands[0]->kind, Kind::FieldRef);
  EXPECT_EQ(cond.operands[1]->kind, Kind::ScalarRef);
  EXPECT_EQ(select.operands[1]->kind, Kind::Min);
  EXPECT_EQ(select.operands[2]->kind, Kind::Max);
  EXPECT_EQ(select.operands[2]->operands[1]->kind, Kind::Number);

  // Every comparison operator, and `?:` associating to the right.
  const std::pair<const char *, ir::CompareOp> ops[] = {
      {"<", ir::CompareOp::Lt},  {"<=", ir::CompareOp::Le}, {">", ir::CompareOp::Gt},
      {">=", ir::CompareOp::Ge}, {"==", ir::CompareOp::Eq}, {"!=", ir::CompareOp::Ne}};
  for (const auto &[text, op] : ops) {
    ir::Stencil t = parsed(std::string("(a ") + text + " b ? 1 : b < 1 ? 2 : 3) * u");
    const Expr &outer = *t.updates.at(0).rhs->operands[0];
    EXPECT_EQ(outer.operands[0]->compare, op) << text;
    EXPECT_EQ(outer.operands[2]->kind, Kind::Select) << text;
  }
}

TEST(PointwiseChoice, PrintedTextParsesBackToItself) {
  for (const char *rhs :
       {"(a < b ? a : b) * u", "min(a, max(b, s)) * u", "(1 + (a >= 1 ? a - 1 : 0)) * u",
        "sqrt(a != b ? a : b) * u", "(a == 1 ? 1 : b > 1 ? 2 : 3) * u",
        "min(a < b ? a : b, 2 * s) * u", "(a + 1 > b * 2 ? -a : (b < 1 ? 1 : 2)) * u"}) {
    ir::Stencil s = parsed(rhs);
    std::string once = printedRhs(s);
    ir::Stencil again = parsed(once);
    EXPECT_EQ(printedRhs(again), once) << rhs;
  }
  EXPECT_EQ(printedRhs(parsed("(a < b ? a : b) * u")), "(a < b ? a : b) * u");
  // The then-branch is a whole expression; the else-branch nests without parentheses.
  EXPECT_EQ(printedRhs(parsed("(a < b ? (a > 1 ? 1 : 2) : (b < 1 ? 3 : 4)) * u")),
            "(a < b ? a > 1 ? 1 : 2 : b < 1 ? 3 : 4) * u");
}

TEST(PointwiseChoice, ParserAndSemaRefuseWhatIsNotAPerPointValue) {
  EXPECT_NE(parseErrors("(a < b) * u").find("only allowed as the condition"), std::string::npos);
  EXPECT_NE(parseErrors("(a ? 1 : 2) * u").find("'?' must follow a comparison"), std::string::npos);
  EXPECT_NE(parseErrors("min(a, u) * u").find("'u' is a time-level field"), std::string::npos);
  EXPECT_NE(parseErrors("max(a[1, 0], 1) * u").find("'a' is read at [1, 0, 0]"), std::string::npos);
  EXPECT_NE(parseErrors("(a < 1 ? u[1, 0] : 0)").find("'?:' may only read centre values"),
            std::string::npos);
}

//===- Verifier and linear form on IR built by hand ------------------------===//

ExprPtr node(Kind k, std::vector<ExprPtr> operands) {
  auto e = std::make_unique<Expr>(k);
  for (ExprPtr &op : operands)
    e->operands.push_back(std::move(op));
  return e;
}
ExprPtr fieldRef(int id, ir::Offset offset = {0, 0, 0}) {
  auto e = std::make_unique<Expr>(Kind::FieldRef);
  e->id = id;
  e->offset = offset;
  return e;
}
ExprPtr one() {
  auto e = std::make_unique<Expr>(Kind::Number);
  e->number = 1;
  e->exact = Rational(1);
  e->spelling = "1";
  return e;
}
template <typename... T> std::vector<ExprPtr> ops(T... e) {
  std::vector<ExprPtr> v;
  (v.push_back(std::move(e)), ...);
  return v;
}

constexpr int U = 0, A = 2, B = 3;

bool hasProblem(const ir::Stencil &s, const std::string &expected) {
  std::vector<std::string> problems;
  if (ir::verifyStencil(s, problems))
    return false;
  for (const std::string &p : problems)
    if (p.find(expected) != std::string::npos)
      return true;
  ADD_FAILURE() << "no problem mentions '" << expected << "'";
  return false;
}

TEST(PointwiseChoice, VerifierChecksComparisonsAndReads) {
  ir::Stencil s = parsed("(a < b ? a : b) * u");
  std::vector<std::string> problems;
  EXPECT_TRUE(ir::verifyStencil(s, problems));

  // A comparison as a value.
  s.updates[0].rhs =
      node(Kind::Mul, ops(node(Kind::Compare, ops(fieldRef(A), fieldRef(B))), fieldRef(U)));
  EXPECT_TRUE(hasProblem(s, "a comparison outside the condition of '?:'"));
  // A conditional whose condition is no comparison.
  s.updates[0].rhs =
      node(Kind::Mul, ops(node(Kind::Select, ops(fieldRef(A), one(), one())), fieldRef(U)));
  EXPECT_TRUE(hasProblem(s, "the condition of '?:' is not a comparison"));
  // min of a time level; max of a neighbour; a min with one operand.
  s.updates[0].rhs = node(Kind::Mul, ops(node(Kind::Min, ops(fieldRef(U), one())), fieldRef(U)));
  EXPECT_TRUE(hasProblem(s, "'min' reads what a per-point choice may not: 'u' is a time-level"));
  s.updates[0].rhs =
      node(Kind::Mul, ops(node(Kind::Max, ops(fieldRef(A, {0, 1, 0}), one())), fieldRef(U)));
  EXPECT_TRUE(hasProblem(s, "'max' reads what a per-point choice may not: 'a' is read at"));
  s.updates[0].rhs = node(Kind::Mul, ops(node(Kind::Min, ops(fieldRef(A))), fieldRef(U)));
  EXPECT_TRUE(hasProblem(s, "expression node with 1 operands, expected 2"));
}

TEST(PointwiseChoice, LinearizeRefusesNeighbourReadsOfUncheckedIr) {
  ir::Stencil s = parsed("(a < b ? a : b) * u");
  s.updates[0].rhs =
      node(Kind::Mul, ops(node(Kind::Min, ops(fieldRef(A, {-1, 0, 0}), one())), fieldRef(U)));
  llvm::SourceMgr sm;
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  DiagnosticEngine diag(sm, errs);
  EXPECT_FALSE(linearize(s, diag));
  EXPECT_NE(errs.str().find("'min' may only read centre values of coefficient fields, scalars, "
                            "numbers and table lookups: 'a' is read at [-1, 0, 0]"),
            std::string::npos)
      << errs.str();

  // Through Sema, the choice is one coefficient factor of the term it scales.
  ir::Stencil good = parsed("(a < b ? a : b) * min(a, s) * u");
  llvm::raw_string_ostream ignored(errors);
  DiagnosticEngine quiet(sm, ignored);
  std::optional<LinearStencil> linear = linearize(good, quiet);
  ASSERT_TRUE(linear);
  ASSERT_EQ(linear->updates.at(0).terms.size(), 1u);
  const Term &term = linear->updates[0].terms[0];
  ASSERT_EQ(term.factors.size(), 2u);
  EXPECT_EQ(term.factors[0]->kind, Kind::Select);
  EXPECT_EQ(term.factors[1]->kind, Kind::Min);
}

//===- Reference evaluator and C++ spelling --------------------------------===//

/// out at one point, with u = 1 and the given a and b.
double evaluateAt(const ir::Stencil &s, double a, double b, double scalar) {
  rt::Grid<double> u = rt::Grid<double>::make2d(1, 1, 1);
  rt::Grid<double> fa = rt::Grid<double>::make2d(1, 1, 1), fb = rt::Grid<double>::make2d(1, 1, 1);
  u.fillWith([](int, int, int) { return 1.0; });
  fa.fillWith([&](int, int, int) { return a; });
  fb.fillWith([&](int, int, int) { return b; });
  rt::Grid<double> out = rt::Grid<double>::make2d(1, 1, 0);
  out.poison();
  eval::EvalBindings bindings;
  bindings.inputs = {&u, nullptr, &fa, &fb};
  bindings.outputs = {nullptr, &out, nullptr, nullptr};
  bindings.indexFields = {nullptr, nullptr, nullptr, nullptr};
  bindings.scalars = {scalar};
  eval::evaluateReference(s, bindings);
  return out(0, 0, 0);
}

TEST(PointwiseChoice, ReferenceEvaluatorFollowsFminFmaxAndCComparisons) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ir::Stencil minmax = parsed("(min(a, b) + 10 * max(a, s)) * u");
  EXPECT_EQ(evaluateAt(minmax, 2, 3, 0.5), 2 + 10 * 2);
  EXPECT_EQ(evaluateAt(minmax, 4, 3, 5), 3 + 10 * 5);
  // fmin/fmax: a NaN operand yields the other.
  EXPECT_EQ(evaluateAt(minmax, nan, 3, 0.5), 3 + 10 * 0.5);

  ir::Stencil lt = parsed("(a < b ? 1 : 2) * u");
  EXPECT_EQ(evaluateAt(lt, 1, 2, 0), 1);
  EXPECT_EQ(evaluateAt(lt, 2, 2, 0), 2);
  EXPECT_EQ(evaluateAt(lt, nan, 2, 0), 2); // a comparison with NaN is false ...
  ir::Stencil ne = parsed("(a != b ? 1 : 2) * u");
  EXPECT_EQ(evaluateAt(ne, nan, 2, 0), 1); // ... except !=
  EXPECT_EQ(evaluateAt(ne, 2, 2, 0), 2);
  ir::Stencil ge = parsed("(a >= b ? a : b == s ? 5 : 7) * u");
  EXPECT_EQ(evaluateAt(ge, 3, 2, 0), 3);
  EXPECT_EQ(evaluateAt(ge, 1, 2, 2), 5);
  EXPECT_EQ(evaluateAt(ge, 1, 2, 3), 7);
  // Only the branch taken is evaluated: the other's division by zero does not matter.
  EXPECT_EQ(evaluateAt(parsed("(a > 0 ? a : 1 / b) * u"), 2, 0, 0), 2);
}

TEST(PointwiseChoice, CppSpellsThemWithFminFmaxAndParenthesisedConditionals) {
  backend::CExprNames names;
  names.scalar = [](int) { return std::string("s"); };
  names.field = [](int f, const ir::Offset &) { return std::string(f == A ? "a[x]" : "b[x]"); };
  names.table = [](int, int, int) { return std::string("t"); };
  ir::Stencil s =
      parsed("(a < b + 1 ? min(a, s) : 2 * max(a, b)) * (a == 1 ? 1 : b > 1 ? 2 : 3) * u");
  const Expr &product = *s.updates[0].rhs->operands[0];
  EXPECT_EQ(backend::printCExpr(product, names),
            "(a[x] < b[x] + Real(1) ? std::fmin(a[x], s) : Real(2) * std::fmax(a[x], b[x])) * "
            "(a[x] == Real(1) ? Real(1) : (b[x] > Real(1) ? Real(2) : Real(3)))");
}

} // namespace
} // namespace stencilc
