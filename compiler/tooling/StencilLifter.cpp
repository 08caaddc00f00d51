//===- StencilLifter.cpp - From a C++ loop nest to a stencil --------------===//
#include "tooling/StencilLifter.h"

#include "tooling/IndexPolynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling {

using namespace clang;

namespace {

using Offset = std::array<int, 3>;

/// The farthest neighbour `lift` accepts; anything beyond is a misread subscript.
constexpr int kMaxOffset = 16;

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

/// The right-hand side as a small tree, printed as DSL text once roles are known.
struct Node {
  enum Kind { Number, Scalar, Access, Table, Neg, Add, Sub, Mul, Div, Call } kind;
  std::string text; ///< Number: literal; Scalar: DSL name; Call: function
  int array = -1;   ///< Access: the array; Table: the index array
  Offset offset{0, 0, 0};
  int table = -1;
  int row = 0;
  std::vector<Node> operands;

  explicit Node(Kind k) : kind(k) {}
};

/// Names the DSL reserves (statement keywords and built-ins), which C++ may use.
bool isReservedInDsl(llvm::StringRef name) {
  static const llvm::StringSet<> reserved = {
      "stencil", "grid",      "type", "order", "field", "scalar", "symmetry", "points", "table",
      "sum",     "dx",        "dy",   "dz",    "dxx",   "dyy",    "dzz",      "dxy",    "dxz",
      "dyz",     "laplacian", "sin",  "cos",   "sqrt",  "exp",    "abs"};
  return reserved.contains(name);
}

std::optional<std::string> indexTypeName(QualType t, ASTContext &context) {
  if (!t->isIntegerType())
    return std::nullopt;
  uint64_t bits = context.getTypeSize(t);
  bool isSigned = t->isSignedIntegerType();
  if (bits == 8 && !isSigned)
    return "uint8";
  if (bits == 16 && !isSigned)
    return "uint16";
  if (bits == 32 && isSigned)
    return "int32";
  return std::nullopt;
}

std::optional<std::string> elemTypeName(QualType t) {
  if (t->isSpecificBuiltinType(BuiltinType::Float))
    return "float";
  if (t->isSpecificBuiltinType(BuiltinType::Double))
    return "double";
  return std::nullopt;
}

const char *dslFunction(llvm::StringRef callee) {
  static const std::map<std::string, const char *, std::less<>> functions = {
      {"sin", "sin"},   {"sinf", "sin"},   {"cos", "cos"}, {"cosf", "cos"},
      {"sqrt", "sqrt"}, {"sqrtf", "sqrt"}, {"exp", "exp"}, {"expf", "exp"},
      {"fabs", "abs"},  {"fabsf", "abs"},  {"abs", "abs"}};
  auto it = functions.find(callee);
  return it == functions.end() ? nullptr : it->second;
}

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
  Node scalar(const std::string &cppName, const std::string &value);
  /// `e` as C++ text valid outside the nest: unrolled counters replaced by their values.
  std::optional<std::string> invariantText(const Expr *e);

  bool readStatement(const Stmt *s);
  bool readDeclaration(const DeclStmt *decl);
  bool unroll(const ForStmt *loop);
  bool assignTemporary(const BinaryOperator *assign, const VarDecl *var);
  bool assignElement(const BinaryOperator *assign);
  bool readBounds(const LoopNest &nest, LiftedStencil &out);

  bool assignRoles(LiftedStencil &out);
  std::string print(const Node &n, int minPrecedence) const;
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

std::string Lifter::text(const Expr *e) const {
  const SourceManager &sm = context_.getSourceManager();
  return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), sm,
                              context_.getLangOpts())
      .str();
}

std::optional<IndexPolynomial> Lifter::readIndex(const Expr *e) {
  e = e->IgnoreParens();
  if (const auto *cast = dyn_cast<CastExpr>(e))
    if (cast->getSubExpr()->getType()->isIntegerType())
      return readIndex(cast->getSubExpr());
  Expr::EvalResult value;
  if (!e->isValueDependent() && e->EvaluateAsInt(value, context_))
    return IndexPolynomial::constant(value.Val.getInt().getExtValue());
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
      if (auto it = locals_.find(var); it != locals_.end())
        return it->second;
      return IndexPolynomial::symbol(var->getNameAsString());
    }
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    auto operand = readIndex(unary->getSubExpr());
    if (operand && unary->getOpcode() == UO_Minus)
      return operand->scaled(-1);
    if (operand && unary->getOpcode() == UO_Plus)
      return operand;
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    auto lhs = readIndex(binary->getLHS());
    if (!lhs)
      return std::nullopt;
    auto rhs = readIndex(binary->getRHS());
    if (!rhs)
      return std::nullopt;
    switch (binary->getOpcode()) {
    case BO_Add: return *lhs + *rhs;
    case BO_Sub: return *lhs - *rhs;
    case BO_Mul: return *lhs * *rhs;
    default: break;
    }
  }
  fail(e->getBeginLoc(), "cannot read the subscript '" + text(e) +
                             "': subscripts must be sums of products of integer variables and "
                             "constants");
  return std::nullopt;
}

/// An identifier for the C++ expression `key`: "p[(t+1)%2]" -> "p_t_1_2".
std::string identifierFor(const std::string &key) {
  std::string id;
  for (char c : key) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      id += c;
    else if (!id.empty() && id.back() != '_')
      id += '_';
  }
  while (!id.empty() && id.back() == '_' && key.back() != '_')
    id.pop_back();
  return id;
}

