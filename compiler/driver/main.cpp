//===- main.cpp - The stencilc command line --------------------------------===//
//
//   stencilc check FILE...     parse, check and run the pass pipeline; the exit status says
//                              whether every file is valid
//   stencilc dump-ir FILE...   print the IR after the last pass (with linear forms)
//   stencilc gen FILE --backend cpu -o DIR [--tuning FILE] [--machine FILE]
//                              write a header and a source file per stencil
//   stencilc dump-kernel FILE --backend cpu|cuda [--variant NAME]
//                              print the kernel IR the backend prints its code from
//
// `--dump-after=PASS[,PASS]` prints the IR after the named passes of the pipeline.
// Other subcommands live in driver/*Command.cpp and register through Driver.h.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuEmitter.h"
#include "backends/cuda/CudaEmitter.h"
#include "backends/cuda/ResourceUsage.h"
#include "driver/Bench.h"
#include "driver/Driver.h"
#include "driver/FileOutput.h"
#include "driver/GenTuning.h"
#include "driver/PlanOptions.h"
#include "ir/Printer.h"
#include "kernel/KernelIR.h"
#include "passes/LinearFormPrinter.h"
#include "passes/Pipeline.h"

#include <fmt/format.h>

#include <functional>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace stencilc;

namespace {
llvm::cl::SubCommand checkCommand("check", "Parse and verify .stencil files");
llvm::cl::SubCommand dumpIrCommand("dump-ir", "Print the IR of .stencil files");
llvm::cl::SubCommand genCommand("gen", "Generate kernels from .stencil files");
llvm::cl::SubCommand benchCommand("bench", "Generate, check and time the CPU kernels of a stencil");
llvm::cl::SubCommand dumpKernelCommand("dump-kernel",
                                       "Print the kernel IR of .stencil files for a backend");

llvm::cl::list<std::string> inputFiles(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."),
                                       llvm::cl::OneOrMore, llvm::cl::sub(checkCommand),
                                       llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand),
                                       llvm::cl::sub(benchCommand),
                                       llvm::cl::sub(dumpKernelCommand));

llvm::cl::list<std::string> dumpAfter("dump-after",
                                      llvm::cl::desc("Print the IR after these passes"),
                                      llvm::cl::value_desc("pass"), llvm::cl::CommaSeparated,
                                      llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                                      llvm::cl::sub(genCommand));

// The decomposition planner (passes/Planner.h): what it plans for and the user's overrides.
driver::PlanCommandLine plan({&checkCommand, &dumpIrCommand, &genCommand, &benchCommand,
                              &dumpKernelCommand});
llvm::cl::opt<bool> explain("explain", llvm::cl::desc("Say what each pass decided and why"),
                            llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                            llvm::cl::sub(genCommand));

llvm::cl::opt<bool> adjointOption(
    "adjoint",
    llvm::cl::desc("Compile the adjoint of each stencil, <name>_adjoint (docs/DSL.md \"Adjoint\")"),
    llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand),
    llvm::cl::sub(dumpKernelCommand));

enum class ElemTypeOverride { AsDeclared, Float, Double };
llvm::cl::opt<ElemTypeOverride> elemTypeOverride(
    "type", llvm::cl::desc("Element type of the generated kernels (default: the stencil's)"),
    llvm::cl::values(clEnumValN(ElemTypeOverride::Float, "float", "single precision"),
                     clEnumValN(ElemTypeOverride::Double, "double", "double precision")),
    llvm::cl::init(ElemTypeOverride::AsDeclared), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand),
    llvm::cl::sub(dumpKernelCommand));

enum class Backend { Cpu, Cuda };
llvm::cl::opt<Backend> backendOption(
    "backend", llvm::cl::desc("Target of the generated code"),
    llvm::cl::values(clEnumValN(Backend::Cpu, "cpu", "C++ with OpenMP and SIMD"),
                     clEnumValN(Backend::Cuda, "cuda",
                                "CUDA kernels and host launchers (<kernel>.cu, <kernel>_cuda.h)")),
    llvm::cl::init(Backend::Cpu), llvm::cl::sub(genCommand), llvm::cl::sub(dumpKernelCommand));

llvm::cl::opt<std::string>
    variantOption("variant",
                  llvm::cl::desc("Only this variant's functions (naive, blocked, planes on the "
                                 "CPU; gmem, ro, traditional, planes in CUDA)"),
                  llvm::cl::value_desc("name"), llvm::cl::sub(dumpKernelCommand));

