//===- LinearizeTest.cpp - Linear forms of hand-built updates -------------===//
#include "ir/PointSetOps.h"
#include "ir/linear/LinearForm.h"

#include "passes/Linearize.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace stencilc;
using ir::Expr;
using ir::ExprPtr;
using ir::FieldRole;
using ir::Offset;
using Kind = ir::Expr::Kind;

namespace {

//===- Builders for hand-written IR ---------------------------------------===//

ExprPtr number(double value, std::optional<Rational> exact, std::string spelling) {
  auto e = std::make_unique<Expr>(Kind::Number);
  e->number = value;
  e->exact = exact;
  e->spelling = std::move(spelling);
  return e;
}
ExprPtr integer(int64_t v) { return number(double(v), Rational(v), std::to_string(v)); }
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
ExprPtr fieldAtPoint(int id, int var) {
  ExprPtr e = field(id);
  e->sumVar = var;
  return e;
}
ExprPtr tableAtClass(int table, int var, int indexField) {
  auto e = std::make_unique<Expr>(Kind::TableRef);
  e->id = table;
  e->sumVar = var;
  e->rowIsClass = true;
  e->indexField = indexField;
  return e;
}
ExprPtr binary(Kind k, ExprPtr a, ExprPtr b, llvm::SMLoc loc = {}) {
  auto e = std::make_unique<Expr>(k, loc);
  e->operands.push_back(std::move(a));
  e->operands.push_back(std::move(b));
  return e;
}
ExprPtr unary(Kind k, ExprPtr a) {
  auto e = std::make_unique<Expr>(k);
  e->operands.push_back(std::move(a));
  return e;
}
ExprPtr sum(int pointSet, int var, ExprPtr body) {
  ExprPtr e = unary(Kind::Sum, std::move(body));
  e->pointSet = pointSet;
  e->sumVar = var;
  e->varName = "d";
  return e;
}
ExprPtr deriv(ir::DerivKind kind, int fieldId, int order) {
  auto e = std::make_unique<Expr>(Kind::Deriv);
  e->deriv = kind;
  e->id = fieldId;
  e->order = order;
  return e;
}

ir::Field makeField(const char *name, FieldRole role) {
  ir::Field f;
  f.name = name;
  f.role = role;
  return f;
}

/// A stencil with time fields u (0) and v (1), output w (2), input a (3),
/// scalar h (0); `rhs` is the single update `w = rhs`.
ir::Stencil simpleStencil(ExprPtr rhs, int dims = 2, int order = 4) {
  ir::Stencil s;
  s.name = "simple";
  s.dims = dims;
  s.order = order;
  s.radius = order / 2;
  s.fields = {makeField("u", FieldRole::Time), makeField("v", FieldRole::Time),
              makeField("w", FieldRole::Output), makeField("a", FieldRole::Input)};
  s.scalars.push_back(ir::Scalar{"h", {}});
  s.updates.push_back(ir::Update{2, std::move(rhs), {}});
  return s;
}

enum { U = 0, V = 1, W = 2, A = 3 };

/// ETE with `points` under reflections and (x,y) swap:
/// next = 2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev.
ir::Stencil eteStencil(int dims, std::vector<Offset> points) {
  ir::Stencil s;
  s.name = "ete";
  s.dims = dims;
  s.order = 8;
  s.radius = 4;
  s.fields = {makeField("prev", FieldRole::Time), makeField("cur", FieldRole::Time),
              makeField("next", FieldRole::Output), makeField("vidx", FieldRole::Index)};
  s.fields[2].overwrites = 0;
  ir::Symmetry iso{"iso", {{ir::SymmetryOp::Reflect, 0, 0}, {ir::SymmetryOp::Reflect, 1, 0}}, {}};
  if (dims == 3)
    iso.generators.push_back({ir::SymmetryOp::Reflect, 2, 0});
  iso.generators.push_back({ir::SymmetryOp::Swap, 0, 1});
  s.symmetries.push_back(iso);
  ir::PointSet ps;
  ps.name = "S";
  ps.points = std::move(points);
  ir::sortUnique(ps.points);
  ps.symmetry = 0;
  ps.numClasses = ir::orbitClasses(ps.points, ir::SymmetryGroup(iso, dims), ps.classOf);
  s.pointSets.push_back(ps);
  ir::Table table;
  table.name = "C";
  table.rowSource = ir::Table::RowSource::Classes;
  table.pointSet = 0;
  table.rows = ps.numClasses;
  s.tables.push_back(table);
  ExprPtr body = binary(Kind::Mul, tableAtClass(0, 0, 3), fieldAtPoint(1, 0));
  ExprPtr rhs =
      binary(Kind::Sub, binary(Kind::Mul, integer(2), sum(0, 0, std::move(body))), field(0));
  s.updates.push_back(ir::Update{2, std::move(rhs), {}});
  return s;
}

/// Runs linearize, keeping the diagnostics text.
struct Linearized {
  std::optional<LinearStencil> result;
  std::string errors;
};

Linearized run(const ir::Stencil &s, llvm::SourceMgr *sm = nullptr) {
  llvm::SourceMgr ownSm;
  Linearized out;
  llvm::raw_string_ostream errs(out.errors);
  DiagnosticEngine diag(sm ? *sm : ownSm, errs);
  out.result = linearize(s, diag);
  errs.flush();
  return out;
}

const Term *findTerm(const LinearForm &f, int fieldId, Offset o) {
  for (const Term &t : f.terms)
    if (t.field == fieldId && t.offset == o)
      return &t;
  return nullptr;
}

//===- Tests -------------------------------------------------------------===//

TEST(Linearize, Ete2DHasOneGroupPerClassPlusPrev) {
  ir::Stencil s = eteStencil(2, {{-1, -1, 0},
                                 {0, -1, 0},
                                 {1, -1, 0},
                                 {-1, 0, 0},
                                 {0, 0, 0},
                                 {1, 0, 0},
                                 {-1, 1, 0},
                                 {0, 1, 0},
                                 {1, 1, 0}});
  ASSERT_EQ(s.pointSets[0].numClasses, 3);
  Linearized lin = run(s);
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates.at(0);
  EXPECT_EQ(f.output, 2);
  EXPECT_EQ(f.pointwise, nullptr);
  ASSERT_EQ(f.terms.size(), 10u);
  // prev sorts first (field 0), then cur in point order.
  EXPECT_EQ(f.terms[0].field, 0);
  EXPECT_EQ(f.terms[0].coef, Coefficient(Rational(-1)));
  EXPECT_TRUE(f.terms[0].factors.empty());
  EXPECT_EQ(f.terms[1].offset, (Offset{-1, -1, 0}));
  EXPECT_EQ(f.terms[9].offset, (Offset{1, 1, 0}));

  ASSERT_EQ(f.groups.size(), 4u);
  EXPECT_EQ(f.groups[0].terms, std::vector<int>{0});
  // Each class's group: coefficient 2, one factor C[class][vidx], all signs +.
  for (int g = 1; g <= 3; ++g) {
    const CoefGroup &group = f.groups[g];
    EXPECT_EQ(group.coef, Coefficient(Rational(2)));
    EXPECT_EQ(group.signs, std::vector<int>(group.terms.size(), 1));
    const Term &first = f.terms[group.terms[0]];
    ASSERT_EQ(first.factors.size(), 1u);
    EXPECT_EQ(first.factors[0]->kind, Kind::TableRef);
    EXPECT_EQ(first.factors[0]->row, g - 1); // classes numbered by first point
    EXPECT_EQ(first.factors[0]->sumVar, -1);
  }
  EXPECT_EQ(f.groups[1].terms, (std::vector<int>{1, 3, 7, 9})); // diagonals
  EXPECT_EQ(f.groups[2].terms, (std::vector<int>{2, 4, 6, 8})); // axis points
  EXPECT_EQ(f.groups[3].terms, std::vector<int>{5});            // centre
}

TEST(Linearize, Ete37SummaryMatchesThePaper) {
  std::vector<Offset> points = ir::axesPoints(3, 4);
  for (const Offset &o : ir::diagonalPoints(3, 1))
    points.push_back(o);
  ir::Stencil s = eteStencil(3, points);
  ASSERT_EQ(s.pointSets[0].points.size(), 37u);
  Linearized lin = run(s);
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates.at(0);
  EXPECT_EQ(f.terms.size(), 38u);
  // 11 classes: centre, x/y axis at 1..4, z axis at 1..4, xy diagonals, xz/yz diagonals.
  EXPECT_EQ(s.pointSets[0].numClasses, 11);
  EXPECT_EQ(f.groups.size(), 12u);

  ReadSummary reads = summarizeReads(f);
  EXPECT_EQ(reads.points.size(), 38u);
  EXPECT_EQ(reads.pointsOf(1).size(), 37u);
  EXPECT_EQ(reads.offAxisPoints, 12);
  ASSERT_EQ(reads.planes.size(), 9u);
  EXPECT_EQ(reads.planes.front().dz, -4);
  EXPECT_EQ(reads.planes[3].dz, -1);
  EXPECT_EQ(reads.planes[3].reads.size(), 5u);  // (0,0) and the four (±1,0),(0,±1) diagonals
  EXPECT_EQ(reads.planes[4].reads.size(), 22u); // prev centre + 17 axis + 4 xy diagonals
  // Columns off the centre plane: (0,0) for the z axis and the four xz/yz diagonal columns.
  EXPECT_EQ(reads.offPlaneColumns, 5);
  EXPECT_EQ(summarizeReads(*lin.result).points.size(), 38u);
}

TEST(Linearize, EqualTermsMergeAndCancel) {
  // u[1,0]*a + a*u[1,0] - 3*u + u + 2*u  ->  2 * a * u[1,0]
  ExprPtr rhs = binary(Kind::Add, binary(Kind::Mul, field(U, {1, 0, 0}), field(A)),
                       binary(Kind::Mul, field(A), field(U, {1, 0, 0})));
  rhs = binary(Kind::Sub, std::move(rhs), binary(Kind::Mul, integer(3), field(U)));
  rhs = binary(Kind::Add, std::move(rhs), field(U));
  rhs = binary(Kind::Add, std::move(rhs), binary(Kind::Mul, integer(2), field(U)));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 1u);
  EXPECT_EQ(f.terms[0].offset, (Offset{1, 0, 0}));
  EXPECT_EQ(f.terms[0].coef, Coefficient(Rational(2)));
  ASSERT_EQ(f.terms[0].factors.size(), 1u);
  EXPECT_EQ(f.terms[0].factors[0]->id, A);
  ASSERT_EQ(f.groups.size(), 1u);
}

