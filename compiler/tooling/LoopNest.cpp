//===- LoopNest.cpp - The shape of a stencil loop nest in the Clang AST ----===//
#include "tooling/LoopNest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

namespace stencilc::tooling {

using namespace clang;

namespace {

/// The single statement of `s`, looking through braces and OpenMP
/// directives: `{ { #pragma omp simd for ... } }`.
const Stmt *onlyStatement(const Stmt *s) {
  s = withoutOpenMP(s);
  while (const auto *block = dyn_cast_or_null<CompoundStmt>(s)) {
    if (block->size() != 1)
      return s;
    s = withoutOpenMP(block->body_front());
  }
  return s;
}

const ForStmt *innerLoop(const ForStmt *loop) {
  return dyn_cast_or_null<ForStmt>(onlyStatement(loop->getBody()));
}

const ForStmt *innermostLoop(const ForStmt *loop) {
  while (const ForStmt *inner = innerLoop(loop))
    loop = inner;
  return loop;
}

const Expr *stripped(const Expr *e) { return e ? e->IgnoreParenImpCasts() : nullptr; }

const VarDecl *referencedVar(const Expr *e) {
  if (const auto *ref = dyn_cast_or_null<DeclRefExpr>(stripped(e)))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

/// `int i = lo` or `i = lo`.
bool readInit(const Stmt *init, LoopLevel &level) {
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init)) {
    if (!decl->isSingleDecl())
      return false;
    const auto *var = dyn_cast<VarDecl>(decl->getSingleDecl());
    if (!var || !var->getInit())
      return false;
    level.counter = var;
    level.lower = var->getInit();
    return true;
  }
  if (const auto *assign = dyn_cast_or_null<BinaryOperator>(init)) {
    if (assign->getOpcode() != BO_Assign || !referencedVar(assign->getLHS()))
      return false;
    level.counter = referencedVar(assign->getLHS());
    level.lower = assign->getRHS();
    return true;
  }
  return false;
}

/// `i < hi`, `i <= hi`, `hi > i`, `hi >= i`.
bool readCondition(const Expr *cond, LoopLevel &level) {
  const auto *cmp = dyn_cast_or_null<BinaryOperator>(stripped(cond));
  if (!cmp)
    return false;
  BinaryOperatorKind op = cmp->getOpcode();
  if (referencedVar(cmp->getLHS()) == level.counter && (op == BO_LT || op == BO_LE)) {
    level.upper = cmp->getRHS();
    level.inclusive = op == BO_LE;
    return true;
  }
  if (referencedVar(cmp->getRHS()) == level.counter && (op == BO_GT || op == BO_GE)) {
    level.upper = cmp->getLHS();
    level.inclusive = op == BO_GE;
    return true;
  }
  return false;
}

bool isOne(const Expr *e, ASTContext &context) {
  Expr::EvalResult value;
  return e && stripped(e)->EvaluateAsInt(value, context) && value.Val.getInt() == 1;
}

/// `++i`, `i++`, `i += 1`, `i = i + 1`.
bool readIncrement(const Expr *inc, const VarDecl *counter, ASTContext &context) {
  inc = stripped(inc);
  if (const auto *unary = dyn_cast_or_null<UnaryOperator>(inc))
    return unary->isIncrementOp() && referencedVar(unary->getSubExpr()) == counter;
  const auto *binary = dyn_cast_or_null<BinaryOperator>(inc);
  if (!binary || referencedVar(binary->getLHS()) != counter)
    return false;
  if (binary->getOpcode() == BO_AddAssign)
    return isOne(binary->getRHS(), context);
  if (binary->getOpcode() != BO_Assign)
    return false;
  const auto *sum = dyn_cast<BinaryOperator>(stripped(binary->getRHS()));
  return sum && sum->getOpcode() == BO_Add &&
         ((referencedVar(sum->getLHS()) == counter && isOne(sum->getRHS(), context)) ||
          (referencedVar(sum->getRHS()) == counter && isOne(sum->getLHS(), context)));
}

/// The statements of the innermost body, braces or not.
std::vector<const Stmt *> bodyStatements(const Stmt *body) {
  body = withoutOpenMP(body);
  std::vector<const Stmt *> statements;
  if (const auto *block = dyn_cast<CompoundStmt>(body)) {
    for (const Stmt *s : block->body())
      statements.push_back(withoutOpenMP(s));
    return statements;
  }
  return {body};
}

/// The statements of a body, with nested blocks and inner loops' bodies
/// flattened: what `--all` and the grouping of nests look at.
void flatStatements(const Stmt *body, std::vector<const Stmt *> &out) {
  for (const Stmt *s : bodyStatements(body)) {
    if (isa<CompoundStmt>(s))
      flatStatements(s, out);
    else if (const auto *loop = dyn_cast<ForStmt>(s))
      flatStatements(loop->getBody(), out);
    else if (const auto *e = dyn_cast<Expr>(s))
      out.push_back(stripped(e)); // `a[p] = std::max(...)` is wrapped in ExprWithCleanups
    else
      out.push_back(s);
  }
}

/// The variable whose element `e` is: `a` in `a[i]`, `p[t % 2][i]`, `v[i]`.
const VarDecl *rootVariable(const Expr *e) {
  e = stripped(e);
  while (true) {
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(e))
      e = stripped(sub->getBase());
    else if (const auto *call = dyn_cast<CXXOperatorCallExpr>(e);
             call && call->getOperator() == OO_Subscript)
      e = stripped(call->getArg(0));
    else
      break;
  }
  return referencedVar(e);
}

