//===- Parser.cpp - Recursive-descent parser for .stencil files ------------===//
#include "frontend/Parser.h"

#include "ir/PointSetOps.h"
#include "support/Rational.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

namespace stencilc {

using ir::Expr;
using ir::ExprPtr;
using ir::Offset;

namespace {
// Limits that keep shapes and numbers in ranges the compiler handles exactly.
constexpr int kMaxShapeRadius = 16;
constexpr int kMaxOffset = 64;
constexpr int kMaxOrder = 32;
constexpr int kMaxTableRows = 1 << 16;
/// Deeper nesting of parentheses or unary minus is an error, not a stack overflow.
constexpr int kMaxNesting = 256;

/// Counts the recursive parse calls active in one parser.
class NestingGuard {
public:
  explicit NestingGuard(int &depth) : depth_(depth) { ++depth_; }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard &) = delete;
  NestingGuard &operator=(const NestingGuard &) = delete;
  bool tooDeep() const { return depth_ > kMaxNesting; }

private:
  int &depth_;
};

/// The words that start a declaration (an update starts with its output's name).
constexpr llvm::StringLiteral kStatementKeywords[] = {
    "grid", "type", "order", "field", "scalar", "symmetry", "points", "table", "plan"};

/// `plan sweeps N` accepts 1..kMaxPlanSweeps: more sweeps only re-read the grid.
constexpr int kMaxPlanSweeps = 16;

std::string offsetText(const Offset &o, int dims) {
  return dims == 2 ? fmt::format("({},{})", o[0], o[1])
                   : fmt::format("({},{},{})", o[0], o[1], o[2]);
}

std::optional<ir::DerivKind> derivKindFromName(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<ir::DerivKind>>(n)
      .Case("dx", ir::DerivKind::Dx)
      .Case("dy", ir::DerivKind::Dy)
      .Case("dz", ir::DerivKind::Dz)
      .Case("dxx", ir::DerivKind::Dxx)
      .Case("dyy", ir::DerivKind::Dyy)
      .Case("dzz", ir::DerivKind::Dzz)
      .Case("dxy", ir::DerivKind::Dxy)
      .Case("dxz", ir::DerivKind::Dxz)
      .Case("dyz", ir::DerivKind::Dyz)
      .Case("laplacian", ir::DerivKind::Laplacian)
      .Default(std::nullopt);
}

std::optional<ir::FuncKind> funcKindFromName(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<ir::FuncKind>>(n)
      .Case("sin", ir::FuncKind::Sin)
      .Case("cos", ir::FuncKind::Cos)
      .Case("sqrt", ir::FuncKind::Sqrt)
      .Case("exp", ir::FuncKind::Exp)
      .Case("abs", ir::FuncKind::Abs)
      .Default(std::nullopt);
}

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

Parser::Parser(llvm::StringRef buffer, llvm::StringRef fileName, DiagnosticEngine &diag)
    : lexer_(buffer, diag), fileName_(fileName.str()), diag_(diag) {
  consume();
}

//===----------------------------------------------------------------------===//
// Token handling
//===----------------------------------------------------------------------===//

void Parser::consume() { tok_ = lexer_.next(); }

/// An Error token, or an Eof token spanning an unterminated comment, was already reported by the
/// lexer: an "expected X, found ..." about it would only repeat that error.
static bool alreadyReported(const Token &tok) {
  return tok.is(Token::Error) || (tok.is(Token::Eof) && !tok.text.empty());
}

/// Whether `tok` can start a statement, so a parser that misses a ';' before it can go on there.
static bool startsStatement(const Token &tok, const Token &next) {
  if (tok.is(Token::RBrace) || tok.is(Token::Eof))
    return true;
  if (!tok.is(Token::Identifier))
    return false;
  for (llvm::StringRef kw : kStatementKeywords)
    if (tok.text == kw)
      return true;
  return next.is(Token::Equal) || tok.text == "stencil";
}

Token Parser::peek() { return lexer_.peekQuietly(); }

bool Parser::consumeIf(Token::Kind kind) {
  if (!tok_.is(kind))
    return false;
  consume();
  return true;
}

bool Parser::consumeKeywordIf(llvm::StringRef kw) {
  if (!tok_.isKeyword(kw))
    return false;
  consume();
  return true;
}

void Parser::errorAtToken(const llvm::Twine &msg) {
  if (alreadyReported(tok_))
    return;
  if (tok_.is(Token::Eof))
    diag_.error(tok_.loc(), msg + ", found end of file");
  else
    diag_.error(tok_.loc(), msg + ", found '" + tok_.text + "'", {tok_.range()});
}

bool Parser::expect(Token::Kind kind, llvm::StringRef context) {
  if (consumeIf(kind))
    return true;
  errorAtToken(llvm::Twine("expected ") + tokenKindSpelling(kind) + " " + context);
  // A ';' forgotten at the end of a line: the statement is complete, so parsing goes on at the
  // next statement instead of skipping it (and reporting its names as undeclared).
  return kind == Token::Semicolon && startsStatement(tok_, peek());
}

bool Parser::expectIdentifier(Token &out, llvm::StringRef what) {
  if (!tok_.is(Token::Identifier)) {
    errorAtToken("expected " + what);
    return false;
  }
  out = tok_;
  consume();
  return true;
}

bool Parser::expectInteger(int &out, llvm::StringRef what) {
  if (!tok_.is(Token::Integer)) {
    errorAtToken("expected " + what);
    return false;
  }
  if (tok_.text.getAsInteger(10, out) || out > 1000000) {
    diag_.error(tok_.loc(), "integer '" + tok_.text + "' is too large", {tok_.range()});
    consume();
    return false;
  }
  consume();
  return true;
}

bool Parser::expectSignedInteger(int &out) {
  bool negative = false;
  if (consumeIf(Token::Minus))
    negative = true;
  else
    consumeIf(Token::Plus);
  if (!tok_.is(Token::Integer)) {
    errorAtToken("expected an integer offset component");
    return false;
  }
  Token digits = tok_;
  if (!expectInteger(out, "an integer offset component"))
    return false;
  if (out > kMaxOffset) {
    diag_.error(digits.loc(),
                fmt::format("offset component {} is larger than the limit {}", out, kMaxOffset),
                {digits.range()});
    return false;
  }
  if (negative)
    out = -out;
  return true;
}

void Parser::skipStatement() {
  int depth = 0;
  while (!tok_.is(Token::Eof)) {
    if (tok_.is(Token::LBrace)) {
      ++depth;
    } else if (tok_.is(Token::RBrace)) {
      if (depth == 0)
        return;
      --depth;
    } else if (tok_.is(Token::Semicolon) && depth == 0) {
      consume();
      return;
    }
    consume();
  }
}

//===----------------------------------------------------------------------===//
// Stencils and statements
//===----------------------------------------------------------------------===//

ir::Module Parser::parseModule() {
  ir::Module module;
  module.fileName = fileName_;
  if (tok_.is(Token::Eof) && !alreadyReported(tok_))
    diag_.error(tok_.loc(), "file contains no stencil; expected 'stencil NAME { ... }'");
  while (!tok_.is(Token::Eof) && !diag_.tooManyErrors()) {
    if (!tok_.isKeyword("stencil")) {
      errorAtToken("expected a stencil block 'stencil NAME { ... }' at the top level");
      // Resynchronise on the next `stencil` keyword.
      do
        consume();
      while (!tok_.is(Token::Eof) && !tok_.isKeyword("stencil"));
      continue;
    }
    module.stencils.emplace_back();
    stencil_ = &module.stencils.back();
    parseStencil();
    for (size_t i = 0; i + 1 < module.stencils.size(); ++i)
      if (module.stencils[i].name == stencil_->name && !stencil_->name.empty()) {
        diag_.error(stencil_->loc, "redefinition of stencil '" + stencil_->name + "'");
        diag_.note(module.stencils[i].loc, "previous definition is here");
      }
  }
  stencil_ = nullptr;
  return module;
}

void Parser::parseStencil() {
  consume(); // 'stencil'
  sawGrid_ = sawType_ = sawOrder_ = false;
  dimsUsed_ = false;
  nextSumVar_ = 0;
  Token name;
  if (!expectIdentifier(name, "a stencil name after 'stencil'")) {
    skipStatement();
    return;
  }
  stencil_->name = name.text.str();
  stencil_->loc = name.loc();
  llvm::SMLoc open = tok_.loc();
  if (!expect(Token::LBrace, "to open the stencil body")) {
    skipStatement();
    return;
  }
  while (!tok_.is(Token::RBrace) && !tok_.is(Token::Eof) && !diag_.tooManyErrors()) {
    if (tok_.is(Token::Error)) { // reported by the lexer
      consume();
      continue;
    }
    // `stencil NAME` cannot be a statement: the previous block lacks its '}'.
    if (tok_.isKeyword("stencil") && !peek().is(Token::Equal)) {
      diag_.error(tok_.loc(),
                  "expected '}' to close stencil '" + stencil_->name +
                      "' before the next 'stencil'",
                  {tok_.range()});
      diag_.note(open, "stencil body opened here");
      return;
    }
    if (!parseStatement())
      skipStatement();
  }
  if (tok_.is(Token::Eof)) {
    if (!alreadyReported(tok_)) {
      diag_.error(tok_.loc(),
                  "expected '}' to close stencil '" + stencil_->name + "', found end of file");
      diag_.note(open, "stencil body opened here");
    }
    return;
  }
  consume(); // '}'
}

bool Parser::parseStatement() {
  if (tok_.isKeyword("grid"))
    return parseGrid();
  if (tok_.isKeyword("type"))
    return parseType();
  if (tok_.isKeyword("order"))
    return parseOrder();
  if (tok_.isKeyword("field"))
    return parseField();
  if (tok_.isKeyword("scalar"))
    return parseScalars();
  if (tok_.isKeyword("symmetry"))
    return parseSymmetry();
  if (tok_.isKeyword("points"))
    return parsePoints();
  if (tok_.isKeyword("table"))
    return parseTable();
  if (tok_.isKeyword("plan") && !peek().is(Token::Equal))
    return parsePlan();
  if (tok_.is(Token::Identifier) && peek().is(Token::Equal))
    return parseUpdate();
  if (tok_.is(Token::Identifier)) {
    for (llvm::StringRef kw : kStatementKeywords)
      if (tok_.text.size() > 2 && tok_.text.edit_distance(kw) <= 2) {
        diag_.error(tok_.loc(), "unknown statement '" + tok_.text + "'; did you mean '" + kw + "'?",
                    {tok_.range()});
        return false;
      }
    diag_.error(tok_.loc(),
                "unknown statement '" + tok_.text +
                    "'; expected grid, type, order, field, scalar, symmetry, points, table, plan, "
                    "or an update 'output = expression;'",
                {tok_.range()});
    return false;
  }
  errorAtToken("expected a declaration or an update rule");
  return false;
}

bool Parser::parsePlan() {
  Token kw = tok_;
  consume();
  ir::PlanDirective &plan = stencil_->plan;
  if (tok_.isKeyword("sweeps")) {
    consume();
    if (plan.sweeps > 0) {
      diag_.error(kw.loc(), "duplicate 'plan sweeps'");
      diag_.note(plan.sweepsLoc, "previous 'plan sweeps' is here");
      return false;
    }
    Token value = tok_;
    int sweeps = 0;
    if (!expectInteger(sweeps, "a number of sweeps after 'plan sweeps'"))
      return false;
    if (sweeps < 1 || sweeps > kMaxPlanSweeps) {
      diag_.error(
          value.loc(),
          fmt::format("plan sweeps must be between 1 and {}, got {}", kMaxPlanSweeps, sweeps),
          {value.range()});
      return false;
    }
    plan.sweeps = sweeps;
    plan.sweepsLoc = kw.loc();
    return expect(Token::Semicolon, "after the plan");
  }
  if (tok_.isKeyword("tables")) {
    consume();
    if (plan.tablesLoc.isValid()) {
      diag_.error(kw.loc(), "duplicate 'plan tables'");
      diag_.note(plan.tablesLoc, "previous 'plan tables' is here");
      return false;
    }
    using Tables = ir::PlanDirective::Tables;
    if (consumeKeywordIf("shared"))
      plan.tables = Tables::Shared;
    else if (consumeKeywordIf("readonly"))
      plan.tables = Tables::ReadOnly;
    else if (consumeKeywordIf("global"))
      plan.tables = Tables::Global;
    else {
      errorAtToken("expected 'shared', 'readonly' or 'global' after 'plan tables'");
      return false;
    }
    plan.tablesLoc = kw.loc();
    return expect(Token::Semicolon, "after the plan");
  }
  errorAtToken("expected 'sweeps' or 'tables' after 'plan'");
  return false;
}

bool Parser::parseGrid() {
  Token kw = tok_;
  consume();
  if (sawGrid_) {
    diag_.error(kw.loc(), "duplicate 'grid' declaration");
    return false;
  }
  sawGrid_ = true;
  int dims = 0;
  if (tok_.isKeyword("2d"))
    dims = 2;
  else if (tok_.isKeyword("3d"))
    dims = 3;
  else {
    errorAtToken("expected '2d' or '3d' after 'grid'");
    return false;
  }
  if (dimsUsed_ && dims != stencil_->dims) {
    diag_.error(tok_.loc(), "'grid' must come before the point sets and offsets that depend on it");
    return false;
  }
  stencil_->dims = dims;
  consume();
  return expect(Token::Semicolon, "after the grid declaration");
}

bool Parser::parseType() {
  Token kw = tok_;
  consume();
  if (sawType_) {
    diag_.error(kw.loc(), "duplicate 'type' declaration");
    return false;
  }
  sawType_ = true;
  if (consumeKeywordIf("float"))
    stencil_->elemType = ir::ElemType::Float;
  else if (consumeKeywordIf("double"))
    stencil_->elemType = ir::ElemType::Double;
  else {
    errorAtToken("expected 'float' or 'double' after 'type'");
    return false;
  }
  return expect(Token::Semicolon, "after the type declaration");
}

bool Parser::parseOrder() {
  Token kw = tok_;
  consume();
  if (sawOrder_) {
    diag_.error(kw.loc(), "duplicate 'order' declaration");
    diag_.note(orderLoc_, "previous declaration is here");
    return false;
  }
  sawOrder_ = true;
  orderLoc_ = kw.loc();
  Token value = tok_;
  int order = 0;
  if (!expectInteger(order, "an even accuracy order after 'order'"))
    return false;
  if (order < 2 || order % 2 != 0 || order > kMaxOrder) {
    diag_.error(
        value.loc(),
        fmt::format("order must be an even number between 2 and {}, got {}", kMaxOrder, order),
        {value.range()});
    return false;
  }
  stencil_->order = order;
  stencil_->radius = order / 2;
  stencil_->radiusDeclared = true;
  return expect(Token::Semicolon, "after the order declaration");
}

namespace {
/// What a name declared in a stencil is, and where.
struct Declaration {
  const char *kind;
  llvm::SMLoc loc;
};

std::optional<Declaration> findDeclaration(const ir::Stencil &s, const std::string &n) {
  if (int i = s.findField(n); i >= 0)
    return Declaration{"field", s.fields[i].loc};
  if (int i = s.findScalar(n); i >= 0)
    return Declaration{"scalar", s.scalars[i].loc};
  if (int i = s.findTable(n); i >= 0)
    return Declaration{"table", s.tables[i].loc};
  if (int i = s.findPointSet(n); i >= 0)
    return Declaration{"point set", s.pointSets[i].loc};
  if (int i = s.findSymmetry(n); i >= 0)
    return Declaration{"symmetry", s.symmetries[i].loc};
  return std::nullopt;
}
} // namespace

bool Parser::declareName(const Token &name) {
  std::string n = name.text.str();
  if (auto previous = findDeclaration(*stencil_, n)) {
    diag_.error(name.loc(), "redefinition of '" + name.text + "'", {name.range()});
    diag_.note(previous->loc, "previous definition is here");
    return false;
  }
  if (n == "sum" || derivKindFromName(n) || funcKindFromName(n)) {
    diag_.error(name.loc(), "'" + name.text + "' is a built-in name and cannot be redefined",
                {name.range()});
    return false;
  }
  return true;
}

bool Parser::parseField() {
  consume(); // 'field'
  Token name;
  if (!expectIdentifier(name, "a field name after 'field'"))
    return false;
  if (!expect(Token::Colon, "after the field name"))
    return false;
  ir::Field field;
  field.name = name.text.str();
  field.loc = name.loc();
  if (consumeKeywordIf("time")) {
    field.role = ir::FieldRole::Time;
  } else if (consumeKeywordIf("in")) {
    field.role = ir::FieldRole::Input;
  } else if (tok_.isKeyword("index")) {
    consume();
    field.role = ir::FieldRole::Index;
    if (consumeKeywordIf("uint8"))
      field.indexType = ir::IndexType::UInt8;
    else if (consumeKeywordIf("uint16"))
      field.indexType = ir::IndexType::UInt16;
    else if (consumeKeywordIf("int32"))
      field.indexType = ir::IndexType::Int32;
    else if (tok_.is(Token::Identifier)) {
      // A misspelt type: report it, but declare the field so its uses are not errors too.
      errorAtToken("expected an index type 'uint8', 'uint16' or 'int32'");
      consume();
    } else {
      errorAtToken("expected an index type 'uint8', 'uint16' or 'int32'");
      return false;
    }
  } else if (consumeKeywordIf("out")) {
    field.role = ir::FieldRole::Output;
    // `advances F`: the output is the next time level of F; `overwrites G`: it may be
    // written over G in place. Either clause is optional; advances comes first.
    if (consumeKeywordIf("advances")) {
      int id = parseTimeLevelTarget("the time-level field whose next level this output is",
                                    "advanced", &ir::Field::advances);
      if (id == kParseFailed)
        return false;
      field.advances = id;
    }
    if (consumeKeywordIf("overwrites")) {
      llvm::SMLoc targetLoc = tok_.loc();
      int id = parseTimeLevelTarget("the time-level field that the output may overwrite",
                                    "overwritten in place", &ir::Field::overwrites);
      if (id == kParseFailed)
        return false;
      if (id >= 0 && id == field.advances) {
        diag_.error(targetLoc, "an output cannot overwrite the level it advances: '" +
                                    stencil_->fields[id].name +
                                    "' is still needed to rotate the time levels");
        id = -1;
      }
      field.overwrites = id;
    }
  } else if (tok_.isKeyword("int") || tok_.isKeyword("float") || tok_.isKeyword("double")) {
    errorAtToken("expected a field role 'time', 'in', 'index <type>' or 'out' (the element type "
                 "is set once by 'type')");
    return false;
  } else {
    errorAtToken("expected a field role 'time', 'in', 'index <type>' or 'out'");
    return false;
  }
  if (!expect(Token::Semicolon, "after the field declaration"))
    return false;
  if (!declareName(name))
    return true; // reported; the statement itself was well formed
  stencil_->fields.push_back(std::move(field));
  return true;
}

int Parser::parseTimeLevelTarget(llvm::StringRef what, llvm::StringRef verb,
                                 int ir::Field::*relation) {
  Token target;
  if (!expectIdentifier(target, what))
    return kParseFailed;
  // A bad target is reported and dropped (-1); the output itself is still declared.
  int id = stencil_->findField(target.text.str());
  if (id < 0) {
    diag_.error(target.loc(), "unknown field '" + target.text + "'", {target.range()});
    return -1;
  }
  if (stencil_->fields[id].role != ir::FieldRole::Time) {
    diag_.error(target.loc(),
                "'" + target.text + "' is declared '" +
                    ir::fieldRoleName(stencil_->fields[id].role) +
                    "'; only a field declared 'time' can be " + verb,
                {target.range()});
    return -1;
  }
  for (const ir::Field &other : stencil_->fields)
    if (other.*relation == id) {
      diag_.error(target.loc(),
                  "'" + target.text + "' is already " + verb + " by '" + other.name + "'",
                  {target.range()});
      return -1;
    }
  return id;
}

bool Parser::parseScalars() {
  consume(); // 'scalar'
  do {
    Token name;
    if (!expectIdentifier(name, "a scalar name"))
      return false;
    if (declareName(name))
      stencil_->scalars.push_back({name.text.str(), name.loc()});
  } while (consumeIf(Token::Comma));
  return expect(Token::Semicolon, "after the scalar declaration");
}

int Parser::requireAxis(const Token &tok) {
  int axis = llvm::StringSwitch<int>(tok.text).Case("x", 0).Case("y", 1).Case("z", 2).Default(-1);
  if (axis < 0) {
    diag_.error(tok.loc(), "expected an axis 'x', 'y' or 'z', found '" + tok.text + "'",
                {tok.range()});
    return -1;
  }
  dimsUsed_ = true;
  if (axis >= stencil_->dims) {
    diag_.error(tok.loc(), "axis '" + tok.text + "' does not exist in a 2d grid", {tok.range()});
    return -1;
  }
  return axis;
}

bool Parser::parseSymmetry() {
  consume(); // 'symmetry'
  Token name;
  if (!expectIdentifier(name, "a symmetry name after 'symmetry'"))
    return false;
  if (!expect(Token::Equal, "after the symmetry name"))
    return false;
  ir::Symmetry sym;
  sym.name = name.text.str();
  sym.loc = name.loc();
  do {
    Token axis;
    if (consumeKeywordIf("reflect")) {
      if (!expectIdentifier(axis, "an axis after 'reflect'"))
        return false;
      int a = requireAxis(axis);
      if (a < 0)
        return false;
      sym.generators.push_back({ir::SymmetryOp::Reflect, a, a});
    } else if (consumeKeywordIf("swap")) {
      Token axis2;
      if (!expectIdentifier(axis, "two axes after 'swap'"))
        return false;
      int a = requireAxis(axis);
      if (a < 0)
        return false;
      if (!expectIdentifier(axis2, "a second axis after 'swap " + axis.text.str() + "'"))
        return false;
      int b = requireAxis(axis2);
      if (b < 0)
        return false;
      if (a == b) {
        diag_.error(axis2.loc(), "'swap' needs two different axes", {axis2.range()});
        return false;
      }
      sym.generators.push_back({ir::SymmetryOp::Swap, a, b});
    } else {
      errorAtToken("expected a symmetry operation 'reflect AXIS' or 'swap AXIS AXIS'");
      return false;
    }
  } while (consumeIf(Token::Comma));
  if (!expect(Token::Semicolon, "after the symmetry declaration"))
    return false;
  if (declareName(name))
    stencil_->symmetries.push_back(std::move(sym));
  return true;
}

//===----------------------------------------------------------------------===//
// Point sets
//===----------------------------------------------------------------------===//

bool Parser::parseShapeRadius(int &r) {
  Token kw = tok_;
  consume();
  if (!expect(Token::LParen, "after '" + kw.text.str() + "'"))
    return false;
  Token value = tok_;
  if (!expectInteger(r, "a radius"))
    return false;
  if (r < 1 || r > kMaxShapeRadius) {
    diag_.error(
        value.loc(),
        fmt::format("'{}' radius must be between 1 and {}, got {}", kw.text, kMaxShapeRadius, r),
        {value.range()});
    // Go on with a legal radius so the point set is still declared and its uses are not errors.
    r = std::clamp(r, 1, kMaxShapeRadius);
  }
  dimsUsed_ = true;
  return expect(Token::RParen, "after the radius");
}

bool Parser::parseOffset(Offset &out, llvm::SMLoc &loc) {
  loc = tok_.loc();
  if (!expect(Token::LParen, "to start an offset like (1,0,0)"))
    return false;
  dimsUsed_ = true;
  out = {0, 0, 0};
  int n = 0;
  do {
    int v = 0;
    if (!expectSignedInteger(v))
      return false;
    if (n < 3)
      out[n] = v;
    ++n;
  } while (consumeIf(Token::Comma));
  if (!expect(Token::RParen, "to end the offset"))
    return false;
  if (n != stencil_->dims) {
    diag_.error(loc, fmt::format("offset has {} component{}, but a {}d grid needs {}", n,
                                 n == 1 ? "" : "s", stencil_->dims, stencil_->dims));
    return false;
  }
  return true;
}

std::optional<Parser::PointValue> Parser::parsePointTerm() {
  NestingGuard nesting(nesting_);
  if (nesting.tooDeep()) {
    diag_.error(tok_.loc(),
                fmt::format("point expression nested more than {} levels deep", kMaxNesting));
    return std::nullopt;
  }
  int dims = stencil_->dims;
  if (tok_.is(Token::LBrace)) {
    Token open = tok_;
    consume();
    PointValue value;
    if (tok_.is(Token::RBrace)) {
      diag_.error(open.loc(), "empty point list; a point set needs at least one offset",
                  {llvm::SMRange(open.loc(), tok_.range().End)});
      consume();
      return value; // declared empty, so its uses are not errors too
    }
    std::vector<llvm::SMLoc> locs; // where each point of the list was written
    do {
      Offset o;
      llvm::SMLoc loc;
      if (!parseOffset(o, loc)) {
        // Skip to the list's '}' and go on with the points read so far, so the set is still
        // declared; without a '}', the statement's ';' ends the recovery.
        while (!tok_.is(Token::RBrace) && !tok_.is(Token::Semicolon) && !tok_.is(Token::Eof))
          consume();
        if (!consumeIf(Token::RBrace))
          return std::nullopt;
        ir::sortUnique(value.points);
        return value;
      }
      auto seen = std::find(value.points.begin(), value.points.end(), o);
      if (seen != value.points.end()) {
        diag_.error(loc, "duplicate point " + offsetText(o, dims) + " in point list");
        diag_.note(locs[seen - value.points.begin()], "first written here");
        continue; // a set: the duplicate adds nothing
      }
      value.points.push_back(o);
      locs.push_back(loc);
    } while (consumeIf(Token::Comma));
    if (!expect(Token::RBrace, "to close the point list"))
      return std::nullopt;
    ir::sortUnique(value.points);
    return value;
  }
  if (tok_.is(Token::LParen)) {
    consume();
    auto value = parsePointExpr();
    if (!value || !expect(Token::RParen, "to close the point expression"))
      return std::nullopt;
    return value;
  }
  if (!tok_.is(Token::Identifier)) {
    errorAtToken("expected a point set: '{...}', 'axes(r)', 'diagonals(r)', 'box(r)', "
                 "'expand(...)' or a point set name");
    return std::nullopt;
  }
  int r = 0;
  if (tok_.isKeyword("axes") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::axesPoints(dims, r), -1};
  }
  if (tok_.isKeyword("diagonals") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::diagonalPoints(dims, r), -1};
  }
  if (tok_.isKeyword("box") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::boxPoints(dims, r), -1};
  }
  if (tok_.isKeyword("expand") && peek().is(Token::LParen)) {
    consume();
    consume(); // '('
    auto inner = parsePointExpr();
    if (!inner || !expect(Token::Comma, "between the points and the symmetry of 'expand'"))
      return std::nullopt;
    Token symName;
    if (!expectIdentifier(symName, "a symmetry name"))
      return std::nullopt;
    int sym = stencil_->findSymmetry(symName.text.str());
    if (sym < 0) // reported; go on with the unexpanded points so the set is still declared
      diag_.error(symName.loc(), "unknown symmetry '" + symName.text + "'", {symName.range()});
    if (!expect(Token::RParen, "to close 'expand'"))
      return std::nullopt;
    if (sym < 0)
      return inner;
    ir::SymmetryGroup group(stencil_->symmetries[sym], dims);
    return PointValue{ir::closure(inner->points, group), sym};
  }
  Token name = tok_;
  consume();
  int ps = stencil_->findPointSet(name.text.str());
  if (ps < 0) {
    diag_.error(name.loc(), "unknown point set '" + name.text + "'", {name.range()});
    return std::nullopt;
  }
  return PointValue{stencil_->pointSets[ps].points, stencil_->pointSets[ps].symmetry};
}

