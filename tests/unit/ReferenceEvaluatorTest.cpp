//===- ReferenceEvaluatorTest.cpp - The oracle against hand computation ---===//
//
// The stencils here are built as IR by hand, so that the oracle is checked
// independently of the frontend it will later be used to check.
//
//===----------------------------------------------------------------------===//
#include "eval/ReferenceEvaluator.h"
#include "eval/RelativeError.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace stencilc;
using namespace stencilc::eval;
using ir::Expr;
using ir::ExprPtr;
using ir::FieldRole;

namespace {

// Small builders for expression trees.
ExprPtr number(double v) {
  auto e = std::make_unique<Expr>(Expr::Kind::Number);
  e->number = v;
  return e;
}
ExprPtr scalarRef(int id) {
  auto e = std::make_unique<Expr>(Expr::Kind::ScalarRef);
  e->id = id;
  return e;
}
ExprPtr fieldRef(int id, ir::Offset offset = {0, 0, 0}) {
  auto e = std::make_unique<Expr>(Expr::Kind::FieldRef);
  e->id = id;
  e->offset = offset;
  return e;
}
/// `p[d]`: field `id` at the point bound to `sumVar`.
ExprPtr fieldAtSumPoint(int id, int sumVar) {
  auto e = fieldRef(id);
  e->sumVar = sumVar;
  return e;
}
/// `C[d.class][idx]` (rowIsClass) or `C[d.point][idx]`.
ExprPtr tableAtSumPoint(int table, int sumVar, bool rowIsClass, int indexField) {
  auto e = std::make_unique<Expr>(Expr::Kind::TableRef);
  e->id = table;
  e->sumVar = sumVar;
  e->rowIsClass = rowIsClass;
  e->indexField = indexField;
  return e;
}
ExprPtr binary(Expr::Kind kind, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>(kind);
  e->operands.push_back(std::move(a));
  e->operands.push_back(std::move(b));
  return e;
}
ExprPtr add(ExprPtr a, ExprPtr b) { return binary(Expr::Kind::Add, std::move(a), std::move(b)); }
ExprPtr sub(ExprPtr a, ExprPtr b) { return binary(Expr::Kind::Sub, std::move(a), std::move(b)); }
ExprPtr mul(ExprPtr a, ExprPtr b) { return binary(Expr::Kind::Mul, std::move(a), std::move(b)); }
ExprPtr sum(int pointSet, int sumVar, ExprPtr body) {
  auto e = std::make_unique<Expr>(Expr::Kind::Sum);
  e->pointSet = pointSet;
  e->sumVar = sumVar;
  e->operands.push_back(std::move(body));
  return e;
}
ExprPtr call(ir::FuncKind func, ExprPtr a) {
  auto e = std::make_unique<Expr>(Expr::Kind::Call);
  e->func = func;
  e->operands.push_back(std::move(a));
  return e;
}
ExprPtr deriv(ir::DerivKind kind, int field, int order) {
  auto e = std::make_unique<Expr>(Expr::Kind::Deriv);
  e->deriv = kind;
  e->id = field;
  e->order = order;
  return e;
}

int addField(ir::Stencil &s, const std::string &name, FieldRole role) {
  ir::Field f;
  f.name = name;
  f.role = role;
  s.fields.push_back(f);
  return int(s.fields.size()) - 1;
}

void addUpdate(ir::Stencil &s, int output, ExprPtr rhs) {
  ir::Update u;
  u.output = output;
  u.rhs = std::move(rhs);
  s.updates.push_back(std::move(u));
}

/// out = c * (u[-1,0] + u[1,0] + u[0,-1] + u[0,1] - 4 u[0,0]): the 5-point
/// Laplacian with literal weights, scaled by a scalar (1/h^2 in real use).
ir::Stencil laplacian5() {
  ir::Stencil s;
  s.name = "lap5";
  s.dims = 2;
  s.elemType = ir::ElemType::Double;
  s.radius = 1;
  int u = addField(s, "u", FieldRole::Time);
  int out = addField(s, "out", FieldRole::Output);
  s.scalars.push_back({"c", {}});
  ExprPtr neighbours =
      add(add(add(fieldRef(u, {-1, 0, 0}), fieldRef(u, {1, 0, 0})), fieldRef(u, {0, -1, 0})),
          fieldRef(u, {0, 1, 0}));
  ExprPtr star = sub(std::move(neighbours), mul(number(4), fieldRef(u)));
  addUpdate(s, out, mul(scalarRef(0), std::move(star)));
  return s;
}

/// The ETE update (docs/DESIGN.md §ETE coefficients [1]) on the 2D 5-point star with classes
/// {centre, axis}:
///   p_next = 2 * sum(d in S, C[d.class][vidx] * p_cur[d]) - p_prev
ir::Stencil ete5() {
  ir::Stencil s;
  s.name = "ete5";
  s.dims = 2;
  s.elemType = ir::ElemType::Float;
  s.radius = 1;
  int prev = addField(s, "p_prev", FieldRole::Time);
  int cur = addField(s, "p_cur", FieldRole::Time);
  int next = addField(s, "p_next", FieldRole::Output);
  int vidx = addField(s, "vidx", FieldRole::Index);
  s.fields[vidx].indexType = ir::IndexType::UInt8;

  ir::PointSet star;
  star.name = "S";
  // Sorted by y, then x; the classes are the orbits of the square's symmetry.
  star.points = {{0, -1, 0}, {-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  star.classOf = {0, 0, 1, 0, 0};
  star.numClasses = 2;
  s.pointSets.push_back(star);

  ir::Table table;
  table.name = "C";
  table.rowSource = ir::Table::RowSource::Classes;
  table.pointSet = 0;
  table.rows = 2;
  s.tables.push_back(table);

  const int d = 0; // the sum variable
  ExprPtr term = mul(tableAtSumPoint(0, d, /*rowIsClass=*/true, vidx), fieldAtSumPoint(cur, d));
  addUpdate(s, next, sub(mul(number(2), sum(0, d, std::move(term))), fieldRef(prev)));
  return s;
}

} // namespace

TEST(ReferenceEvaluatorTest, FivePointLaplacianOfACubic) {
  ir::Stencil s = laplacian5();
  EXPECT_EQ(stencilReach(s), 1);
  rt::Grid<double> u = rt::Grid<double>::make2d(9, 6, 1);
  // The 5-point star is exact for cubics: the Laplacian of
  // i^3 + 3 i j^2 - j is 6i + 6i = 12 i, times c = 0.5.
  u.fillWith([](int i, int j, int) { return i * i * i + 3.0 * i * j * j - j; });
  rt::Grid<double> out = rt::Grid<double>::make2d(9, 6, 0);
  out.poison();
  EvalBindings b;
  b.inputs = {&u, nullptr};
  b.outputs = {nullptr, &out};
  b.indexFields = {nullptr, nullptr};
  b.scalars = {0.5};
  evaluateReference(s, b);
  out.forEachInteriorPoint([&](int i, int j, int k) { EXPECT_EQ(out(i, j, k), 6.0 * i); });
}

TEST(ReferenceEvaluatorTest, SumWithClassTableLookupMatchesHandComputation) {
  ir::Stencil s = ete5();
  EvalData data = makeRandomEvalData(s, {7, 5, 1, /*tableColumns=*/6}, /*seed=*/2024);
  EvalBindings b = data.bindings();
  evaluateReference(s, b);

  const rt::Grid<double> &prev = *data.grids[0], &cur = *data.grids[1], &next = *data.grids[2];
  const rt::Grid<int32_t> &vidx = *data.indexGrids[3];
  const rt::CoefficientTable<double> &C = *data.tables[0];
  int columnsSeen = 0;
  next.forEachInteriorPoint([&](int i, int j, int k) {
    const int v = vidx(i, j);
    columnsSeen |= 1 << v;
    // The points in S's order: (0,-1) (-1,0) (0,0) (1,0) (0,1); the centre is class 1.
    double total = 0;
    total += C(0, v) * cur(i, j - 1);
    total += C(0, v) * cur(i - 1, j);
    total += C(1, v) * cur(i, j);
    total += C(0, v) * cur(i + 1, j);
    total += C(0, v) * cur(i, j + 1);
    EXPECT_EQ(next(i, j, k), 2 * total - prev(i, j)) << "at (" << i << ", " << j << ")";
  });
  EXPECT_EQ(columnsSeen, 0b111111); // every column was exercised
}

TEST(ReferenceEvaluatorTest, PointRowsAndNestedOperations) {
  // out = sum(d in P, W[d.point][idx] * u[d + (0,0,1)]) + sin(a) * dzz(u, 2) in 3D.
  ir::Stencil s;
  s.dims = 3;
  s.elemType = ir::ElemType::Double;
  int u = addField(s, "u", FieldRole::Time);
  int a = addField(s, "a", FieldRole::Input);
  int idx = addField(s, "idx", FieldRole::Index);
  int out = addField(s, "out", FieldRole::Output);
  ir::PointSet p;
  p.name = "P";
  p.points = {{1, 0, -1}, {0, 0, 0}, {0, 2, 0}};
  p.classOf = {0, 1, 2};
  p.numClasses = 3;
  s.pointSets.push_back(p);
  ir::Table w;
  w.name = "W";
  w.rowSource = ir::Table::RowSource::Points;
  w.pointSet = 0;
  w.rows = 3;
  s.tables.push_back(w);
  ExprPtr shifted = fieldAtSumPoint(u, 0);
  shifted->offset = {0, 0, 1};
  ExprPtr body = mul(tableAtSumPoint(0, 0, /*rowIsClass=*/false, idx), std::move(shifted));
  addUpdate(s, out,
            add(sum(0, 0, std::move(body)),
                mul(call(ir::FuncKind::Sin, fieldRef(a)), deriv(ir::DerivKind::Dzz, u, 2))));
  EXPECT_EQ(stencilReach(s), 2); // (0, 2, 1) from the sum

  EvalData data = makeRandomEvalData(s, {4, 5, 3, 5}, 7);
  evaluateReference(s, data.bindings());
  const rt::Grid<double> &U = *data.grids[u], &A = *data.grids[a], &Out = *data.grids[out];
  const rt::Grid<int32_t> &Idx = *data.indexGrids[idx];
  const rt::CoefficientTable<double> &W = *data.tables[0];
  Out.forEachInteriorPoint([&](int i, int j, int k) {
    const int c = Idx(i, j, k);
    double total = 0;
    total += W(0, c) * U(i + 1, j, k - 1 + 1);
    total += W(1, c) * U(i, j, k + 1);
    total += W(2, c) * U(i, j + 2, k + 1);
    double dzz = U(i, j, k - 1) - 2 * U(i, j, k) + U(i, j, k + 1);
    EXPECT_NEAR(Out(i, j, k), total + std::sin(A(i, j, k)) * dzz, 1e-14);
  });
}

TEST(ReferenceEvaluatorTest, RandomDataIsReproducibleAndFloatRepresentable) {
  ir::Stencil s = ete5();
  EvalData a = makeRandomEvalData(s, {6, 4, 1, 200}, 1);
  EvalData b = makeRandomEvalData(s, {6, 4, 1, 200}, 1);
  EXPECT_EQ(a.grids[1]->halo(), 1); // the stencil's reach
  a.grids[1]->forEachPointWithHalo([&](int i, int j, int k) {
    double v = (*a.grids[1])(i, j, k);
    EXPECT_EQ(v, (*b.grids[1])(i, j, k));
    EXPECT_EQ(v, double(float(v))); // a float kernel sees the same number
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    EXPECT_TRUE(std::isnan((*a.grids[2])(i, j, k))); // outputs start poisoned
    EXPECT_GE((*a.indexGrids[3])(i, j, k), 0);
    EXPECT_LT((*a.indexGrids[3])(i, j, k), 200);
  });
  EXPECT_EQ(a.tables[0]->at(1, 3), double(float(a.tables[0]->at(1, 3))));
  // 300 columns do not fit the uint8 index field vidx.
  EXPECT_THROW(makeRandomEvalData(s, {6, 4, 1, 300}, 1), EvalError);
}

namespace {
/// Runs `f`, expecting an EvalError whose message contains `fragment`.
template <typename F> void expectEvalError(F &&f, const std::string &fragment) {
  try {
    f();
    ADD_FAILURE() << "no EvalError; expected one mentioning '" << fragment << "'";
  } catch (const EvalError &e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}
/// How bench judges a kernel: normwise over the interior, the halo ignored,
/// and a NaN anywhere in the interior (a point no variant wrote) infinite.
TEST(RelativeError, NormwiseOverTheInteriorAndInfiniteForANaN) {
  const rt::GridShape shape{3, 5, 4, 3, 2};
  rt::Grid<double> expect(shape);
  rt::Grid<float> got(shape);
  expect.fillWith([](int i, int j, int k) { return 1 + i + 2 * j + 3 * k; });
  got.fillWith([](int i, int j, int k) { return 1 + i + 2 * j + 3 * k; });
  got(-1, 0, 0) = 1e30f; // the halo does not count
  EXPECT_EQ(relativeError(got, expect), 0.0);
  double norm2 = 0;
  expect.forEachInteriorPoint(
      [&](int i, int j, int k) { norm2 += expect(i, j, k) * expect(i, j, k); });
  got(2, 1, 1) += 3;
  EXPECT_DOUBLE_EQ(relativeError(got, expect), std::sqrt(9 / norm2));
  got(4, 3, 2) = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(relativeError(got, expect), std::numeric_limits<double>::infinity());
  // A reference that read a NaN fails as well, rather than giving a NaN that max() would drop.
  got(4, 3, 2) = 1;
  expect(0, 0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(relativeError(got, expect), std::numeric_limits<double>::infinity());
}

} // namespace

TEST(ReferenceEvaluatorTest, BadBindingsAreClearErrors) {
  ir::Stencil s = ete5();
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8}, 3);
    (*data.indexGrids[3])(2, 1) = 8; // one past the last column
    expectEvalError([&] { evaluateReference(s, data.bindings()); }, "vidx");
  }
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8, /*halo=*/0}, 3);
    expectEvalError([&] { evaluateReference(s, data.bindings()); }, "halo");
  }
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8}, 3);
    data.tables[0] = std::make_unique<rt::CoefficientTable<double>>(3, 8);
    expectEvalError([&] { evaluateReference(s, data.bindings()); }, "rows");
  }
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8}, 3);
    data.grids[0] = std::make_unique<rt::Grid<double>>(rt::Grid<double>::make2d(5, 4, 1));
    expectEvalError([&] { evaluateReference(s, data.bindings()); }, "p_prev");
  }
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8}, 3);
    EvalBindings b = data.bindings();
    b.outputs[2] = data.grids[1].get(); // writing p_next over p_cur, which is read
    expectEvalError([&] { evaluateReference(s, b); }, "shares");
  }
  {
    EvalData data = makeRandomEvalData(s, {6, 4, 1, 8}, 3);
    EvalBindings b = data.bindings();
    b.scalars.push_back(1.0);
    expectEvalError([&] { evaluateReference(s, b); }, "scalars");
  }
}