/// `a[...] = ...` and its compound forms.
const BinaryOperator *elementAssignment(const Stmt *s) {
  const auto *assign = dyn_cast<BinaryOperator>(s);
  if (!assign || !assign->isAssignmentOp())
    return nullptr;
  const Expr *lhs = stripped(assign->getLHS());
  bool element = isa<ArraySubscriptExpr>(lhs);
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(lhs))
    element = call->getOperator() == OO_Subscript;
  return element ? assign : nullptr;
}

/// The location just past the `;` that ends `s`, for a body without braces.
SourceLocation semicolonAfter(const Stmt *s, ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  llvm::Optional<Token> next = Lexer::findNextToken(s->getEndLoc(), sm, context.getLangOpts());
  if (next && next->is(tok::semi))
    return next->getLocation();
  return s->getEndLoc();
}

} // namespace

const Stmt *withoutOpenMP(const Stmt *s) {
  while (const auto *directive = dyn_cast_or_null<OMPExecutableDirective>(s)) {
    if (!directive->hasAssociatedStmt())
      return s;
    const Stmt *inner = directive->getInnermostCapturedStmt()->getCapturedStmt();
    if (!inner || inner == s)
      return s;
    s = inner;
  }
  return s;
}

int perfectNestDepth(const ForStmt *loop) {
  int depth = 1;
  for (const ForStmt *inner = innerLoop(loop); inner; inner = innerLoop(inner))
    ++depth;
  return depth;
}

bool hasStencilBody(const ForStmt *loop) {
  std::vector<const Stmt *> statements;
  flatStatements(innermostLoop(loop)->getBody(), statements);
  if (statements.empty() || !elementAssignment(statements.back()))
    return false;
  for (const Stmt *s : statements) {
    const auto *assign = dyn_cast<BinaryOperator>(s);
    if (!isa<DeclStmt>(s) && !(assign && assign->isAssignmentOp()))
      return false;
  }
  return true;
}

bool onlyAccumulates(const ForStmt *loop) {
  std::vector<const Stmt *> statements;
  flatStatements(innermostLoop(loop)->getBody(), statements);
  bool any = false;
  for (const Stmt *s : statements) {
    if (isa<DeclStmt>(s))
      continue;
    const BinaryOperator *assign = elementAssignment(s);
    if (assign && (assign->getOpcode() == BO_AddAssign || assign->getOpcode() == BO_SubAssign)) {
      any = true;
      continue;
    }
    const auto *local = dyn_cast<BinaryOperator>(s); // a temporary: `value += ...`
    if (!local || !local->isAssignmentOp() || !referencedVar(local->getLHS()))
      return false;
  }
  return any;
}

