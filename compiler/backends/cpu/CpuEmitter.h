//===- CpuEmitter.h - C++/OpenMP-SIMD kernels from the IR ------------------===//
//
// Emits a header and a source file per stencil with three variants
// (rt::Variant): naive, blocked and planes (partial-plane accumulation), one
// set per sub-stencil sweep of the decomposition, printed from the kernel IR
// (kernel/KernelIR.h), with the run defaults the module records
// (KernelModule::runDefaults). The files are filled from templates/cpu/*.tmpl;
// this emitter writes the stencil-specific pieces.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/GeneratedFile.h"
#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc::backend {

struct CpuEmitOptions {
  /// C++ namespace and file stem; the stencil's name when empty.
  std::string kernelName;
  /// Shown in the generated files' header comment.
  std::string sourcePath;
};

/// `<kernel>.h` and `<kernel>.cpp` for one compiled stencil.
std::vector<GeneratedFile> emitCpuKernel(const CompiledStencil &compiled,
                                         const CpuEmitOptions &options);

} // namespace stencilc::backend
