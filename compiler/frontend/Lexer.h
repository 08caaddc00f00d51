//===- Lexer.h - Tokenizer for .stencil files ------------------------------===//
#pragma once

#include "frontend/Token.h"
#include "support/Diagnostics.h"

namespace stencilc {

/// Turns a buffer into tokens on demand. Malformed input (a bad number, a
/// stray character) is reported once and returned as an Error token so the
/// parser can recover; an unterminated comment is reported and ends the token
/// stream with an Eof token spanning the comment.
class Lexer {
public:
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diag)
      : cur_(buffer.begin()), end_(buffer.end()), diag_(&diag) {}

  Token next();
  /// The token after the current position, without consuming it or reporting errors.
  Token peekQuietly() const {
    Lexer copy = *this;
    copy.quiet_ = true;
    return copy.next();
  }

private:
  Token make(Token::Kind kind, const char *start) const {
    return {kind, llvm::StringRef(start, size_t(cur_ - start))};
  }
  void error(llvm::SMLoc loc, const llvm::Twine &msg, llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    if (!quiet_)
      diag_->error(loc, msg, ranges);
  }
  void skipWhitespaceAndComments();
  Token lexNumber(const char *start);

  const char *cur_;
  const char *end_;
  DiagnosticEngine *diag_;
  bool quiet_ = false;
};

} // namespace stencilc
