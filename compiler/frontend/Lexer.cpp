//===- Lexer.cpp ----------------------------------------------------------===//
#include "frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

namespace stencilc {

const char *tokenKindSpelling(Token::Kind kind) {
  switch (kind) {
  case Token::Eof: return "end of file";
  case Token::Error: return "invalid token";
  case Token::Identifier: return "identifier";
  case Token::Integer: return "integer";
  case Token::Real: return "number";
  case Token::LBrace: return "'{'";
  case Token::RBrace: return "'}'";
  case Token::LParen: return "'('";
  case Token::RParen: return "')'";
  case Token::LBracket: return "'['";
  case Token::RBracket: return "']'";
  case Token::Comma: return "','";
  case Token::Semicolon: return "';'";
  case Token::Colon: return "':'";
  case Token::Equal: return "'='";
  case Token::Plus: return "'+'";
  case Token::Minus: return "'-'";
  case Token::Star: return "'*'";
  case Token::Slash: return "'/'";
  case Token::Pipe: return "'|'";
  case Token::Dot: return "'.'";
  case Token::Question: return "'?'";
  case Token::Less: return "'<'";
  case Token::LessEqual: return "'<='";
  case Token::Greater: return "'>'";
  case Token::GreaterEqual: return "'>='";
  case Token::EqualEqual: return "'=='";
  case Token::NotEqual: return "'!='";
  }
  return "token";
}

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }
static bool isNonAscii(char c) { return (unsigned char)c >= 0x80; }
static bool isUtf8Continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

void Lexer::skipWhitespaceAndComments() {
  while (cur_ != end_) {
    char c = *cur_;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++cur_;
    } else if (c == '/' && cur_ + 1 != end_ && cur_[1] == '/') {
      while (cur_ != end_ && *cur_ != '\n')
        ++cur_;
    } else if (c == '/' && cur_ + 1 != end_ && cur_[1] == '*') {
      const char *close = cur_ + 2;
      while (close != end_ && !(*close == '*' && close + 1 != end_ && close[1] == '/'))
        ++close;
      if (close == end_)
        return; // unterminated: next() reports it and ends the token stream here
      cur_ = close + 2;
    } else {
      return;
    }
  }
}

// Numbers: digits, optional fraction, optional exponent. Anything that runs on
// into letters, digits or dots ("1e", "1.2.3", "08x") is one malformed token.
Token Lexer::lexNumber(const char *start) {
  bool isReal = false;
  while (cur_ != end_ && llvm::isDigit(*cur_))
    ++cur_;
  if (cur_ != end_ && *cur_ == '.') {
    isReal = true;
    ++cur_;
    while (cur_ != end_ && llvm::isDigit(*cur_))
      ++cur_;
  }
  bool badExponent = false;
  if (cur_ != end_ && (*cur_ == 'e' || *cur_ == 'E')) {
    isReal = true;
    ++cur_;
    if (cur_ != end_ && (*cur_ == '+' || *cur_ == '-'))
      ++cur_;
    if (cur_ == end_ || !llvm::isDigit(*cur_))
      badExponent = true;
    while (cur_ != end_ && llvm::isDigit(*cur_))
      ++cur_;
  }
  bool runsOn = cur_ != end_ && (isIdentChar(*cur_) || *cur_ == '.');
  if (badExponent || runsOn) {
    while (cur_ != end_ && (isIdentChar(*cur_) || *cur_ == '.'))
      ++cur_;
    Token tok = make(Token::Error, start);
    error(tok.loc(), "malformed number '" + tok.text + "'", {tok.range()});
    return tok;
  }
  return make(isReal ? Token::Real : Token::Integer, start);
}

Token Lexer::next() {
  skipWhitespaceAndComments();
  const char *start = cur_;
  if (cur_ == end_)
    return {Token::Eof, llvm::StringRef(cur_, 0)};
  if (*cur_ == '/' && cur_ + 1 != end_ && cur_[1] == '*') {
    // The rest of the file is an unterminated comment. The Eof token spans it, so the parser
    // knows this end of file is explained and does not add "expected '}', found end of file".
    cur_ = end_;
    Token tok = make(Token::Eof, start);
    error(tok.loc(), "unterminated '/*' comment; it runs to the end of the file",
          {llvm::SMRange(tok.loc(), llvm::SMLoc::getFromPointer(start + 2))});
    return tok;
  }

  char c = *cur_;
  if (isIdentStart(c)) {
    while (cur_ != end_ && isIdentChar(*cur_))
      ++cur_;
    // `2d` / `3d` are lexed as numbers-with-suffix below; identifiers start with letters.
    return make(Token::Identifier, start);
  }
  if (llvm::isDigit(c) || (c == '.' && cur_ + 1 != end_ && llvm::isDigit(cur_[1]))) {
    // Grid dimensionality is written `2d` / `3d`: lex it as an identifier-like word.
    if ((c == '2' || c == '3') && cur_ + 1 != end_ && cur_[1] == 'd' &&
        (cur_ + 2 == end_ || !isIdentChar(cur_[2]))) {
      cur_ += 2;
      return make(Token::Identifier, start);
    }
    return lexNumber(start);
  }

  ++cur_;
  // Two-character comparisons first: `<=` is one token, not `<` then `=`.
  bool nextIsEqual = cur_ != end_ && *cur_ == '=';
  if (nextIsEqual && (c == '<' || c == '>' || c == '=' || c == '!')) {
    ++cur_;
    return make(c == '<'   ? Token::LessEqual
                : c == '>' ? Token::GreaterEqual
                : c == '=' ? Token::EqualEqual
                           : Token::NotEqual,
                start);
  }
  switch (c) {
  case '{': return make(Token::LBrace, start);
  case '}': return make(Token::RBrace, start);
  case '(': return make(Token::LParen, start);
  case ')': return make(Token::RParen, start);
  case '[': return make(Token::LBracket, start);
  case ']': return make(Token::RBracket, start);
  case ',': return make(Token::Comma, start);
  case ';': return make(Token::Semicolon, start);
  case ':': return make(Token::Colon, start);
  case '=': return make(Token::Equal, start);
  case '+': return make(Token::Plus, start);
  case '-': return make(Token::Minus, start);
  case '*': return make(Token::Star, start);
  case '/': return make(Token::Slash, start);
  case '|': return make(Token::Pipe, start);
  case '.': return make(Token::Dot, start);
  case '?': return make(Token::Question, start);
  case '<': return make(Token::Less, start);
  case '>': return make(Token::Greater, start);
  default: break;
  }
  if (isNonAscii(c)) {
    // One token for a whole UTF-8 sequence (a pasted '×' or '²'), so it is reported once.
    while (cur_ != end_ && isUtf8Continuation(*cur_))
      ++cur_;
    Token tok = make(Token::Error, start);
    std::string bytes;
    for (char b : tok.text)
      bytes += fmt::format("{}0x{:02X}", bytes.empty() ? "" : " ", (unsigned char)b);
    error(tok.loc(),
          "unexpected non-ASCII character (bytes " + bytes +
              "); only comments may contain non-ASCII text",
          {tok.range()});
    return tok;
  }
  Token tok = make(Token::Error, start);
  if (llvm::isPrint(c))
    error(tok.loc(), llvm::Twine("unexpected character '") + llvm::Twine(c) + "'", {tok.range()});
  else
    error(tok.loc(),
          fmt::format("unexpected control character 0x{:02X} in source", (unsigned char)c),
          {tok.range()});
  return tok;
}

} // namespace stencilc
