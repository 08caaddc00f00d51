//===- VerifierTest.cpp - Every IR invariant violation is caught -----------===//
#include "ir/Verifier.h"
#include "frontend/Frontend.h"
#include "ir/PointSetOps.h"
#include "ir/linear/LinearForm.h"
#include "ir/linear/LinearFormVerifier.h"

#include "passes/Linearize.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <filesystem>

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
ExprPtr tableAt(int table, int var, int indexField) {
  auto e = std::make_unique<Expr>(Kind::TableRef);
  e->id = table;
  e->sumVar = var;
  e->indexField = indexField;
  return e;
}
ExprPtr binary(Kind k, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>(k);
  e->operands.push_back(std::move(a));
  e->operands.push_back(std::move(b));
  return e;
}
ExprPtr sum(int pointSet, int var, ExprPtr body) {
  auto e = std::make_unique<Expr>(Kind::Sum);
  e->operands.push_back(std::move(body));
  e->pointSet = pointSet;
  e->sumVar = var;
  e->varName = "d";
  return e;
}
Field makeField(const char *name, FieldRole role) {
  Field f;
  f.name = name;
  f.role = role;
  return f;
}

enum { Prev = 0, Cur = 1, Next = 2, Vidx = 3, Vel = 4 };

/// A valid 2D ETE-like stencil: axes(1) | diagonals(1) under reflect x, reflect y,
/// swap x y; next = 2 * sum(d in S, C[d.class][vidx] * cur[d]) - prev.
Stencil ete2d() {
  Stencil s;
  s.name = "ete2d";
  s.dims = 2;
  s.order = 2;
  s.radius = 1;
  s.fields = {makeField("prev", FieldRole::Time), makeField("cur", FieldRole::Time),
              makeField("next", FieldRole::Output), makeField("vidx", FieldRole::Index),
              makeField("vel", FieldRole::Input)};
  s.fields[Next].overwrites = Prev;
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
  ExprPtr body = binary(Kind::Mul, tableAt(0, 0, Vidx), fieldAtPoint(Cur, 0));
  ExprPtr rhs =
      binary(Kind::Sub, binary(Kind::Mul, integer(2), sum(0, 0, std::move(body))), field(Prev));
  s.updates.push_back(Update{Next, std::move(rhs), {}});
  return s;
}

/// `rhs` added to the update: next = ... + rhs.
void addToUpdate(Stencil &s, ExprPtr rhs) {
  s.updates[0].rhs = binary(Kind::Add, std::move(s.updates[0].rhs), std::move(rhs));
}

std::string joined(const std::vector<std::string> &problems) {
  std::string text;
  for (const std::string &p : problems)
    text += p + "\n";
  return text;
}

::testing::AssertionResult hasProblem(const Stencil &s, const std::string &expected) {
  std::vector<std::string> problems;
  if (verifyStencil(s, problems))
    return ::testing::AssertionFailure() << "verifier accepted the stencil";
  for (const std::string &p : problems)
    if (p.find(expected) != std::string::npos)
      return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no problem mentions '" << expected << "':\n"
                                       << joined(problems);
}

//===- Stencil invariants --------------------------------------------------===//

TEST(Verifier, AcceptsValidStencil) {
  std::vector<std::string> problems;
  EXPECT_TRUE(verifyStencil(ete2d(), problems)) << joined(problems);
}

TEST(Verifier, HeaderInvariants) {
  Stencil s = ete2d();
  s.radius = 2;
  EXPECT_TRUE(hasProblem(s, "stencil 'ete2d': radius 2 is not order/2 = 1"));
  s = ete2d();
  s.dims = 4;
  EXPECT_TRUE(hasProblem(s, "dims is 4"));
}

TEST(Verifier, FieldReferences) {
  Stencil s = ete2d();
  addToUpdate(s, field(Next));
  EXPECT_TRUE(hasProblem(s, "update 0 ('next'): reads output field 'next'"));
  s = ete2d();
  addToUpdate(s, field(17));
  EXPECT_TRUE(hasProblem(s, "field #17 does not exist"));
  s = ete2d();
  addToUpdate(s, field(Vidx));
  EXPECT_TRUE(hasProblem(s, "index field 'vidx' read outside a table lookup"));
  s = ete2d();
  addToUpdate(s, fieldAtPoint(Cur, 0)); // d used outside its sum
  EXPECT_TRUE(hasProblem(s, "'cur' uses point variable #0 outside a sum binding it"));
}

