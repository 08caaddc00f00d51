//===- BodyReader.cpp - The statements of a loop body (Lifter.h) ----------===//
#include "tooling/Lifter.h"

#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling::lifting {

namespace {
/// The most copies of an inner loop's body `lift` makes.
constexpr int64_t kMaxUnroll = 64;
} // namespace

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
  if (branch_)
    return fail(assign->getLHS()->getBeginLoc(),
                "the loop writes an array inside an 'if': a stencil updates every point the same "
                "way; assign a temporary in the branches and write the array after the 'if'");
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

bool Lifter::readBranch(const IfStmt *s) {
  if (s->getInit() || s->getConditionVariable() || s->isConstexpr())
    return fail(s->getBeginLoc(), "an 'if' with a declaration or 'constexpr' has no stencil "
                                  "equivalent; write 'if (a < b)'");
  auto compare = readComparison(s->getCond(), "an 'if' in the loop body");
  if (!compare)
    return false;
  // Each branch runs from the values before the `if`; what they leave is merged.
  const auto before = temporaries_;
  const IfStmt *outer = branch_;
  branch_ = s;
  if (!readStatement(s->getThen()))
    return false;
  const auto afterThen = temporaries_;
  temporaries_ = before;
  if (s->getElse() && !readStatement(s->getElse()))
    return false;
  const auto afterElse = temporaries_;
  branch_ = outer;
  temporaries_ = before; // temporaries declared in a branch end with it
  for (auto &[var, value] : temporaries_) {
    const std::optional<Node> &onTrue = afterThen.at(var), &onFalse = afterElse.at(var);
    if (onTrue && onFalse && sameValue(*onTrue, *onFalse)) {
      value = onTrue;
      continue;
    }
    if (!onTrue || !onFalse)
      return fail(s->getBeginLoc(), "'" + var->getNameAsString() +
                                        "' is assigned on one side of the 'if' only and has no "
                                        "value before it");
    Node select{Node::Select};
    select.loc = s->getBeginLoc();
    select.operands = {*compare, *onTrue, *onFalse};
    if (!checkChoice(select, "the 'if' choosing '" + var->getNameAsString() + "'"))
      return false;
    value = std::move(select);
  }
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
  if (const auto *branch = dyn_cast<IfStmt>(s))
    return readBranch(branch);
  if (isa<SwitchStmt>(s))
    return fail(s->getBeginLoc(), "a switch in the loop body: a stencil updates every point the "
                                  "same way; choose values with 'if' or '?:' instead");
  return fail(s->getBeginLoc(), "the loop body may hold declarations, assignments to array "
                                "elements and temporaries, and inner loops with constant trip "
                                "counts; this statement is none of these");
}

} // namespace stencilc::tooling::lifting
