//===- ValueReader.cpp - Values of a loop body (Lifter.h) ------------------===//
#include "tooling/Lifter.h"

#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

#include "ir/Keywords.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling::lifting {

namespace {

const char *dslFunction(llvm::StringRef callee) {
  static const std::map<std::string, const char *, std::less<>> functions = {
      {"sin", "sin"},   {"sinf", "sin"},   {"cos", "cos"}, {"cosf", "cos"},
      {"sqrt", "sqrt"}, {"sqrtf", "sqrt"}, {"exp", "exp"}, {"expf", "exp"},
      {"fabs", "abs"},  {"fabsf", "abs"},  {"abs", "abs"}};
  auto it = functions.find(callee);
  return it == functions.end() ? nullptr : it->second;
}

/// Min or Max for the C and C++ library's minimum and maximum, declared in a
/// system header: std::min, std::max, fmin, fmax and their f forms (and CUDA's
/// ::min, ::max); nothing otherwise.
std::optional<Node::Kind> choiceFunction(const FunctionDecl *callee, const SourceManager &sm) {
  if (!callee || !callee->getIdentifier())
    return std::nullopt;
  if (!sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation())))
    return std::nullopt; // someone's own min: its meaning is unknown
  llvm::StringRef name = callee->getName();
  if (name == "min" || name == "fmin" || name == "fminf")
    return Node::Min;
  if (name == "max" || name == "fmax" || name == "fmaxf")
    return Node::Max;
  return std::nullopt;
}

} // namespace

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

Node Lifter::scalar(const std::string &cppName, const std::string &value) {
  auto it = scalarNames_.find(value);
  if (it == scalarNames_.end()) {
    std::string name = cppName;
    while (ir::isReservedWord(name) || usedNames_.count(name))
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
    while (ir::isReservedWord(dslName))
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
  if (const auto *conditional = dyn_cast<ConditionalOperator>(e))
    return readConditional(conditional);
  if (const auto *conditional = dyn_cast<BinaryConditionalOperator>(e)) {
    fail(conditional->getBeginLoc(),
         "the GNU 'a ?: b' has no stencil equivalent; write 'a != 0 ? a : b'");
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
    if (auto kind = choiceFunction(callee, context_.getSourceManager());
        kind && call->getNumArgs() == 2)
      return readMinMax(call, *kind, callee->getQualifiedNameAsString());
    if (llvm::is_contained(
            std::initializer_list<llvm::StringRef>{"min", "max", "fmin", "fminf", "fmax", "fmaxf"},
            calleeName)) {
      fail(e->getBeginLoc(), "call of '" + callee->getQualifiedNameAsString() +
                                 "', which is not the library's: lift reads std::min, std::max, "
                                 "fmin and fmax, whose meaning it knows");
      return std::nullopt;
    }
    fail(e->getBeginLoc(), "call of '" + calleeName +
                               "': only sin, cos, sqrt, exp, fabs, min, max, fmin and fmax have "
                               "stencil equivalents");
    return std::nullopt;
  }
  fail(e->getBeginLoc(), "cannot lift '" + text(e) +
                             "': a stencil's value is made of numbers, scalars, array elements, "
                             "+ - * /, sin, cos, sqrt, exp, fabs, min, max and 'a < b ? x : y'");
  return std::nullopt;
}

bool Lifter::checkChoice(const Node &choice, const std::string &what) {
  const Node *neighbour = findNeighbourAccess(choice);
  if (!neighbour)
    return true;
  const Offset &o = neighbour->offset;
  std::string at = dims_ == 3 ? fmt::format("[{}, {}, {}]", o[0], o[1], o[2])
                              : fmt::format("[{}, {}]", o[0], o[1]);
  return fail(choice.loc, what + " reads '" + arrays_[size_t(neighbour->array)].key + "' at " + at +
                              ", away from the loop point: min, max and '?:' may only " +
                              "read arrays at the loop point, scalars and numbers");
}

std::optional<Node> Lifter::readMinMax(const CallExpr *call, Node::Kind kind,
                                       const std::string &calleeName) {
  Node n{kind};
  n.loc = call->getBeginLoc();
  for (const Expr *arg : call->arguments()) {
    // std::min takes its operands by const reference.
    auto operand = readValue(arg->IgnoreImplicit());
    if (!operand)
      return std::nullopt;
    n.operands.push_back(std::move(*operand));
  }
  if (!checkChoice(n, "'" + calleeName + "'"))
    return std::nullopt;
  return n;
}

std::optional<Node> Lifter::readComparison(const Expr *e, llvm::StringRef where) {
  const auto *cond = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
  if (!cond || !cond->isComparisonOp()) {
    fail(e->getBeginLoc(), "the condition of " + where.str() +
                               " must be one comparison (< <= > >= == !=) of two values");
    return std::nullopt;
  }
  Node compare{Node::Compare};
  compare.text = cond->getOpcodeStr().str();
  for (const Expr *side : {cond->getLHS(), cond->getRHS()}) {
    auto operand = readValue(side);
    if (!operand)
      return std::nullopt;
    compare.operands.push_back(std::move(*operand));
  }
  return compare;
}

std::optional<Node> Lifter::readConditional(const ConditionalOperator *e) {
  auto compare = readComparison(e->getCond(), "'?:'");
  if (!compare)
    return std::nullopt;
  Node n{Node::Select};
  n.loc = e->getBeginLoc();
  n.operands.push_back(std::move(*compare));
  for (const Expr *branch : {e->getTrueExpr(), e->getFalseExpr()}) {
    auto operand = readValue(branch);
    if (!operand)
      return std::nullopt;
    n.operands.push_back(std::move(*operand));
  }
  if (!checkChoice(n, "'?:'"))
    return std::nullopt;
  return n;
}

} // namespace stencilc::tooling::lifting
