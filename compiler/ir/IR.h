//===- IR.h - The Stencilc intermediate representation --------------------===//
//
// One `Stencil` per `stencil` block of a .stencil file. Names are resolved
// (fields, scalars, tables and point sets are referred to by index), point
// sets are expanded and carry their coefficient classes, and derivative
// sugar is kept as a node so that printers can show what the user wrote;
// `expandDerivative` (math/FiniteDifference.h) gives its weighted points.
//
// The IR is plain data: passes read it and add derived facts (the linear
// form of each update, see LinearForm.h), the printer prints it, the
// verifier checks its invariants, and the reference evaluator interprets it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Rational.h"

#include "llvm/Support/SMLoc.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::ir {

/// (dx, dy, dz); dz is 0 for 2D stencils. x is fastest in memory.
using Offset = std::array<int, 3>;

/// Orders offsets by z, then y, then x: the order of planes, rows and
/// elements in memory, and the order in which points are printed.
bool offsetLess(const Offset &a, const Offset &b);
/// max(|dx|, |dy|, |dz|).
int offsetRadius(const Offset &o);
/// Number of non-zero components (0 = centre, 1 = on an axis, 2+ = off-axis).
int offsetNonZeros(const Offset &o);

enum class ElemType { Float, Double };
enum class IndexType { UInt8, UInt16, Int32 };
enum class FieldRole {
  Time,   ///< wavefield time level, read at offsets; the update is linear in these
  Input,  ///< read-only per-point scalar (velocity, damping, angles): a coefficient factor
  Index,  ///< read-only integer field, only used as the column of a table lookup
  Output, ///< written by exactly one update, never read in the sweep
};

const char *elemTypeName(ElemType t);   // "float", "double"
const char *indexTypeName(IndexType t); // "uint8", "uint16", "int32"
const char *fieldRoleName(FieldRole r); // "time", "in", "index", "out"
int elemTypeBytes(ElemType t);
int indexTypeBytes(IndexType t);

struct Field {
  std::string name;
  FieldRole role = FieldRole::Input;
  IndexType indexType = IndexType::Int32; ///< meaningful for Index fields only
  int overwrites = -1; ///< Output only: the Time field it may overwrite in place, or -1
  /// Output only: the Time field whose next level this output is, or -1. After a
  /// step the levels rotate: `overwrites` <- `advances` <- output.
  int advances = -1;
  llvm::SMLoc loc;
};

struct Scalar {
  std::string name;
  llvm::SMLoc loc;
};

/// One generator of a symmetry group acting on offsets.
struct SymmetryOp {
  enum Kind { Reflect, Swap } kind = Reflect;
  int axisA = 0; ///< 0 = x, 1 = y, 2 = z
  int axisB = 0; ///< Swap only
};

struct Symmetry {
  std::string name;
  std::vector<SymmetryOp> generators;
  llvm::SMLoc loc;
};

struct PointSet {
  std::string name;
  /// Distinct offsets sorted with offsetLess.
  std::vector<Offset> points;
  /// The symmetry whose orbits are the coefficient classes, or -1 (each point is its own class).
  int symmetry = -1;
  /// classOf[i] is the class of points[i]; classes are numbered in order of their first point.
  std::vector<int> classOf;
  int numClasses = 0;
  llvm::SMLoc loc;
};

struct Table {
  enum class RowSource { Literal, Classes, Points };
  std::string name;
  RowSource rowSource = RowSource::Literal;
  int pointSet = -1; ///< Classes / Points: the point set the rows follow
  int rows = 0;      ///< number of rows; the number of columns (Nd) is a run-time value
  llvm::SMLoc loc;
};

enum class DerivKind { Dx, Dy, Dz, Dxx, Dyy, Dzz, Dxy, Dxz, Dyz, Laplacian };
const char *derivKindName(DerivKind k); // "dx", ..., "laplacian"
/// The highest axis a derivative kind differentiates along, to check it against
/// the grid's dims: 0 = x only, 1 = uses y, 2 = uses z.
int derivativeMaxAxis(DerivKind kind);

enum class FuncKind { Sin, Cos, Sqrt, Exp, Abs };
const char *funcKindName(FuncKind k);