std::optional<Parser::PointValue> Parser::parsePointExpr() {
  auto value = parsePointTerm();
  if (!value)
    return std::nullopt;
  while (tok_.is(Token::Pipe)) {
    consume();
    auto rhs = parsePointTerm();
    if (!rhs)
      return std::nullopt;
    value->points.insert(value->points.end(), rhs->points.begin(), rhs->points.end());
    ir::sortUnique(value->points);
    // A union of differently generated sets has no implied symmetry.
    if (value->symmetry != rhs->symmetry)
      value->symmetry = -1;
  }
  return value;
}

bool Parser::parsePoints() {
  consume(); // 'points'
  Token name;
  if (!expectIdentifier(name, "a point set name after 'points'"))
    return false;
  if (!expect(Token::Equal, "after the point set name"))
    return false;
  auto value = parsePointExpr();
  if (!value)
    return false;
  int symmetry = value->symmetry;
  if (tok_.isKeyword("under")) {
    consume();
    Token symName;
    if (!expectIdentifier(symName, "a symmetry name after 'under'"))
      return false;
    // A bad symmetry is reported, and the set declared without one so its uses are not errors.
    symmetry = stencil_->findSymmetry(symName.text.str());
    if (symmetry < 0) {
      diag_.error(symName.loc(), "unknown symmetry '" + symName.text + "'", {symName.range()});
    } else {
      ir::SymmetryGroup group(stencil_->symmetries[symmetry], stencil_->dims);
      if (auto source = ir::firstMissingImage(value->points, group)) {
        // firstMissingImage names the point whose image is missing; the user needs the image.
        Offset missing = *source;
        for (const Offset &image : group.orbit(*source))
          if (!std::binary_search(value->points.begin(), value->points.end(), image,
                                  ir::offsetLess)) {
            missing = image;
            break;
          }
        diag_.error(symName.loc(),
                    "point set '" + name.text + "' is not closed under symmetry '" + symName.text +
                        "': it has " + offsetText(*source, stencil_->dims) + " but not its image " +
                        offsetText(missing, stencil_->dims),
                    {symName.range()});
        symmetry = -1;
      }
    }
  }
  if (!expect(Token::Semicolon, "after the point set"))
    return false;
  if (!declareName(name))
    return true;
  ir::PointSet ps;
  ps.name = name.text.str();
  ps.loc = name.loc();
  ps.points = std::move(value->points);
  ps.symmetry = symmetry;
  if (symmetry >= 0) {
    ir::SymmetryGroup group(stencil_->symmetries[symmetry], stencil_->dims);
    ps.numClasses = ir::orbitClasses(ps.points, group, ps.classOf);
  } else {
    ir::SymmetryGroup identity(stencil_->dims);
    ps.numClasses = ir::orbitClasses(ps.points, identity, ps.classOf);
  }
  stencil_->pointSets.push_back(std::move(ps));
  return true;
}

