//===- GenTuning.h - `gen --tuning`: a kernel's defaults from a tuning file -===//
#pragma once

#include "analysis/TuningFile.h"
#include "backends/cpu/CpuEmitter.h"

#include <string>

namespace stencilc::driver {

/// The run defaults of `stencil`'s CPU kernels: the entry of `file` (read
/// from `fileName`) for this machine, the stencil as it is now and its element
/// type; else, after a warning on stderr that says why none applies, the
/// untuned defaults.
backend::CpuRunDefaults tunedRunDefaults(const analysis::TuningFile &file,
                                         const std::string &fileName, const ir::Stencil &stencil);

} // namespace stencilc::driver
