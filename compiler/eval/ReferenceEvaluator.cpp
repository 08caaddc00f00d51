//===- ReferenceEvaluator.cpp - The oracle for every generated kernel ------===//
//
// A tree-walking interpreter over ir::Expr. Each node is evaluated exactly as
// docs/DSL.md defines it; the only precomputation is the derivative weights
// (exact rationals from Fornberg's algorithm, converted to double once per
// Deriv node because recomputing them per point would make the oracle slow
// without making it any more obviously right).
//
//===----------------------------------------------------------------------===//
#include "eval/ReferenceEvaluator.h"

#include "math/FiniteDifference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace stencilc::eval {
namespace {

using ir::Expr;
using ir::FieldRole;
using ir::Offset;

Offset addOffsets(const Offset &a, const Offset &b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}

std::string pointText(int i, int j, int k) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + ")";
}

/// A derivative expanded into plain (offset, weight) pairs.
using DerivativeStencil = std::vector<std::pair<Offset, double>>;

DerivativeStencil expandToDouble(const ir::Stencil &stencil, const Expr &deriv) {
  // The frontend fills in the stencil's order for `dxx(u)`; accept a bare 0
  // too, so that hand-built IR means what the DSL text would mean.
  int order = deriv.order > 0 ? deriv.order : stencil.order;
  if (order <= 0)
    throw EvalError(std::string(ir::derivKindName(deriv.deriv)) + " of field '" +
                    stencil.fields.at(deriv.id).name + "' has no accuracy order");
  std::vector<WeightedOffset> weighted;
  try {
    weighted = expandDerivative(deriv.deriv, order, stencil.dims);
  } catch (const std::exception &e) {
    throw EvalError(std::string("cannot expand ") + ir::derivKindName(deriv.deriv) + " of order " +
                    std::to_string(order) + ": " + e.what());
  }
  DerivativeStencil result;
  for (const WeightedOffset &w : weighted)
    result.push_back({w.offset, w.weight.toDouble()});
  return result;
}

/// Walks every expression once, before any point is evaluated: expands the
/// derivatives, and records how far from the output point each field is read.
class StencilScan {
public:
  explicit StencilScan(const ir::Stencil &stencil)
      : stencil_(stencil), fieldReach_(stencil.fields.size(), 0) {
    for (const ir::Update &update : stencil.updates) {
      std::vector<std::pair<int, int>> bound; // (sum variable, point set)
      scan(*update.rhs, bound);
    }
  }

  const std::vector<int> &fieldReach() const { return fieldReach_; }
  const DerivativeStencil &derivative(const Expr *deriv) const { return derivatives_.at(deriv); }

private:
  void noteRead(int field, const Offset &offset) {
    if (field < 0 || field >= int(fieldReach_.size()))
      throw EvalError("IR refers to field id " + std::to_string(field) + ", which does not exist");
    fieldReach_[field] = std::max(fieldReach_[field], ir::offsetRadius(offset));
  }

  const ir::PointSet &pointSetOf(int sumVar, const std::vector<std::pair<int, int>> &bound) const {
    for (auto it = bound.rbegin(); it != bound.rend(); ++it)
      if (it->first == sumVar)
        return stencil_.pointSets.at(it->second);
    throw EvalError("IR uses sum variable " + std::to_string(sumVar) + " outside its sum");
  }

  void scan(const Expr &e, std::vector<std::pair<int, int>> &bound) {
    switch (e.kind) {
    case Expr::Kind::FieldRef:
      if (e.sumVar >= 0) {
        for (const Offset &point : pointSetOf(e.sumVar, bound).points)
          noteRead(e.id, addOffsets(e.offset, point));
      } else {
        noteRead(e.id, e.offset);
      }
      break;
    case Expr::Kind::TableRef:
      if (e.sumVar >= 0)
        pointSetOf(e.sumVar, bound); // only checks that it is bound
      break;
    case Expr::Kind::Deriv: {
      DerivativeStencil weights = expandToDouble(stencil_, e);
      for (const auto &[offset, weight] : weights)
        noteRead(e.id, offset);
      derivatives_[&e] = std::move(weights);
      break;
    }
    case Expr::Kind::Sum:
      if (e.pointSet < 0 || e.pointSet >= int(stencil_.pointSets.size()))
        throw EvalError("IR sums over point set id " + std::to_string(e.pointSet) +
                        ", which does not exist");
      bound.push_back({e.sumVar, e.pointSet});
      scan(*e.operands.at(0), bound);
      bound.pop_back();
      return;
    default: break;
    }
    for (const ir::ExprPtr &operand : e.operands)
      scan(*operand, bound);
  }

