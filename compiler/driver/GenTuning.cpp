//===- GenTuning.cpp ------------------------------------------------------===//
#include "driver/GenTuning.h"

#include "analysis/ModelDefaults.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace stencilc::driver {

backend::CpuRunDefaults tunedRunDefaults(const analysis::TuningFile &file,
                                         const std::string &fileName, const ir::Stencil &stencil,
                                         const backend::CpuRunDefaults *modelled) {
  const analysis::MachineKey machine = analysis::thisMachine();
  const std::string type = ir::elemTypeName(stencil.elemType);
  const analysis::TuningLookup found =
      analysis::findChoice(file, machine, stencil.name, analysis::stencilHash(stencil), type);
  backend::CpuRunDefaults d;
  if (!found.choice) {
    llvm::WithColor::warning(llvm::errs(), "stencilc")
        << fileName << ": no tuned defaults for stencil '" << stencil.name << "' (" << type
        << "): " << found.whyNot << "; its kernels keep the "
        << (modelled ? "roofline model's defaults" : "untuned defaults") << "\n";
    d = modelled ? *modelled : untunedRunDefaults(stencil);
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

backend::CpuRunDefaults untunedRunDefaults(const ir::Stencil &stencil) {
  backend::CpuRunDefaults d;
  d.run = analysis::untunedRunConfig(stencil);
  d.origin = d.run.timeDepth > 1
                 ? fmt::format("rt::RunOptions' defaults, and {} time steps per pass for "
                               "rt::runTimeTiled\n(Stencilc's docs/PERFORMANCE.md §Default time "
                               "tiles and depth).",
                               d.run.timeDepth)
                 : "rt::RunOptions' defaults and single sweeps (the time levels do not only "
                   "rotate).";
  return d;
}

backend::CpuRunDefaults modelRunDefaults(const CompiledStencil &compiled,
                                         const analysis::Machine &machine,
                                         const std::string &machineFile) {
  const analysis::ModelRunChoice choice = analysis::modelRunChoice(compiled, machine);
  backend::CpuRunDefaults d;
  d.run.timeDepth = choice.timeDepth;
  // The file's name, not its path, as for tuning files.
  d.origin =
      fmt::format("Untuned: from the roofline model on {} ({}):\n{}.",
                  llvm::sys::path::filename(machineFile).str(), machine.name, choice.explanation);
  return d;
}

} // namespace stencilc::driver
