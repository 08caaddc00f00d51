//===- Lifter.h - The state of lifting one loop nest (internal) -----------===//
//
// `liftLoopNests` (StencilLifter.h) reads a loop body in three parts, each in
// its own file, over the state declared here: ValueReader.cpp reads
// subscripts and values (arrays, tables, scalars, temporaries), BodyReader.cpp
// reads statements (declarations, assignments, unrolled inner loops), and
// StencilLifter.cpp decides the arrays' roles and assembles the stencil.
// Internal to compiler/tooling.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tooling/IndexPolynomial.h"
#include "tooling/LiftedStencil.h"
#include "tooling/LoopNest.h"
#include "tooling/ValueTree.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace stencilc::tooling::lifting {

using namespace clang;

/// One C++ array the loop body reads or writes.
struct ArrayInfo {
  const ValueDecl *decl = nullptr;
  std::string key;  ///< the C++ expression that names it, spaces removed: `p`, `p[t%2]`
  std::string name; ///< an identifier made from `key`
  QualType elem;
  std::string basePointer; ///< C++ pointer to element 0
  bool haveStrides = false;
  std::vector<IndexPolynomial> strides; ///< per axis, x first
  std::vector<Offset> reads;
  SourceLocation firstRead;
  SourceLocation neighbourRead; ///< the first read away from the loop point
  bool indexUse = false;        ///< read as the column of a table lookup
  bool written = false;
};

struct TableInfo {
  const ValueDecl *decl = nullptr;
  std::string name;
  int rows = 0;
  int cols = 0;
};

/// The DSL's name of an index field's type (uint8, uint16, int32), if it has one.
std::optional<std::string> indexTypeName(QualType t, ASTContext &context);
/// "float" or "double".
std::optional<std::string> elemTypeName(QualType t);
/// Whether `s` refers to one of `vars`.
bool mentionsAny(const Stmt *s, const std::set<const VarDecl *> &vars);

class Lifter {
public:
  Lifter(const std::vector<LoopNest> &group, ASTContext &context, LiftError &error)
      : group_(group), nest_(group.front()), context_(context), error_(error),
        dims_(int(group.front().levels.size())) {}

  std::optional<LiftedStencil> lift(const std::string &name);

private:
  bool fail(SourceLocation loc, std::string message) {
    error_ = {loc, std::move(message)};
    return false;
  }
  std::string text(const Expr *e) const;

  std::optional<IndexPolynomial> readIndex(const Expr *e);
  /// The array and the element's position in it, counted in elements.
  std::optional<std::pair<int, IndexPolynomial>> readElement(const Expr *e);
  std::optional<Offset> locate(int array, const IndexPolynomial &address, const Expr *where);
  std::optional<Node> readValue(const Expr *e);
  std::optional<Node> readIntegerValue(const Expr *e);
  /// A reference to a loop counter (or an index variable) inside `s`.
  const DeclRefExpr *findCounter(const Stmt *s) const;
  std::optional<Node> readTable(const ArraySubscriptExpr *e);
  std::optional<Node> readAccess(const Expr *e);
  /// `std::min(a, b)` and kin, `c < d ? a : b`: their operands read, then checked by checkChoice.
  std::optional<Node> readMinMax(const CallExpr *call, Node::Kind kind,
                                 const std::string &calleeName);
  std::optional<Node> readConditional(const ConditionalOperator *e);
  /// Refuses a choice (`what` names it) that reads an array away from the loop point.
  bool checkChoice(const Node &choice, const std::string &what);
  Node scalar(const std::string &cppName, const std::string &value);
  /// `e` as C++ text valid outside the nest: unrolled counters replaced by their values.
  std::optional<std::string> invariantText(const Expr *e);

  bool readStatement(const Stmt *s);
  /// `if (a CMP b) x = ...; else x = ...;` over temporaries: each temporary the
  /// branches leave different becomes `a CMP b ? then : else` (checkChoice).
  bool readBranch(const IfStmt *s);
  /// `a CMP b` as a Compare node, or an error at `e`.
  std::optional<Node> readComparison(const Expr *e, llvm::StringRef where);
  bool readDeclaration(const DeclStmt *decl);
  bool unroll(const ForStmt *loop);
  bool assignTemporary(const BinaryOperator *assign, const VarDecl *var);
  bool assignElement(const BinaryOperator *assign);
  bool readBounds(const LoopNest &nest, LiftedStencil &out);

  bool assignRoles(LiftedStencil &out);
  std::string axisCounter(int axis) const {
    return nest_.levels[dims_ - 1 - axis].counter->getNameAsString();
  }

  const std::vector<LoopNest> &group_;
  const LoopNest &nest_; ///< the first nest: its counters name the axes
  ASTContext &context_;
  LiftError &error_;
  int dims_;
  /// Integer variables of the body (index locals, unrolled counters, the
  /// counters of later nests in the group) as polynomials in the first nest's counters.
  std::map<const VarDecl *, IndexPolynomial> locals_;
  std::set<const VarDecl *> unrolled_;
  /// Floating-point temporaries and their current values (unset until assigned).
  std::map<const VarDecl *, std::optional<Node>> temporaries_;
  const IfStmt *branch_ = nullptr; ///< the innermost `if` being read: arrays may not be written

  /// The value each written array holds at the loop point so far, in the order first written.
  std::map<int, Node> pending_;
  std::vector<int> writeOrder_;
  std::optional<QualType> outputElem_;
  std::vector<ArrayInfo> arrays_;
  std::vector<TableInfo> tables_;
  std::vector<LiftedScalar> scalars_;
  std::map<std::string, std::string> scalarNames_; ///< C++ spelling -> DSL name
  std::vector<std::string> arrayDslNames_;
  std::set<std::string> usedNames_;
};

} // namespace stencilc::tooling::lifting
