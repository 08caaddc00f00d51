//===- GenTuning.h - `gen --tuning`: a kernel's defaults from a tuning file -===//
#pragma once

#include "analysis/Machine.h"
#include "analysis/TuningFile.h"
#include "backends/cpu/CpuEmitter.h"
#include "passes/Pipeline.h"

#include <string>

namespace stencilc::driver {

/// The run defaults of `stencil`'s CPU kernels: the entry of `file` (read
/// from `fileName`) for this machine, the stencil as it is now and its element
/// type; else, after a warning on stderr that says why none applies,
/// `modelled` (modelRunDefaults) where given, else the untuned defaults.
backend::CpuRunDefaults tunedRunDefaults(const analysis::TuningFile &file,
                                         const std::string &fileName, const ir::Stencil &stencil,
                                         const backend::CpuRunDefaults *modelled);

/// The run defaults of `stencil`'s CPU kernels where neither a tuning file
/// nor a machine file sets them (analysis::untunedRunConfig); the origin says
/// what they are, the caller why they apply.
backend::CpuRunDefaults untunedRunDefaults(const ir::Stencil &stencil);

/// The run defaults the roofline model picks for `compiled`'s CPU kernels on
/// `machine` (a `stencilc probe` file, read from `machineFile`):
/// analysis::modelRunChoice's time steps per pass, naive inside the passes.
backend::CpuRunDefaults modelRunDefaults(const CompiledStencil &compiled,
                                         const analysis::Machine &machine,
                                         const std::string &machineFile);

} // namespace stencilc::driver
