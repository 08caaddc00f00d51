//===- PlanOptions.h - The planner's command-line options, in one place ----===//
//
// check, dump-ir, gen, bench and analyze all run the decomposition planner
// (passes/Planner.h). Each command line builds one PlanCommandLine for its
// subcommands, so the options are spelled, described, checked and reported
// the same way everywhere: `stencilc: error: --OPTION: what is wrong with
// 'VALUE' (expected ...)`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::driver {

/// The GPU architectures `gen --backend cuda --arch` generates for (the ones
/// the CUDA tests compile with nvcc) and machine files may name.
const std::vector<std::string> &cudaArchNames();

/// Checks a `--arch` value; reports `--arch: unknown architecture ...` and
/// returns false when it is not one of cudaArchNames().
bool checkCudaArch(llvm::StringRef option, const std::string &arch);

/// --plan-target, --nd, --onchip-budget, --cache-budget, --split, --table-space and
/// --load-ahead, registered for the given subcommands.
class PlanCommandLine {
public:
  explicit PlanCommandLine(std::initializer_list<llvm::cl::SubCommand *> commands);

  llvm::cl::opt<std::string> planTarget;
  llvm::cl::opt<int> nd;
  llvm::cl::opt<long> onChipBudget;
  llvm::cl::opt<long> cacheBudget;
  llvm::cl::opt<int> split;
  llvm::cl::opt<TableSpace> tableSpace;
  llvm::cl::opt<int> loadAhead;

  bool planTargetGiven() const { return planTarget.getNumOccurrences() > 0; }
  bool tableSpaceGiven() const { return tableSpace.getNumOccurrences() > 0; }
  /// The first option given that steers only the GPU kernels ("--table-space",
  /// "--load-ahead"), or "": a command that makes or runs CPU kernels alone
  /// refuses it rather than accept and ignore it.
  std::string gpuOnlyOptionGiven() const;

  /// Fills `options.target`, `forceSplit`, `forceTableSpace` and `loadAhead`: the plan is
  /// for --plan-target when given, else for `defaultTarget`. Reports the
  /// first bad value and returns false.
  bool apply(const std::string &defaultTarget, PipelineOptions &options) const;
};

} // namespace stencilc::driver