TEST(Verifier, OffsetsWithinRadiusAndPlane) {
  Stencil s = ete2d();
  addToUpdate(s, field(Cur, {2, 0, 0}));
  EXPECT_TRUE(hasProblem(s, "reading 'cur': offset (2,0,0) is outside radius 1"));
  s = ete2d();
  addToUpdate(s, field(Cur, {0, 0, 1}));
  EXPECT_TRUE(hasProblem(s, "offset (0,0,1) has dz != 0 in a 2d stencil"));
  // A point variable plus an offset that leaves the radius.
  s = ete2d();
  ExprPtr shifted = fieldAtPoint(Cur, 1);
  shifted->offset = {1, 0, 0};
  addToUpdate(s, sum(0, 1, std::move(shifted)));
  EXPECT_TRUE(hasProblem(s, "offset (2,-1,0) is outside radius 1"));
}

TEST(Verifier, TableReferences) {
  Stencil s = ete2d();
  s.updates[0].rhs->operands[0]->operands[1]->operands[0]->operands[0]->indexField = Vel;
  EXPECT_TRUE(hasProblem(s, "table 'C' looked up with 'vel', which is not an index field"));

  s = ete2d();
  ExprPtr literal = tableAt(0, -1, Vidx);
  literal->row = 3;
  addToUpdate(s, binary(Kind::Mul, std::move(literal), field(Cur)));
  EXPECT_TRUE(hasProblem(s, "row 3 of table 'C', which has 3 rows"));

  s = ete2d();
  s.tables[0].rows = 2; // too few for d.class
  EXPECT_TRUE(hasProblem(s, "table 'C' has 2 rows, but 'S' has 3 classes"));
  EXPECT_TRUE(hasProblem(s, "table 'C': 2 rows, but 'S' has 3 classes"));

  s = ete2d();
  s.updates[0].rhs->operands[0]->operands[1]->operands[0]->operands[0]->rowIsClass = false;
  EXPECT_TRUE(hasProblem(s, "table 'C' has 3 rows, but 'S' has 9 points"));

  s = ete2d();
  s.tables[0].rowSource = Table::RowSource::Literal;
  s.tables[0].rows = 0;
  EXPECT_TRUE(hasProblem(s, "table 'C': 0 rows"));
}

TEST(Verifier, SumsAndArity) {
  Stencil s = ete2d();
  s.updates[0].rhs->operands[0]->operands[1]->pointSet = 5;
  EXPECT_TRUE(hasProblem(s, "sum over point set #5, which does not exist"));

  s = ete2d();
  addToUpdate(s, sum(0, 0, sum(0, 0, integer(1)))); // the inner sum rebinds d
  EXPECT_TRUE(hasProblem(s, "sum binds variable #0, which is invalid or already bound"));

  s = ete2d();
  s.updates[0].rhs->operands.pop_back();
  EXPECT_TRUE(hasProblem(s, "expression node with 1 operands, expected 2"));
}

TEST(Verifier, PointSetsSortedUniqueAndClassified) {
  Stencil s = ete2d();
  std::swap(s.pointSets[0].points[0], s.pointSets[0].points[1]);
  EXPECT_TRUE(
      hasProblem(s, "point set 'S': points not sorted and unique: (-1,-1,0) after (0,-1,0)"));

  s = ete2d();
  s.pointSets[0].points[1] = s.pointSets[0].points[0];
  EXPECT_TRUE(hasProblem(s, "points not sorted and unique: (-1,-1,0) after (-1,-1,0)"));

  s = ete2d();
  s.pointSets[0].classOf.pop_back();
  EXPECT_TRUE(hasProblem(s, "point set 'S': 8 classes for 9 points"));

  s = ete2d(); // swapping class ids 0 and 1 breaks numbering by first point
  for (int &c : s.pointSets[0].classOf)
    c = c == 0 ? 1 : c == 1 ? 0 : c;
  EXPECT_TRUE(hasProblem(s, "point (-1,-1,0) has class 1, expected at most 0"));

  s = ete2d();
  s.pointSets[0].numClasses = 4;
  EXPECT_TRUE(hasProblem(s, "numClasses is 4 but 3 classes are used"));

  s = ete2d(); // drop (1,1): no longer closed under reflections
  s.pointSets[0].points.pop_back();
  s.pointSets[0].classOf.pop_back();
  EXPECT_TRUE(hasProblem(
      s, "point set 'S': not closed under 'iso': missing (1,1,0), the image of (-1,-1,0)"));

  s = ete2d(); // the centre merged into the axis class
  s.pointSets[0].classOf[4] = 1;
  s.pointSets[0].numClasses = 2;
  EXPECT_TRUE(hasProblem(s, "classes are not the orbits of 'iso': point (0,0,0) has class 1"));

  s = ete2d();
  s.pointSets[0].symmetry = -1; // without a symmetry each point is its own class
  EXPECT_TRUE(hasProblem(s, "every point is its own class, but (1,-1,0) has class 0"));

  s = ete2d();
  s.pointSets[0].points.back() = {1, 2, 0};
  EXPECT_TRUE(hasProblem(s, "point set 'S': offset (1,2,0) is outside radius 1"));
}

