//===- ValueTree.cpp - The value of a loop body's update as a tree --------===//
#include "tooling/ValueTree.h"

#include <fmt/format.h>

namespace stencilc::tooling {

using namespace clang;

bool sameValue(const Node &a, const Node &b) {
  if (a.kind != b.kind || a.text != b.text || a.array != b.array || a.offset != b.offset ||
      a.table != b.table || a.row != b.row || a.operands.size() != b.operands.size())
    return false;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!sameValue(a.operands[i], b.operands[i]))
      return false;
  return true;
}

bool readsArray(const Node &n) {
  if (n.kind == Node::Access)
    return true;
  for (const Node &o : n.operands)
    if (readsArray(o))
      return true;
  return false;
}

bool readsAny(const Node &n, const std::set<int> &arrays) {
  if (n.kind == Node::Access && arrays.count(n.array))
    return true;
  for (const Node &o : n.operands)
    if (readsAny(o, arrays))
      return true;
  return false;
}

void collectArrays(const Node &n, std::set<int> &arrays) {
  if (n.kind == Node::Access)
    arrays.insert(n.array);
  for (const Node &o : n.operands)
    collectArrays(o, arrays);
}

bool isChoice(const Node &n) {
  return n.kind == Node::Min || n.kind == Node::Max || n.kind == Node::Select;
}

const Node *findNeighbourAccess(const Node &n) {
  if (n.kind == Node::Access && n.offset != Offset{0, 0, 0})
    return &n;
  for (const Node &o : n.operands)
    if (const Node *found = findNeighbourAccess(o))
      return found;
  return nullptr;
}

static const Node *findAccessOf(const Node &n, const std::set<int> &arrays) {
  if (n.kind == Node::Access && arrays.count(n.array))
    return &n;
  for (const Node &o : n.operands)
    if (const Node *found = findAccessOf(o, arrays))
      return found;
  return nullptr;
}

const Node *findChoiceReading(const Node &n, const std::set<int> &arrays, const Node **read) {
  if (isChoice(n))
    if (const Node *access = findAccessOf(n, arrays)) {
      *read = access;
      return &n;
    }
  for (const Node &o : n.operands)
    if (const Node *found = findChoiceReading(o, arrays, read))
      return found;
  return nullptr;
}

void collectTerms(const Node &n, std::set<int> &terms, const std::set<int> &time,
                  bool preferRight) {
  switch (n.kind) {
  case Node::Access: terms.insert(n.array); return;
  case Node::Add:
  case Node::Sub:
  case Node::Neg:
    for (const Node &o : n.operands)
      collectTerms(o, terms, time, preferRight);
    return;
  case Node::Mul:
    if (!readsArray(n.operands[0]))
      collectTerms(n.operands[1], terms, time, preferRight);
    else if (!readsArray(n.operands[1]))
      collectTerms(n.operands[0], terms, time, preferRight);
    else if (readsAny(n.operands[0], time) && !readsAny(n.operands[1], time))
      collectTerms(n.operands[0], terms, time, preferRight);
    else if (readsAny(n.operands[1], time) && !readsAny(n.operands[0], time))
      collectTerms(n.operands[1], terms, time, preferRight);
    else if (preferRight && !readsAny(n.operands[0], time))
      collectTerms(n.operands[1], terms, time, preferRight);
    return;
  case Node::Div:
    if (!readsAny(n.operands[1], time))
      collectTerms(n.operands[0], terms, time, preferRight);
    return;
  default: return;
  }
}

void collectFactors(const Node &n, const std::set<int> &time, std::set<int> &factors) {
  if (n.kind == Node::Mul) {
    if (readsAny(n.operands[0], time))
      collectArrays(n.operands[1], factors);
    if (readsAny(n.operands[1], time))
      collectArrays(n.operands[0], factors);
  }
  if (n.kind == Node::Div)
    collectArrays(n.operands[1], factors);
  if (n.kind == Node::Call)
    collectArrays(n.operands[0], factors);
  if (isChoice(n))
    collectArrays(n, factors);
  for (const Node &o : n.operands)
    collectFactors(o, time, factors);
}

namespace {
int precedence(const Node &n) {
  switch (n.kind) {
  case Node::Compare:
  case Node::Select: return 0;
  case Node::Add:
  case Node::Sub: return 1;
  case Node::Mul:
  case Node::Div: return 2;
  case Node::Neg: return 3;
  default: return 4;
  }
}
} // namespace

std::optional<Node> compound(BinaryOperatorKind op, Node current, Node operand) {
  Node::Kind kind;
  switch (op) {
  case BO_Assign: return operand;
  case BO_AddAssign: kind = Node::Add; break;
  case BO_SubAssign: kind = Node::Sub; break;
  case BO_MulAssign: kind = Node::Mul; break;
  case BO_DivAssign: kind = Node::Div; break;
  default: return std::nullopt;
  }
  // `value = 0; value += e` is `e`.
  if (kind == Node::Add && current.kind == Node::Number && current.text == "0")
    return operand;
  Node n{kind};
  n.operands.push_back(std::move(current));
  n.operands.push_back(std::move(operand));
  return n;
}

std::string printValue(const Node &n, const std::vector<std::string> &arrays,
                       const std::vector<std::string> &tables, int dims, int minPrecedence) {
  auto print = [&](const Node &operand, int precedence) {
    return printValue(operand, arrays, tables, dims, precedence);
  };
  std::string s;
  switch (n.kind) {
  case Node::Number:
  case Node::Scalar: s = n.text; break;
  case Node::Access: {
    s = arrays[n.array];
    if (n.offset != Offset{0, 0, 0}) {
      s += fmt::format("[{}, {}", n.offset[0], n.offset[1]);
      s += dims == 3 ? fmt::format(", {}]", n.offset[2]) : "]";
    }
    break;
  }
  case Node::Table: s = fmt::format("{}[{}][{}]", tables[n.table], n.row, arrays[n.array]); break;
  case Node::Neg: s = "-" + print(n.operands[0], 3); break;
  case Node::Add: s = print(n.operands[0], 1) + " + " + print(n.operands[1], 1); break;
  case Node::Sub: s = print(n.operands[0], 1) + " - " + print(n.operands[1], 2); break;
  case Node::Mul: s = print(n.operands[0], 2) + " * " + print(n.operands[1], 2); break;
  case Node::Div: s = print(n.operands[0], 2) + " / " + print(n.operands[1], 3); break;
  case Node::Call: s = n.text + "(" + print(n.operands[0], 0) + ")"; break;
  case Node::Min:
  case Node::Max:
    s = std::string(n.kind == Node::Min ? "min(" : "max(") + print(n.operands[0], 0) + ", " +
        print(n.operands[1], 0) + ")";
    break;
  case Node::Compare:
    s = print(n.operands[0], 1) + " " + n.text + " " + print(n.operands[1], 1);
    break;
  case Node::Select:
    s = print(n.operands[0], 0) + " ? " + print(n.operands[1], 0) + " : " + print(n.operands[2], 0);
    break;
  }
  return precedence(n) < minPrecedence ? "(" + s + ")" : s;
}

} // namespace stencilc::tooling