bool Parser::parseTable() {
  consume(); // 'table'
  Token name;
  if (!expectIdentifier(name, "a table name after 'table'"))
    return false;
  if (!expect(Token::LBracket, "after the table name: 'table C[rows];'"))
    return false;
  ir::Table table;
  table.name = name.text.str();
  table.loc = name.loc();
  if (tok_.is(Token::Integer)) {
    Token value = tok_;
    if (!expectInteger(table.rows, "a row count"))
      return false;
    if (table.rows < 1 || table.rows > kMaxTableRows) {
      diag_.error(
          value.loc(),
          fmt::format("a table needs between 1 and {} rows, got {}", kMaxTableRows, table.rows),
          {value.range()});
      return false;
    }
    table.rowSource = ir::Table::RowSource::Literal;
  } else if ((tok_.isKeyword("classes") || tok_.isKeyword("points")) && peek().is(Token::LParen)) {
    bool classes = tok_.isKeyword("classes");
    consume();
    consume(); // '('
    Token setName;
    if (!expectIdentifier(setName, "a point set name"))
      return false;
    int ps = stencil_->findPointSet(setName.text.str());
    if (ps < 0) {
      diag_.error(setName.loc(), "unknown point set '" + setName.text + "'", {setName.range()});
      return false;
    }
    if (!expect(Token::RParen, "after the point set name"))
      return false;
    table.pointSet = ps;
    table.rowSource = classes ? ir::Table::RowSource::Classes : ir::Table::RowSource::Points;
    table.rows =
        classes ? stencil_->pointSets[ps].numClasses : int(stencil_->pointSets[ps].points.size());
  } else {
    errorAtToken("expected a row count, 'classes(S)' or 'points(S)'");
    return false;
  }
  if (!expect(Token::RBracket, "after the table rows") ||
      !expect(Token::Semicolon, "after the table declaration"))
    return false;
  if (declareName(name))
    stencil_->tables.push_back(std::move(table));
  return true;
}