/// The comparison of a conditional's condition (docs/DSL.md "Expressions").
enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne };
const char *compareOpSpelling(CompareOp op); // "<", "<=", ">", ">=", "==", "!="

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// An expression node. Which members are meaningful depends on `kind`.
struct Expr {
  enum class Kind {
    Number,    ///< number, spelling
    ScalarRef, ///< id = scalar
    FieldRef,  ///< id = field; offset, or sumVar >= 0 for `p[d]` (offset then added to the point)
    TableRef,  ///< id = table; row (literal) or sumVar with rowIsClass; indexField = index field
    Neg,       ///< operands[0]
    Add,
    Sub,
    Mul,
    Div,   ///< operands[0], operands[1]
    Call,  ///< func, operands[0]
    Sum,   ///< pointSet, sumVar (the variable this node binds), varName, operands[0] = body
    Deriv, ///< deriv, id = field, order (accuracy order, even)
    // Pointwise choices (docs/DSL.md "Expressions"). Their operands read only
    // centre values (Sema, Linearize), so they are per-point coefficients.
    Min,
    Max,     ///< operands[0], operands[1]; fmin/fmax: a NaN operand yields the other
    Compare, ///< compare, operands[0], operands[1]; only as the condition of a Select
    Select,  ///< operands[0] (a Compare) ? operands[1] : operands[2]
  };

  Kind kind;
  llvm::SMLoc loc;

  // Number
  double number = 0;
  std::optional<Rational> exact; ///< set when the literal is an exact rational (e.g. 0.25, 2)
  std::string spelling;

  int id = -1;
  Offset offset{0, 0, 0};
  int sumVar = -1; ///< FieldRef/TableRef: the Sum variable used, Sum: the variable bound
  std::string varName;

  // TableRef
  int row = 0;
  bool rowIsClass = true; ///< with sumVar: true = d.class, false = d.point
  int indexField = -1;

  // Sum
  int pointSet = -1;

  // Deriv
  DerivKind deriv = DerivKind::Dxx;
  int order = 0;

  FuncKind func = FuncKind::Sin;
  CompareOp compare = CompareOp::Lt;

  std::vector<ExprPtr> operands;

  explicit Expr(Kind k, llvm::SMLoc l = {}) : kind(k), loc(l) {}
  ExprPtr clone() const;
};

/// How tightly an expression binds, for printers that parenthesise minimally:
/// `c ? a : b` (and its comparison) binds loosest, then + and -, then * and /,
/// then unary minus, then atoms (leaves, calls, min/max, sums, derivatives).
enum ExprPrecedence {
  SelectPrecedence = 0,
  AddPrecedence = 1,
  MulPrecedence = 2,
  UnaryPrecedence = 3,
  AtomPrecedence = 4
};
int exprPrecedence(const Expr &e);

/// How many operands a node of kind `k` has (see Expr::Kind).
size_t exprArity(Expr::Kind k);

/// `output = rhs;`
struct Update {
  int output = -1;
  ExprPtr rhs;
  llvm::SMLoc loc;
};

/// The user's override of the decomposition planner (docs/DSL.md "Plan"):
/// `plan sweeps N;` and `plan tables shared|readonly|global;`.
struct PlanDirective {
  enum class Tables { Auto, Shared, ReadOnly, Global };
  int sweeps = 0; ///< 0: the planner decides
  Tables tables = Tables::Auto;
  llvm::SMLoc sweepsLoc, tablesLoc;
};

struct Stencil {
  std::string name;
  llvm::SMLoc loc;
  int dims = 3;
  ElemType elemType = ElemType::Float;
  int order = 0;  ///< declared accuracy order, 0 when not declared
  int radius = 0; ///< order/2 when declared, else derived from the offsets used
  bool radiusDeclared = false;

  std::vector<Field> fields;
  std::vector<Scalar> scalars;
  std::vector<Symmetry> symmetries;
  std::vector<PointSet> pointSets;
  std::vector<Table> tables;
  std::vector<Update> updates;
  PlanDirective plan;

  int findField(const std::string &n) const;
  int findScalar(const std::string &n) const;
  int findSymmetry(const std::string &n) const;
  int findPointSet(const std::string &n) const;
  int findTable(const std::string &n) const;
};

/// A parsed file: its stencils in source order.
struct Module {
  std::string fileName;
  std::vector<Stencil> stencils;
};

} // namespace stencilc::ir