  const ir::Stencil &stencil_;
  std::vector<int> fieldReach_;
  std::map<const Expr *, DerivativeStencil> derivatives_;
};

/// Evaluates expressions at one output point at a time.
class PointEvaluator {
public:
  PointEvaluator(const ir::Stencil &stencil, const EvalBindings &bindings, const StencilScan &scan)
      : stencil_(stencil), bindings_(bindings), scan_(scan) {}

  double evaluateAt(const Expr &e, int i, int j, int k) {
    here_ = {i, j, k};
    bound_.clear();
    return eval(e);
  }

private:
  /// A sum variable and the point it is bound to.
  struct Binding {
    int sumVar;
    const ir::PointSet *pointSet;
    int pointIndex;
  };

  const Binding &lookup(int sumVar) const {
    // Innermost first: a nested sum may reuse a name.
    for (auto it = bound_.rbegin(); it != bound_.rend(); ++it)
      if (it->sumVar == sumVar)
        return *it;
    throw EvalError("IR uses sum variable " + std::to_string(sumVar) + " outside its sum");
  }

  double fieldAt(int field, const Offset &offset) const {
    const rt::Grid<double> *grid = bindings_.inputs.at(field);
    if (!grid)
      throw EvalError("field '" + stencil_.fields.at(field).name + "' is read but not an input");
    return grid->at(here_[0] + offset[0], here_[1] + offset[1], here_[2] + offset[2]);
  }

  double tableAt(const Expr &e) const {
    const ir::Table &table = stencil_.tables.at(e.id);
    int row = e.row;
    if (e.sumVar >= 0) {
      const Binding &b = lookup(e.sumVar);
      row = e.rowIsClass ? b.pointSet->classOf.at(b.pointIndex) : b.pointIndex;
    }
    const rt::CoefficientTable<double> &values = *bindings_.tables.at(e.id);
    if (row < 0 || row >= values.rows())
      throw EvalError("row " + std::to_string(row) + " of table '" + table.name +
                      "' is outside its " + std::to_string(values.rows()) + " rows");
    const rt::Grid<int32_t> *indexGrid = bindings_.indexFields.at(e.indexField);
    if (!indexGrid)
      throw EvalError("table '" + table.name + "' is indexed by field '" +
                      stencil_.fields.at(e.indexField).name + "', which is not an index field");
    const rt::Grid<int32_t> &index = *indexGrid;
    int32_t column = index.at(here_[0], here_[1], here_[2]);
    if (column < 0 || column >= values.cols())
      throw EvalError("index field '" + stencil_.fields.at(e.indexField).name + "' holds " +
                      std::to_string(column) + " at " + pointText(here_[0], here_[1], here_[2]) +
                      ", outside the " + std::to_string(values.cols()) + " columns of table '" +
                      table.name + "'");
    return values(row, column);
  }

  static double call(ir::FuncKind func, double x) {
    switch (func) {
    case ir::FuncKind::Sin: return std::sin(x);
    case ir::FuncKind::Cos: return std::cos(x);
    case ir::FuncKind::Sqrt: return std::sqrt(x);
    case ir::FuncKind::Exp: return std::exp(x);
    case ir::FuncKind::Abs: return std::abs(x);
    }
    throw EvalError("IR calls an unknown function");
  }

  /// The condition of a Select; a comparison with a NaN is false, except `!=`, as in C.
  bool compare(const Expr &cond) {
    if (cond.kind != Expr::Kind::Compare)
      throw EvalError("IR holds a conditional whose condition is not a comparison");
    const double a = eval(*cond.operands.at(0)), b = eval(*cond.operands.at(1));
    switch (cond.compare) {
    case ir::CompareOp::Lt: return a < b;
    case ir::CompareOp::Le: return a <= b;
    case ir::CompareOp::Gt: return a > b;
    case ir::CompareOp::Ge: return a >= b;
    case ir::CompareOp::Eq: return a == b;
    case ir::CompareOp::Ne: return a != b;
    }
    throw EvalError("IR holds an unknown comparison");
  }

