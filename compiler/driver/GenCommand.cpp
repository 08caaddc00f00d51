//===- GenCommand.cpp - `stencilc gen`: write the generated kernels --------===//
//
//   stencilc gen FILE... --backend cpu|cuda -o DIR [--name NAME] [--tuning FILE]
//                [--machine FILE] [--arch sm_XY] [--resource-usage] [plan options]
//
// Writes a header and a source file per stencil (docs/DESIGN.md).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuEmitter.h"
#include "backends/cuda/CudaEmitter.h"
#include "backends/cuda/ResourceUsage.h"
#include "driver/CompileOptions.h"
#include "driver/Driver.h"
#include "driver/FileOutput.h"
#include "driver/GenTuning.h"
#include "kernel/KernelIR.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace stencilc;

namespace {

llvm::cl::SubCommand genCommand("gen", "Generate kernels from .stencil files");

driver::CompileCommandLine options(genCommand, driver::CompileCommandLine::DumpAfter |
                                                   driver::CompileCommandLine::Explain |
                                                   driver::CompileCommandLine::Adjoint |
                                                   driver::CompileCommandLine::BackendAndArch);

llvm::cl::opt<std::string> outputDir("o", llvm::cl::desc("Directory for the generated files"),
                                     llvm::cl::value_desc("dir"), llvm::cl::Required,
                                     llvm::cl::sub(genCommand));

llvm::cl::opt<std::string>
    kernelName("name",
               llvm::cl::desc("Kernel name (namespace and file stem); default: the stencil's name. "
                              "Only for files with one stencil"),
               llvm::cl::value_desc("name"), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> tuningFile(
    "tuning",
    llvm::cl::desc("Tuning file from `stencilc tune`: the CPU kernels' default variant, tiles and "
                   "time steps per pass come from its entry for this machine and stencil; the "
                   "CUDA kernels' launch defaults, on each GPU it has an entry for, from that "
                   "entry"),
    llvm::cl::value_desc("file"), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> genMachine(
    "machine",
    llvm::cl::desc("Machine file from `stencilc probe` (or the name of one in bench/machines): "
                   "without a tuning entry, the CPU kernels' time steps per pass come from the "
                   "roofline model on it; with --backend cuda and a GPU's file, its "
                   "architecture's launch defaults come from the GPU model"),
    llvm::cl::value_desc("machine"), llvm::cl::sub(genCommand));

llvm::cl::opt<bool> resourceUsage(
    "resource-usage",
    llvm::cl::desc("With --backend cuda: compile the kernels in float and double with "
                   "nvcc -Xptxas -v and print registers, spills and shared memory per variant"),
    llvm::cl::sub(genCommand));
llvm::cl::opt<std::string> nvccPath("nvcc",
                                    llvm::cl::desc("nvcc for --resource-usage (default: on PATH, "
                                                   "else /usr/local/cuda/bin/nvcc)"),
                                    llvm::cl::value_desc("path"), llvm::cl::sub(genCommand));

/// --resource-usage: the kernels `gen` writes for `path` with these plan
/// options, in float and double (or the --type asked for), through
/// nvcc -Xptxas -v for the target architecture, as a table on stdout; the .cu
/// files and ptxas logs go to <-o>/resource-usage.
bool reportCudaResources(const std::string &path, const driver::GenTarget &target,
                         const driver::LoadOptions &genOptions) {
  backend::ResourceUsageOptions usage;
  usage.nvcc = nvccPath.empty() ? backend::findNvcc() : nvccPath.getValue();
  if (usage.nvcc.empty()) {
    driver::reportError("--resource-usage: nvcc is neither on PATH nor in /usr/local/cuda/bin; "
                        "name it with --nvcc=PATH");
    return false;
  }
  usage.runtimeInclude = STENCILC_RUNTIME_DIR "/include";
  usage.archs = {target.arch};
  usage.target = target.description();
  usage.tableColumns = genOptions.pipeline.target.nd;
  // A GPU plan's on-chip budget is the shared memory its launches are given.
  if (genOptions.pipeline.target.kind == PlanTarget::Kind::Cuda)
    usage.sharedBudget = int(genOptions.pipeline.target.onChipBudget);
  llvm::SmallString<256> work(outputDir);
  llvm::sys::path::append(work, "resource-usage");
  usage.workDir = std::string(work);
  std::vector<ir::ElemType> types = {ir::ElemType::Float, ir::ElemType::Double};
  if (auto only = options.elemType())
    types = {*only};
  std::vector<backend::KernelResources> rows;
  for (ir::ElemType type : types) {
    driver::LoadOptions load;
    load.elemType = type;
    load.adjoint = genOptions.adjoint;
    // The same plan as the files gen wrote; gen has already dumped and explained it.
    load.pipeline = genOptions.pipeline;
    load.pipeline.dumpAfter.clear();
    load.pipeline.explainStream = nullptr;
    auto loaded = driver::loadModule(path, load);
    if (!loaded)
      return false;
    for (const CompiledStencil &c : loaded->compiled) {
      std::string error;
      if (!backend::measureResources(c, usage, rows, error)) {
        driver::reportError(error);
        return false;
      }
    }
  }
  backend::printResourceTable(rows, usage, llvm::outs());
  return true;
}

int runGen() {
  if (!options.check())
    return 2;
  // The CPU kernels have no register queues to load ahead: refused rather than ignored.
  if (!options.cuda() && options.plan.loadAhead.getNumOccurrences()) {
    driver::reportError("--load-ahead: steers the CUDA traditional kernel; gen --backend cpu "
                        "makes none (give --backend cuda)");
    return 2;
  }
  auto target = options.genTarget(resourceUsage);
  if (!target)
    return 2;
  auto load = options.loadOptions(target->plan);
  if (!load)
    return 2;
  // Read before anything is generated: a malformed file writes nothing.
  std::optional<analysis::TuningFile> tuning;
  if (!tuningFile.empty()) {
    auto read = analysis::readTuningFile(tuningFile);
    if (!read) {
      driver::reportError(llvm::toString(read.takeError()));
      return 1;
    }
    tuning = std::move(*read);
  }
  std::optional<analysis::Machine> machine;
  if (!genMachine.empty()) {
    auto read = analysis::loadMachine(genMachine);
    if (!read) {
      driver::reportError(llvm::toString(read.takeError()));
      return 1;
    }
    const std::string wanted = options.cuda() ? "gpu" : "cpu";
    if (read->kind != wanted) {
      driver::reportError("--machine: '" + genMachine + "' describes a " + read->kind + "; the " +
                          (options.cuda() ? "CUDA" : "CPU") + " kernels' defaults need a " +
                          (options.cuda() ? "GPU" : "CPU") + " machine file");
      return 2;
    }
    machine = std::move(*read);
  }
  int status = 0;
  for (const std::string &path : options.inputFiles) {
    auto loaded = driver::loadModule(path, *load);
    if (!loaded) {
      status = 1;
      continue;
    }
    if (!kernelName.empty() && loaded->compiled.size() != 1) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "--name needs a file with one stencil; '" << path << "' has "
          << loaded->compiled.size() << "\n";
      status = 1;
      continue;
    }
    std::vector<backend::GeneratedFile> files;
    for (CompiledStencil &c : loaded->compiled) {
      std::vector<backend::GeneratedFile> generated;
      if (options.cuda()) {
        backend::CudaEmitOptions emit;
        emit.kernelName = kernelName;
        emit.sourcePath = llvm::sys::path::filename(path).str();
        emit.target = target->description();
        // lower-cuda recorded the architectures' launch defaults; a GPU machine file puts the
        // model's pick in its architecture's, a tuning file gives each GPU's measured one.
        if (machine) {
          std::string why;
          if (!driver::applyModelLaunch(c, *machine, genMachine, why)) {
            driver::reportError("--machine: " + why);
            return 2;
          }
        }
        if (tuning || machine) {
          if (tuning)
            c.cudaKernels.tunedLaunches =
                driver::tunedCudaLaunches(*tuning, tuningFile, *c.stencil);
          // A tuning file is input: what the verifier rejects in it is the file's fault.
          std::vector<std::string> problems;
          if (!kernel::verifyKernels(c, c.cudaKernels, problems)) {
            driver::reportError((tuning ? tuningFile : genMachine) + ": " + problems.front());
            return 1;
          }
        }
        generated = backend::emitCudaKernel(c, emit);
      } else {
        // lower-cpu recorded the untuned defaults; a tuning or machine file replaces them.
        std::optional<kernel::RunDefaults> modelled;
        if (machine)
          modelled = driver::modelRunDefaults(c, *machine, genMachine);
        if (tuning)
          c.cpuKernels.runDefaults = driver::tunedRunDefaults(*tuning, tuningFile, *c.stencil,
                                                              modelled ? &*modelled : nullptr);
        else if (modelled)
          c.cpuKernels.runDefaults = *modelled;
        backend::CpuEmitOptions emit;
        emit.kernelName = kernelName;
        emit.sourcePath = llvm::sys::path::filename(path).str();
        generated = backend::emitCpuKernel(c, emit);
      }
      for (backend::GeneratedFile &f : generated)
        files.push_back(std::move(f));
    }
    if (!writeFilesAtomically(outputDir, files))
      status = 1;
    else if (resourceUsage && !reportCudaResources(path, *target, *load))
      status = 1;
  }
  return status;
}

driver::CommandRegistration registration(genCommand, &runGen);

} // namespace