std::vector<const VarDecl *> writtenVariables(const ForStmt *loop) {
  std::vector<const Stmt *> statements;
  flatStatements(innermostLoop(loop)->getBody(), statements);
  std::vector<const VarDecl *> written;
  for (const Stmt *s : statements)
    if (const BinaryOperator *assign = elementAssignment(s))
      if (const VarDecl *var = rootVariable(assign->getLHS()))
        written.push_back(var);
  return written;
}

std::string headerText(const ForStmt *loop, ASTContext &context) {
  std::string text;
  for (const ForStmt *l = loop; l; l = innerLoop(l)) {
    SourceRange header(l->getBeginLoc(), l->getRParenLoc());
    for (char c : Lexer::getSourceText(CharSourceRange::getTokenRange(header),
                                       context.getSourceManager(), context.getLangOpts()))
      if (!std::isspace(static_cast<unsigned char>(c)))
        text += c;
    text += ';';
  }
  return text;
}

bool readLoopHeader(const ForStmt *loop, ASTContext &context, LoopLevel &level, LiftError &error) {
  level.loop = loop;
  if (!readInit(loop->getInit(), level)) {
    error = {loop->getBeginLoc(), "cannot find the loop counter: write 'for (int i = lo; i < hi; "
                                  "++i)' or 'i = lo' in the loop's initialisation"};
    return false;
  }
  if (!level.counter->getType()->isIntegerType()) {
    error = {level.counter->getLocation(),
             "the loop counter '" + level.counter->getNameAsString() + "' is not an integer"};
    return false;
  }
  if (!readCondition(loop->getCond(), level)) {
    error = {loop->getCond() ? loop->getCond()->getBeginLoc() : loop->getBeginLoc(),
             "the loop condition must compare the counter '" + level.counter->getNameAsString() +
                 "' with a bound: '<' or '<='"};
    return false;
  }
  if (!readIncrement(loop->getInc(), level.counter, context)) {
    error = {loop->getInc() ? loop->getInc()->getBeginLoc() : loop->getBeginLoc(),
             "the loop counter '" + level.counter->getNameAsString() + "' must step by one ('++" +
                 level.counter->getNameAsString() + "')"};
    return false;
  }
  return true;
}

std::optional<LoopNest> recogniseLoopNest(const ForStmt *outer, ASTContext &context,
                                          LiftError &error) {
  LoopNest nest;
  int depth = perfectNestDepth(outer);
  if (depth < 2 || depth > 3) {
    error = {outer->getBeginLoc(),
             "a stencil loop nest has 2 or 3 perfectly nested 'for' loops (x innermost); "
             "this one has " +
                 std::to_string(depth)};
    return std::nullopt;
  }
  const ForStmt *loop = outer;
  for (int d = 0; d < depth; ++d, loop = innerLoop(loop)) {
    LoopLevel level;
    if (!readLoopHeader(loop, context, level, error))
      return std::nullopt;
    nest.levels.push_back(level);
  }

  const ForStmt *innermost = nest.levels.back().loop;
  nest.body = bodyStatements(innermost->getBody());
  if (nest.body.empty()) {
    error = {innermost->getBody()->getBeginLoc(), "the innermost loop body is empty"};
    return std::nullopt;
  }
  // A `for` ends where its body ends; a body without braces ends before its `;`.
  bool braced = false;
  for (const LoopLevel &level : nest.levels)
    braced |= isa<CompoundStmt>(withoutOpenMP(level.loop->getBody()));
  nest.end = braced || nest.body.size() != 1 || !isa<Expr>(nest.body.back())
                 ? outer->getEndLoc()
                 : semicolonAfter(nest.body.back(), context);
  return nest;
}

} // namespace stencilc::tooling
