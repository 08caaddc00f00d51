//===- CudaEmitter.h - CUDA kernels and host launchers from the IR ---------===//
//
// Emits `<kernel>.cu` and `<kernel>_cuda.h` per stencil with four variants
// (LaunchOptions::variant in the generated header): gmem, ro, traditional
// (2.5D blocking with register queues) and planes (one-to-multi partial
// sums), one kernel of each per sub-stencil sweep of the decomposition, and
// where a launch can take two steps (runTwoSteps) the twostep kernel,
// printed from the kernel IR (kernel/KernelIR.h). The files are filled from
// templates/cuda/*.tmpl. They include
// <stencilc/cuda/Cuda.h>, so the same .cu compiles with nvcc for a GPU and
// with the host compiler for the CPU emulator.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/GeneratedFile.h"
#include "passes/Pipeline.h"

#include <string>
#include <vector>

namespace stencilc::backend {

struct CudaEmitOptions {
  /// File stem; the namespace is `<kernelName>_cuda`. The stencil's name when empty.
  std::string kernelName;
  /// Shown in the generated files' header comment.
  std::string sourcePath;
  /// The GPU the kernels are planned for, for the header comment ("sm_90").
  std::string target;
};

/// What one sweep's kernels keep in shared memory per block, for reports.
struct CudaSharedFootprint {
  int traditionalPlanes = 0, traditionalRx = 0, traditionalRy = 0; ///< planes and their halo
  int planesPlanes = 0, planesRx = 0, planesRy = 0;
  int stagedRows = 0; ///< table rows traditional and planes always stage (Shared)
  int autoRows = 0;   ///< table rows it stages when they fit the budget (Auto)
  /// Two steps per launch: planes of its rings (2 rz + 1 per time field; 0 without the
  /// variant) and their halo.
  int twoStepPlanes = 0, twoStepRx = 0, twoStepRy = 0;
};

/// The shared-memory footprint of each sweep of `compiled`, in sweep order.
std::vector<CudaSharedFootprint> cudaSharedFootprints(const CompiledStencil &compiled);

/// `<kernel>.cu` and `<kernel>_cuda.h` for one compiled stencil.
std::vector<GeneratedFile> emitCudaKernel(const CompiledStencil &compiled,
                                          const CudaEmitOptions &options);

} // namespace stencilc::backend
