//===- CpuEmitter.h - C++/OpenMP-SIMD kernels from the IR ------------------===//
//
// Emits a header and a source file per stencil with three variants
// (rt::Variant): naive, blocked and planes (partial-plane accumulation), one
// set per sub-stencil sweep of the decomposition. The files are filled from
// templates/cpu/*.tmpl; this emitter writes the stencil-specific pieces.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc::backend {

struct GeneratedFile {
  std::string name; ///< file name, no directory
  std::string text;
};

struct CpuEmitOptions {
  /// C++ namespace and file stem; the stencil's name when empty.
  std::string kernelName;
  /// Shown in the generated files' header comment.
  std::string sourcePath;
  /// Output planes that naive and blocked compute per x loop (3D only): the
  /// outputs share their off-plane points, which then come from L1 once
  /// instead of from L2 once per output (docs/PERFORMANCE.md). 0 chooses
  /// per stencil.
  int zPlanes = 0;
};

/// `<kernel>.h` and `<kernel>.cpp` for one compiled stencil.
std::vector<GeneratedFile> emitCpuKernel(const CompiledStencil &compiled,
                                         const CpuEmitOptions &options);

} // namespace stencilc::backend
