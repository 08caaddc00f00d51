//===- Parser.h - Recursive-descent parser building the IR -----------------===//
//
// The language declares names before use, so the parser resolves them as it
// goes and builds ir::Module directly; checks that need a whole stencil
// (radius, linearity, in-place legality, outputs written) are Sema's job.
// The member functions are defined by grammar area in Parser*.cpp
// (ParserImpl.h lists the files).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/Lexer.h"
#include "ir/IR.h"

#include <optional>
#include <vector>

namespace stencilc {

class Parser {
public:
  Parser(llvm::StringRef buffer, llvm::StringRef fileName, DiagnosticEngine &diag);

  /// Parses the whole buffer. The module is complete only if no error was reported.
  ir::Module parseModule();

private:
  // Token handling.
  void consume();
  Token peek();
  bool consumeIf(Token::Kind kind);
  bool consumeKeywordIf(llvm::StringRef kw);
  bool expect(Token::Kind kind, llvm::StringRef context);
  bool expectIdentifier(Token &out, llvm::StringRef what);
  bool expectInteger(int &out, llvm::StringRef what);
  bool expectSignedInteger(int &out);
  void errorAtToken(const llvm::Twine &msg);
  void skipStatement();

  // Declarations.
  void parseStencil();
  bool parseStatement();
  bool parseGrid();
  bool parseType();
  bool parseOrder();
  bool parseField();
  bool parseScalars();
  bool parseSymmetry();
  bool parsePoints();
  bool parseTable();
  bool parsePlan();
  bool parseUpdate();
  bool declareName(const Token &name);
  static constexpr int kParseFailed = -2;
  /// The Time field named next, for `advances` / `overwrites`: its id, -1 after
  /// a reported semantic error, kParseFailed after a syntax error.
  int parseTimeLevelTarget(llvm::StringRef what, llvm::StringRef verb, int ir::Field::*relation);
  int requireAxis(const Token &tok);

  // Point sets: a set of offsets plus the symmetry its shape implies (or -1).
  struct PointValue {
    std::vector<ir::Offset> points;
    int symmetry = -1;
  };
  std::optional<PointValue> parsePointExpr();
  std::optional<PointValue> parsePointTerm();
  bool parseOffset(ir::Offset &out, llvm::SMLoc &loc);
  bool parseShapeRadius(int &r);

  // Expressions.
  /// An additive expression, or `a cmp b ? x : y` (docs/DSL.md "Expressions").
  ir::ExprPtr parseExpr();
  ir::ExprPtr parseAdditive();
  ir::ExprPtr parseTerm();
  /// A left-associative chain `operand (op operand)*` of two binary operators.
  ir::ExprPtr parseBinaryChain(ir::ExprPtr (Parser::*operand)(), Token::Kind first,
                               ir::Expr::Kind firstKind, Token::Kind second,
                               ir::Expr::Kind secondKind);
  ir::ExprPtr parseUnary();
  ir::ExprPtr parsePrimary();
  ir::ExprPtr parseNumber();
  ir::ExprPtr parseSum(const Token &kw);
  ir::ExprPtr parseDerivative(const Token &name, ir::DerivKind kind);
  ir::ExprPtr parseCall(const Token &name, ir::FuncKind func);
  /// `min(a, b)` / `max(a, b)`; `kind` is Min or Max.
  ir::ExprPtr parseMinMax(const Token &name, ir::Expr::Kind kind);
  ir::ExprPtr parseFieldAccess(const Token &name, int fieldId);
  ir::ExprPtr parseTableLookup(const Token &name, int tableId);

  struct SumScope {
    std::string name;
    int var;
    int pointSet;
  };
  const SumScope *lookupSumVar(llvm::StringRef name) const;

  Lexer lexer_;
  Token tok_;
  std::string fileName_;
  DiagnosticEngine &diag_;
  ir::Stencil *stencil_ = nullptr;
  std::vector<SumScope> sumScopes_;
  int nextSumVar_ = 0;
  int nesting_ = 0;       ///< active recursive parse calls, bounded to avoid stack overflow
  bool dimsUsed_ = false; ///< an offset or shape was parsed: `grid` may no longer change dims
  bool sawGrid_ = false, sawType_ = false, sawOrder_ = false;
  llvm::SMLoc orderLoc_;
};

} // namespace stencilc