std::string withoutSpaces(const std::string &text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

std::optional<std::pair<int, IndexPolynomial>> Lifter::readElement(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  // The subscripts from the variable outwards; the leading ones free of the
  // loop's counters select the array (`p[t % 2]` of `float *p[2]`).
  struct Step {
    const Expr *base; ///< what the subscript applies to
    const Expr *index;
    bool container; ///< std::vector::operator[]
  };
  std::vector<Step> steps;
  const Expr *root = e;
  while (true) {
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(root)) {
      steps.insert(steps.begin(), {sub->getBase()->IgnoreParenImpCasts(), sub->getIdx(), false});
      root = sub->getBase()->IgnoreParenImpCasts();
    } else if (const auto *call = dyn_cast<CXXOperatorCallExpr>(root);
               call && call->getOperator() == OO_Subscript) {
      steps.insert(steps.begin(), {call->getArg(0)->IgnoreParenImpCasts(), call->getArg(1), true});
      root = call->getArg(0)->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  const auto *ref = dyn_cast<DeclRefExpr>(root);
  const auto *decl = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!decl || steps.empty()) {
    fail(root->getBeginLoc(),
         "cannot tell which array '" + text(root) + "' is: index a variable that names the array");
    return std::nullopt;
  }
  size_t selectors = 0;
  while (selectors + 1 < steps.size() && !findCounter(steps[selectors].index))
    ++selectors;
  // Only what a subscript can select whole: an element that is itself an array.
  auto selectsArray = [&](size_t n) {
    QualType t = steps[n].base->getType().getNonReferenceType(); // after n selectors
    const auto *record = t->getAsCXXRecordDecl();
    return t->isPointerType() || t->isArrayType() || (record && record->getName() == "vector");
  };
  while (selectors > 0 && !selectsArray(selectors))
    --selectors;
  const Expr *base = steps[selectors].base;
  std::vector<const Expr *> subscripts; // outermost dimension first
  for (size_t n = selectors; n < steps.size(); ++n)
    subscripts.push_back(steps[n].index);
  bool container = steps[selectors].container;
  if (container && subscripts.size() != 1) {
    fail(e->getBeginLoc(), "'" + text(base) +
                               "' is a std::vector of vectors indexed by the loop point; its "
                               "elements are not contiguous");
    return std::nullopt;
  }
  std::string key = withoutSpaces(text(base));
  std::string name = selectors == 0 ? decl->getNameAsString() : identifierFor(key);
  std::string cppBase = selectors == 0 ? decl->getNameAsString() : text(base);
  QualType type = base->getType().getNonReferenceType();
  if (selectors == 0)
    type = decl->getType().getNonReferenceType();
  // The sizes of the inner dimensions of a C array give the strides of its subscripts.
  std::vector<int64_t> innerSizes;
  QualType elem;
  std::string basePointer = cppBase;
  if (container) {
    const auto *record = type->getAsCXXRecordDecl();
    if (!record || record->getName() != "vector") {
      fail(base->getBeginLoc(), "'" + name +
                                    "' is not an array, a pointer or a std::vector; its elements "
                                    "may not be contiguous");
      return std::nullopt;
    }
    elem = e->getType().getNonReferenceType();
    basePointer = cppBase + ".data()";
  } else {
    if (const auto *array = context_.getAsArrayType(type))
      elem = array->getElementType();
    else if (type->isPointerType())
      elem = type->getPointeeType();
    while (const auto *inner = context_.getAsConstantArrayType(elem)) {
      innerSizes.push_back(inner->getSize().getSExtValue());
      elem = inner->getElementType();
    }
    if (subscripts.size() != innerSizes.size() + 1 || elem.isNull() || !elem->isArithmeticType()) {
      fail(e->getBeginLoc(), "'" + name +
                                 "' must be subscripted once per dimension down to a "
                                 "number; nested pointers and std::vector of vectors "
                                 "are not contiguous");
      return std::nullopt;
    }
    if (subscripts.size() > 1) {
      basePointer = "&" + (selectors == 0 ? cppBase : "(" + cppBase + ")");
      for (size_t d = 0; d < subscripts.size(); ++d)
        basePointer += "[0]";
    }
  }
  IndexPolynomial address;
  for (size_t d = 0; d < subscripts.size(); ++d) {
    auto index = readIndex(subscripts[d]);
    if (!index)
      return std::nullopt;
    int64_t stride = 1;
    for (size_t inner = d; inner < innerSizes.size(); ++inner)
      stride *= innerSizes[inner];
    address = address + index->scaled(stride);
  }
  int id = -1;
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (arrays_[a].decl == decl && arrays_[a].key == key)
      id = int(a);
  if (id < 0) {
    id = int(arrays_.size());
    ArrayInfo info;
    info.decl = decl;
    info.key = key;
    info.name = name;
    info.elem = elem.getCanonicalType().getUnqualifiedType(); // no typedef sugar
    info.basePointer = basePointer;
    arrays_.push_back(info);
  }
  return std::make_pair(id, address);
}

std::optional<Offset> Lifter::locate(int array, const IndexPolynomial &address, const Expr *where) {
  ArrayInfo &info = arrays_[array];
  IndexPolynomial rest = address;
  std::vector<IndexPolynomial> strides;
  for (int axis = 0; axis < dims_; ++axis) {
    std::string counter = axisCounter(axis);
    IndexPolynomial remainder;
    auto stride = rest.linearCoefficient(counter, remainder);
    if (!stride) {
      fail(where->getBeginLoc(),
           "the subscript of '" + info.key + "' is not linear in '" + counter + "'");
      return std::nullopt;
    }
    strides.push_back(*stride);
    rest = remainder;
  }
  for (int axis = 0; axis < dims_; ++axis) {
    for (int other = 0; other < dims_; ++other)
      if (strides[axis].mentions(axisCounter(other))) {
        fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                       "' multiplies loop "
                                       "counters '" +
                                       axisCounter(axis) + "' and '" + axisCounter(other) + "'");
        return std::nullopt;
      }
    if (strides[axis].isZero()) {
      fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                     "' does not depend on the "
                                     "loop counter '" +
                                     axisCounter(axis) +
                                     "': every array must span the whole loop nest");
      return std::nullopt;
    }
  }
  if (!(strides[0] == IndexPolynomial::constant(1))) {
    fail(where->getBeginLoc(), "the innermost loop ('" + axisCounter(0) + "') must walk '" +
                                   info.key + "' contiguously, but its stride is " +
                                   strides[0].str());
    return std::nullopt;
  }
  if (info.haveStrides && info.strides != strides) {
    fail(where->getBeginLoc(), "'" + info.key +
                                   "' is subscripted with two different layouts "
                                   "in one loop nest");
    return std::nullopt;
  }
  info.strides = strides;
  info.haveStrides = true;
  std::vector<IndexPolynomial> outer(strides.rbegin(), strides.rend() - 1);
  auto offset = decomposeOffset(rest, outer);
  if (!offset) {
    fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                   "' is not the loop point plus a constant offset (" + rest.str() +
                                   " is left over)");
    return std::nullopt;
  }
  Offset o{0, 0, 0};
  for (int axis = 0; axis < dims_; ++axis) {
    int64_t d = (*offset)[axis];
    if (d > kMaxOffset || d < -kMaxOffset) {
      fail(where->getBeginLoc(), fmt::format("'{}' is read {} points away along {}; lift "
                                             "accepts neighbours up to {} points away",
                                             info.key, d, "xyz"[axis], kMaxOffset));
      return std::nullopt;
    }
    o[axis] = int(d);
  }
  return o;
}

