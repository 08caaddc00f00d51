//===- KernelWalker.h - Prints kernel IR through language hooks -----------===//
//
// Both backends print their kernels by walking the kernel IR (kernel/KernelIR.h)
// with this class. The walk owns what the languages share, the body of a
// stencil: a sum of coefficient groups into a local or a partial sum
// (GroupSums.h), adding a value to a partial sum, and the store. A backend
// overrides how loops, guards, calls, staging, barriers, waits and shifts are spelled,
// and how a read, a local, an output element and a partial sum are named.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/GroupSums.h"
#include "backends/KernelNames.h"
#include "kernel/KernelIR.h"

#include <string>
#include <vector>

namespace stencilc::backend {

/// `text` line by line, each line starting with `prefix` ("/// " for a doc comment).
std::string commentLines(const std::string &text, const std::string &prefix);
inline std::string docComment(const std::string &note) { return commentLines(note, "/// "); }

class KernelWalker {
public:
  KernelWalker(const ir::Stencil &s, const LinearStencil &linear, const KernelNames &names)
      : s_(s), linear_(linear), names_(names) {}
  virtual ~KernelWalker() = default;

  /// The statements of `body`, each line starting with `indent`. Deferred
  /// stores come after every other statement of the block.
  std::string walk(const std::vector<kernel::Node> &body, const std::string &indent);

protected:
  using Node = kernel::Node;

  /// One statement; the default prints sums, accumulates and stores, and
  /// hands every other kind to the hooks below.
  virtual std::string statement(const Node &n, const std::string &indent);

  // Language hooks for the kinds the languages spell differently. Each
  // default throws: a kind the backend's lowering never produces.
  virtual std::string loop(const Node &n, const std::string &indent);
  virtual std::string guard(const Node &n, const std::string &indent);
  virtual std::string call(const Node &n, const std::string &indent);
  virtual std::string stage(const Node &n, const std::string &indent);
  virtual std::string barrier(const Node &n, const std::string &indent);
  virtual std::string shift(const Node &n, const std::string &indent);
  virtual std::string wait(const Node &n, const std::string &indent);

  // Names for the shared body.
  /// How the reads of a Sum (or of a Store's shared factors) are spelled.
  virtual BodyReads reads(const Node &n) = 0;
  /// The local a Sum, Accumulate or Store names with Node::value.
  virtual std::string valueName(const Node &n) = 0;
  /// The output element a Store writes.
  virtual std::string outputElement(const Node &store) = 0;
  /// The partial sum an Accumulate adds to, a Partial Sum sums into, a Sum
  /// starts from (fromPartial), or a Store adds (fromPartial).
  virtual std::string partialSum(const Node &n) = 0;
  /// Statements after a Store consumed its partial sum (the CPU's ring re-zeroes it).
  virtual std::string consumedPartial(const Node &store, const std::string &indent);
  /// The type of the locals a Sum declares.
  virtual std::string valueType() const { return "Real"; }
  /// The statement (without `;`) that writes `value` to a Store's output
  /// element, or adds it there (Node::add).
  virtual std::string writeOutput(const Node &store, const std::string &value);

  std::string sum(const Node &n, const std::string &indent);
  std::string accumulate(const Node &n, const std::string &indent);
  std::string store(const Node &n, const std::string &indent);

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const KernelNames &names_;
};

} // namespace stencilc::backend
