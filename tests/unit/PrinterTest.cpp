//===- PrinterTest.cpp - DSL expressions and the dump-ir layout -----------===//
#include "ir/Printer.h"
#include "ir/PointSetOps.h"
#include "ir/linear/LinearForm.h"
#include "ir/linear/LinearFormPrinter.h"
#include "passes/Linearize.h"

#include <gtest/gtest.h>

using namespace stencilc;
using namespace stencilc::ir;
using Kind = Expr::Kind;

namespace {

//===- Builders for hand-written IR ---------------------------------------===//

ExprPtr integer(int64_t v) {
  auto e = std::make_unique<Expr>(Kind::Number);
  e->number = double(v);
  e->exact = Rational(v);
  e->spelling = std::to_string(v);
  return e;
}
ExprPtr scalar(int id) {
  auto e = std::make_unique<Expr>(Kind::ScalarRef);
  e->id = id;
  return e;
}
ExprPtr field(int id, Offset offset = {0, 0, 0}) {
  auto e = std::make_unique<Expr>(Kind::FieldRef);
  e->id = id;
  e->offset = offset;
  return e;
}
ExprPtr binary(Kind k, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>(k);
  e->operands.push_back(std::move(a));
  e->operands.push_back(std::move(b));
  return e;
}
ExprPtr unary(Kind k, ExprPtr a) {
  auto e = std::make_unique<Expr>(k);
  e->operands.push_back(std::move(a));
  return e;
}
ExprPtr deriv(DerivKind kind, int fieldId, int order) {
  auto e = std::make_unique<Expr>(Kind::Deriv);
  e->deriv = kind;
  e->id = fieldId;
  e->order = order;
  return e;
}
Field makeField(const char *name, FieldRole role) {
  Field f;
  f.name = name;
  f.role = role;
  return f;
}

/// 2D ETE-like: axes(1) | diagonals(1) under reflect x, reflect y, swap x y;
/// next = 2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev.
Stencil ete2d() {
  Stencil s;
  s.name = "ete2d";
  s.dims = 2;
  s.order = 2;
  s.radius = 1;
  s.radiusDeclared = true;
  s.fields = {makeField("prev", FieldRole::Time), makeField("cur", FieldRole::Time),
              makeField("next", FieldRole::Output), makeField("vidx", FieldRole::Index)};
  s.fields[2].overwrites = 0;
  s.fields[3].indexType = IndexType::UInt16;
  s.symmetries.push_back(
      Symmetry{"iso",
               {{SymmetryOp::Reflect, 0, 0}, {SymmetryOp::Reflect, 1, 0}, {SymmetryOp::Swap, 0, 1}},
               {}});
  PointSet ps;
  ps.name = "S";
  ps.points = axesPoints(2, 1);
  for (const Offset &o : diagonalPoints(2, 1))
    ps.points.push_back(o);
  sortUnique(ps.points);
  ps.symmetry = 0;
  ps.numClasses = orbitClasses(ps.points, SymmetryGroup(s.symmetries[0], 2), ps.classOf);
  s.pointSets.push_back(ps);
  Table c;
  c.name = "C";
  c.rowSource = Table::RowSource::Classes;
  c.pointSet = 0;
  c.rows = ps.numClasses;
  s.tables.push_back(c);

  auto lookup = std::make_unique<Expr>(Kind::TableRef);
  lookup->id = 0;
  lookup->sumVar = 0;
  lookup->indexField = 3;
  ExprPtr point = field(1);
  point->sumVar = 0;
  ExprPtr sum = unary(Kind::Sum, binary(Kind::Mul, std::move(lookup), std::move(point)));
  sum->pointSet = 0;
  sum->sumVar = 0;
  sum->varName = "d";
  ExprPtr rhs = binary(Kind::Sub, binary(Kind::Mul, integer(2), std::move(sum)), field(0));
  s.updates.push_back(Update{2, std::move(rhs), {}});
  return s;
}

/// 2D acoustic: w = 2 * u - v + a / (h * h) * laplacian(u, 2), plus a
/// symmetry-free point set and a literal table to show their layout.
Stencil acoustic2d() {
  Stencil s;
  s.name = "acoustic";
  s.dims = 2;
  s.elemType = ElemType::Double;
  s.radius = 1;
  s.fields = {makeField("u", FieldRole::Time), makeField("v", FieldRole::Time),
              makeField("w", FieldRole::Output), makeField("a", FieldRole::Input)};
  s.scalars = {Scalar{"h", {}}, Scalar{"dt", {}}};
  PointSet ps;
  ps.name = "B";
  ps.points = {{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  ps.classOf = {0, 1, 2};
  ps.numClasses = 3;
  s.pointSets.push_back(ps);
  Table k;
  k.name = "K";
  k.rows = 2;
  s.tables.push_back(k);
  ExprPtr scale = binary(Kind::Div, field(3), binary(Kind::Mul, scalar(0), scalar(0)));
  ExprPtr rhs = binary(Kind::Sub, binary(Kind::Mul, integer(2), field(0)), field(1));
  rhs = binary(Kind::Add, std::move(rhs),
               binary(Kind::Mul, std::move(scale), deriv(DerivKind::Laplacian, 0, 2)));
  s.updates.push_back(Update{2, std::move(rhs), {}});
  return s;
}

std::string dumpWithLinearForm(const Stencil &s) {
  llvm::SourceMgr sm;
  std::string errors, text;
  llvm::raw_string_ostream errs(errors), os(text);
  DiagnosticEngine diag(sm, errs);
  std::optional<LinearStencil> linear = linearize(s, diag);
  EXPECT_TRUE(linear) << errs.str();
  if (linear)
    printStencilWithLinearForm(s, *linear, os);
  return os.str();
}

//===- Tests -------------------------------------------------------------===//

TEST(Printer, ExpressionsUseMinimalParentheses) {
  Stencil s = acoustic2d();
  auto text = [&](const ExprPtr &e) { return exprToString(s, *e); };
  // a - (u - v) vs a - u - v
  EXPECT_EQ(text(binary(Kind::Sub, field(3), binary(Kind::Sub, field(0), field(1)))),
            "a - (u - v)");
  EXPECT_EQ(text(binary(Kind::Sub, binary(Kind::Sub, field(3), field(0)), field(1))), "a - u - v");
  EXPECT_EQ(text(binary(Kind::Mul, binary(Kind::Add, field(3), scalar(0)), field(0, {1, 0, 0}))),
            "(a + h) * u[1,0]");
  EXPECT_EQ(text(binary(Kind::Add, field(3), binary(Kind::Mul, scalar(0), scalar(1)))),
            "a + h * dt");
  EXPECT_EQ(text(binary(Kind::Div, field(3), binary(Kind::Mul, scalar(0), scalar(0)))),
            "a / (h * h)");
  EXPECT_EQ(text(binary(Kind::Div, binary(Kind::Mul, field(3), scalar(0)), scalar(0))),
            "a * h / h");
  EXPECT_EQ(text(unary(Kind::Neg, binary(Kind::Mul, field(3), field(0)))), "-(a * u)");
  EXPECT_EQ(text(binary(Kind::Mul, unary(Kind::Neg, field(3)), field(0))), "-a * u");
  EXPECT_EQ(text(unary(Kind::Neg, unary(Kind::Neg, field(3)))), "-(-a)");
  EXPECT_EQ(text(binary(Kind::Sub, field(0), unary(Kind::Neg, field(1)))), "u - -v");

  ExprPtr call = unary(Kind::Call, binary(Kind::Add, field(3), integer(1)));
  call->func = FuncKind::Sqrt;
  EXPECT_EQ(text(binary(Kind::Mul, std::move(call), deriv(DerivKind::Dxx, 0, 4))),
            "sqrt(a + 1) * dxx(u, 4)");

  auto quarter = std::make_unique<Expr>(Kind::Number);
  quarter->number = 0.25;
  quarter->exact = Rational(1, 4);
  quarter->spelling = ".25"; // numbers print as written
  EXPECT_EQ(text(quarter), ".25");
}

TEST(Printer, SumVariablesAndTableRows) {
  Stencil s = ete2d();
  EXPECT_EQ(exprToString(s, *s.updates[0].rhs),
            "2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev");
  auto row = std::make_unique<Expr>(Kind::TableRef);
  row->id = 0;
  row->row = 2;
  row->indexField = 3;
  EXPECT_EQ(exprToString(s, *row), "C[2][vidx]");
  EXPECT_EQ(offsetToString(s, {1, -1, 0}), "[1,-1]");
}

TEST(Printer, Ete2DDumpWithLinearForm) {
  EXPECT_EQ(dumpWithLinearForm(ete2d()), R"(stencil ete2d: grid 2d, type float, order 2, radius 1
  field prev : time
  field cur : time
  field next : out overwrites prev
  field vidx : index uint16
  symmetry iso = reflect x, reflect y, swap x y
  points S: 9 points, 3 classes, under iso
    dz=0: (-1,-1)#0 (0,-1)#1 (1,-1)#0 (-1,0)#1 (0,0)#2 (1,0)#1 (-1,1)#0 (0,1)#1 (1,1)#0
    class 0: size 4, rep (-1,-1)
    class 1: size 4, rep (0,-1)
    class 2: size 1, rep (0,0)
  table C[classes(S)]: 3 rows
  update next = 2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev
    reads prev: 1 point, 0 off-axis
      dz=0: (0,0)
    reads cur: 9 points, 4 off-axis
      dz=0: (-1,-1) (0,-1) (1,-1) (-1,0) (0,0) (1,0) (-1,1) (0,1) (1,1)
    g0: -prev[0,0]
    g1: 2 * C[0][vidx] * (cur[-1,-1] + cur[1,-1] + cur[-1,1] + cur[1,1])
    g2: 2 * C[1][vidx] * (cur[0,-1] + cur[-1,0] + cur[1,0] + cur[0,1])
    g3: 2 * C[2][vidx] * cur[0,0]
    pointwise: none
    counts: 10 points, 4 off-axis, 0 off-plane columns, 4 groups, 10 terms
)");
}

TEST(Printer, AcousticDumpWithReciprocalFactors) {
  EXPECT_EQ(dumpWithLinearForm(acoustic2d()),
            R"(stencil acoustic: grid 2d, type double, order none, radius 1
  field u : time
  field v : time
  field w : out
  field a : in
  scalar h, dt
  points B: 3 points, 3 classes
    dz=0: (-1,0)#0 (0,0)#1 (1,0)#2
    classes: one per point
  table K[2]: 2 rows
  update w = 2 * u - v + a / (h * h) * laplacian(u, 2)
    reads u: 5 points, 0 off-axis
      dz=0: (0,-1) (-1,0) (0,0) (1,0) (0,1)
    reads v: 1 point, 0 off-axis
      dz=0: (0,0)
    g0: a / h / h * (u[0,-1] + u[-1,0] + u[1,0] + u[0,1])
    g1: 2 * u[0,0]
    g2: -4 * a / h / h * u[0,0]
    g3: -v[0,0]
    pointwise: none
    counts: 6 points, 0 off-axis, 0 off-plane columns, 4 groups, 7 terms
)");
}

TEST(Printer, ModuleSeparatesStencilsAndPrintsUpdatesAsWritten) {
  Module m;
  m.stencils.push_back(ete2d());
  m.stencils.push_back(acoustic2d());
  std::string text;
  llvm::raw_string_ostream os(text);
  printModule(m, os);
  EXPECT_NE(os.str().find("table C[classes(S)]: 3 rows\n"
                          "  update next = 2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev\n"
                          "\nstencil acoustic:"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("g0:"), std::string::npos); // no linear form without one
}

} // namespace