Node Lifter::scalar(const std::string &cppName, const std::string &value) {
  auto it = scalarNames_.find(value);
  if (it == scalarNames_.end()) {
    std::string name = cppName;
    while (isReservedInDsl(name) || usedNames_.count(name))
      name += "_";
    usedNames_.insert(name);
    scalars_.push_back({name, value, ""});
    it = scalarNames_.emplace(value, name).first;
  }
  Node n{Node::Scalar};
  n.text = it->second;
  return n;
}

const DeclRefExpr *Lifter::findCounter(const Stmt *s) const {
  if (!s)
    return nullptr;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
    for (const LoopLevel &level : nest_.levels)
      if (ref->getDecl() == level.counter)
        return ref;
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
        var && locals_.count(var) && !unrolled_.count(var))
      return ref; // an index variable: a function of the counters
  }
  for (const Stmt *child : s->children())
    if (const DeclRefExpr *found = findCounter(child))
      return found;
  return nullptr;
}

std::optional<Node> Lifter::readIntegerValue(const Expr *e) {
  Expr::EvalResult value;
  if (!e->isValueDependent() && e->EvaluateAsInt(value, context_)) {
    Node n{Node::Number};
    n.text = std::to_string(value.Val.getInt().getExtValue());
    return n;
  }
  // `r` of an unrolled loop (`1.0f / (r * r)`) is a number in each copy.
  LiftError saved = error_;
  if (auto polynomial = readIndex(e); polynomial && polynomial->constantValue()) {
    Node n{Node::Number};
    n.text = std::to_string(*polynomial->constantValue());
    return n;
  }
  error_ = saved;
  if (const DeclRefExpr *counter = findCounter(e)) {
    fail(counter->getBeginLoc(), "the value depends on the loop counter '" +
                                     counter->getDecl()->getNameAsString() +
                                     "': a stencil's coefficients come from arrays and scalars, "
                                     "not from the position");
    return std::nullopt;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenCasts()))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && !locals_.count(var))
      return scalar(var->getNameAsString(), var->getNameAsString());
  fail(e->getBeginLoc(), "integer arithmetic '" + text(e) +
                             "' in the stencil's value: compute it before the loop or in "
                             "floating point");
  return std::nullopt;
}

std::optional<Node> Lifter::readTable(const ArraySubscriptExpr *e) {
  const auto *rowAccess = dyn_cast<ArraySubscriptExpr>(e->getBase()->IgnoreParenImpCasts());
  const auto *ref = dyn_cast<DeclRefExpr>(rowAccess->getBase()->IgnoreParenImpCasts());
  const auto *decl = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  const ConstantArrayType *outerType =
      decl ? context_.getAsConstantArrayType(decl->getType().getNonReferenceType()) : nullptr;
  const ConstantArrayType *innerType =
      outerType ? context_.getAsConstantArrayType(outerType->getElementType()) : nullptr;
  if (!innerType || !innerType->getElementType()->isFloatingType()) {
    fail(e->getBeginLoc(), "a coefficient table 'c[j][idx[...]]' must be a two-dimensional "
                           "array of numbers with constant sizes, like 'float c[11][902]'");
    return std::nullopt;
  }
  const Expr *rowExpr = rowAccess->getIdx();
  auto row = readIndex(rowExpr); // constant, or a counter of an unrolled loop
  if (!row || !row->constantValue()) {
    fail(rowExpr->getBeginLoc(), "the row of table '" + decl->getNameAsString() +
                                     "' must be a constant; '" + text(rowExpr) + "' is not");
    return std::nullopt;
  }
  int rows = int(outerType->getSize().getSExtValue());
  int64_t r = *row->constantValue();
  if (r < 0 || r >= rows) {
    fail(rowExpr->getBeginLoc(),
         fmt::format("row {} is outside table '{}' ({} rows)", r, decl->getNameAsString(), rows));
    return std::nullopt;
  }
  auto column = readElement(e->getIdx());
  if (!column)
    return std::nullopt;
  auto offset = locate(column->first, column->second, e->getIdx());
  if (!offset)
    return std::nullopt;
  ArrayInfo &index = arrays_[column->first];
  if (*offset != Offset{0, 0, 0}) {
    fail(e->getIdx()->getBeginLoc(),
         "the index array '" + index.key + "' must be read at the loop point, not at an offset");
    return std::nullopt;
  }
  if (!indexTypeName(index.elem, context_)) {
    fail(e->getIdx()->getBeginLoc(), "the index array '" + index.key + "' holds '" +
                                         index.elem.getAsString() +
                                         "'; index fields are uint8_t, uint16_t or int32_t");
    return std::nullopt;
  }
  index.indexUse = true;
  int id = -1;
  for (size_t t = 0; t < tables_.size(); ++t)
    if (tables_[t].decl == decl)
      id = int(t);
  if (id < 0) {
    id = int(tables_.size());
    std::string dslName = decl->getNameAsString();
    while (isReservedInDsl(dslName))
      dslName += "_";
    tables_.push_back({decl, dslName, rows, int(innerType->getSize().getSExtValue())});
  }
  Node n{Node::Table};
  n.table = id;
  n.row = int(r);
  n.array = column->first;
  return n;
}

