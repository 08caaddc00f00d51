//===- TuneCuda.h - `stencilc tune --backend cuda`: a GPU's fastest launch --===//
//
// Builds the tune harness (runtime/src/cuda/TuneHarness.cpp) with a stencil's
// generated CUDA kernels, with nvcc for a GPU or with the host compiler
// against the CUDA emulator (a dry run, whose timings say nothing about a
// GPU), next to the reference evaluator's inputs and outputs on a small odd
// grid. The harness checks every launch of the search space against them and
// runs the search of stencilc/cuda/LaunchSearch.h on the device; what it
// prints is read back into a tuning-file entry keyed by the device's name
// (analysis/TuningFile.h). The harness needs nothing of the compiler, so the
// two halves may run on two machines (`tune --prepare` and `tune --result`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/TuningFile.h"
#include "driver/Bench.h"
#include "passes/Pipeline.h"

#include <optional>
#include <string>
#include <utility>

namespace stencilc::driver {

struct CudaTuneOptions {
  std::string sourcePath; ///< the .stencil file, for messages and generated comments
  std::string arch;       ///< "sm_90": what nvcc builds for and the kernels are planned for
  bool emulate = false;   ///< run on the CUDA emulator instead of a GPU
  BenchOptions size;      ///< --size; zeros: 4x the device's L2 (the harness decides)
  bool layeredIndex = false;
  int steps = 10; ///< steps per timing, the time levels rotating
  double budgetSeconds = 120;
  bool keep = false; ///< keep the temporary directory
};

/// The grid side of a dry run on the emulator, where every CUDA thread is a fiber.
constexpr int kEmulatedSide = 24;

/// The compute capability of this machine's GPU as an architecture name
/// ("sm_90", from nvidia-smi), or "" with why in `why`.
std::string localGpuArch(std::string &why);

/// Generates `compiled`'s CUDA kernels into `dir`, builds the harness there
/// (dir/tune-harness) and writes the check data (dir/check); false after
/// reporting why.
bool prepareCudaTune(const CompiledStencil &compiled, const CudaTuneOptions &o,
                     const std::string &dir);

/// The command that runs the harness prepared in `dir` with `o`'s grid, index,
/// steps and budget, its output to go to a result file.
std::string cudaTuneCommand(const CudaTuneOptions &o, const std::string &dir);

/// The entry a harness's output (`resultFile`) gives for `compiled`, after
/// printing what was measured; nullopt after reporting a partial or bad output.
std::optional<std::pair<analysis::DeviceKey, analysis::TunedLaunch>>
readCudaTuneResult(const CompiledStencil &compiled, const std::string &resultFile, bool emulated);

/// Tunes `compiled` (planned for o.arch) here: prepare, run, read. The device
/// and its fastest launch, or nullopt after reporting why.
std::optional<std::pair<analysis::DeviceKey, analysis::TunedLaunch>>
tuneCudaLaunch(const CompiledStencil &compiled, const CudaTuneOptions &o);

} // namespace stencilc::driver
