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

#include <map>
#include <optional>
#include <string>

namespace stencilc::analysis {

/// What the GPU model (analysis/GpuModel.h) needs beyond the two roofs: the
/// multiprocessors, their limits, and the memory system behind them. Each
/// figure's origin (datasheet, programming guide, or measured on a device)
/// is in `sources`, keyed by its name in the machine file.
struct GpuFigures {
  int multiprocessors = 0;
  double clockGHz = 0; ///< boost clock
  double l2Bytes = 0;
  double l2BandwidthGBs = 0;  ///< reads served by L2, all slices together
  double memoryLatencyNs = 0; ///< a global load's round trip with the memory busy
  int registersPerSm = 65536;
  int maxThreadsPerSm = 2048;
  int maxBlocksPerSm = 32;
  long sharedBytesPerSm = 0;        ///< what blocks of one multiprocessor may share
  long l1BytesPerSm = 0;            ///< the SRAM L1 and shared memory split between them
  int l1SectorsPerClock = 4;        ///< sectors L1 returns a clock
  int warpInstructionsPerClock = 4; ///< issued per multiprocessor (its schedulers)
  /// FP64 warp instructions a multiprocessor completes a clock (its FP64 lanes / 32);
  /// 0: not given, FP64 arithmetic counted at the issue rate only.
  int fp64InstructionsPerClock = 0;
  int sharedWavefrontsPerClock = 1; ///< 32 banks of 4 bytes: 128 bytes a clock
  std::map<std::string, std::string> sources;
};

struct Machine {
  std::string name;         ///< "AMD EPYC (Zen 3), 2 cores"
  std::string kind = "cpu"; ///< "cpu" or "gpu"
  std::string source;       ///< "measured by stencilc probe ..." or "datasheet ..."
  double bandwidthGBs = 0;  ///< sustainable memory bandwidth, 1e9 bytes/s
  double peakGflopsFloat = 0, peakGflopsDouble = 0;
  bool writeAllocate = true;
  /// GPU only: the CUDA architecture `analyze` plans for ("sm_90"); empty: sm_80.
  std::string arch;
  /// GPU only, when the file has a "gpu" object.
  std::optional<GpuFigures> gpu;

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