std::optional<Node> Lifter::readAccess(const Expr *e) {
  // c[j][idx[pos]]: a table lookup, its column read from an index array, its
  // row free of loop counters (b[j][perm[i]] is a gather, not a lookup).
  if (const auto *outer = dyn_cast<ArraySubscriptExpr>(e))
    if (const auto *rows = dyn_cast<ArraySubscriptExpr>(outer->getBase()->IgnoreParenImpCasts());
        rows && !findCounter(rows->getIdx()) && outer->getIdx()->getType()->isIntegerType()) {
      const Expr *column = outer->getIdx()->IgnoreParenImpCasts();
      bool columnIsElement = isa<ArraySubscriptExpr>(column);
      if (const auto *call = dyn_cast<CXXOperatorCallExpr>(column))
        columnIsElement = call->getOperator() == OO_Subscript;
      if (columnIsElement)
        return readTable(outer);
    }
  auto element = readElement(e);
  if (!element)
    return std::nullopt;
  // A subscript free of loop counters names a constant weight (w[2]): a scalar.
  bool invariant = true;
  for (int axis = 0; axis < dims_; ++axis)
    invariant &= !element->second.mentions(axisCounter(axis));
  if (invariant) {
    const ArrayInfo &info = arrays_[element->first];
    std::string dslName = info.name;
    // Forget an array seen only here: it is not a field.
    if (element->first + 1 == int(arrays_.size()) && info.reads.empty() && !info.haveStrides &&
        !info.indexUse && !info.written)
      arrays_.pop_back();
    if (auto c = element->second.constantValue())
      dslName += "_" + std::to_string(*c);
    auto value = invariantText(e);
    if (!value)
      return std::nullopt;
    return scalar(dslName, *value);
  }
  auto offset = locate(element->first, element->second, e);
  if (!offset)
    return std::nullopt;
  ArrayInfo &info = arrays_[element->first];
  if (!info.elem->isFloatingType()) {
    fail(e->getBeginLoc(), "'" + info.key + "' holds '" + info.elem.getAsString() +
                               "'; integer arrays may only select table columns "
                               "('c[j][" +
                               info.key + "[pos]]')");
    return std::nullopt;
  }
  // What the body wrote at the loop point earlier is read back as written:
  // the value is substituted. Elsewhere it is the neighbour's old or new value
  // depending on the loop order, which a stencil cannot express.
  if (auto written = pending_.find(element->first); written != pending_.end()) {
    if (*offset == Offset{0, 0, 0})
      return written->second;
    fail(e->getBeginLoc(), "'" + info.key +
                               "' is read at a neighbour after the loop wrote it in the same "
                               "sweep: the value depends on the order of the loop; write to a "
                               "separate array");
    return std::nullopt;
  }
  if (info.reads.empty())
    info.firstRead = e->getBeginLoc();
  if (*offset != Offset{0, 0, 0} && info.neighbourRead.isInvalid())
    info.neighbourRead = e->getBeginLoc();
  info.reads.push_back(*offset);
  Node n{Node::Access};
  n.array = element->first;
  n.offset = *offset;
  return n;
}

std::optional<Node> Lifter::readValue(const Expr *e) {
  e = e->IgnoreParens();
  if (e->getType()->isIntegerType() || e->getType()->isBooleanType())
    return readIntegerValue(e);
  if (const auto *cast = dyn_cast<CastExpr>(e)) {
    if (cast->getCastKind() == CK_LValueToRValue || cast->getCastKind() == CK_NoOp ||
        cast->getSubExpr()->getType()->isArithmeticType())
      return readValue(cast->getSubExpr());
  }
  if (const auto *literal = dyn_cast<FloatingLiteral>(e)) {
    Node n{Node::Number};
    // Shortest text that reads back as the literal's own value in its own type.
    n.text = literal->getType()->isSpecificBuiltinType(BuiltinType::Float)
                 ? fmt::format("{}", literal->getValue().convertToFloat())
                 : fmt::format("{}", literal->getValueAsApproximateDouble());
    return n;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (auto temporary = temporaries_.find(var); temporary != temporaries_.end()) {
      if (!temporary->second) {
        fail(e->getBeginLoc(), "'" + var->getNameAsString() + "' is read before it is assigned");
        return std::nullopt;
      }
      return *temporary->second;
    }
    if (var && var->getType().getNonReferenceType()->isArithmeticType())
      return scalar(var->getNameAsString(), var->getNameAsString());
  }
  if (const auto *conditional = dyn_cast<AbstractConditionalOperator>(e)) {
    fail(conditional->getBeginLoc(),
         "a conditional expression has no stencil equivalent: the DSL has no comparisons or "
         "selections; compute the choice before the loop, as a per-point array");
    return std::nullopt;
  }
  if (isa<ArraySubscriptExpr>(e))
    return readAccess(e);
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
      call && call->getOperator() == OO_Subscript)
    return readAccess(e);
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    if (unary->getOpcode() == UO_Plus)
      return readValue(unary->getSubExpr());
    if (unary->getOpcode() == UO_Minus) {
      auto operand = readValue(unary->getSubExpr());
      if (!operand)
        return std::nullopt;
      Node n{Node::Neg};
      n.operands.push_back(std::move(*operand));
      return n;
    }
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    Node::Kind kind;
    switch (binary->getOpcode()) {
    case BO_Add: kind = Node::Add; break;
    case BO_Sub: kind = Node::Sub; break;
    case BO_Mul: kind = Node::Mul; break;
    case BO_Div: kind = Node::Div; break;
    default:
      fail(binary->getOperatorLoc(), "operator '" + binary->getOpcodeStr().str() +
                                         "' has no stencil equivalent; use + - * /");
      return std::nullopt;
    }
    auto lhs = readValue(binary->getLHS());
    if (!lhs)
      return std::nullopt;
    auto rhs = readValue(binary->getRHS());
    if (!rhs)
      return std::nullopt;
    Node n{kind};
    n.operands.push_back(std::move(*lhs));
    n.operands.push_back(std::move(*rhs));
    return n;
  }
  if (const auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const char *function = callee ? dslFunction(callee->getName()) : nullptr;
    if (function && call->getNumArgs() == 1) {
      auto operand = readValue(call->getArg(0));
      if (!operand)
        return std::nullopt;
      Node n{Node::Call};
      n.text = function;
      n.operands.push_back(std::move(*operand));
      return n;
    }
    std::string calleeName = callee ? callee->getNameAsString() : text(e);
    if (calleeName == "min" || calleeName == "max" || calleeName == "fmin" ||
        calleeName == "fmax" || calleeName == "fminf" || calleeName == "fmaxf") {
      fail(e->getBeginLoc(), "call of '" + calleeName +
                                 "': the DSL has no min or max; compute it before the loop, as "
                                 "a per-point array");
      return std::nullopt;
    }
    fail(e->getBeginLoc(), "call of '" + calleeName +
                               "': only sin, cos, sqrt, exp and fabs have stencil equivalents");
    return std::nullopt;
  }
  fail(e->getBeginLoc(), "cannot lift '" + text(e) +
                             "': a stencil's value is made of numbers, scalars, array elements, "
                             "+ - * / and sin, cos, sqrt, exp, fabs");
  return std::nullopt;
}

