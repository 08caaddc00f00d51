//===- DumpKernelCommand.cpp - `stencilc dump-kernel`: the kernel IR -------===//
//
//   stencilc dump-kernel FILE --backend cpu|cuda [--variant NAME] [--arch sm_XY]
//
// Prints the kernel IR the backend prints its code from.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileOptions.h"
#include "driver/Driver.h"
#include "kernel/KernelIR.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <string>
#include <vector>

using namespace stencilc;

namespace {

llvm::cl::SubCommand dumpKernelCommand("dump-kernel",
                                       "Print the kernel IR of .stencil files for a backend");

driver::CompileCommandLine options(dumpKernelCommand,
                                   driver::CompileCommandLine::Adjoint |
                                       driver::CompileCommandLine::BackendAndArch);

llvm::cl::opt<std::string>
    variantOption("variant",
                  llvm::cl::desc("Only this variant's functions (naive, blocked, planes on the "
                                 "CPU; gmem, ro, traditional, planes in CUDA)"),
                  llvm::cl::value_desc("name"), llvm::cl::sub(dumpKernelCommand));

int runDumpKernel() {
  if (!options.check())
    return 2;
  // The CPU kernels have no register queues to load ahead: refused rather than ignored.
  if (!options.cuda() && options.plan.loadAhead.getNumOccurrences()) {
    driver::reportError(
        "--load-ahead: steers the CUDA traditional kernel; dump-kernel --backend cpu "
        "makes none (give --backend cuda)");
    return 2;
  }
  auto target = options.genTarget(/*resourceUsage=*/false);
  if (!target)
    return 2;
  auto load = options.loadOptions(target->plan);
  if (!load)
    return 2;
  const kernel::Target kernelTarget = options.cuda() ? kernel::Target::Cuda : kernel::Target::Cpu;
  const std::vector<std::string> variants =
      kernelTarget == kernel::Target::Cuda
          ? std::vector<std::string>{"gmem", "ro", "traditional", "planes", "twostep"}
          : std::vector<std::string>{"naive", "blocked", "planes"};
  if (!variantOption.empty() && !llvm::is_contained(variants, variantOption.getValue())) {
    driver::reportError(fmt::format("--variant: '{}' is not a {} variant; they are: {}",
                                    variantOption.getValue(), kernel::targetName(kernelTarget),
                                    llvm::join(variants, ", ")));
    return 2;
  }
  return options.printEachStencil(*load, [&](const CompiledStencil &c) {
    if (variantOption == "twostep" && kernelTarget == kernel::Target::Cuda)
      if (const std::string why = kernel::twoStepReason(c); !why.empty()) {
        driver::reportError(fmt::format("'{}' has no twostep kernel: {}", c.stencil->name, why));
        return 1;
      }
    // The pipeline's lower-cpu and lower-cuda passes lowered and verified them.
    const kernel::KernelModule &module =
        kernelTarget == kernel::Target::Cuda ? c.cudaKernels : c.cpuKernels;
    kernel::printKernels(*c.stencil, module, llvm::outs(), variantOption);
    return 0;
  });
}

driver::CommandRegistration registration(dumpKernelCommand, &runDumpKernel);

} // namespace