llvm::cl::opt<int>
    zPlanes("z-planes",
            llvm::cl::desc("Output planes the CPU naive and blocked variants compute per x loop "
                           "(3D; default: chosen per stencil)"),
            llvm::cl::value_desc("N"), llvm::cl::init(0), llvm::cl::sub(checkCommand),
            llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand),
            llvm::cl::sub(dumpKernelCommand));

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
                   "time steps per pass come from its entry for this machine and stencil"),
    llvm::cl::value_desc("file"), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> genMachine(
    "machine",
    llvm::cl::desc("Machine file from `stencilc probe` (or the name of one in bench/machines): "
                   "without a tuning entry, the CPU kernels' time steps per pass come from the "
                   "roofline model on it"),
    llvm::cl::value_desc("machine"), llvm::cl::sub(genCommand));

llvm::cl::opt<bool> resourceUsage(
    "resource-usage",
    llvm::cl::desc("With --backend cuda: compile the kernels in float and double with "
                   "nvcc -Xptxas -v and print registers, spills and shared memory per variant"),
    llvm::cl::sub(genCommand));
llvm::cl::opt<std::string>
    cudaArch("arch",
             llvm::cl::desc("With --backend cuda: the GPU the kernels are planned and, with "
                            "--resource-usage, compiled for: sm_80 or sm_90 (default: "
                            "--plan-target if it names one, else sm_80)"),
             llvm::cl::value_desc("sm_XY"), llvm::cl::sub(genCommand),
             llvm::cl::sub(dumpKernelCommand));