bool readsArray(const Node &n) {
  if (n.kind == Node::Access)
    return true;
  for (const Node &o : n.operands)
    if (readsArray(o))
      return true;
  return false;
}

bool readsAny(const Node &n, const std::set<int> &arrays) {
  if (n.kind == Node::Access && arrays.count(n.array))
    return true;
  for (const Node &o : n.operands)
    if (readsAny(o, arrays))
      return true;
  return false;
}

void collectArrays(const Node &n, std::set<int> &arrays) {
  if (n.kind == Node::Access)
    arrays.insert(n.array);
  for (const Node &o : n.operands)
    collectArrays(o, arrays);
}

/// Arrays read as a term of their own: through + - and unary minus, and
/// multiplied by factors free of arrays or of the known time levels `time`
/// (`(2 * cur - prev + ...) * taper` makes `prev` a term). With `preferRight`,
/// a product of two per-point reads neither known as a time level
/// (`vel[pos] * lap[pos]`) takes the right one as the term: coefficient
/// first, as such code is usually written; both readings compute the same.
void collectTerms(const Node &n, std::set<int> &terms, const std::set<int> &time,
                  bool preferRight) {
  switch (n.kind) {
  case Node::Access: terms.insert(n.array); return;
  case Node::Add:
  case Node::Sub:
  case Node::Neg:
    for (const Node &o : n.operands)
      collectTerms(o, terms, time, preferRight);
    return;
  case Node::Mul:
    if (!readsArray(n.operands[0]))
      collectTerms(n.operands[1], terms, time, preferRight);
    else if (!readsArray(n.operands[1]))
      collectTerms(n.operands[0], terms, time, preferRight);
    else if (readsAny(n.operands[0], time) && !readsAny(n.operands[1], time))
      collectTerms(n.operands[0], terms, time, preferRight);
    else if (readsAny(n.operands[1], time) && !readsAny(n.operands[0], time))
      collectTerms(n.operands[1], terms, time, preferRight);
    else if (preferRight && !readsAny(n.operands[0], time))
      collectTerms(n.operands[1], terms, time, preferRight);
    return;
  case Node::Div:
    if (!readsAny(n.operands[1], time))
      collectTerms(n.operands[0], terms, time, preferRight);
    return;
  default: return;
  }
}

/// Arrays that scale the time levels: factors of a product whose other factor
/// reads a time level, divisors, and arguments of functions.
void collectFactors(const Node &n, const std::set<int> &time, std::set<int> &factors) {
  if (n.kind == Node::Mul) {
    if (readsAny(n.operands[0], time))
      collectArrays(n.operands[1], factors);
    if (readsAny(n.operands[1], time))
      collectArrays(n.operands[0], factors);
  }
  if (n.kind == Node::Div)
    collectArrays(n.operands[1], factors);
  if (n.kind == Node::Call)
    collectArrays(n.operands[0], factors);
  for (const Node &o : n.operands)
    collectFactors(o, time, factors);
}

int precedence(const Node &n) {
  switch (n.kind) {
  case Node::Add:
  case Node::Sub: return 1;
  case Node::Mul:
  case Node::Div: return 2;
  case Node::Neg: return 3;
  default: return 4;
  }
}

std::string Lifter::print(const Node &n, int minPrecedence) const {
  std::string s;
  switch (n.kind) {
  case Node::Number:
  case Node::Scalar: s = n.text; break;
  case Node::Access: {
    s = arrayDslNames_[n.array];
    if (n.offset != Offset{0, 0, 0}) {
      s += fmt::format("[{}, {}", n.offset[0], n.offset[1]);
      s += dims_ == 3 ? fmt::format(", {}]", n.offset[2]) : "]";
    }
    break;
  }
  case Node::Table:
    s = fmt::format("{}[{}][{}]", tables_[n.table].name, n.row, arrayDslNames_[n.array]);
    break;
  case Node::Neg: s = "-" + print(n.operands[0], 3); break;
  case Node::Add: s = print(n.operands[0], 1) + " + " + print(n.operands[1], 1); break;
  case Node::Sub: s = print(n.operands[0], 1) + " - " + print(n.operands[1], 2); break;
  case Node::Mul: s = print(n.operands[0], 2) + " * " + print(n.operands[1], 2); break;
  case Node::Div: s = print(n.operands[0], 2) + " / " + print(n.operands[1], 3); break;
  case Node::Call: s = n.text + "(" + print(n.operands[0], 0) + ")"; break;
  }
  return precedence(n) < minPrecedence ? "(" + s + ")" : s;
}

std::string viewStride(const IndexPolynomial &stride) {
  if (stride.constantValue())
    return stride.str();
  return "std::ptrdiff_t(" + stride.str() + ")";
}

