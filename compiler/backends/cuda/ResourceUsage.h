//===- ResourceUsage.h - Registers, spills and shared memory from ptxas ----===//
//
// `stencilc gen --backend cuda --resource-usage` compiles the generated .cu
// of each precision with `nvcc -Xptxas -v` for each target architecture and
// tabulates, per sweep and variant, what ptxas reports (registers per thread,
// spill stores and loads) next to the dynamic shared memory a block asks for
// at the default launch: the comparison of [1] (docs/DESIGN.md §References), Table III. The figures
// come from the compiler, so they need no GPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/Pipeline.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace stencilc::backend {

/// One kernel of one compilation, as ptxas reported it.
struct KernelResources {
  std::string stencil, elemType, arch; ///< e.g. "ete73", "double", "sm_90"
  int sweep = 0;
  std::string variant;  ///< gmem, ro, traditional, planes; planes/ro-table without staging
  int rows = 1;         ///< output rows per thread (the kRows instance)
  int registers = 0;    ///< per thread
  int spillStores = 0;  ///< bytes
  int spillLoads = 0;   ///< bytes
  int stackBytes = 0;   ///< bytes of local stack frame
  long sharedBytes = 0; ///< per block at the default launch: static (ptxas) plus dynamic
  /// PTX instructions of the entry, statically (with countInstructions): every
  /// line of its body that is an instruction, slow paths of library calls included.
  int ptxInstructions = 0;
  /// Of those, the FP64 arithmetic (add, mul, fma, div, setp, ... on .f64), which
  /// the FP64 lanes execute at their own rate (analysis/GpuModel.h).
  int ptxFp64Instructions = 0;
};

/// Static instruction counts of the sweep kernels in PTX text, as rows with
/// sweep, variant and ptxInstructions set (names as parsePtxasOutput gives them).
std::vector<KernelResources> countPtxInstructions(const std::string &ptx);

/// The entry functions in `ptxas -v` output with their figures; `stencil`,
/// `elemType` and `sharedBytes` are left for the caller. Kernels whose names
/// are not generated sweep kernels are skipped.
std::vector<KernelResources> parsePtxasOutput(const std::string &text);

struct ResourceUsageOptions {
  std::string nvcc;               ///< path of nvcc
  std::string runtimeInclude;     ///< runtime/include, for <stencilc/...>
  std::vector<std::string> archs; ///< "sm_80", "sm_90"
  std::string workDir;            ///< where the .cu files and logs go
  std::string target;             ///< CudaEmitOptions::target of the files compiled
  int blockX = 32, blockY = 8;    ///< the launch whose shared memory is reported
  int tableColumns = 902;         ///< Nd: the papers' number of distinct velocities
  /// The launch's shared-memory budget (above it planes reads Auto rows read-only): the
  /// device default, or the plan's --onchip-budget.
  int sharedBudget = 48 * 1024;
  /// Keep nvcc's PTX (--keep) and count each kernel's instructions in it.
  bool countInstructions = false;
};

/// nvcc on PATH, else in the CUDA toolkit's standard location; "" if neither.
std::string findNvcc();

/// Generates `compiled` as CUDA into options.workDir, compiles it for every
/// architecture and appends one row per kernel. Returns false with `error`
/// set if nvcc fails or reports nothing.
bool measureResources(const CompiledStencil &compiled, const ResourceUsageOptions &options,
                      std::vector<KernelResources> &rows, std::string &error);

/// A Markdown table of `rows`, grouped by stencil, precision and architecture.
void printResourceTable(const std::vector<KernelResources> &rows,
                        const ResourceUsageOptions &options, llvm::raw_ostream &os);

} // namespace stencilc::backend