TEST(Verifier, SymmetryAxes) {
  Stencil s = ete2d();
  s.symmetries[0].generators.push_back({SymmetryOp::Reflect, 2, 0});
  EXPECT_TRUE(hasProblem(s, "symmetry 'iso': axis out of range for a 2d grid"));
  s = ete2d();
  s.symmetries[0].generators.push_back({SymmetryOp::Swap, 1, 1});
  EXPECT_TRUE(hasProblem(s, "symmetry 'iso': swap of an axis with itself"));
}

TEST(Verifier, OneUpdatePerOutput) {
  Stencil s = ete2d();
  s.updates.push_back(Update{Next, field(Cur), {}});
  EXPECT_TRUE(hasProblem(s, "field 'next': output written by 2 updates, expected exactly 1"));
  s = ete2d();
  s.updates.clear();
  EXPECT_TRUE(hasProblem(s, "field 'next': output written by 0 updates"));
  s = ete2d();
  s.updates.push_back(Update{Cur, field(Cur), {}});
  EXPECT_TRUE(hasProblem(s, "update 1 ('cur'): writes 'cur', which is not an output field"));
}

TEST(Verifier, OverwritesOnlyCentreReadTimeField) {
  Stencil s = ete2d();
  addToUpdate(s, field(Prev, {1, 0, 0}));
  EXPECT_TRUE(
      hasProblem(s, "field 'next': overwrites 'prev', but update 0 reads it away from offset 0"));
  s = ete2d(); // overwriting the field read at every point of S
  s.fields[Next].overwrites = Cur;
  EXPECT_TRUE(hasProblem(s, "overwrites 'cur', but update 0 reads it away from offset 0"));
  s = ete2d();
  s.fields[Next].overwrites = Vel;
  EXPECT_TRUE(hasProblem(s, "field 'next': overwrites 'vel', which is not a time field"));
  s = ete2d();
  s.fields[Vel].overwrites = Prev;
  EXPECT_TRUE(hasProblem(s, "field 'vel': only an output field may overwrite another"));
}

TEST(Verifier, Derivatives) {
  Stencil s = ete2d();
  auto d = std::make_unique<Expr>(Kind::Deriv);
  d->deriv = DerivKind::Dxx;
  d->id = Cur;
  d->order = 4;
  addToUpdate(s, std::move(d));
  EXPECT_TRUE(hasProblem(s, "dxx('cur') of order 4 reaches beyond radius 1"));

  s = ete2d();
  d = std::make_unique<Expr>(Kind::Deriv);
  d->deriv = DerivKind::Dzz;
  d->id = Cur;
  addToUpdate(s, std::move(d));
  EXPECT_TRUE(hasProblem(s, "dzz in a 2d stencil"));

  s = ete2d();
  d = std::make_unique<Expr>(Kind::Deriv);
  d->id = Vidx;
  addToUpdate(s, std::move(d));
  EXPECT_TRUE(hasProblem(s, "derivative of index field 'vidx'"));
}

//===- Linear form invariants ---------------------------------------------===//

LinearStencil linearized(const Stencil &s) {
  llvm::SourceMgr sm;
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  DiagnosticEngine diag(sm, errs);
  std::optional<LinearStencil> linear = linearize(s, diag);
  EXPECT_TRUE(linear) << errs.str();
  return linear ? std::move(*linear) : LinearStencil{};
}

