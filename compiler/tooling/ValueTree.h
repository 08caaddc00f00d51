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
#include "clang/Basic/SourceLocation.h"

#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::tooling {

using Offset = std::array<int, 3>;

struct Node {
  enum Kind {
    Number,
    Scalar,
    Access,
    Table,
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    Call,
    Min,
    Max,     ///< operands[0], operands[1]
    Compare, ///< text: the operator (`<` ...); only as a Select's operands[0]
    Select,  ///< operands[0] ? operands[1] : operands[2]
  } kind;
  std::string text; ///< Number: literal; Scalar: DSL name; Call: function; Compare: operator
  int array = -1;   ///< Access: the array; Table: the index array
  Offset offset{0, 0, 0};
  int table = -1;
  int row = 0;
  std::vector<Node> operands;
  clang::SourceLocation loc; ///< Min, Max, Select: where the C++ wrote it, for errors

  explicit Node(Kind k) : kind(k) {}
};

/// Min, Max and Select: per-point choices, which may read arrays only at the
/// loop point and never a time level (docs/DSL.md "Expressions").
bool isChoice(const Node &n);
/// The first read of an array away from the loop point inside `n`, or null.
const Node *findNeighbourAccess(const Node &n);
/// The first choice inside `n` that reads one of `arrays`, or null; `*read` is set to that read.
const Node *findChoiceReading(const Node &n, const std::set<int> &arrays, const Node **read);

/// Whether two trees compute the same value the same way.
bool sameValue(const Node &a, const Node &b);
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
/// reads a time level, divisors, arguments of functions and what choices read.
void collectFactors(const Node &n, const std::set<int> &time, std::set<int> &factors);

/// `a op= b` as a tree, from the current value of `a` (`op` is `=`, `+=`,
/// `-=`, `*=` or `/=`; nothing for the others). `0 + e` is `e`.
std::optional<Node> compound(clang::BinaryOperatorKind op, Node current, Node operand);

/// DSL text, with the given names of arrays and tables, parenthesised where
/// the precedence of the enclosing operator (`minPrecedence`: 0 for none, 1
/// for + -, 2 for * /, 3 for unary minus) needs it.
std::string printValue(const Node &n, const std::vector<std::string> &arrays,
                       const std::vector<std::string> &tables, int dims, int minPrecedence = 0);

} // namespace stencilc::tooling
