//===- AnalyzeGpu.h - `stencilc analyze --machine GPU`: the GPU model ------===//
//
// Per CUDA variant of a stencil, the traffic the plan implies and the bound
// of each resource (analysis/GpuModel.h), the least of them as the
// prediction, and the variant the model would choose.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/GpuModel.h"
#include "analysis/Machine.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace stencilc::driver {

struct GpuModelRequest {
  analysis::GpuModelInputs inputs; ///< registers left unset: per variant below
  /// Registers per variant from ptxas (--ptxas); empty: the plan's estimate.
  std::map<std::string, int> registers;
  /// PTX instructions per variant, every sweep's kernel together (--ptxas).
  std::map<std::string, int> instructions;
  /// Of those, FP64 arithmetic (--ptxas).
  std::map<std::string, int> fp64Instructions;
  /// Spill stores and loads per thread, every sweep's kernel together, and the
  /// largest stack frame (--ptxas).
  std::map<std::string, int> spillBytes, stackBytes;
};

/// The predictions for every CUDA variant of `c`.
std::vector<analysis::GpuPrediction> predictVariants(const CompiledStencil &c,
                                                     const analysis::Machine &machine,
                                                     const GpuModelRequest &request);

/// The variant with the highest prediction.
const analysis::GpuPrediction &chosenVariant(const std::vector<analysis::GpuPrediction> &rows);

llvm::json::Object gpuModelJson(const analysis::GpuPrediction &p);

void printGpuModel(const std::vector<analysis::GpuPrediction> &rows,
                   const analysis::Machine &machine, const GpuModelRequest &request,
                   llvm::raw_ostream &os);

/// Registers per variant of sweep 0 of `c` and the PTX instructions of every
/// sweep's kernel, compiled by nvcc for `arch` (into `request`); false with
/// `error` set when nvcc is missing or fails.
bool measureKernels(const CompiledStencil &c, const std::string &arch, int tableColumns,
                    GpuModelRequest &request, std::string &error);

} // namespace stencilc::driver