bool Lifter::assignRoles(LiftedStencil &out) {
  std::set<int> time, factors;
  for (size_t a = 0; a < arrays_.size(); ++a)
    for (const Offset &o : arrays_[a].reads)
      if (o != Offset{0, 0, 0})
        time.insert(int(a));
  // Terms found through a product with a known time level may reveal more;
  // only when that settles does a product of two unknowns decide.
  for (bool preferRight : {false, true})
    for (size_t known = size_t(-1); known != time.size();) {
      known = time.size();
      std::set<int> terms = time;
      for (int output : writeOrder_)
        collectTerms(pending_.at(output), terms, time, preferRight);
      time = terms;
    }
  for (int output : writeOrder_)
    collectFactors(pending_.at(output), time, factors);

  std::map<int, std::string> overwrites; // output -> the time level it is written over
  for (size_t a = 0; a < arrays_.size(); ++a) {
    const ArrayInfo &info = arrays_[a];
    if (info.indexUse && (!info.reads.empty() || info.written))
      return fail(info.firstRead.isValid() ? info.firstRead : info.neighbourRead,
                  "the index array '" + info.key + "' is also read or written as a value");
    if (info.written && info.neighbourRead.isValid())
      return fail(info.neighbourRead,
                  "the loop writes '" + info.key +
                      "' while reading it at neighbours: the "
                      "result depends on the order of the loop; write to a separate array");
    if (info.indexUse || (info.written && info.reads.empty()))
      continue;
    if (time.count(int(a)) && factors.count(int(a)))
      return fail(info.firstRead, "'" + info.key +
                                      "' is both a wavefield term and a factor of one: the update "
                                      "is not linear in the arrays it reads at neighbours");
    if (!time.count(int(a)) && !factors.count(int(a)))
      return fail(info.firstRead, "cannot tell whether '" + info.key +
                                      "' is a wavefield or a per-point coefficient: it only "
                                      "multiplies other per-point arrays");
    if (info.written) {
      if (!time.count(int(a)))
        return fail(info.firstRead,
                    "the loop writes '" + info.key + "' while reading it as a coefficient");
      overwrites[int(a)] = arrayDslNames_[a];
    }
  }

  auto view = [&](const ArrayInfo &info, LiftedField &f) {
    IndexPolynomial origin;
    for (int axis = 0; axis < dims_; ++axis) {
      const LoopLevel &level = nest_.levels[dims_ - 1 - axis];
      IndexPolynomial lower = *readIndex(level.lower);
      origin = origin + info.strides[axis] * lower;
    }
    if (origin.isZero())
      f.origin = info.basePointer;
    else if (origin.constantValue())
      f.origin = info.basePointer + " + " + origin.str();
    else
      f.origin = info.basePointer + " + (" + origin.str() + ")";
    f.line = dims_ > 1 ? viewStride(info.strides[1]) : "0";
    f.plane = dims_ > 2 ? viewStride(info.strides[2]) : "0";
  };
  auto add = [&](int a, LiftedRole role) {
    LiftedField f;
    f.name = arrayDslNames_[a];
    f.role = role;
    if (role == LiftedRole::Index)
      f.indexType = *indexTypeName(arrays_[a].elem, context_);
    view(arrays_[a], f);
    out.fields.push_back(std::move(f));
  };
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (time.count(int(a)) && !arrays_[a].indexUse)
      add(int(a), LiftedRole::Time);
  // The kernel computes the updates in order and writes an output in place as
  // soon as it is computed, so updates that write over a level come after
  // every other update that reads it.
  std::vector<int> order, left = writeOrder_;
  while (!left.empty()) {
    auto ready = std::find_if(left.begin(), left.end(), [&](int o) {
      if (!overwrites.count(o))
        return true;
      for (int other : left)
        if (other != o && readsAny(pending_.at(other), {o}))
          return false;
      return true;
    });
    if (ready == left.end())
      return fail(arrays_[left.front()].firstRead,
                  "the updates of '" + arrays_[left.front()].key +
                      "' and another output each read the old value of what the other writes "
                      "over in place: no order of the updates keeps both; write one of them to "
                      "a separate array");
    order.push_back(*ready);
    left.erase(ready);
  }
  // An output written over a level it reads (at the centre only) gets a name of its own.
  for (int output : order) {
    std::string outputName = arrayDslNames_[output];
    auto level = overwrites.find(output);
    if (level != overwrites.end()) {
      outputName += "_next";
      while (usedNames_.count(outputName) || isReservedInDsl(outputName))
        outputName += "_";
      usedNames_.insert(outputName);
    }
    LiftedField f;
    f.name = outputName;
    f.role = LiftedRole::Output;
    f.overwrites = level != overwrites.end() ? level->second : "";
    view(arrays_[output], f);
    out.fields.push_back(std::move(f));
    out.updates.push_back({outputName, print(pending_.at(output), 0)});
  }
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (factors.count(int(a)) && !time.count(int(a)) && !arrays_[a].indexUse)
      add(int(a), LiftedRole::Input);
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (arrays_[a].indexUse)
      add(int(a), LiftedRole::Index);
  return true;
}

bool mentionsAny(const Stmt *s, const std::set<const VarDecl *> &vars) {
  if (!s)
    return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && vars.count(var))
      return true;
  for (const Stmt *child : s->children())
    if (mentionsAny(child, vars))
      return true;
  return false;
}

std::optional<std::string> Lifter::invariantText(const Expr *e) {
  if (!mentionsAny(e, unrolled_))
    return text(e);
  e = e->IgnoreParenImpCasts();
  const Expr *base = nullptr, *index = nullptr;
  if (const auto *sub = dyn_cast<ArraySubscriptExpr>(e)) {
    base = sub->getBase();
    index = sub->getIdx();
  } else if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
             call && call->getOperator() == OO_Subscript) {
    base = call->getArg(0);
    index = call->getArg(1);
  }
  if (!base) {
    fail(e->getBeginLoc(), "cannot name '" + text(e) + "' outside the loop nest");
    return std::nullopt;
  }
  auto baseText = invariantText(base);
  if (!baseText)
    return std::nullopt;
  if (!mentionsAny(index, unrolled_))
    return *baseText + "[" + text(index) + "]";
  auto value = readIndex(index);
  if (!value || !value->constantValue()) {
    fail(index->getBeginLoc(), "the subscript '" + text(index) +
                                   "' of a coefficient depends on an inner loop's counter and "
                                   "on something that is not a constant");
    return std::nullopt;
  }
  return *baseText + "[" + std::to_string(*value->constantValue()) + "]";
}

