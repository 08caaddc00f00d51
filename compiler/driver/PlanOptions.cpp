//===- PlanOptions.cpp ----------------------------------------------------===//
#include "driver/PlanOptions.h"

#include "driver/Driver.h"
#include "target/CudaArchs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

namespace stencilc::driver {

namespace {

/// An llvm::cl modifier that adds an option to several subcommands at once
/// (llvm::cl::sub takes one).
struct subs {
  std::vector<llvm::cl::SubCommand *> commands;
  template <typename Opt> void apply(Opt &o) const {
    for (llvm::cl::SubCommand *c : commands)
      o.addSubCommand(*c);
  }
};

} // namespace

const std::vector<std::string> &cudaArchNames() {
  static const std::vector<std::string> names = target::buildArchNames();
  return names;
}

bool checkCudaArch(llvm::StringRef option, const std::string &arch) {
  if (llvm::is_contained(cudaArchNames(), arch))
    return true;
  reportError(fmt::format("{}: unknown architecture '{}' (expected {})", option.str(), arch,
                          llvm::join(cudaArchNames(), ", ")));
  return false;
}

PlanCommandLine::PlanCommandLine(std::initializer_list<llvm::cl::SubCommand *> commands)
    : planTarget("plan-target",
                 llvm::cl::desc("Plan sub-stencils for cpu or a CUDA arch (sm_80, sm_90, ...); "
                                "default: what the command targets"),
                 llvm::cl::value_desc("target"), subs{commands}),
      nd("nd", llvm::cl::desc("Table columns Nd: distinct index values (default 902)"),
         llvm::cl::value_desc("N"), llvm::cl::init(902), subs{commands}),
      onChipBudget("onchip-budget",
                   llvm::cl::desc("Bytes of shared memory per block (GPU) or L1 (CPU) for "
                                  "tables and tiles (default: the target's)"),
                   llvm::cl::value_desc("bytes"), llvm::cl::init(-1), subs{commands}),
      cacheBudget("cache-budget",
                  llvm::cl::desc("Bytes of read-only cache (GPU) or L2 (CPU) for tables "
                                 "(default: the target's)"),
                  llvm::cl::value_desc("bytes"), llvm::cl::init(-1), subs{commands}),
      split("split", llvm::cl::desc("Force N sub-stencil sweeps per step (0: the planner decides)"),
            llvm::cl::value_desc("N"), llvm::cl::init(0), subs{commands}),
      tableSpace("table-space",
                 llvm::cl::desc("Where GPU kernels keep every table (default: planned)"),
                 llvm::cl::values(clEnumValN(TableSpace::Auto, "auto", "as planned"),
                                  clEnumValN(TableSpace::Shared, "shared", "shared memory"),
                                  clEnumValN(TableSpace::ReadOnly, "readonly", "read-only cache"),
                                  clEnumValN(TableSpace::Global, "global", "global memory")),
                 llvm::cl::init(TableSpace::Auto), subs{commands}),
      loadAhead("load-ahead",
                llvm::cl::desc("Planes ahead of its step the CUDA traditional kernel loads its "
                               "register queues, 0 or 1 (default: 1 where they fit the "
                               "registers)"),
                llvm::cl::value_desc("N"), llvm::cl::init(-1), subs{commands}) {}

std::string PlanCommandLine::gpuOnlyOptionGiven() const {
  if (tableSpaceGiven())
    return "--table-space";
  if (loadAhead.getNumOccurrences())
    return "--load-ahead";
  return "";
}

bool PlanCommandLine::apply(const std::string &defaultTarget, PipelineOptions &options) const {
  const std::string name = planTargetGiven() ? planTarget.getValue() : defaultTarget;
  if (!planTargetNamed(name)) {
    reportError(fmt::format("--plan-target: unknown target '{}' (expected {})", name,
                            llvm::join(planTargetNames(), ", ")));
    return false;
  }
  if (nd < 1 || nd > (1 << 24)) {
    reportError(fmt::format("--nd: {} is out of range (expected 1 to {})", int(nd), 1 << 24));
    return false;
  }
  // -1, the initial value, keeps the target's budget; a user never means another negative.
  for (const llvm::cl::opt<long> *budget : {&onChipBudget, &cacheBudget})
    if (budget->getNumOccurrences() && *budget < 0) {
      reportError(fmt::format("--{}: {} is negative (expected bytes, 0 or more)",
                              budget->ArgStr.str(), long(*budget)));
      return false;
    }
  if (split < 0) {
    reportError(fmt::format("--split: {} is negative (expected a count of sweeps, or 0 to let "
                            "the planner decide)",
                            int(split)));
    return false;
  }
  if (loadAhead.getNumOccurrences() && (loadAhead < 0 || loadAhead > 1)) {
    reportError(fmt::format("--load-ahead: {} is out of range (expected 0 or 1)", int(loadAhead)));
    return false;
  }
  std::string error;
  auto target = makePlanTarget(name, nd, onChipBudget, cacheBudget, error);
  if (!target) { // the checks above leave nothing for it to reject; kept for new limits
    reportError(error);
    return false;
  }
  options.target = *target;
  options.forceSplit = split;
  options.forceTableSpace.reset();
  if (tableSpace != TableSpace::Auto)
    options.forceTableSpace = tableSpace;
  options.loadAhead.reset();
  if (loadAhead.getNumOccurrences())
    options.loadAhead = int(loadAhead);
  return true;
}

} // namespace stencilc::driver