llvm::cl::opt<std::string> nvccPath("nvcc",
                                    llvm::cl::desc("nvcc for --resource-usage (default: on PATH, "
                                                   "else /usr/local/cuda/bin/nvcc)"),
                                    llvm::cl::value_desc("path"), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string>
    benchSize("size",
              llvm::cl::desc("Grid size N (N^3, or N^2 in 2D) or NXxNYxNZ "
                             "(default: the smallest N^3, or N^2 in 2D, whose grids are 4x the "
                             "last-level cache)"),
              llvm::cl::value_desc("size"), llvm::cl::sub(benchCommand));
llvm::cl::opt<int> benchRepeats("repeats", llvm::cl::desc("Timed steps per variant (median)"),
                                llvm::cl::init(5), llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchSearch("search",
                                llvm::cl::desc("Search tile sizes for blocked and planes"),
                                llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchJson("json", llvm::cl::desc("Print the results as JSON"),
                              llvm::cl::sub(benchCommand));
llvm::cl::opt<bool> benchKeep("keep", llvm::cl::desc("Keep the generated files and harness"),
                              llvm::cl::sub(benchCommand));
llvm::cl::opt<BenchOptions::InPlace> benchInPlace(
    "in-place", llvm::cl::desc("Time outputs written over the level they overwrite"),
    llvm::cl::values(clEnumValN(BenchOptions::InPlace::Auto, "auto", "both, where allowed"),
                     clEnumValN(BenchOptions::InPlace::On, "on", "in place only"),
                     clEnumValN(BenchOptions::InPlace::Off, "off", "out of place only")),
    llvm::cl::init(BenchOptions::InPlace::Auto), llvm::cl::sub(benchCommand));

llvm::cl::opt<BenchOptions::Index> benchIndex(
    "index", llvm::cl::desc("How the index fields are filled"),
    llvm::cl::values(clEnumValN(BenchOptions::Index::Random, "random",
                                "uniformly random over the --nd values"),
                     clEnumValN(BenchOptions::Index::Layered, "layered",
                                "from a smooth layered model: a few values per depth (z) plane")),
    llvm::cl::init(BenchOptions::Index::Random), llvm::cl::sub(benchCommand));
llvm::cl::list<int> benchTimeDepths(
    "time-depths",
    llvm::cl::desc("Time steps per pass of the time-tiled runs to time (0: none; default 2,4)"),
    llvm::cl::value_desc("T,..."), llvm::cl::CommaSeparated, llvm::cl::sub(benchCommand));

bool checkDumpAfterNames() {
  for (const std::string &name : dumpAfter)
    if (!llvm::is_contained(pipelinePassNames(), name)) {
      driver::reportError("unknown pass '" + name + "' in --dump-after; passes are: " +
                          llvm::join(pipelinePassNames(), ", "));
      return false;
    }
  return true;
}

std::optional<ir::ElemType> elemType() {
  if (elemTypeOverride == ElemTypeOverride::AsDeclared)
    return std::nullopt;
  return elemTypeOverride == ElemTypeOverride::Float ? ir::ElemType::Float : ir::ElemType::Double;
}

/// The load options of the core commands, planning for `defaultTarget` unless
/// --plan-target says otherwise; nullopt after reporting a bad option.
std::optional<driver::LoadOptions> coreLoadOptions(const std::string &defaultTarget) {
  driver::LoadOptions options;
  options.elemType = elemType();
  options.adjoint = adjointOption;
  if (!plan.apply(defaultTarget, options.pipeline))
    return std::nullopt;
  options.pipeline.zPlanes = zPlanes;
  options.pipeline.dumpAfter.assign(dumpAfter.begin(), dumpAfter.end());
  if (explain)
    options.pipeline.explainStream = &llvm::outs();
  return options;
}

int runCheck() {
  auto options = coreLoadOptions("cpu");
  if (!options)
    return 2;
  int status = 0;
  for (const std::string &path : inputFiles)
    if (!driver::loadModule(path, *options))
      status = 1;
  return status;
}

/// Prints `print` of every stencil of every input file, a blank line between
/// stencils of one file: 0, or 1 when a file did not load, or what `print`
/// returned when it was not 0 (it stops there).
int printEachStencil(const driver::LoadOptions &options,
                     const std::function<int(const CompiledStencil &)> &print) {
  int status = 0;
  for (const std::string &path : inputFiles) {
    auto loaded = driver::loadModule(path, options);
    if (!loaded) {
      status = 1;
      continue;
    }
    for (size_t i = 0; i < loaded->compiled.size(); ++i) {
      if (i)
        llvm::outs() << "\n";
      if (int failed = print(loaded->compiled[i]))
        return failed;
    }
  }
  return status;
}

int runDumpIr() {
  auto options = coreLoadOptions("cpu");
  if (!options)
    return 2;
  return printEachStencil(*options, [](const CompiledStencil &c) {
    printStencilWithLinearForm(*c.stencil, c.linear, llvm::outs());
    return 0;
  });
}

/// What `gen` generates for: the plan target, and with --backend cuda the GPU
/// architecture, which the plan follows unless --plan-target names another
/// target (a CPU-vs-GPU planning experiment).
struct GenTarget {
  std::string plan;
  std::string arch; ///< empty for --backend cpu
  /// The target line of the generated CUDA files' header.
  std::string description() const {
    return plan == arch
               ? arch
               : fmt::format("{}; sub-stencils planned for {} (--plan-target)", arch, plan);
  }
};

std::optional<GenTarget> genTarget() {
  const bool archGiven = cudaArch.getNumOccurrences() > 0;
  if (backendOption != Backend::Cuda) {
    if (archGiven) {
      driver::reportError("--arch: '" + cudaArch + "' needs --backend cuda (the cpu backend " +
                          "plans for --plan-target, default cpu)");
      return std::nullopt;
    }
    if (resourceUsage) {
      driver::reportError("--resource-usage: needs --backend cuda");
      return std::nullopt;
    }
    return GenTarget{plan.planTargetGiven() ? plan.planTarget.getValue() : "cpu", ""};
  }
  GenTarget t;
  if (archGiven) {
    if (!driver::checkCudaArch("--arch", cudaArch))
      return std::nullopt;
    t.arch = cudaArch;
    if (plan.planTargetGiven() && plan.planTarget != t.arch) {
      driver::reportError(fmt::format("--plan-target: '{}' disagrees with --arch={} (the kernels "
                                      "are planned for the GPU they are built for; give one of "
                                      "the two, or the same value to both)",
                                      plan.planTarget.getValue(), t.arch));
      return std::nullopt;
    }
  } else if (plan.planTargetGiven() &&
             llvm::is_contained(driver::cudaArchNames(), plan.planTarget.getValue())) {
    t.arch = plan.planTarget;
  } else {
    t.arch = driver::cudaArchNames().front();
  }
  t.plan = plan.planTargetGiven() ? plan.planTarget.getValue() : t.arch;
  return t;
}

/// --resource-usage: the kernels `gen` writes for `path` with these plan
/// options, in float and double (or the --type asked for), through
/// nvcc -Xptxas -v for the target architecture, as a table on stdout; the .cu
/// files and ptxas logs go to <-o>/resource-usage.
bool reportCudaResources(const std::string &path, const GenTarget &target,
                         const driver::LoadOptions &genOptions) {
  backend::ResourceUsageOptions options;
  options.nvcc = nvccPath.empty() ? backend::findNvcc() : nvccPath.getValue();
  if (options.nvcc.empty()) {
    driver::reportError("--resource-usage: nvcc is neither on PATH nor in /usr/local/cuda/bin; "
                        "name it with --nvcc=PATH");
    return false;
  }
  options.runtimeInclude = STENCILC_RUNTIME_DIR "/include";
  options.archs = {target.arch};
  options.target = target.description();
  options.tableColumns = genOptions.pipeline.target.nd;
  // A GPU plan's on-chip budget is the shared memory its launches are given.
  if (genOptions.pipeline.target.kind == PlanTarget::Kind::Cuda)
    options.sharedBudget = int(genOptions.pipeline.target.onChipBudget);
  llvm::SmallString<256> work(outputDir);
  llvm::sys::path::append(work, "resource-usage");
  options.workDir = std::string(work);
  std::vector<ir::ElemType> types = {ir::ElemType::Float, ir::ElemType::Double};
  if (auto only = elemType())
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
      if (!backend::measureResources(c, options, rows, error)) {
        driver::reportError(error);
        return false;
      }
    }
  }
  backend::printResourceTable(rows, options, llvm::outs());
  return true;
}

int runDumpKernel() {
  auto target = genTarget();
  if (!target)
    return 2;
  auto options = coreLoadOptions(target->plan);
  if (!options)
    return 2;
  const kernel::Target kernelTarget =
      backendOption == Backend::Cuda ? kernel::Target::Cuda : kernel::Target::Cpu;
  const std::vector<std::string> variants =
      kernelTarget == kernel::Target::Cuda
          ? std::vector<std::string>{"gmem", "ro", "traditional", "planes", "twostep"}
          : std::vector<std::string>{"naive", "blocked", "planes"};
  if (!variantOption.empty() && !llvm::is_contained(variants, variantOption.getValue())) {
    driver::reportError(fmt::format("--variant: '{}' is not a {} variant; they are: {}",
                                    variantOption.getValue(), kernel::targetName(kernelTarget),
                                    llvm::join(variants, ", ")));
    return 2;
  }
  return printEachStencil(*options, [&](const CompiledStencil &c) {
    if (variantOption == "twostep" && kernelTarget == kernel::Target::Cuda)
      if (const std::string why = kernel::twoStepReason(c); !why.empty()) {
        driver::reportError(fmt::format("'{}' has no twostep kernel: {}", c.stencil->name, why));
        return 1;
      }
    kernel::KernelModule module = kernel::lowerToKernels(c, kernelTarget);
    std::vector<std::string> problems;
    if (!kernel::verifyKernels(c, module, problems)) {
      driver::reportError("internal error: the kernel IR of '" + c.stencil->name +
                          "' does not verify: " + llvm::join(problems, "; "));
      return 3;
    }
    kernel::printKernels(*c.stencil, module, llvm::outs(), variantOption);
    return 0;
  });
}

int runGen() {
  auto target = genTarget();
  if (!target)
    return 2;
  auto options = coreLoadOptions(target->plan);
  if (!options)
    return 2;
  // Read before anything is generated: a malformed file writes nothing.
  std::optional<analysis::TuningFile> tuning;
  if (!tuningFile.empty()) {
    if (backendOption == Backend::Cuda) {
      driver::reportError("--tuning: tuning files hold CPU settings; the CUDA kernels take none");
      return 2;
    }
    auto read = analysis::readTuningFile(tuningFile);
    if (!read) {
      driver::reportError(llvm::toString(read.takeError()));
      return 1;
    }
    tuning = std::move(*read);
  }
  std::optional<analysis::Machine> machine;
  if (!genMachine.empty()) {
    if (backendOption == Backend::Cuda) {
      driver::reportError("--machine: the model's defaults are CPU settings; the CUDA kernels "
                          "take none");
      return 2;
    }
    auto read = analysis::loadMachine(genMachine);
    if (!read) {
      driver::reportError(llvm::toString(read.takeError()));
      return 1;
    }
    if (read->kind != "cpu") {
      driver::reportError("--machine: '" + genMachine + "' describes a " + read->kind +
                          "; the CPU kernels' defaults need a CPU machine file");
      return 2;
    }
    machine = std::move(*read);
  }
  int status = 0;
  for (const std::string &path : inputFiles) {
    auto loaded = driver::loadModule(path, *options);
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
    for (const CompiledStencil &c : loaded->compiled) {
      std::vector<backend::GeneratedFile> generated;
      if (backendOption == Backend::Cuda) {
        backend::CudaEmitOptions emit;
        emit.kernelName = kernelName;
        emit.sourcePath = llvm::sys::path::filename(path).str();
        emit.target = target->description();
        generated = backend::emitCudaKernel(c, emit);
      } else {
        backend::CpuEmitOptions emit;
        emit.kernelName = kernelName;
        emit.sourcePath = llvm::sys::path::filename(path).str();
        std::optional<backend::CpuRunDefaults> modelled;
        if (machine)
          modelled = driver::modelRunDefaults(c, *machine, genMachine);
        if (tuning)
          emit.runDefaults = driver::tunedRunDefaults(*tuning, tuningFile, *c.stencil,
                                                      modelled ? &*modelled : nullptr);
        else if (modelled)
          emit.runDefaults = *modelled;
        generated = backend::emitCpuKernel(c, emit);
      }
      for (backend::GeneratedFile &f : generated)
        files.push_back(std::move(f));
    }
    if (!writeFilesAtomically(outputDir, files))
      status = 1;
    else if (resourceUsage && !reportCudaResources(path, *target, *options))
      status = 1;
  }
  return status;
}
int runBenchCommand() {
  if (inputFiles.size() != 1) {
    llvm::WithColor::error(llvm::errs(), "stencilc") << "bench takes one .stencil file\n";
    return 2;
  }
  BenchOptions o;
  o.sourcePath = inputFiles[0];
  if (!parseGridSize(benchSize, o)) {
    llvm::WithColor::error(llvm::errs(), "stencilc")
        << "bad --size '" << benchSize << "': expected N or NXxNYxNZ\n";
    return 2;
  }
  // bench builds and times CPU kernels only: the options that steer GPU kernels
  // would be accepted and ignored, so they are refused.
  if (plan.tableSpaceGiven()) {
    driver::reportError("--table-space: bench times the CPU kernels, which keep their tables "
                        "where the caches put them; use it with gen --backend cuda or analyze");
    return 2;
  }
  if (plan.planTargetGiven() && plan.planTarget != "cpu") {
    driver::reportError("--plan-target: bench times the CPU kernels, planned for cpu, not '" +
                        plan.planTarget + "'; plan for a GPU with gen --backend cuda or analyze");
    return 2;
  }
  o.nd = plan.nd;
  o.repeats = benchRepeats;
  o.search = benchSearch;
  o.json = benchJson;
  o.keep = benchKeep;
  o.inPlace = benchInPlace;
  o.index = benchIndex;
  if (o.repeats < 1) {
    driver::reportError(fmt::format("--repeats: {} is not positive", o.repeats));
    return 2;
  }
  if (benchTimeDepths.getNumOccurrences()) {
    o.timeDepths.assign(benchTimeDepths.begin(), benchTimeDepths.end());
    if (o.timeDepths == std::vector<int>{0})
      o.timeDepths.clear();
    for (int depth : o.timeDepths)
      if (depth < 1 || depth > 64) {
        driver::reportError(fmt::format(
            "--time-depths: {} is not a number of time steps per pass from 1 to 64 (0 alone: "
            "none)",
            depth));
        return 2;
      }
  }
  auto options = coreLoadOptions("cpu");
  if (!options)
    return 2;
  auto loaded = driver::loadModule(inputFiles[0], *options);
  if (!loaded)
    return 1;
  int status = 0;
  for (const CompiledStencil &c : loaded->compiled)
    status |= runBench(c, o);
  return status;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "stencilc: a compiler for stencils with complex shapes and "
                                    "spatially variable coefficients\n");
  if (!checkDumpAfterNames())
    return 2;
  if (zPlanes < 0 || zPlanes > 8) {
    driver::reportError(fmt::format(
        "bad --z-planes {}: expected 1 to 8, or 0 to choose per stencil", int(zPlanes)));
    return 2;
  }
  if (checkCommand)
    return runCheck();
  if (dumpIrCommand)
    return runDumpIr();
  if (genCommand)
    return runGen();
  if (dumpKernelCommand)
    return runDumpKernel();
  if (benchCommand)
    return runBenchCommand();
  if (driver::CommandEntry run = driver::selectedRegisteredCommand())
    return run();
  llvm::cl::PrintHelpMessage();
  return 2;
}
