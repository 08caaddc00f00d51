//===- GenTuning.h - `gen --tuning`: a kernel's defaults from a tuning file -===//
//
// What replaces the untuned run defaults that lower-cpu records
// (KernelModule::runDefaults, kernel/RunDefaults.h) when `gen` is given a
// tuning file or a machine file: the file's entry, or the roofline model's
// choice; and, for the CUDA kernels, the tuned launches of every GPU in a
// tuning file (KernelModule::tunedLaunches). `gen` puts them in the module it
// prints.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "analysis/TuningFile.h"
#include "kernel/KernelIR.h"
#include "kernel/RunDefaults.h"
#include "passes/Pipeline.h"

#include <string>

namespace stencilc::driver {

/// The run defaults of `stencil`'s CPU kernels: the entry of `file` (read
/// from `fileName`) for this machine, the stencil as it is now and its element
/// type; else, after a warning on stderr that says why none applies,
/// `modelled` (modelRunDefaults) where given, else the untuned defaults.
kernel::RunDefaults tunedRunDefaults(const analysis::TuningFile &file, const std::string &fileName,
                                     const ir::Stencil &stencil,
                                     const kernel::RunDefaults *modelled);

/// The tuned CUDA launches of `stencil` (its hash and element type) on every
/// GPU of `file` that has one; none, after a warning on stderr, where no GPU has.
std::vector<kernel::TunedLaunch> tunedCudaLaunches(const analysis::TuningFile &file,
                                                   const std::string &fileName,
                                                   const ir::Stencil &stencil);

/// The launch the GPU model (analysis/GpuModel.h) predicts fastest for
/// `c`'s CUDA kernels on `machine` (a GPU machine file, read from
/// `machineFile`), of every launch of the space `tune --backend cuda` searches
/// (stencilc/abi/LaunchSpace.h), on the grid the GPU benchmark times: it
/// replaces the launch defaults of the machine's architecture in
/// c.cudaKernels, with where it comes from. False with why in `error` when
/// the kernels are not planned for that architecture.
bool applyModelLaunch(CompiledStencil &c, const analysis::Machine &machine,
                      const std::string &machineFile, std::string &error);

/// The run defaults the roofline model picks for `compiled`'s CPU kernels on
/// `machine` (a `stencilc probe` file, read from `machineFile`):
/// analysis::modelRunChoice's time steps per pass, naive inside the passes.
kernel::RunDefaults modelRunDefaults(const CompiledStencil &compiled,
                                     const analysis::Machine &machine,
                                     const std::string &machineFile);

} // namespace stencilc::driver
