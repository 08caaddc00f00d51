//===- Parser.cpp - Token handling and the top-level stencil block --------===//
//
// The parser's core: token handling and error recovery, the `stencil NAME
// { ... }` blocks of a file, and the dispatch of their statements to the
// grammar areas in the other Parser*.cpp files (ParserImpl.h lists them).
//
//===----------------------------------------------------------------------===//
#include "frontend/ParserImpl.h"
#include "ir/Keywords.h"

#include <fmt/format.h>

namespace stencilc {

using namespace parser_detail;

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
  for (llvm::StringRef kw : ir::statementKeywords())
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
    for (llvm::StringRef kw : ir::statementKeywords())
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

} // namespace stencilc
