//===- GenTuning.cpp ------------------------------------------------------===//
#include "driver/GenTuning.h"

#include "analysis/GpuModel.h"
#include "analysis/ModelDefaults.h"
#include "analysis/Roofline.h"

#include <stencilc/abi/LaunchSpace.h>

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
                   l.rows,
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

bool applyModelLaunch(CompiledStencil &c, const analysis::Machine &machine,
                      const std::string &machineFile, std::string &error) {
  const std::string arch = machine.arch.empty() ? "sm_80" : machine.arch;
  auto row = std::find_if(c.cudaKernels.launchDefaults.begin(), c.cudaKernels.launchDefaults.end(),
                          [&](const kernel::ArchLaunch &l) { return l.arch == arch; });
  if (row == c.cudaKernels.launchDefaults.end() || c.cudaKernels.plannedArch != arch) {
    error = fmt::format("{} is an {} GPU: give --arch {} so that the kernels are planned for it",
                        llvm::sys::path::filename(machineFile).str(), arch, arch);
    return false;
  }
  rt::CudaLaunchSpace space;
  space.variants = analysis::cudaVariants();
  for (const std::string &variant : space.variants) {
    if (kernel::marchesInZ(c.cudaKernels, variant))
      space.marching.insert(variant);
    if (std::vector<int> rows = kernel::rowCounts(c.cudaKernels, variant); rows.size() > 1)
      space.rowCounts[variant] = rows;
  }
  space.maxThreadsPerBlock = kernel::kCudaMaxThreadsPerBlock;
  // The grid and index the GPU benchmark times (bench/gpu), which the model was checked on.
  analysis::GpuModelInputs in;
  auto predict = [&](const rt::CudaLaunch &l) {
    in.shape = {l.blockX, l.blockY, l.nw > 0 ? l.nw : row->planesPerBlock, l.rows};
    return analysis::predictGpu(c, l.variant, machine, in);
  };
  const rt::CudaLaunch table{row->variant, row->blockX, row->blockY, row->planesPerBlock,
                             row->rowsPerThread};
  const analysis::GpuPrediction tablePrediction = predict(table);
  rt::CudaLaunch best = table;
  analysis::GpuPrediction bestPrediction = tablePrediction;
  for (const rt::CudaLaunch &l : space.all()) // the table's launch wins a tie
    if (analysis::GpuPrediction p = predict(l); p.predictedGpts > bestPrediction.predictedGpts) {
      best = l;
      bestPrediction = p;
    }
  row->variant = best.variant;
  row->blockX = best.blockX;
  row->blockY = best.blockY;
  if (best.nw > 0)
    row->planesPerBlock = best.nw;
  row->rowsPerThread = best.rows;
  // The file's name, not its path, as for tuning files.
  row->origin = fmt::format(
      "{}: from the GPU model on {} ({}), predicted, not measured:\n{} {} x {}{}{}: {:.1f} GPts/s "
      "({} bound) at {}x{}x{}; {} {} x {}: {:.1f}.",
      arch, llvm::sys::path::filename(machineFile).str(), machine.name, best.variant, best.blockX,
      best.blockY, best.nw > 0 ? fmt::format(", nw {}", best.nw) : "",
      best.rows > 1 ? fmt::format(", {} rows/thread", best.rows) : "", bestPrediction.predictedGpts,
      bestPrediction.bound, in.extent.nx, in.extent.ny, in.extent.nz, table.variant, table.blockX,
      table.blockY, tablePrediction.predictedGpts);
  return true;
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