bool Lifter::readDeclaration(const DeclStmt *decl) {
  for (const Decl *d : decl->decls()) {
    const auto *var = dyn_cast<VarDecl>(d);
    QualType type = var ? var->getType().getNonReferenceType() : QualType();
    if (var && type->isIntegerType() && var->getInit()) {
      auto value = readIndex(var->getInit());
      if (!value)
        return false;
      locals_[var] = *value;
      continue;
    }
    if (var && type->isRealFloatingType()) {
      std::optional<Node> value;
      if (var->getInit()) {
        value = readValue(var->getInit());
        if (!value)
          return false;
      }
      temporaries_[var] = value;
      continue;
    }
    return fail(d->getLocation(), "only integer index variables with an initialiser and "
                                  "floating-point temporaries may be declared in the loop body");
  }
  return true;
}

/// `a op= b` as a tree, from the current value of `a`.
std::optional<Node> compound(BinaryOperatorKind op, Node current, Node operand) {
  Node::Kind kind;
  switch (op) {
  case BO_Assign: return operand;
  case BO_AddAssign: kind = Node::Add; break;
  case BO_SubAssign: kind = Node::Sub; break;
  case BO_MulAssign: kind = Node::Mul; break;
  case BO_DivAssign: kind = Node::Div; break;
  default: return std::nullopt;
  }
  // `value = 0; value += e` is `e`.
  if (kind == Node::Add && current.kind == Node::Number && current.text == "0")
    return operand;
  Node n{kind};
  n.operands.push_back(std::move(current));
  n.operands.push_back(std::move(operand));
  return n;
}

bool Lifter::assignTemporary(const BinaryOperator *assign, const VarDecl *var) {
  std::optional<Node> &current = temporaries_.at(var);
  if (assign->getOpcode() != BO_Assign && !current)
    return fail(assign->getLHS()->getBeginLoc(),
                "'" + var->getNameAsString() + "' is read before it is assigned");
  auto operand = readValue(assign->getRHS());
  if (!operand)
    return false;
  auto value = compound(assign->getOpcode(), current ? *current : Node{Node::Number}, *operand);
  if (!value)
    return fail(assign->getOperatorLoc(), "operator '" + assign->getOpcodeStr().str() +
                                              "' has no stencil equivalent; use = += -= *= /=");
  current = std::move(*value);
  return true;
}

bool Lifter::assignElement(const BinaryOperator *assign) {
  auto target = readElement(assign->getLHS());
  if (!target)
    return false;
  int output = target->first;
  auto outOffset = locate(output, target->second, assign->getLHS());
  if (!outOffset)
    return false;
  if (*outOffset != Offset{0, 0, 0})
    return fail(assign->getLHS()->getBeginLoc(),
                fmt::format("the loop writes '{}' at offset ({}) from the loop point; a stencil "
                            "writes the point itself",
                            arrays_[output].key,
                            fmt::join(outOffset->begin(), outOffset->begin() + dims_, ", ")));
  QualType elem = arrays_[output].elem;
  if (!elemTypeName(elem))
    return fail(assign->getLHS()->getBeginLoc(), "the output '" + arrays_[output].key +
                                                     "' holds '" + elem.getAsString() +
                                                     "'; stencils compute float or double");
  if (outputElem_ && *outputElem_ != elem)
    return fail(assign->getLHS()->getBeginLoc(),
                "the output '" + arrays_[output].key + "' holds '" + elem.getAsString() +
                    "' but an earlier output holds '" + outputElem_->getAsString() +
                    "': a stencil has one element type");
  outputElem_ = elem;
  auto operand = readValue(assign->getRHS());
  if (!operand)
    return false;
  // `out[pos] += e` adds to what the body wrote so far, or to the old value.
  Node current{Node::Access};
  if (auto written = pending_.find(output); written != pending_.end()) {
    current = written->second;
  } else if (assign->getOpcode() != BO_Assign) {
    ArrayInfo &info = arrays_[output];
    if (info.reads.empty())
      info.firstRead = assign->getLHS()->getBeginLoc();
    info.reads.push_back(Offset{0, 0, 0});
    current.array = output;
  }
  auto value = compound(assign->getOpcode(), current, *operand);
  if (!value)
    return fail(assign->getOperatorLoc(), "operator '" + assign->getOpcodeStr().str() +
                                              "' has no stencil equivalent; use = += -= *= /=");
  if (!pending_.count(output))
    writeOrder_.push_back(output);
  pending_.insert_or_assign(output, std::move(*value));
  arrays_[output].written = true;
  return true;
}

/// The most copies of an inner loop's body `lift` makes.
constexpr int64_t kMaxUnroll = 64;

bool Lifter::unroll(const ForStmt *loop) {
  LoopLevel level;
  if (!readLoopHeader(loop, context_, level, error_))
    return false;
  auto lower = readIndex(level.lower);
  if (!lower)
    return false;
  auto upper = readIndex(level.upper);
  if (!upper)
    return false;
  if (!lower->constantValue() || !upper->constantValue())
    return fail((lower->constantValue() ? level.upper : level.lower)->getBeginLoc(),
                "an inner loop of the body must have a constant trip count (it is unrolled); '" +
                    text(lower->constantValue() ? level.upper : level.lower) +
                    "' is not a constant");
  int64_t first = *lower->constantValue();
  int64_t last = *upper->constantValue() - (level.inclusive ? 0 : 1);
  if (last - first + 1 > kMaxUnroll)
    return fail(loop->getBeginLoc(), fmt::format("an inner loop of the body runs {} times; lift "
                                                 "unrolls at most {}",
                                                 last - first + 1, kMaxUnroll));
  unrolled_.insert(level.counter);
  for (int64_t v = first; v <= last; ++v) {
    locals_[level.counter] = IndexPolynomial::constant(v);
    if (!readStatement(loop->getBody()))
      return false;
  }
  locals_.erase(level.counter);
  unrolled_.erase(level.counter);
  return true;
}

