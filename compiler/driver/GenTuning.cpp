//===- GenTuning.cpp ------------------------------------------------------===//
#include "driver/GenTuning.h"

#include "analysis/ModelDefaults.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace stencilc::driver {

kernel::RunDefaults tunedRunDefaults(const analysis::TuningFile &file, const std::string &fileName,
                                     const ir::Stencil &stencil,
                                     const kernel::RunDefaults *modelled) {
  const analysis::MachineKey machine = analysis::thisMachine();
  const std::string type = ir::elemTypeName(stencil.elemType);
  const analysis::TuningLookup found =
      analysis::findChoice(file, machine, stencil.name, analysis::stencilHash(stencil), type);
  kernel::RunDefaults d;
  if (!found.choice) {
    llvm::WithColor::warning(llvm::errs(), "stencilc")
        << fileName << ": no tuned defaults for stencil '" << stencil.name << "' (" << type
        << "): " << found.whyNot << "; its kernels keep the "
        << (modelled ? "roofline model's defaults" : "untuned defaults") << "\n";
    d = modelled ? *modelled : kernel::untunedRunDefaults(stencil);
    d.origin = "Not tuned: " + llvm::sys::path::filename(fileName).str() +
               " has no entry for this machine, stencil and type (gen warned why);\n" + d.origin;
    return d;
  }
  const analysis::TunedChoice &c = *found.choice;
  d.run = c.run;
  // The file's name, not its path: the generated files do not depend on where the build is.
  d.origin = fmt::format("Tuned by `stencilc tune` ({}) on {} at {}x{}x{} for\n{}:\n{:.3f} GPts/s "
                         "against {:.3f} for the untuned defaults, same run.",
                         llvm::sys::path::filename(fileName).str(), c.date, c.nx, c.ny, c.nz,
                         machine.describe(), c.gptsPerSecond, c.defaultGptsPerSecond);
  return d;
}

std::vector<kernel::TunedLaunch> tunedCudaLaunches(const analysis::TuningFile &file,
                                                   const std::string &fileName,
                                                   const ir::Stencil &stencil) {
  const std::string type = ir::elemTypeName(stencil.elemType);
  std::vector<kernel::TunedLaunch> out;
  for (const auto &[device, l] :
       analysis::launchesFor(file, stencil.name, analysis::stencilHash(stencil), type))
    out.push_back({device.name, device.computeCapability, l.variant, l.blockX, l.blockY, l.nw,
                   fmt::format("Tuned by `stencilc tune --backend cuda` ({}) on {} at {}x{}x{}: "
                               "{:.3f} GPts/s against {:.3f} for the launch defaults, same run.",
                               llvm::sys::path::filename(fileName).str(), l.date, l.nx, l.ny, l.nz,
                               l.gptsPerSecond, l.defaultGptsPerSecond)});
  if (out.empty())
    llvm::WithColor::warning(llvm::errs(), "stencilc")
        << fileName << ": no tuned CUDA launch for stencil '" << stencil.name << "' (" << type
        << ") as it is now on any GPU; its kernels keep the launch defaults\n";
  return out;
}

kernel::RunDefaults modelRunDefaults(const CompiledStencil &compiled,
                                     const analysis::Machine &machine,
                                     const std::string &machineFile) {
  const analysis::ModelRunChoice choice = analysis::modelRunChoice(compiled, machine);
  kernel::RunDefaults d;
  d.run.timeDepth = choice.timeDepth;
  // The file's name, not its path, as for tuning files.
  d.origin =
      fmt::format("Untuned: from the roofline model on {} ({}):\n{}.",
                  llvm::sys::path::filename(machineFile).str(), machine.name, choice.explanation);
  return d;
}

} // namespace stencilc::driver
