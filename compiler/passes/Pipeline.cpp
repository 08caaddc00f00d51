//===- Pipeline.cpp -------------------------------------------------------===//
#include "passes/Pipeline.h"

#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"

#include <functional>

namespace stencilc {

namespace {

struct Pass {
  std::string name;
  /// Runs the pass on one stencil; false after reporting an error.
  std::function<bool(CompiledStencil &, const PipelineOptions &, DiagnosticEngine &)> run;
  /// Prints the stencil as the pass left it.
  std::function<void(const CompiledStencil &, llvm::raw_ostream &)> dump;
  /// Checks the pass's output, appending problems.
  std::function<bool(const CompiledStencil &, std::vector<std::string> &)> verify;
};

const std::vector<Pass> &passes() {
  static const std::vector<Pass> list = {
      {"frontend", [](CompiledStencil &, const PipelineOptions &, DiagnosticEngine &) { return true; },
       [](const CompiledStencil &c, llvm::raw_ostream &os) { ir::printStencil(*c.stencil, os); },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return ir::verifyStencil(*c.stencil, problems);
       }},
      {"linearize",
       [](CompiledStencil &c, const PipelineOptions &, DiagnosticEngine &diag) {
         auto linear = linearize(*c.stencil, diag);
         if (!linear)
           return false;
         c.linear = std::move(*linear);
         return true;
       },
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         ir::printStencilWithLinearForm(*c.stencil, c.linear, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return ir::verifyLinearForm(*c.stencil, c.linear, problems);
       }},
      {"decompose",
       [](CompiledStencil &c, const PipelineOptions &options, DiagnosticEngine &diag) {
         if (options.forceSplit <= 1) {
           c.decomposition = wholeStencil(c.linear);
           return true;
         }
         std::string why;
         if (splitStencil(c.linear, options.forceSplit, c.decomposition, why))
           return true;
         diag.error(c.stencil->loc, "stencil '" + c.stencil->name + "': " + why);
         return false;
       },
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         ir::printStencilWithLinearForm(*c.stencil, c.linear, os);
         printDecomposition(*c.stencil, c.linear, c.decomposition, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return verifyDecomposition(c.linear, c.decomposition, problems);
       }},
  };
  return list;
}

} // namespace

const std::vector<std::string> &pipelinePassNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Pass &p : passes())
      n.push_back(p.name);
    return n;
  }();
  return names;
}

std::optional<std::vector<CompiledStencil>> runPipeline(const ir::Module &module,
                                                        DiagnosticEngine &diag,
                                                        const PipelineOptions &options) {
  std::vector<CompiledStencil> compiled;
  for (const ir::Stencil &stencil : module.stencils)
    compiled.push_back({&stencil, {}, {}});

  for (const Pass &pass : passes()) {
    bool dump = llvm::is_contained(options.dumpAfter, pass.name);
    for (CompiledStencil &c : compiled) {
      if (!pass.run(c, options, diag))
        return std::nullopt;
      std::vector<std::string> problems;
      if (!pass.verify(c, problems)) {
        for (const std::string &p : problems)
          llvm::WithColor::error(llvm::errs(), "stencilc")
              << "internal error: IR verifier failed after '" << pass.name << "' on stencil '"
              << c.stencil->name << "': " << p << "\n";
        return std::nullopt;
      }
      if (dump) {
        *options.dumpStream << "// ----- IR after " << pass.name << " -----\n";
        pass.dump(c, *options.dumpStream);
      }
    }
  }
  return compiled;
}

} // namespace stencilc
