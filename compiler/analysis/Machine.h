//===- Machine.h - What the roofline model knows about a machine -----------===//
//
// A machine file (bench/machines/*.json) gives the two roofs of the roofline
// model (docs/DESIGN.md §Performance model [7]) —
// memory bandwidth and peak flops per precision — and whether stores
// allocate cache lines (write-allocate adds a read per output element).
// `stencilc probe` measures this machine and writes one; the GPU files hold
// datasheet figures and say so in `source`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include "llvm/Support/Error.h"

#include <string>

namespace stencilc::analysis {

struct Machine {
  std::string name;         ///< "AMD EPYC (Zen 3), 2 cores"
  std::string kind = "cpu"; ///< "cpu" or "gpu"
  std::string source;       ///< "measured by stencilc probe ..." or "datasheet ..."
  double bandwidthGBs = 0;  ///< sustainable memory bandwidth, 1e9 bytes/s
  double peakGflopsFloat = 0, peakGflopsDouble = 0;
  bool writeAllocate = true;
  /// GPU only: the CUDA architecture `analyze` plans for ("sm_90"); empty: sm_80.
  std::string arch;

  double peakGflops(ir::ElemType t) const {
    return t == ir::ElemType::Float ? peakGflopsFloat : peakGflopsDouble;
  }
};

/// Reads a machine file. `nameOrPath` is a path, or the name of a file in
/// the machines directory of the source tree ("a100" -> bench/machines/a100.json).
llvm::Expected<Machine> loadMachine(const std::string &nameOrPath);

/// The machine as the JSON text of a machine file.
std::string machineJson(const Machine &m);

/// The directory the shipped machine files are in.
std::string machinesDirectory();

} // namespace stencilc::analysis