TEST(Linearize, SignedGroupsShareFactorsAndMagnitude) {
  // a*u[1,0] - a*u[-1,0] + v: u[-1,0] sorts first, so the group is -a * (u[-1,0] - u[1,0]).
  ExprPtr rhs = binary(Kind::Sub, binary(Kind::Mul, field(A), field(U, {1, 0, 0})),
                       binary(Kind::Mul, field(A), field(U, {-1, 0, 0})));
  rhs = binary(Kind::Add, std::move(rhs), field(V));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 3u);
  ASSERT_EQ(f.groups.size(), 2u);
  EXPECT_EQ(f.groups[0].terms, (std::vector<int>{0, 1}));
  EXPECT_EQ(f.groups[0].signs, (std::vector<int>{1, -1}));
  EXPECT_EQ(f.groups[0].coef, Coefficient(Rational(-1))); // the coefficient of u[-1,0]
  EXPECT_EQ(f.groups[1].terms, std::vector<int>{2});
}

TEST(Linearize, DivisionByPureExpressionBecomesReciprocalFactor) {
  // u[1,0] / (2 * h)  ->  1/2 * (1/h) * u[1,0]
  ExprPtr rhs = binary(Kind::Div, field(U, {1, 0, 0}), binary(Kind::Mul, integer(2), scalar(0)));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const Term &t = lin.result->updates[0].terms.at(0);
  EXPECT_EQ(t.coef, Coefficient(Rational(1, 2)));
  ASSERT_EQ(t.factors.size(), 1u);
  EXPECT_EQ(t.factors[0]->kind, Kind::Div);
  EXPECT_EQ(t.factors[0]->operands[1]->kind, Kind::ScalarRef);
}

