//===- ParserExprs.cpp - Parse expressions, sums, derivatives, lookups ----===//
#include "frontend/ParserImpl.h"

#include "support/Rational.h"

#include "ir/Keywords.h"
#include "llvm/ADT/StringSwitch.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

namespace stencilc {

using namespace parser_detail;
using ir::Expr;
using ir::ExprPtr;

namespace {
/// The exact value of a decimal literal, when numerator and denominator fit.
std::optional<Rational> exactDecimal(llvm::StringRef text) {
  int64_t mantissa = 0;
  int exponent = 0;
  size_t i = 0;
  bool afterDot = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      afterDot = true;
      continue;
    }
    if (c == 'e' || c == 'E')
      break;
    if (__builtin_mul_overflow(mantissa, 10, &mantissa) ||
        __builtin_add_overflow(mantissa, c - '0', &mantissa))
      return std::nullopt;
    if (afterDot)
      --exponent;
  }
  if (i < text.size()) {
    int e = 0;
    if (text.substr(i + 1).getAsInteger(10, e))
      return std::nullopt;
    exponent += e;
  }
  if (exponent > 18 || exponent < -18)
    return std::nullopt;
  int64_t scale = 1;
  for (int k = 0; k < std::abs(exponent); ++k)
    scale *= 10;
  try {
    return exponent >= 0 ? Rational(mantissa) * Rational(scale) : Rational(mantissa, scale);
  } catch (const std::exception &) {
    return std::nullopt;
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static ExprPtr makeBinary(Expr::Kind kind, llvm::SMLoc loc, ExprPtr lhs, ExprPtr rhs) {
  auto e = std::make_unique<Expr>(kind, loc);
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

ExprPtr Parser::parseBinaryChain(ExprPtr (Parser::*operand)(), Token::Kind first,
                                 Expr::Kind firstKind, Token::Kind second, Expr::Kind secondKind) {
  ExprPtr lhs = (this->*operand)();
  while (lhs && (tok_.is(first) || tok_.is(second))) {
    Token op = tok_;
    consume();
    ExprPtr rhs = (this->*operand)();
    if (!rhs)
      return nullptr;
    lhs =
        makeBinary(op.is(first) ? firstKind : secondKind, op.loc(), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

static std::optional<ir::CompareOp> compareOpOf(Token::Kind k) {
  switch (k) {
  case Token::Less: return ir::CompareOp::Lt;
  case Token::LessEqual: return ir::CompareOp::Le;
  case Token::Greater: return ir::CompareOp::Gt;
  case Token::GreaterEqual: return ir::CompareOp::Ge;
  case Token::EqualEqual: return ir::CompareOp::Eq;
  case Token::NotEqual: return ir::CompareOp::Ne;
  default: return std::nullopt;
  }
}

ExprPtr Parser::parseExpr() {
  ExprPtr lhs = parseAdditive();
  if (!lhs)
    return nullptr;
  std::optional<ir::CompareOp> op = compareOpOf(tok_.kind);
  if (!op) {
    if (tok_.is(Token::Question)) {
      diag_.error(tok_.loc(), "'?' must follow a comparison, as in 'x > 0 ? a : b'",
                  {tok_.range()});
      return nullptr;
    }
    return lhs;
  }
  Token opTok = tok_;
  consume();
  ExprPtr rhs = parseAdditive();
  if (!rhs)
    return nullptr;
  if (compareOpOf(tok_.kind)) {
    diag_.error(tok_.loc(), "comparisons do not chain; write one comparison before '?'",
                {tok_.range()});
    return nullptr;
  }
  if (!tok_.is(Token::Question)) {
    diag_.error(opTok.loc(),
                "a comparison is only allowed as the condition of a conditional 'x " + opTok.text +
                    " y ? a : b'",
                {opTok.range()});
    return nullptr;
  }
  Token question = tok_;
  consume();
  // The branches recurse into parseExpr without passing parseUnary's guard first.
  NestingGuard nesting(nesting_);
  if (nesting.tooDeep()) {
    diag_.error(tok_.loc(), fmt::format("expression nested more than {} levels deep", kMaxNesting));
    return nullptr;
  }
  ExprPtr then = parseExpr();
  if (!then || !expect(Token::Colon, "between the two values of '?:'"))
    return nullptr;
  ExprPtr otherwise = parseExpr();
  if (!otherwise)
    return nullptr;
  ExprPtr cond = makeBinary(Expr::Kind::Compare, opTok.loc(), std::move(lhs), std::move(rhs));
  cond->compare = *op;
  auto select = std::make_unique<Expr>(Expr::Kind::Select, question.loc());
  select->operands.push_back(std::move(cond));
  select->operands.push_back(std::move(then));
  select->operands.push_back(std::move(otherwise));
  return select;
}

ExprPtr Parser::parseAdditive() {
  return parseBinaryChain(&Parser::parseTerm, Token::Plus, Expr::Kind::Add, Token::Minus,
                          Expr::Kind::Sub);
}

ExprPtr Parser::parseTerm() {
  return parseBinaryChain(&Parser::parseUnary, Token::Star, Expr::Kind::Mul, Token::Slash,
                          Expr::Kind::Div);
}

ExprPtr Parser::parseUnary() {
  NestingGuard nesting(nesting_);
  if (nesting.tooDeep()) {
    diag_.error(tok_.loc(), fmt::format("expression nested more than {} levels deep", kMaxNesting));
    return nullptr;
  }
  if (tok_.is(Token::Minus)) {
    llvm::SMLoc loc = tok_.loc();
    consume();
    ExprPtr operand = parseUnary();
    if (!operand)
      return nullptr;
    auto e = std::make_unique<Expr>(Expr::Kind::Neg, loc);
    e->operands.push_back(std::move(operand));
    return e;
  }
  return parsePrimary();
}

ExprPtr Parser::parseNumber() {
  Token num = tok_;
  consume();
  std::string spelling = num.text.str();
  errno = 0;
  double value = std::strtod(spelling.c_str(), nullptr);
  if (errno == ERANGE || !std::isfinite(value)) {
    diag_.error(num.loc(), "number '" + num.text + "' is out of range", {num.range()});
    return nullptr;
  }
  auto e = std::make_unique<Expr>(Expr::Kind::Number, num.loc());
  e->number = value;
  e->spelling = spelling;
  e->exact = exactDecimal(num.text);
  return e;
}

ExprPtr Parser::parsePrimary() {
  if (tok_.is(Token::Integer) || tok_.is(Token::Real))
    return parseNumber();
  if (tok_.is(Token::LParen)) {
    consume();
    ExprPtr inner = parseExpr();
    if (!inner || !expect(Token::RParen, "to close the parenthesis"))
      return nullptr;
    return inner;
  }
  if (!tok_.is(Token::Identifier)) {
    errorAtToken("expected an expression");
    return nullptr;
  }
  Token name = tok_;
  std::string n = name.text.str();
  bool call = peek().is(Token::LParen);
  // Declared names take precedence over built-ins only where no call follows.
  if (call && n == "sum") {
    consume();
    return parseSum(name);
  }
  if (call) {
    if (auto kind = ir::derivKindNamed(n)) {
      consume();
      return parseDerivative(name, *kind);
    }
    if (n == "min" || n == "max") {
      consume();
      return parseMinMax(name, n == "min" ? Expr::Kind::Min : Expr::Kind::Max);
    }
    if (auto func = ir::funcKindNamed(n)) {
      consume();
      return parseCall(name, *func);
    }
  }
  consume();
  if (int s = stencil_->findScalar(n); s >= 0) {
    auto e = std::make_unique<Expr>(Expr::Kind::ScalarRef, name.loc());
    e->id = s;
    return e;
  }
  if (int f = stencil_->findField(n); f >= 0)
    return parseFieldAccess(name, f);
  if (int t = stencil_->findTable(n); t >= 0)
    return parseTableLookup(name, t);
  if (lookupSumVar(n)) {
    diag_.error(name.loc(),
                "point variable '" + name.text + "' can only be used as an offset 'p[" + name.text +
                    "]' or a table row '" + "C[" + name.text + ".class][idx]'",
                {name.range()});
    return nullptr;
  }
  if (stencil_->findPointSet(n) >= 0 || stencil_->findSymmetry(n) >= 0) {
    diag_.error(name.loc(),
                "'" + name.text + "' is not a value; use a point set in 'sum(d in " + name.text +
                    ", ...)'",
                {name.range()});
    return nullptr;
  }
  if (call)
    diag_.error(name.loc(), "unknown function '" + name.text + "'", {name.range()});
  else
    diag_.error(name.loc(), "use of undeclared name '" + name.text + "'", {name.range()});
  return nullptr;
}

const Parser::SumScope *Parser::lookupSumVar(llvm::StringRef name) const {
  for (auto it = sumScopes_.rbegin(); it != sumScopes_.rend(); ++it)
    if (it->name == name)
      return &*it;
  return nullptr;
}

ExprPtr Parser::parseFieldAccess(const Token &name, int fieldId) {
  const ir::Field &field = stencil_->fields[fieldId];
  auto e = std::make_unique<Expr>(Expr::Kind::FieldRef, name.loc());
  e->id = fieldId;
  if (field.role == ir::FieldRole::Index) {
    diag_.error(name.loc(),
                "index field '" + name.text +
                    "' can only be used as the column of a table lookup 'C[row][" + name.text +
                    "]'",
                {name.range()});
    return nullptr;
  }
  if (field.role == ir::FieldRole::Output) {
    diag_.error(name.loc(), "output field '" + name.text + "' is read in the sweep that writes it",
                {name.range()});
    return nullptr;
  }
  if (!tok_.is(Token::LBracket))
    return e; // the centre point
  consume();
  if (tok_.is(Token::Identifier)) {
    Token var = tok_;
    consume();
    const SumScope *scope = lookupSumVar(var.text);
    if (!scope) {
      diag_.error(var.loc(), "'" + var.text + "' is not a point variable of an enclosing 'sum'",
                  {var.range()});
      return nullptr;
    }
    e->sumVar = scope->var;
    e->varName = scope->name;
  } else {
    llvm::SMLoc loc = tok_.loc();
    int n = 0;
    dimsUsed_ = true;
    do {
      int v = 0;
      if (!expectSignedInteger(v))
        return nullptr;
      if (n < 3)
        e->offset[n] = v;
      ++n;
    } while (consumeIf(Token::Comma));
    if (n != stencil_->dims) {
      diag_.error(loc, fmt::format("offset has {} component{}, but a {}d grid needs {}", n,
                                   n == 1 ? "" : "s", stencil_->dims, stencil_->dims));
      return nullptr;
    }
  }
  if (!expect(Token::RBracket, "to close the field offset"))
    return nullptr;
  return e;
}

ExprPtr Parser::parseTableLookup(const Token &name, int tableId) {
  const ir::Table &table = stencil_->tables[tableId];
  auto e = std::make_unique<Expr>(Expr::Kind::TableRef, name.loc());
  e->id = tableId;
  if (!expect(Token::LBracket, "after table '" + name.text.str() + "': 'C[row][index]'"))
    return nullptr;
  if (tok_.is(Token::Integer)) {
    Token rowTok = tok_;
    if (!expectInteger(e->row, "a table row"))
      return nullptr;
    if (e->row >= table.rows) {
      diag_.error(rowTok.loc(),
                  fmt::format("table row {} is out of range: '{}' has {} row{}, numbered from 0",
                              e->row, table.name, table.rows, table.rows == 1 ? "" : "s"),
                  {rowTok.range()});
      return nullptr;
    }
  } else if (tok_.is(Token::Identifier)) {
    Token var = tok_;
    consume();
    const SumScope *scope = lookupSumVar(var.text);
    if (!scope) {
      diag_.error(var.loc(), "'" + var.text + "' is not a point variable of an enclosing 'sum'",
                  {var.range()});
      return nullptr;
    }
    if (!expect(Token::Dot, "after the point variable: 'd.class' or 'd.point'"))
      return nullptr;
    Token member = tok_;
    if (consumeKeywordIf("class"))
      e->rowIsClass = true;
    else if (consumeKeywordIf("point"))
      e->rowIsClass = false;
    else {
      errorAtToken("expected 'class' or 'point' after '" + var.text.str() + ".'");
      return nullptr;
    }
    const ir::PointSet &ps = stencil_->pointSets[scope->pointSet];
    int needed = e->rowIsClass ? ps.numClasses : int(ps.points.size());
    if (needed > table.rows) {
      diag_.error(member.loc(),
                  fmt::format("table '{}' has {} row{} but point set '{}' has {} {}", table.name,
                              table.rows, table.rows == 1 ? "" : "s", ps.name, needed,
                              e->rowIsClass ? "coefficient classes" : "points"),
                  {member.range()});
      return nullptr;
    }
    e->sumVar = scope->var;
    e->varName = scope->name;
  } else {
    errorAtToken("expected a table row: an integer or 'd.class' / 'd.point'");
    return nullptr;
  }
  if (!expect(Token::RBracket, "after the table row") ||
      !expect(Token::LBracket, "for the table column: 'C[row][index_field]'"))
    return nullptr;
  Token idx;
  if (!expectIdentifier(idx, "an index field"))
    return nullptr;
  int f = stencil_->findField(idx.text.str());
  if (f < 0) {
    diag_.error(idx.loc(), "unknown field '" + idx.text + "'", {idx.range()});
    return nullptr;
  }
  if (stencil_->fields[f].role != ir::FieldRole::Index) {
    diag_.error(idx.loc(),
                "'" + idx.text +
                    "' is not an index field; table columns are looked up through a field "
                    "declared 'index uint8|uint16|int32'",
                {idx.range()});
    return nullptr;
  }
  e->indexField = f;
  if (!expect(Token::RBracket, "after the table column"))
    return nullptr;
  return e;
}

ExprPtr Parser::parseSum(const Token &kw) {
  consume(); // '('
  Token var;
  if (!expectIdentifier(var, "a point variable: 'sum(d in S, ...)'"))
    return nullptr;
  std::string v = var.text.str();
  if (lookupSumVar(var.text)) {
    diag_.error(var.loc(),
                "point variable '" + var.text +
                    "' shadows the point variable of an enclosing "
                    "'sum'; choose another name",
                {var.range()});
    return nullptr;
  }
  if (auto shadowed = findDeclaration(*stencil_, v)) {
    diag_.error(var.loc(),
                "point variable '" + var.text + "' shadows the " + shadowed->kind + " '" +
                    var.text + "'; choose another name",
                {var.range()});
    diag_.note(shadowed->loc, llvm::Twine("the ") + shadowed->kind + " is declared here");
    return nullptr;
  }
  if (!tok_.isKeyword("in")) {
    errorAtToken("expected 'in' after the point variable");
    return nullptr;
  }
  consume();
  Token setName;
  if (!expectIdentifier(setName, "a point set name"))
    return nullptr;
  int ps = stencil_->findPointSet(setName.text.str());
  if (ps < 0) {
    diag_.error(setName.loc(), "unknown point set '" + setName.text + "'", {setName.range()});
    return nullptr;
  }
  if (!expect(Token::Comma, "after the point set of 'sum'"))
    return nullptr;
  auto e = std::make_unique<Expr>(Expr::Kind::Sum, kw.loc());
  e->pointSet = ps;
  e->sumVar = nextSumVar_++;
  e->varName = v;
  sumScopes_.push_back({v, e->sumVar, ps});
  ExprPtr body = parseExpr();
  sumScopes_.pop_back();
  if (!body || !expect(Token::RParen, "to close 'sum'"))
    return nullptr;
  e->operands.push_back(std::move(body));
  return e;
}

ExprPtr Parser::parseDerivative(const Token &name, ir::DerivKind kind) {
  consume(); // '('
  auto e = std::make_unique<Expr>(Expr::Kind::Deriv, name.loc());
  e->deriv = kind;
  Token field;
  if (!expectIdentifier(field, "a field name"))
    return nullptr;
  int f = stencil_->findField(field.text.str());
  if (f < 0) {
    diag_.error(field.loc(), "unknown field '" + field.text + "'", {field.range()});
    return nullptr;
  }
  ir::FieldRole role = stencil_->fields[f].role;
  if (role != ir::FieldRole::Time && role != ir::FieldRole::Input) {
    diag_.error(field.loc(),
                "'" + name.text + "' needs a 'time' or 'in' field; '" + field.text +
                    "' is declared '" + ir::fieldRoleName(role) + "'",
                {field.range()});
    return nullptr;
  }
  e->id = f;
  if (consumeIf(Token::Comma)) {
    Token value = tok_;
    if (!expectInteger(e->order, "a derivative order"))
      return nullptr;
    if (e->order < 2 || e->order % 2 != 0 || e->order > kMaxOrder) {
      diag_.error(value.loc(),
                  fmt::format("derivative order must be an even number between 2 and {}, got {}",
                              kMaxOrder, e->order),
                  {value.range()});
      return nullptr;
    }
  }
  bool usesZ = kind == ir::DerivKind::Dz || kind == ir::DerivKind::Dzz ||
               kind == ir::DerivKind::Dxz || kind == ir::DerivKind::Dyz;
  if (usesZ && stencil_->dims == 2) {
    diag_.error(name.loc(), "'" + name.text + "' differentiates along z, which a 2d grid lacks",
                {name.range()});
    return nullptr;
  }
  if (!expect(Token::RParen, "to close '" + name.text.str() + "'"))
    return nullptr;
  return e;
}

ExprPtr Parser::parseCall(const Token &name, ir::FuncKind func) {
  consume(); // '('
  ExprPtr arg = parseExpr();
  if (!arg || !expect(Token::RParen, "to close '" + name.text.str() + "'"))
    return nullptr;
  auto e = std::make_unique<Expr>(Expr::Kind::Call, name.loc());
  e->func = func;
  e->operands.push_back(std::move(arg));
  return e;
}

ExprPtr Parser::parseMinMax(const Token &name, Expr::Kind kind) {
  consume(); // '('
  ExprPtr a = parseExpr();
  if (!a || !expect(Token::Comma, "between the two arguments of '" + name.text.str() + "'"))
    return nullptr;
  ExprPtr b = parseExpr();
  if (!b || !expect(Token::RParen, "to close '" + name.text.str() + "'"))
    return nullptr;
  return makeBinary(kind, name.loc(), std::move(a), std::move(b));
}

} // namespace stencilc