::testing::AssertionResult hasLinearProblem(const Stencil &s, const LinearStencil &linear,
                                            const std::string &expected) {
  std::vector<std::string> problems;
  if (verifyLinearForm(s, linear, problems))
    return ::testing::AssertionFailure() << "verifier accepted the linear form";
  for (const std::string &p : problems)
    if (p.find(expected) != std::string::npos)
      return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no problem mentions '" << expected << "':\n"
                                       << joined(problems);
}

TEST(VerifierLinearForm, AcceptsLinearizedStencil) {
  Stencil s = ete2d();
  std::vector<std::string> problems;
  EXPECT_TRUE(verifyLinearForm(s, linearized(s), problems)) << joined(problems);
}

TEST(VerifierLinearForm, TermsReadTimeFieldsWithinRadius) {
  Stencil s = ete2d();
  LinearStencil linear = linearized(s);
  linear.updates[0].terms[0].field = Vel;
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 0: field #4 is not a time field"));

  linear = linearized(s);
  linear.updates[0].terms.back().offset = {2, 1, 0};
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 9: offset (2,1,0) outside the grid radius"));

  linear = linearized(s);
  std::swap(linear.updates[0].terms[1].offset, linear.updates[0].terms[2].offset);
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 2: terms not sorted by field and offset"));

  linear = linearized(s);
  linear.updates[0].terms[2].offset = linear.updates[0].terms[1].offset;
  linear.updates[0].terms[2].factors[0]->row = 0;
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 2: duplicate of the previous term"));

  linear = linearized(s);
  linear.updates[0].terms[1].factors.push_back(field(Cur));
  EXPECT_TRUE(hasLinearProblem(s, linear, "reads field #1, which is not a coefficient field"));

  linear = linearized(s);
  linear.updates[0].pointwise = fieldAtPoint(Vel, 0);
  EXPECT_TRUE(hasLinearProblem(s, linear, "pointwise part: unresolved point variable"));
}

TEST(VerifierLinearForm, GroupsPartitionTerms) {
  Stencil s = ete2d();
  LinearStencil linear = linearized(s);
  CoefGroup &diagonals = linear.updates[0].groups[1];
  diagonals.terms.pop_back();
  diagonals.signs.pop_back();
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 9 is in no group"));

  linear = linearized(s);
  linear.updates[0].groups[1].signs[1] = -1;
  EXPECT_TRUE(hasLinearProblem(s, linear, "group 1: term 3 has coefficient 2, not -1 * 2"));

  linear = linearized(s);
  linear.updates[0].groups[2].terms[0] = 1; // term 1 now in groups 1 and 2
  EXPECT_TRUE(hasLinearProblem(s, linear, "group 2: term 1 is also in group 1"));

  linear = linearized(s);
  linear.updates[0].groups.pop_back();
  CoefGroup &axis = linear.updates[0].groups[2]; // the centre (term 5) joins the axis class
  axis.terms.insert(axis.terms.begin() + 2, 5);
  axis.signs.push_back(1);
  EXPECT_TRUE(hasLinearProblem(s, linear, "term 5 has different factors"));

  linear = linearized(s);
  linear.updates.clear();
  EXPECT_TRUE(hasLinearProblem(s, linear, "0 linear forms for 1 updates"));
}

//===- The frontend's output on the shipped examples ----------------------===//

TEST(VerifierExamples, EveryExampleVerifiesBeforeAndAfterLinearize) {
  std::filesystem::path dir = std::filesystem::path(STENCILC_SOURCE_DIR) / "dsl-examples";
  int files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".stencil")
      continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    auto buffer = llvm::MemoryBuffer::getFile(entry.path().string());
    ASSERT_TRUE(buffer);
    std::string errors;
    llvm::raw_string_ostream errs(errors);
    std::optional<Module> module =
        parseModuleFromString((*buffer)->getBuffer(), entry.path().filename().string(), errs);
    ASSERT_TRUE(module) << errs.str();
    for (const Stencil &s : module->stencils) {
      std::vector<std::string> problems;
      EXPECT_TRUE(verifyStencil(s, problems)) << s.name << ":\n" << joined(problems);
      LinearStencil linear = linearized(s);
      EXPECT_TRUE(verifyLinearForm(s, linear, problems)) << s.name << ":\n" << joined(problems);
    }
  }
  EXPECT_GE(files, 1);
}

} // namespace