  double eval(const Expr &e) {
    switch (e.kind) {
    case Expr::Kind::Number: return e.number;
    case Expr::Kind::ScalarRef: return bindings_.scalars.at(e.id);
    case Expr::Kind::FieldRef: {
      Offset offset = e.offset;
      if (e.sumVar >= 0) {
        const Binding &b = lookup(e.sumVar);
        offset = addOffsets(offset, b.pointSet->points.at(b.pointIndex));
      }
      return fieldAt(e.id, offset);
    }
    case Expr::Kind::TableRef: return tableAt(e);
    case Expr::Kind::Neg: return -eval(*e.operands.at(0));
    case Expr::Kind::Add: return eval(*e.operands.at(0)) + eval(*e.operands.at(1));
    case Expr::Kind::Sub: return eval(*e.operands.at(0)) - eval(*e.operands.at(1));
    case Expr::Kind::Mul: return eval(*e.operands.at(0)) * eval(*e.operands.at(1));
    case Expr::Kind::Div: return eval(*e.operands.at(0)) / eval(*e.operands.at(1));
    case Expr::Kind::Call: return call(e.func, eval(*e.operands.at(0)));
    // fmin/fmax, as the generated kernels: a NaN operand yields the other (docs/DSL.md).
    case Expr::Kind::Min: return std::fmin(eval(*e.operands.at(0)), eval(*e.operands.at(1)));
    case Expr::Kind::Max: return std::fmax(eval(*e.operands.at(0)), eval(*e.operands.at(1)));
    case Expr::Kind::Compare: throw EvalError("IR holds a comparison outside a conditional");
    case Expr::Kind::Select: return eval(*e.operands.at(compare(*e.operands.at(0)) ? 1 : 2));
    case Expr::Kind::Sum: {
      const ir::PointSet &set = stencil_.pointSets.at(e.pointSet);
      double total = 0;
      for (int p = 0; p < int(set.points.size()); ++p) {
        bound_.push_back({e.sumVar, &set, p});
        total += eval(*e.operands.at(0));
        bound_.pop_back();
      }
      return total;
    }
    case Expr::Kind::Deriv: {
      double total = 0;
      for (const auto &[offset, weight] : scan_.derivative(&e))
        total += weight * fieldAt(e.id, offset);
      return total;
    }
    }
    throw EvalError("IR holds an expression of unknown kind");
  }

  const ir::Stencil &stencil_;
  const EvalBindings &bindings_;
  const StencilScan &scan_;
  Offset here_{0, 0, 0};
  std::vector<Binding> bound_;
};

template <typename T>
void checkInterior(const rt::Grid<T> &grid, const rt::GridShape &expected,
                   const std::string &what) {
  const rt::GridShape &s = grid.shape();
  if (s.dims != expected.dims || s.nx != expected.nx || s.ny != expected.ny || s.nz != expected.nz)
    throw EvalError(what + " is " + std::to_string(s.dims) + "D " + std::to_string(s.nx) + "x" +
                    std::to_string(s.ny) + "x" + std::to_string(s.nz) + ", expected " +
                    std::to_string(expected.dims) + "D " + std::to_string(expected.nx) + "x" +
                    std::to_string(expected.ny) + "x" + std::to_string(expected.nz));
}

template <typename T> void checkSize(const std::vector<T> &v, size_t n, const char *what) {
  if (v.size() != n)
    throw EvalError(std::string("bindings have ") + std::to_string(v.size()) + " " + what +
                    ", the stencil declares " + std::to_string(n));
}