TEST(Linearize, InexactLiteralsFallBackToDouble) {
  ExprPtr rhs = binary(Kind::Add, binary(Kind::Mul, number(0.1, std::nullopt, "0.1"), field(U)),
                       binary(Kind::Mul, number(0.25, Rational(1, 4), "0.25"), field(V)));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 2u);
  EXPECT_FALSE(f.terms[0].coef.isExact());
  EXPECT_DOUBLE_EQ(f.terms[0].coef.value(), 0.1);
  EXPECT_EQ(f.terms[0].coef.str(), "0.1");
  ASSERT_TRUE(f.terms[1].coef.isExact());
  EXPECT_EQ(*f.terms[1].coef.exact(), Rational(1, 4));
}

TEST(Linearize, PointwisePartKeepsTimeFreeTerms) {
  // u + a * h + 1  ->  terms {u}, pointwise a * h + 1
  ExprPtr rhs = binary(
      Kind::Add, binary(Kind::Add, field(U), binary(Kind::Mul, field(A), scalar(0))), integer(1));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 1u);
  ASSERT_NE(f.pointwise, nullptr);
  EXPECT_EQ(exprKey(*f.pointwise), "add(mul(f3[0,0,0],s0),n1)");
}

TEST(Linearize, LaplacianExpandsToWeightedPoints) {
  // a * laplacian(u, 2) in 2D: 5 points, centre -4.
  ExprPtr rhs = binary(Kind::Mul, field(A), deriv(ir::DerivKind::Laplacian, U, 2));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 5u);
  const Term *centre = findTerm(f, U, {0, 0, 0});
  ASSERT_NE(centre, nullptr);
  EXPECT_EQ(centre->coef, Coefficient(Rational(-4)));
  EXPECT_EQ(findTerm(f, U, {1, 0, 0})->coef, Coefficient(Rational(1)));
  // Groups: the four neighbours share a*1, the centre has a*(-4).
  ASSERT_EQ(f.groups.size(), 2u);
  EXPECT_EQ(f.groups[0].terms.size(), 4u);
}

