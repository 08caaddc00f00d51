//===- ParserImpl.h - Limits and helpers shared by the parser's files -----===//
//
// Private to the parser. Parser (Parser.h) is one class whose member
// functions are defined by grammar area, one file each:
//
//   Parser.cpp           token handling, error recovery, `stencil` blocks,
//                        statement dispatch
//   ParserDecls.cpp      grid, type, order, field, scalar, symmetry, table
//   ParserPointSets.cpp  point-set expressions and `points` declarations
//   ParserUpdates.cpp    updates `out = expr;` and `plan` clauses
//   ParserExprs.cpp      expressions: arithmetic, numbers, sums, derivatives,
//                        calls, field reads and table lookups
//
// This header holds what more than one of them needs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/Parser.h"

#include <optional>
#include <string>

namespace stencilc::parser_detail {

// Limits that keep shapes and numbers in ranges the compiler handles exactly.
constexpr int kMaxShapeRadius = 16;
constexpr int kMaxOffset = 64;
constexpr int kMaxOrder = 32;
constexpr int kMaxTableRows = 1 << 16;
/// Deeper nesting of parentheses or unary minus is an error, not a stack overflow.
constexpr int kMaxNesting = 256;

/// `plan sweeps N` accepts 1..kMaxPlanSweeps: more sweeps only re-read the grid.
constexpr int kMaxPlanSweeps = 16;

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

/// What a name declared in a stencil is, and where.
struct Declaration {
  const char *kind;
  llvm::SMLoc loc;
};

/// The declaration of `n` in `s`, if any: redefinitions and sum variables
/// that would shadow it are errors (ParserDecls.cpp).
std::optional<Declaration> findDeclaration(const ir::Stencil &s, const std::string &n);

} // namespace stencilc::parser_detail
