//===- Pipeline.h - The passes after the frontend, in order ----------------===//
//
// Like Halide's lowering, the pipeline is one flat list of named passes. Each
// runs over every stencil, the IR verifier runs after it,
// `--dump-after=NAME` prints the IR as that pass left it, and `--explain`
// has it say what it decided and why. The passes, in order:
//
//   frontend    the parsed and checked input (parsing happens before the pipeline)
//   linearize   each update as a linear form in the time levels (LinearForm.h)
//   plane-plan  the reads grouped by z-plane; register queues and loads of the
//               z-marching schemes (PlanePlan.h)
//   decompose   sub-stencil sweeps and table placements by the cost model of
//               the planner (Planner.h), or as the user forces them
//   sweep-plan  what each kernel of each sweep keeps where, for the CPU and the
//               GPU (SweepPlan.h)
//   lower-cpu   the kernel IR of the C++/OpenMP-SIMD variants (kernel/KernelIR.h)
//   lower-cuda  the kernel IR of the CUDA variants and their launch defaults
//
// The printers in backends/ print the lowered modules and decide nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "kernel/KernelIR.h"
#include "passes/Decompose.h"
#include "passes/PlanePlan.h"
#include "passes/Planner.h"
#include "passes/SweepPlan.h"
#include "support/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc {

/// One stencil and what the passes derived from it.
struct CompiledStencil {
  const ir::Stencil *stencil = nullptr;
  LinearStencil linear;             ///< set by `linearize`
  PlanePlan planePlan;              ///< set by `plane-plan`
  Decomposition decomposition;      ///< set by `decompose`
  PlanReport planReport;            ///< what `decompose` weighed to choose `decomposition`
  SweepPlan sweepPlan;              ///< set by `sweep-plan`
  kernel::KernelModule cpuKernels;  ///< set by `lower-cpu`
  kernel::KernelModule cudaKernels; ///< set by `lower-cuda`
};

struct PipelineOptions {
  /// Pass names after which to print the IR ("frontend" names the parsed input).
  std::vector<std::string> dumpAfter;
  llvm::raw_ostream *dumpStream = &llvm::outs();
  /// Force this many sub-stencil sweeps (0: the planner or the DSL's `plan` clause decides).
  int forceSplit = 0;
  /// Put every table group in this space (overrides the planner and the DSL).
  std::optional<TableSpace> forceTableSpace;
  /// What the decomposition planner plans for.
  PlanTarget target;
  /// Output planes per x loop of the CPU naive and blocked kernels (--z-planes);
  /// 0 lets `sweep-plan` choose.
  int outputPlanesPerLoop = 0;
  /// Planes ahead of its step the CUDA traditional kernel loads its register
  /// queues (--load-ahead, 0 or 1); unset lets `sweep-plan` choose (traditionalLoadAhead).
  std::optional<int> loadAhead;
  /// When set, each pass says here what it decided and why (--explain).
  llvm::raw_ostream *explainStream = nullptr;
};

/// The pass names in the order they run, "frontend" first.
const std::vector<std::string> &pipelinePassNames();

/// Runs every pass over every stencil of `module`. User errors are reported
/// through `diag`; a verifier failure is reported as an internal error.
std::optional<std::vector<CompiledStencil>>
runPipeline(const ir::Module &module, DiagnosticEngine &diag, const PipelineOptions &options = {});

} // namespace stencilc
