//===- KernelWalker.cpp ---------------------------------------------------===//
#include "backends/KernelWalker.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stencilc::backend {

using kernel::NodeKind;

std::string commentLines(const std::string &text, const std::string &prefix) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string KernelWalker::walk(const std::vector<Node> &body, const std::string &indent) {
  std::string out, deferred;
  for (const Node &n : body)
    (n.kind == NodeKind::Store && n.deferred ? deferred : out) += statement(n, indent);
  return out + deferred;
}

std::string KernelWalker::statement(const Node &n, const std::string &indent) {
  switch (n.kind) {
  case NodeKind::Loop:
  case NodeKind::Tiles: return loop(n, indent);
  case NodeKind::Guard: return guard(n, indent);
  case NodeKind::Call: return call(n, indent);
  case NodeKind::StageRows:
  case NodeKind::StagedRows:
  case NodeKind::StageTile: return stage(n, indent);
  case NodeKind::WaitTiles: return wait(n, indent);
  case NodeKind::Barrier: return barrier(n, indent);
  case NodeKind::ShiftQueues:
  case NodeKind::ShiftPartials: return shift(n, indent);
  case NodeKind::Sum: return sum(n, indent);
  case NodeKind::Accumulate: return accumulate(n, indent);
  case NodeKind::Store: return store(n, indent);
  }
  return "";
}

namespace {
[[noreturn]] void unsupported(const kernel::Node &n) {
  throw std::logic_error(
      fmt::format("this backend cannot print a {} node", kernel::nodeKindName(n.kind)));
}
} // namespace

std::string KernelWalker::loop(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::guard(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::call(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::stage(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::barrier(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::shift(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::wait(const Node &n, const std::string &) { unsupported(n); }
std::string KernelWalker::consumedPartial(const Node &, const std::string &) { return ""; }

std::string KernelWalker::sum(const Node &n, const std::string &indent) {
  const LinearForm &form = linear_.updates[n.update];
  SumOptions options;
  if (n.hasDz)
    options.dz = n.dz;
  options.pointwise = n.pointwise;
  options.withoutSharedFactors = n.withoutSharedFactors;
  options.comments = n.comments;
  options.indent = indent;
  std::string out;
  if (!n.note.empty())
    out += commentLines(n.note, indent + "// ");
  if (n.target == kernel::SumTarget::Partial)
    return out + sumStatements(s_, form, n.groups, reads(n), partialSum(n), false, options);
  const std::string value = valueName(n);
  out += n.fromPartial ? fmt::format("{}{} {} = {};\n", indent, valueType(), value, partialSum(n))
                       : fmt::format("{}{} {};\n", indent, valueType(), value);
  return out + sumStatements(s_, form, n.groups, reads(n), value, !n.fromPartial, options);
}

std::string KernelWalker::accumulate(const Node &n, const std::string &indent) {
  return fmt::format("{}{} += {};\n", indent, partialSum(n), valueName(n));
}

std::string KernelWalker::store(const Node &n, const std::string &indent) {
  std::string out;
  const std::string value = valueName(n);
  if (n.fromPartial) {
    std::string scale;
    if (n.scaleShared) {
      out += indent + "// The factors every accumulated group shares, left out of the partial "
                      "sums.\n";
      const LinearForm &form = linear_.updates[n.update];
      for (const std::string &f : factorTexts(form, form.groups[n.groups.front()], reads(n)))
        scale += f + " * ";
    }
    out += fmt::format("{}{} += {}{};\n", indent, value, scale, partialSum(n));
    out += consumedPartial(n, indent);
  }
  return out + indent + writeOutput(n, value) + ";\n";
}

std::string KernelWalker::writeOutput(const Node &store, const std::string &value) {
  return fmt::format("{} {} {}", outputElement(store), store.add ? "+=" : "=", value);
}

} // namespace stencilc::backend
