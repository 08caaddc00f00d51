//===- StencilText.cpp - A lifted stencil as .stencil text ----------------===//
#include "tooling/StencilText.h"

#include "frontend/Frontend.h"
#include "passes/Pipeline.h"
#include "support/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <vector>

namespace stencilc::tooling {

namespace {
std::string roleText(const LiftedField &f) {
  switch (f.role) {
  case LiftedRole::Time: return "time";
  case LiftedRole::Input: return "in";
  case LiftedRole::Index: return "index " + f.indexType;
  case LiftedRole::Output: return f.overwrites.empty() ? "out" : "out overwrites " + f.overwrites;
  }
  return "";
}
/// Breaks `line` before binary + and - so that no line passes 100 columns
/// where a break is possible, preferring the break least deep in parentheses;
/// continuation lines start with `indent`.
std::string wrapped(const std::string &line, const std::string &indent) {
  constexpr size_t kWidth = 100;
  struct Break {
    size_t at; ///< the space before the operator, in `out`
    int depth;
  };
  std::string out;
  std::vector<Break> breaks; // on the current output line
  size_t lineStart = 0;
  int depth = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    depth += line[i] == '(' ? 1 : line[i] == ')' ? -1 : 0;
    if (line[i] == ' ' && i + 2 < line.size() && (line[i + 1] == '+' || line[i + 1] == '-') &&
        line[i + 2] == ' ')
      breaks.push_back({out.size(), depth});
    out += line[i];
    if (out.size() - lineStart <= kWidth || breaks.empty())
      continue;
    Break best = breaks.front();
    for (const Break &b : breaks)
      if (b.depth <= best.depth)
        best = b;
    std::string tail = out.substr(best.at + 1);
    out.resize(best.at);
    out += "\n";
    lineStart = out.size();
    out += indent + tail;
    std::vector<Break> kept; // the breaks in `tail` moved by the newline and indent
    for (const Break &b : breaks)
      if (b.at > best.at)
        kept.push_back({b.at + indent.size(), b.depth});
    breaks = kept;
  }
  return out;
}
} // namespace

std::string stencilText(const LiftedStencil &s) {
  std::string text =
      fmt::format("// Lifted by stencilc from the loop nest at {}:{}.\n", s.sourceFile, s.line);
  text += fmt::format("stencil {} {{\n  grid {}d;\n  type {};\n\n", s.name, s.dims, s.elemType);
  size_t width = 0;
  for (const LiftedField &f : s.fields)
    width = std::max(width, f.name.size());
  for (const LiftedField &f : s.fields)
    text += fmt::format("  field {:<{}} : {};\n", f.name, width, roleText(f));
  for (const LiftedTable &t : s.tables)
    text += fmt::format("  table {}[{}];\n", t.name, t.rows);
  if (!s.scalars.empty()) {
    text += "  scalar ";
    for (size_t i = 0; i < s.scalars.size(); ++i)
      text += (i ? ", " : "") + s.scalars[i].name;
    text += ";\n";
  }
  text += "\n";
  for (const LiftedUpdate &u : s.updates)
    text += wrapped(fmt::format("  {} = {};", u.output, u.value), "      ") + "\n";
  text += "}\n";
  return text;
}

std::optional<ir::Module> checkStencilText(const std::string &text, const std::string &bufferName,
                                           std::string &diagnostics) {
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName),
                                             llvm::SMLoc());
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(sourceMgr, os);
  auto module = parseModule(id, diag);
  if (!module)
    return std::nullopt;
  PipelineOptions options;
  if (!runPipeline(*module, diag, options))
    return std::nullopt;
  return module;
}

} // namespace stencilc::tooling
