//===- Token.h - Tokens of the .stencil language ---------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace stencilc {

struct Token {
  enum Kind {
    Eof,
    Error, ///< a malformed token; the lexer has already reported it
    Identifier,
    Integer,
    Real,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Semicolon,
    Colon,
    Equal,
    Plus,
    Minus,
    Star,
    Slash,
    Pipe,
    Dot,
    Question,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    EqualEqual,
    NotEqual,
  };

  Kind kind = Eof;
  llvm::StringRef text; ///< points into the source buffer

  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(text.data()); }
  llvm::SMRange range() const {
    return {loc(), llvm::SMLoc::getFromPointer(text.data() + text.size())};
  }
  bool is(Kind k) const { return kind == k; }
  bool isKeyword(llvm::StringRef kw) const { return kind == Identifier && text == kw; }
};

/// How a token kind is named in "expected ..." diagnostics.
const char *tokenKindSpelling(Token::Kind kind);

} // namespace stencilc