bool Lifter::readStatement(const Stmt *s) {
  s = withoutOpenMP(s);
  if (const auto *block = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *inner : block->body())
      if (!readStatement(inner))
        return false;
    return true;
  }
  if (isa<NullStmt>(s))
    return true;
  if (const auto *decl = dyn_cast<DeclStmt>(s))
    return readDeclaration(decl);
  if (const auto *loop = dyn_cast<ForStmt>(s))
    return unroll(loop);
  if (const auto *expr = dyn_cast<Expr>(s))
    s = expr->IgnoreParenImpCasts();
  if (const auto *assign = dyn_cast<BinaryOperator>(s); assign && assign->isAssignmentOp()) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts())) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (temporaries_.count(var))
        return assignTemporary(assign, var);
      return fail(assign->getLHS()->getBeginLoc(),
                  "the loop body assigns '" + ref->getDecl()->getNameAsString() +
                      "', which is not an array element or a floating-point temporary declared "
                      "in the body");
    }
    return assignElement(assign);
  }
  if (isa<IfStmt>(s) || isa<SwitchStmt>(s))
    return fail(s->getBeginLoc(), "a branch in the loop body: a stencil updates every point the "
                                  "same way; compute a per-point factor before the loop instead");
  return fail(s->getBeginLoc(), "the loop body may hold declarations, assignments to array "
                                "elements and temporaries, and inner loops with constant trip "
                                "counts; this statement is none of these");
}

bool Lifter::readBounds(const LoopNest &nest, LiftedStencil &out) {
  // The bounds may not depend on other counters (rectangular nests).
  for (int axis = 0; axis < dims_; ++axis) {
    const LoopLevel &level = nest.levels[dims_ - 1 - axis];
    auto lower = readIndex(level.lower);
    if (!lower)
      return false;
    auto upper = readIndex(level.upper);
    if (!upper)
      return false;
    for (const LoopLevel &other : nest.levels)
      if (lower->mentions(other.counter->getNameAsString()) ||
          upper->mentions(other.counter->getNameAsString()))
        return fail(level.loop->getBeginLoc(),
                    "the bounds of loop '" + level.counter->getNameAsString() +
                        "' depend on the counter '" + other.counter->getNameAsString() +
                        "'; a stencil loop nest must be rectangular");
    IndexPolynomial trips = *upper - *lower;
    if (level.inclusive)
      trips = trips + IndexPolynomial::constant(1);
    std::string extent =
        trips.constantValue() ? trips.str() : "static_cast<int>(" + trips.str() + ")";
    if (&nest == &nest_) {
      out.extent[axis] = extent;
      continue;
    }
    const LoopLevel &first = nest_.levels[dims_ - 1 - axis];
    if (!(*lower == *readIndex(first.lower)) || extent != out.extent[axis])
      return fail(level.loop->getBeginLoc(),
                  "this loop nest continues the one at line " +
                      std::to_string(context_.getSourceManager().getSpellingLineNumber(
                          nest_.levels[0].loop->getBeginLoc())) +
                      " but its loop over '" + level.counter->getNameAsString() +
                      "' covers other points");
  }
  return true;
}

std::optional<LiftedStencil> Lifter::lift(const std::string &name) {
  LiftedStencil out;
  out.name = name;
  out.dims = dims_;
  for (const LoopNest &nest : group_) {
    if (int(nest.levels.size()) != dims_) {
      fail(nest.levels[0].loop->getBeginLoc(), "this loop nest continues one with " +
                                                   std::to_string(dims_) + " loops but has " +
                                                   std::to_string(nest.levels.size()));
      return std::nullopt;
    }
    // Later nests' counters stand for the first nest's.
    if (&nest != &nest_)
      for (int d = 0; d < dims_; ++d)
        locals_[nest.levels[d].counter] =
            IndexPolynomial::symbol(nest_.levels[d].counter->getNameAsString());
    if (!readBounds(nest, out))
      return std::nullopt;
  }
  for (const auto &level : nest_.levels)
    usedNames_.insert(level.counter->getNameAsString());
  for (const LoopNest &nest : group_)
    for (const Stmt *s : nest.body)
      if (!readStatement(s))
        return std::nullopt;
  if (writeOrder_.empty()) {
    fail(nest_.levels.back().loop->getBeginLoc(),
         "the loop body writes no array element: a stencil has an output");
    return std::nullopt;
  }
  out.elemType = *elemTypeName(*outputElem_);
  for (const ArrayInfo &a : arrays_) {
    if (a.indexUse || a.written || a.elem == *outputElem_)
      continue;
    fail(a.firstRead, "'" + a.key + "' holds '" + a.elem.getAsString() +
                          "' but the output holds '" + outputElem_->getAsString() +
                          "': a stencil has one element type");
    return std::nullopt;
  }
  for (const TableInfo &t : tables_)
    if (elemTypeName(context_.getBaseElementType(t.decl->getType())) != out.elemType) {
      fail(t.decl->getLocation(), "table '" + t.name +
                                      "' holds a different type than the output ('" + out.elemType +
                                      "')");
      return std::nullopt;
    }
  for (const ArrayInfo &a : arrays_)
    usedNames_.insert(a.name);
  for (const ArrayInfo &a : arrays_) {
    std::string dslName = a.name;
    while (isReservedInDsl(dslName))
      dslName += "_";
    arrayDslNames_.push_back(dslName);
  }
  if (!assignRoles(out))
    return std::nullopt;
  for (const TableInfo &t : tables_)
    out.tables.push_back({t.name, t.rows, t.cols, "&" + t.decl->getNameAsString() + "[0][0]", ""});
  out.scalars = scalars_;
  return out;
}

} // namespace

std::optional<LiftedStencil> liftLoopNests(const std::vector<LoopNest> &group,
                                           const std::string &name, ASTContext &context,
                                           LiftError &error) {
  return Lifter(group, context, error).lift(name);
}

} // namespace stencilc::tooling