bool Parser::parseUpdate() {
  Token name = tok_;
  consume();
  consume(); // '='
  int out = stencil_->findField(name.text.str());
  bool ok = true;
  if (out < 0) {
    diag_.error(name.loc(), "update of undeclared field '" + name.text + "'", {name.range()});
    ok = false;
  } else if (stencil_->fields[out].role != ir::FieldRole::Output) {
    diag_.error(name.loc(),
                "'" + name.text + "' is declared '" +
                    ir::fieldRoleName(stencil_->fields[out].role) +
                    "'; only a field declared 'out' can be assigned",
                {name.range()});
    ok = false;
  } else {
    for (const ir::Update &u : stencil_->updates)
      if (u.output == out) {
        diag_.error(name.loc(), "'" + name.text + "' is assigned more than once", {name.range()});
        diag_.note(u.loc, "previous update is here");
        ok = false;
      }
  }
  ExprPtr rhs = parseExpr();
  if (!rhs)
    return false;
  if (!expect(Token::Semicolon, "after the update rule"))
    return false;
  if (ok)
    stencil_->updates.push_back({out, std::move(rhs), name.loc()});
  return true;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static ExprPtr makeBinary(Expr::Kind kind, llvm::SMLoc loc, ExprPtr lhs, ExprPtr rhs) {
  auto e = std::make_unique<Expr>(kind, loc);
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

ExprPtr Parser::parseExpr() {
  ExprPtr lhs = parseTerm();
  while (lhs && (tok_.is(Token::Plus) || tok_.is(Token::Minus))) {
    Token op = tok_;
    consume();
    ExprPtr rhs = parseTerm();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.is(Token::Plus) ? Expr::Kind::Add : Expr::Kind::Sub, op.loc(),
                     std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseTerm() {
  ExprPtr lhs = parseUnary();
  while (lhs && (tok_.is(Token::Star) || tok_.is(Token::Slash))) {
    Token op = tok_;
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.is(Token::Star) ? Expr::Kind::Mul : Expr::Kind::Div, op.loc(),
                     std::move(lhs), std::move(rhs));
  }
  return lhs;
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
    if (auto kind = derivKindFromName(n)) {
      consume();
      return parseDerivative(name, *kind);
    }
    if (auto func = funcKindFromName(n)) {
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

} // namespace stencilc