TEST(Linearize, CrossDerivativeHasSignedDiagonalGroup) {
  ExprPtr rhs = deriv(ir::DerivKind::Dxy, U, 2);
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const LinearForm &f = lin.result->updates[0];
  ASSERT_EQ(f.terms.size(), 4u);
  ASSERT_EQ(f.groups.size(), 1u);
  EXPECT_EQ(f.groups[0].coef, Coefficient(Rational(1, 4))); // u(-1,-1) comes first
  EXPECT_EQ(f.groups[0].signs, (std::vector<int>{1, -1, -1, 1}));
}

TEST(Linearize, DerivativeOfCoefficientFieldIsPointwise) {
  ExprPtr rhs = binary(Kind::Mul, deriv(ir::DerivKind::Dxx, A, 2), field(U));
  Linearized lin = run(simpleStencil(std::move(rhs)));
  ASSERT_TRUE(lin.result) << lin.errors;
  const Term &t = lin.result->updates[0].terms.at(0);
  ASSERT_EQ(t.factors.size(), 1u);
  // dxx(a) = a[-1,0] - 2*a[0,0] + a[1,0], one non-linear factor.
  EXPECT_EQ(exprKey(*t.factors[0]), "add(sub(f3[-1,0,0],mul(n2,f3[0,0,0])),f3[1,0,0])");
}

TEST(Linearize, NonLinearUpdatesAreLocatedErrors) {
  llvm::SourceMgr sm;
  const char *text = "w = u * v;\n";
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "t.stencil"), llvm::SMLoc());
  llvm::SMLoc star = llvm::SMLoc::getFromPointer(sm.getMemoryBuffer(1)->getBufferStart() + 6);
  Linearized product = run(simpleStencil(binary(Kind::Mul, field(U), field(V), star)), &sm);
  EXPECT_FALSE(product.result);
  EXPECT_NE(product.errors.find("t.stencil:1:7: error: update of 'w' is not linear in the time "
                                "fields: product of two expressions that read time fields"),
            std::string::npos)
      << product.errors;

  Linearized quotient = run(simpleStencil(binary(Kind::Div, field(A), field(U))));
  EXPECT_FALSE(quotient.result);
  EXPECT_NE(quotient.errors.find("division by an expression that reads a time field"),
            std::string::npos);

  ExprPtr call = unary(Kind::Call, field(U, {1, 0, 0}));
  call->func = ir::FuncKind::Sin;
  Linearized function = run(simpleStencil(std::move(call)));
  EXPECT_FALSE(function.result);
  EXPECT_NE(function.errors.find("sin() of an expression that reads a time field"),
            std::string::npos);

  Linearized zero = run(simpleStencil(binary(Kind::Div, field(U), integer(0))));
  EXPECT_FALSE(zero.result);
  EXPECT_NE(zero.errors.find("division by zero"), std::string::npos);
}

TEST(Linearize, PureFunctionOfCoefficientsIsAFactor) {
  ExprPtr call = unary(Kind::Call, field(A));
  call->func = ir::FuncKind::Sqrt;
  Linearized lin = run(simpleStencil(binary(Kind::Mul, std::move(call), field(U))));
  ASSERT_TRUE(lin.result) << lin.errors;
  EXPECT_EQ(exprKey(*lin.result->updates[0].terms.at(0).factors.at(0)), "sqrt(f3[0,0,0])");
}

} // namespace
