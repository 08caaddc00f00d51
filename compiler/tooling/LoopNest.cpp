//===- LoopNest.cpp - The shape of a stencil loop nest in the Clang AST ----===//
#include "tooling/LoopNest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Lexer.h"

namespace stencilc::tooling {

using namespace clang;

namespace {

/// The single statement of `s`, looking through braces: `{ { for ... } }`.
const Stmt *onlyStatement(const Stmt *s) {
  while (const auto *block = dyn_cast_or_null<CompoundStmt>(s)) {
    if (block->size() != 1)
      return s;
    s = block->body_front();
  }
  return s;
}

const ForStmt *innerLoop(const ForStmt *loop) {
  return dyn_cast_or_null<ForStmt>(onlyStatement(loop->getBody()));
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
  if (const auto *block = dyn_cast<CompoundStmt>(body))
    return {block->body_begin(), block->body_end()};
  return {body};
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

int perfectNestDepth(const ForStmt *loop) {
  int depth = 1;
  for (const ForStmt *inner = innerLoop(loop); inner; inner = innerLoop(inner))
    ++depth;
  return depth;
}

bool hasStencilBody(const ForStmt *loop) {
  while (const ForStmt *inner = innerLoop(loop))
    loop = inner;
  std::vector<const Stmt *> statements = bodyStatements(loop->getBody());
  if (statements.empty())
    return false;
  for (size_t i = 0; i + 1 < statements.size(); ++i)
    if (!isa<DeclStmt>(statements[i]))
      return false;
  const auto *assign = dyn_cast<BinaryOperator>(statements.back());
  return assign && assign->isAssignmentOp();
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
    level.loop = loop;
    if (!readInit(loop->getInit(), level)) {
      error = {loop->getBeginLoc(), "cannot find the loop counter: write 'for (int i = lo; i < hi; "
                                    "++i)' or 'i = lo' in the loop's initialisation"};
      return std::nullopt;
    }
    if (!level.counter->getType()->isIntegerType()) {
      error = {level.counter->getLocation(),
               "the loop counter '" + level.counter->getNameAsString() + "' is not an integer"};
      return std::nullopt;
    }
    if (!readCondition(loop->getCond(), level)) {
      error = {loop->getCond() ? loop->getCond()->getBeginLoc() : loop->getBeginLoc(),
               "the loop condition must compare the counter '" + level.counter->getNameAsString() +
                   "' with a bound: '<' or '<='"};
      return std::nullopt;
    }
    if (!readIncrement(loop->getInc(), level.counter, context)) {
      error = {loop->getInc() ? loop->getInc()->getBeginLoc() : loop->getBeginLoc(),
               "the loop counter '" + level.counter->getNameAsString() + "' must step by one ('++" +
                   level.counter->getNameAsString() + "')"};
      return std::nullopt;
    }
    nest.levels.push_back(level);
  }

  const ForStmt *innermost = nest.levels.back().loop;
  std::vector<const Stmt *> statements = bodyStatements(innermost->getBody());
  if (statements.empty()) {
    error = {innermost->getBody()->getBeginLoc(), "the innermost loop body is empty"};
    return std::nullopt;
  }
  for (size_t i = 0; i + 1 < statements.size(); ++i) {
    const auto *decl = dyn_cast<DeclStmt>(statements[i]);
    if (!decl) {
      error = {statements[i]->getBeginLoc(),
               "the innermost loop body must be one assignment to an array element, after "
               "declarations of integer index variables only"};
      return std::nullopt;
    }
    for (const Decl *d : decl->decls()) {
      const auto *var = dyn_cast<VarDecl>(d);
      if (!var || !var->getType()->isIntegerType() || !var->getInit()) {
        error = {d->getLocation(), "only integer index variables with an initialiser may be "
                                   "declared in the innermost loop body"};
        return std::nullopt;
      }
      nest.indexLocals.push_back(var);
    }
  }
  const auto *assign = dyn_cast<BinaryOperator>(statements.back());
  if (!assign || !assign->isAssignmentOp()) {
    error = {statements.back()->getBeginLoc(),
             "the innermost loop body must end in one assignment to an array element"};
    return std::nullopt;
  }
  if (assign->getOpcode() != BO_Assign) {
    error = {assign->getOperatorLoc(),
             "compound assignment '" + assign->getOpcodeStr().str() +
                 "' reads the array it writes; a stencil's output is written only: write "
                 "'out[...] = in[...] " +
                 assign->getOpcodeStr().drop_back().str() + " ...' with a separate output array"};
    return std::nullopt;
  }
  nest.assignment = assign;
  // A `for` ends where its body ends; a body without braces ends before its `;`.
  bool braced = false;
  for (const LoopLevel &level : nest.levels)
    braced |= isa<CompoundStmt>(level.loop->getBody());
  nest.end = braced ? outer->getEndLoc() : semicolonAfter(assign, context);
  return nest;
}

} // namespace stencilc::tooling
