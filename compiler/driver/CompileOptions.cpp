//===- CompileOptions.cpp -------------------------------------------------===//
#include "driver/CompileOptions.h"

#include "passes/Pipeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace stencilc::driver {

std::string GenTarget::description() const {
  return plan == arch ? arch
                      : fmt::format("{}; sub-stencils planned for {} (--plan-target)", arch, plan);
}

CompileCommandLine::CompileCommandLine(llvm::cl::SubCommand &command, unsigned extras)
    : inputFiles(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."), llvm::cl::OneOrMore,
                 llvm::cl::sub(command)),
      plan({&command}),
      elemTypeOverride(
          "type", llvm::cl::desc("Element type of the generated kernels (default: the stencil's)"),
          llvm::cl::values(clEnumValN(ElemTypeOverride::Float, "float", "single precision"),
                           clEnumValN(ElemTypeOverride::Double, "double", "double precision")),
          llvm::cl::init(ElemTypeOverride::AsDeclared), llvm::cl::sub(command)),
      outputPlanesPerLoop(
          "z-planes",
          llvm::cl::desc("Output planes the CPU naive and blocked variants compute per x loop "
                         "(3D; default: chosen per stencil)"),
          llvm::cl::value_desc("N"), llvm::cl::init(0), llvm::cl::sub(command)) {
  if (extras & DumpAfter)
    dumpAfter.emplace("dump-after", llvm::cl::desc("Print the IR after these passes"),
                      llvm::cl::value_desc("pass"), llvm::cl::CommaSeparated,
                      llvm::cl::sub(command));
  if (extras & Explain)
    explain.emplace("explain", llvm::cl::desc("Say what each pass decided and why"),
                    llvm::cl::sub(command));
  if (extras & Adjoint)
    adjoint.emplace("adjoint",
                    llvm::cl::desc("Compile the adjoint of each stencil, <name>_adjoint "
                                   "(docs/DSL.md \"Adjoint\")"),
                    llvm::cl::sub(command));
  if (extras & BackendAndArch) {
    backend.emplace(
        "backend", llvm::cl::desc("Target of the generated code"),
        llvm::cl::values(
            clEnumValN(Backend::Cpu, "cpu", "C++ with OpenMP and SIMD"),
            clEnumValN(Backend::Cuda, "cuda",
                       "CUDA kernels and host launchers (<kernel>.cu, <kernel>_cuda.h)")),
        llvm::cl::init(Backend::Cpu), llvm::cl::sub(command));
    cudaArch.emplace("arch",
                     llvm::cl::desc("With --backend cuda: the GPU the kernels are planned and, "
                                    "with --resource-usage, compiled for: sm_80 or sm_90 "
                                    "(default: --plan-target if it names one, else sm_80)"),
                     llvm::cl::value_desc("sm_XY"), llvm::cl::sub(command));
  }
}

bool CompileCommandLine::check() const {
  if (dumpAfter)
    for (const std::string &name : *dumpAfter)
      if (!llvm::is_contained(pipelinePassNames(), name)) {
        reportError("unknown pass '" + name +
                    "' in --dump-after; passes are: " + llvm::join(pipelinePassNames(), ", "));
        return false;
      }
  if (outputPlanesPerLoop < 0 || outputPlanesPerLoop > 8) {
    reportError(fmt::format("bad --z-planes {}: expected 1 to 8, or 0 to choose per stencil",
                            int(outputPlanesPerLoop)));
    return false;
  }
  return true;
}

std::optional<ir::ElemType> CompileCommandLine::elemType() const {
  if (elemTypeOverride == ElemTypeOverride::AsDeclared)
    return std::nullopt;
  return elemTypeOverride == ElemTypeOverride::Float ? ir::ElemType::Float : ir::ElemType::Double;
}

std::optional<LoadOptions> CompileCommandLine::loadOptions(const std::string &defaultTarget) const {
  LoadOptions options;
  options.elemType = elemType();
  options.adjoint = adjoint && adjoint->getValue();
  if (!plan.apply(defaultTarget, options.pipeline))
    return std::nullopt;
  options.pipeline.outputPlanesPerLoop = outputPlanesPerLoop;
  if (dumpAfter)
    options.pipeline.dumpAfter.assign(dumpAfter->begin(), dumpAfter->end());
  if (explain && explain->getValue())
    options.pipeline.explainStream = &llvm::outs();
  return options;
}

std::optional<GenTarget> CompileCommandLine::genTarget(bool resourceUsage) const {
  const bool archGiven = cudaArch && cudaArch->getNumOccurrences() > 0;
  if (!cuda()) {
    if (archGiven) {
      reportError("--arch: '" + cudaArch->getValue() + "' needs --backend cuda (the cpu backend " +
                  "plans for --plan-target, default cpu)");
      return std::nullopt;
    }
    if (resourceUsage) {
      reportError("--resource-usage: needs --backend cuda");
      return std::nullopt;
    }
    return GenTarget{plan.planTargetGiven() ? plan.planTarget.getValue() : "cpu", ""};
  }
  GenTarget t;
  if (archGiven) {
    if (!checkCudaArch("--arch", cudaArch->getValue()))
      return std::nullopt;
    t.arch = cudaArch->getValue();
    if (plan.planTargetGiven() && plan.planTarget != t.arch) {
      reportError(fmt::format("--plan-target: '{}' disagrees with --arch={} (the kernels "
                              "are planned for the GPU they are built for; give one of "
                              "the two, or the same value to both)",
                              plan.planTarget.getValue(), t.arch));
      return std::nullopt;
    }
  } else if (plan.planTargetGiven() &&
             llvm::is_contained(cudaArchNames(), plan.planTarget.getValue())) {
    t.arch = plan.planTarget;
  } else {
    t.arch = cudaArchNames().front();
  }
  t.plan = plan.planTargetGiven() ? plan.planTarget.getValue() : t.arch;
  return t;
}

int CompileCommandLine::printEachStencil(
    const LoadOptions &options, const std::function<int(const CompiledStencil &)> &print) const {
  int status = 0;
  for (const std::string &path : inputFiles) {
    auto loaded = loadModule(path, options);
    if (!loaded) {
      status = 1;
      continue;
    }
    for (size_t i = 0; i < loaded->compiled.size(); ++i) {
      if (i)
        llvm::outs() << "\n";
      if (int failed = print(loaded->compiled[i]))
        return failed;
    }
  }
  return status;
}

} // namespace stencilc::driver
