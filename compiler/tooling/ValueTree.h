//===- ValueTree.h - The value of a loop body's update as a tree ----------===//
//
// What `lift` reads from the right-hand sides of a loop body (StencilLifter.h)
// is kept as a small tree until every statement is read: temporaries and
// earlier writes are substituted as subtrees, and once the whole body is known
// the tree tells which arrays are time levels (terms of the update) and which
// are per-point coefficients (factors of them), then prints as DSL text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/OperationKinds.h"

#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::tooling {

using Offset = std::array<int, 3>;

struct Node {
  enum Kind { Number, Scalar, Access, Table, Neg, Add, Sub, Mul, Div, Call } kind;
  std::string text; ///< Number: literal; Scalar: DSL name; Call: function
  int array = -1;   ///< Access: the array; Table: the index array
  Offset offset{0, 0, 0};
  int table = -1;
  int row = 0;
  std::vector<Node> operands;

  explicit Node(Kind k) : kind(k) {}
};

/// Whether `n` reads any array / one of `arrays`.
bool readsArray(const Node &n);
bool readsAny(const Node &n, const std::set<int> &arrays);
/// Every array `n` reads.
void collectArrays(const Node &n, std::set<int> &arrays);

/// Arrays read as a term of their own: through + - and unary minus, and
/// multiplied by factors free of arrays or of the known time levels `time`
/// (`(2 * cur - prev + ...) * taper` makes `prev` a term). With `preferRight`,
/// a product of two per-point reads neither known as a time level
/// (`vel[pos] * lap[pos]`) takes the right one as the term: coefficient
/// first, as such code is usually written; both readings compute the same.
void collectTerms(const Node &n, std::set<int> &terms, const std::set<int> &time, bool preferRight);

/// Arrays that scale the time levels: factors of a product whose other factor
/// reads a time level, divisors, and arguments of functions.
void collectFactors(const Node &n, const std::set<int> &time, std::set<int> &factors);

/// `a op= b` as a tree, from the current value of `a` (`op` is `=`, `+=`,
/// `-=`, `*=` or `/=`; nothing for the others). `0 + e` is `e`.
std::optional<Node> compound(clang::BinaryOperatorKind op, Node current, Node operand);

/// DSL text, with the given names of arrays and tables, parenthesised where
/// the precedence of the enclosing operator (`minPrecedence`) needs it.
std::string printValue(const Node &n, const std::vector<std::string> &arrays,
                       const std::vector<std::string> &tables, int dims, int minPrecedence = 0);

} // namespace stencilc::tooling