void checkBindings(const ir::Stencil &stencil, const EvalBindings &b, const StencilScan &scan) {
  const size_t numFields = stencil.fields.size();
  checkSize(b.inputs, numFields, "input slots");
  checkSize(b.outputs, numFields, "output slots");
  checkSize(b.indexFields, numFields, "index field slots");
  checkSize(b.tables, stencil.tables.size(), "tables");
  checkSize(b.scalars, stencil.scalars.size(), "scalars");

  // Every grid must have the interior of the first output (or of the first
  // grid of any kind, for a stencil without updates).
  std::optional<rt::GridShape> interior;
  for (size_t f = 0; f < numFields && !interior; ++f)
    if (b.outputs[f])
      interior = b.outputs[f]->shape();
  for (size_t f = 0; f < numFields && !interior; ++f)
    if (b.inputs[f])
      interior = b.inputs[f]->shape();
  if (!interior)
    return; // nothing is read or written
  if (interior->dims != stencil.dims)
    throw EvalError("the grids are " + std::to_string(interior->dims) + "D, stencil '" +
                    stencil.name + "' is " + std::to_string(stencil.dims) + "D");

  for (size_t f = 0; f < numFields; ++f) {
    const ir::Field &field = stencil.fields[f];
    const std::string what = "field '" + field.name + "'";
    const bool isInput = field.role == FieldRole::Time || field.role == FieldRole::Input;
    if (isInput != (b.inputs[f] != nullptr))
      throw EvalError(what + (isInput ? " has no input grid" : " is bound as an input"));
    if ((field.role == FieldRole::Output) != (b.outputs[f] != nullptr))
      throw EvalError(what + (b.outputs[f] ? " is bound as an output" : " has no output grid"));
    if ((field.role == FieldRole::Index) != (b.indexFields[f] != nullptr))
      throw EvalError(what +
                      (b.indexFields[f] ? " is bound as an index field" : " has no index grid"));
    if (b.inputs[f]) {
      checkInterior(*b.inputs[f], *interior, what);
      int reach = scan.fieldReach()[f];
      if (b.inputs[f]->halo() < reach)
        throw EvalError(what + " has a halo of " + std::to_string(b.inputs[f]->halo()) +
                        ", the stencil reads it " + std::to_string(reach) + " points away");
    }
    if (b.outputs[f]) {
      checkInterior(*b.outputs[f], *interior, what);
      // The oracle never writes in place: an output must not alias a grid it reads.
      for (size_t g = 0; g < numFields; ++g)
        if (b.inputs[g] == b.outputs[f] || (g != f && b.outputs[g] == b.outputs[f]))
          throw EvalError(what + " shares its grid with field '" + stencil.fields[g].name + "'");
    }
    if (b.indexFields[f])
      checkInterior(*b.indexFields[f], *interior, what);
  }

  for (size_t t = 0; t < stencil.tables.size(); ++t) {
    const ir::Table &table = stencil.tables[t];
    if (!b.tables[t])
      throw EvalError("table '" + table.name + "' is not bound");
    if (b.tables[t]->rows() != table.rows)
      throw EvalError("table '" + table.name + "' has " + std::to_string(b.tables[t]->rows()) +
                      " rows, the stencil needs " + std::to_string(table.rows));
  }

  for (const ir::Update &update : stencil.updates)
    if (update.output < 0 || update.output >= int(numFields) || !b.outputs[update.output])
      throw EvalError("an update writes field id " + std::to_string(update.output) +
                      ", which is not an output");
}

/// For a float stencil, the double that a float kernel would see.
double representable(const ir::Stencil &stencil, double v) {
  return stencil.elemType == ir::ElemType::Float ? double(float(v)) : v;
}

int64_t indexTypeLimit(ir::IndexType t) {
  switch (t) {
  case ir::IndexType::UInt8: return int64_t(std::numeric_limits<uint8_t>::max()) + 1;
  case ir::IndexType::UInt16: return int64_t(std::numeric_limits<uint16_t>::max()) + 1;
  case ir::IndexType::Int32: return int64_t(std::numeric_limits<int32_t>::max()) + 1;
  }
  return 0;
}

} // namespace

int stencilReach(const ir::Stencil &stencil) {
  StencilScan scan(stencil);
  int reach = 0;
  for (int r : scan.fieldReach())
    reach = std::max(reach, r);
  return reach;
}

void checkBindings(const ir::Stencil &stencil, const EvalBindings &bindings) {
  checkBindings(stencil, bindings, StencilScan(stencil));
}

