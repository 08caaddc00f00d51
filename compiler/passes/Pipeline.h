//===- Pipeline.h - The passes after the frontend, in order ----------------===//
//
// Like Halide's lowering, the pipeline is one flat list of named passes. Each
// runs over every stencil, the IR verifier runs after it, and
// `--dump-after=NAME` prints the IR as that pass left it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/Decompose.h"
#include "passes/LinearForm.h"
#include "support/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc {

/// One stencil and what the passes derived from it.
struct CompiledStencil {
  const ir::Stencil *stencil = nullptr;
  LinearStencil linear;        ///< set by `linearize`
  Decomposition decomposition; ///< set by `decompose`
};

struct PipelineOptions {
  /// Pass names after which to print the IR ("frontend" names the parsed input).
  std::vector<std::string> dumpAfter;
  llvm::raw_ostream *dumpStream = &llvm::outs();
  /// Force this many sub-stencil sweeps (0: one sweep).
  int forceSplit = 0;
};

/// The pass names in the order they run, "frontend" first.
const std::vector<std::string> &pipelinePassNames();

/// Runs every pass over every stencil of `module`. User errors are reported
/// through `diag`; a verifier failure is reported as an internal error.
std::optional<std::vector<CompiledStencil>> runPipeline(const ir::Module &module,
                                                        DiagnosticEngine &diag,
                                                        const PipelineOptions &options = {});

} // namespace stencilc
