//===- CpuEmitter.h - C++/OpenMP-SIMD kernels from the IR ------------------===//
//
// Emits a header and a source file per stencil with three variants
// (rt::Variant): naive, blocked and planes (partial-plane accumulation), one
// set per sub-stencil sweep of the decomposition, printed from the kernel IR
// (kernel/KernelIR.h). The files are filled from templates/cpu/*.tmpl; this
// emitter writes the stencil-specific pieces.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/GeneratedFile.h"
#include "passes/Pipeline.h"
#include "target/RunConfig.h"

#include <string>
#include <vector>

namespace stencilc::backend {

/// The options a generated kernel runs with when its caller gives none
/// (kDefaultOptions, kTimeTiling in its header, and its rt::KernelInfo).
struct CpuRunDefaults {
  target::RunConfig run;
  /// Where they come from, for the header's comment (lines split at '\n').
  std::string origin = "Not tuned (no `stencilc gen --tuning`): rt::RunOptions' defaults.";
};

struct CpuEmitOptions {
  /// C++ namespace and file stem; the stencil's name when empty.
  std::string kernelName;
  /// Shown in the generated files' header comment.
  std::string sourcePath;
  CpuRunDefaults runDefaults;
};

/// `<kernel>.h` and `<kernel>.cpp` for one compiled stencil.
std::vector<GeneratedFile> emitCpuKernel(const CompiledStencil &compiled,
                                         const CpuEmitOptions &options);

} // namespace stencilc::backend