void evaluateReference(const ir::Stencil &stencil, const EvalBindings &bindings) {
  StencilScan scan(stencil);
  checkBindings(stencil, bindings, scan);
  PointEvaluator evaluator(stencil, bindings, scan);
  for (const ir::Update &update : stencil.updates) {
    rt::Grid<double> &out = *bindings.outputs[update.output];
    out.forEachInteriorPoint(
        [&](int i, int j, int k) { out(i, j, k) = evaluator.evaluateAt(*update.rhs, i, j, k); });
  }
}

EvalBindings EvalData::bindings() {
  EvalBindings b;
  b.inputs.resize(grids.size(), nullptr);
  b.outputs.resize(grids.size(), nullptr);
  b.indexFields.resize(grids.size(), nullptr);
  for (size_t f = 0; f < grids.size(); ++f) {
    switch (roles[f]) {
    case FieldRole::Index: b.indexFields[f] = indexGrids[f].get(); break;
    case FieldRole::Output: b.outputs[f] = grids[f].get(); break;
    case FieldRole::Time:
    case FieldRole::Input: b.inputs[f] = grids[f].get(); break;
    }
  }
  for (const auto &table : tables)
    b.tables.push_back(table.get());
  b.scalars = scalars;
  return b;
}

EvalData makeRandomEvalData(const ir::Stencil &stencil, const EvalSizes &sizes, uint64_t seed) {
  if (stencil.dims == 2 && sizes.nz != 1)
    throw EvalError("a 2D stencil needs nz == 1");
  if (sizes.tableColumns < 1)
    throw EvalError("tables need at least one column");
  // One grid shape for every field, so that a kernel can use one pair of strides.
  // By default the halo covers both what the updates read and the declared
  // radius, which a generated kernel may assume.
  const int halo = sizes.halo >= 0 ? sizes.halo : std::max(stencil.radius, stencilReach(stencil));
  const rt::GridShape shape{stencil.dims, sizes.nx, sizes.ny, sizes.nz, halo};

  // Each field, table and scalar draws from its own sub-seed, taken in id
  // order, so that adding a table does not change the fields' values.
  rt::RandomEngine seeds(seed);
  EvalData data;
  for (const ir::Field &field : stencil.fields) {
    const uint64_t fieldSeed = seeds();
    data.roles.push_back(field.role);
    if (field.role == FieldRole::Index) {
      if (sizes.tableColumns > indexTypeLimit(field.indexType))
        throw EvalError(std::to_string(sizes.tableColumns) +
                        " table columns do not fit index field '" + field.name + "' of type " +
                        ir::indexTypeName(field.indexType));
      auto index = std::make_unique<rt::Grid<int32_t>>(shape);
      index->fillRandom(fieldSeed, 0, sizes.tableColumns);
      data.indexGrids.push_back(std::move(index));
      data.grids.push_back(nullptr);
      continue;
    }
    auto grid = std::make_unique<rt::Grid<double>>(shape);
    const bool isOutput = field.role == FieldRole::Output;
    if (isOutput) {
      grid->poison();
    } else {
      // Material fields (`in`) are positive and away from zero, like velocities and
      // densities, since updates divide by them and take their square roots.
      if (field.role == FieldRole::Input)
        grid->fillRandom(fieldSeed, 0.5, 1.5);
      else
        grid->fillRandom(fieldSeed, -1.0, 1.0);
      grid->forEachPointWithHalo([&](int i, int j, int k) {
        (*grid)(i, j, k) = representable(stencil, (*grid)(i, j, k));
      });
    }
    data.grids.push_back(std::move(grid));
    data.indexGrids.push_back(nullptr);
  }
  for (const ir::Table &table : stencil.tables) {
    auto values = std::make_unique<rt::CoefficientTable<double>>(table.rows, sizes.tableColumns);
    values->fillRandom(seeds(), -1.0, 1.0);
    for (int r = 0; r < values->rows(); ++r)
      for (int c = 0; c < values->cols(); ++c)
        (*values)(r, c) = representable(stencil, (*values)(r, c));
    data.tables.push_back(std::move(values));
  }
  rt::RandomEngine scalarRng(seeds());
  for (size_t s = 0; s < stencil.scalars.size(); ++s)
    data.scalars.push_back(representable(stencil, rt::uniformReal(scalarRng, 0.5, 1.5)));
  return data;
}

} // namespace stencilc::eval
