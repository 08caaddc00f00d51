//===- main.cpp - The stencilc command line --------------------------------===//
//
//   stencilc check FILE...     parse, check and run the pass pipeline; the exit status says
//                              whether every file is valid
//   stencilc dump-ir FILE...   print the IR after the last pass (with linear forms)
//   stencilc gen FILE --backend cpu -o DIR
//                              write a header and a source file per stencil
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
#include "passes/LinearFormPrinter.h"
#include "passes/Pipeline.h"

#include <fmt/format.h>

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

llvm::cl::list<std::string> inputFiles(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."),
                                       llvm::cl::OneOrMore, llvm::cl::sub(checkCommand),
                                       llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand),
                                       llvm::cl::sub(benchCommand));

llvm::cl::list<std::string> dumpAfter("dump-after",
                                      llvm::cl::desc("Print the IR after these passes"),
                                      llvm::cl::value_desc("pass"), llvm::cl::CommaSeparated,
                                      llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                                      llvm::cl::sub(genCommand));

llvm::cl::opt<int> forceSplit("split",
                              llvm::cl::desc("Force N sub-stencil sweeps per step (0: one sweep)"),
                              llvm::cl::value_desc("N"), llvm::cl::init(0),
                              llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                              llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));

// The decomposition planner (passes/Planner.h): what it plans for and the user's overrides.
llvm::cl::opt<bool> explain("explain", llvm::cl::desc("Say what each pass decided and why"),
                            llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                            llvm::cl::sub(genCommand));
llvm::cl::opt<std::string> planTarget(
    "plan-target", llvm::cl::desc("Plan sub-stencils for cpu or a CUDA arch (sm_80, sm_90, ...)"),
    llvm::cl::value_desc("target"), llvm::cl::init("cpu"), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));
llvm::cl::opt<int> planNd("nd", llvm::cl::desc("Table columns Nd the plan assumes (default 902)"),
                          llvm::cl::init(902), llvm::cl::sub(checkCommand),
                          llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand));
llvm::cl::opt<long> onChipBudget(
    "onchip-budget",
    llvm::cl::desc("Bytes of shared memory per block (GPU) or L1 (CPU) for tables and tiles"),
    llvm::cl::value_desc("bytes"), llvm::cl::init(-1), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));
llvm::cl::opt<long> cacheBudget(
    "cache-budget", llvm::cl::desc("Bytes of read-only cache (GPU) or L2 (CPU) for tables"),
    llvm::cl::value_desc("bytes"), llvm::cl::init(-1), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));
llvm::cl::opt<TableSpace> tableSpace(
    "table-space", llvm::cl::desc("Where GPU kernels keep every table (default: planned)"),
    llvm::cl::values(clEnumValN(TableSpace::Auto, "auto", "as planned"),
                     clEnumValN(TableSpace::Shared, "shared", "shared memory"),
                     clEnumValN(TableSpace::ReadOnly, "readonly", "read-only cache"),
                     clEnumValN(TableSpace::Global, "global", "global memory")),
    llvm::cl::init(TableSpace::Auto), llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
    llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));

enum class ElemTypeOverride { AsDeclared, Float, Double };
llvm::cl::opt<ElemTypeOverride> elemTypeOverride(
    "type", llvm::cl::desc("Element type of the generated kernels (default: the stencil's)"),
    llvm::cl::values(clEnumValN(ElemTypeOverride::Float, "float", "single precision"),
                     clEnumValN(ElemTypeOverride::Double, "double", "double precision")),
    llvm::cl::init(ElemTypeOverride::AsDeclared), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));

enum class Backend { Cpu, Cuda };
llvm::cl::opt<Backend> backendOption(
    "backend", llvm::cl::desc("Target of the generated code"),
    llvm::cl::values(clEnumValN(Backend::Cpu, "cpu", "C++ with OpenMP and SIMD"),
                     clEnumValN(Backend::Cuda, "cuda",
                                "CUDA kernels and host launchers (<kernel>.cu, <kernel>_cuda.h)")),
    llvm::cl::init(Backend::Cpu), llvm::cl::sub(genCommand));

llvm::cl::opt<int>
    zPlanes("z-planes",
            llvm::cl::desc("Output planes the CPU naive and blocked variants compute per x loop "
                           "(3D; default: chosen per stencil)"),
            llvm::cl::value_desc("N"), llvm::cl::init(0), llvm::cl::sub(checkCommand),
            llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand), llvm::cl::sub(benchCommand));

llvm::cl::opt<std::string> outputDir("o", llvm::cl::desc("Directory for the generated files"),
                                     llvm::cl::value_desc("dir"), llvm::cl::Required,
                                     llvm::cl::sub(genCommand));

llvm::cl::opt<std::string>
    kernelName("name",
               llvm::cl::desc("Kernel name (namespace and file stem); default: the stencil's name. "
                              "Only for files with one stencil"),
               llvm::cl::value_desc("name"), llvm::cl::sub(genCommand));

llvm::cl::opt<bool> resourceUsage(
    "resource-usage",
    llvm::cl::desc("With --backend cuda: compile the kernels in float and double with "
                   "nvcc -Xptxas -v and print registers, spills and shared memory per variant"),
    llvm::cl::sub(genCommand));
llvm::cl::list<std::string> cudaArchs("arch",
                                      llvm::cl::desc("Architectures for --resource-usage "
                                                     "(default sm_80,sm_90)"),
                                      llvm::cl::value_desc("sm_XY"), llvm::cl::CommaSeparated,
                                      llvm::cl::sub(genCommand));
llvm::cl::opt<std::string> nvccPath("nvcc",
                                    llvm::cl::desc("nvcc for --resource-usage (default: on PATH, "
                                                   "else /usr/local/cuda/bin/nvcc)"),
                                    llvm::cl::value_desc("path"), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> benchSize("size",
                                     llvm::cl::desc("Grid size N (N^3, or N^2 in 2D) or NXxNYxNZ "
                                                    "(default 256^3, 8192^2 in 2D)"),
                                     llvm::cl::value_desc("size"), llvm::cl::sub(benchCommand));
llvm::cl::opt<int> benchNd("nd", llvm::cl::desc("Distinct index values (default 902)"),
                           llvm::cl::init(902), llvm::cl::sub(benchCommand));
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

bool checkDumpAfterNames() {
  for (const std::string &name : dumpAfter)
    if (!llvm::is_contained(pipelinePassNames(), name)) {
      driver::reportError("unknown pass '" + name + "' in --dump-after; passes are: " +
                          llvm::join(pipelinePassNames(), ", "));
      return false;
    }
  return true;
}

/// Loads, parses and runs the pipeline on one file with the options of the
/// core commands; diagnostics go to stderr.
std::unique_ptr<driver::LoadedModule> loadModule(const std::string &path) {
  driver::LoadOptions options;
  if (elemTypeOverride != ElemTypeOverride::AsDeclared)
    options.elemType =
        elemTypeOverride == ElemTypeOverride::Float ? ir::ElemType::Float : ir::ElemType::Double;
  options.pipeline.forceSplit = forceSplit;
  options.pipeline.zPlanes = zPlanes;
  options.pipeline.dumpAfter.assign(dumpAfter.begin(), dumpAfter.end());
  std::string error;
  auto target = makePlanTarget(planTarget, benchCommand ? int(benchNd) : int(planNd), onChipBudget,
                               cacheBudget, error);
  if (!target) {
    driver::reportError(error);
    return nullptr;
  }
  options.pipeline.target = *target;
  if (tableSpace != TableSpace::Auto)
    options.pipeline.forceTableSpace = tableSpace;
  if (explain)
    options.pipeline.explainStream = &llvm::outs();
  return driver::loadModule(path, options);
}

int runCheck() {
  int status = 0;
  for (const std::string &path : inputFiles)
    if (!loadModule(path))
      status = 1;
  return status;
}

int runDumpIr() {
  int status = 0;
  for (const std::string &path : inputFiles) {
    auto loaded = loadModule(path);
    if (!loaded) {
      status = 1;
      continue;
    }
    for (size_t i = 0; i < loaded->compiled.size(); ++i) {
      if (i)
        llvm::outs() << "\n";
      const CompiledStencil &c = loaded->compiled[i];
      printStencilWithLinearForm(*c.stencil, c.linear, llvm::outs());
    }
  }
  return status;
}

/// --resource-usage: the kernels of `path` in both precisions through nvcc -Xptxas -v, as a
/// table on stdout; the .cu files and ptxas logs go to <-o>/resource-usage.
bool reportCudaResources(const std::string &path) {
  if (backendOption != Backend::Cuda) {
    driver::reportError("--resource-usage needs --backend cuda");
    return false;
  }
  backend::ResourceUsageOptions options;
  options.nvcc = nvccPath.empty() ? backend::findNvcc() : nvccPath.getValue();
  if (options.nvcc.empty()) {
    driver::reportError("--resource-usage: nvcc is neither on PATH nor in /usr/local/cuda/bin; "
                        "name it with --nvcc=PATH");
    return false;
  }
  options.runtimeInclude = STENCILC_RUNTIME_DIR "/include";
  options.archs.assign(cudaArchs.begin(), cudaArchs.end());
  if (options.archs.empty())
    options.archs = {"sm_80", "sm_90"};
  for (const std::string &arch : options.archs)
    if (!llvm::StringRef(arch).startswith("sm_") || arch.size() < 5) {
      driver::reportError("--arch: '" + arch + "' is not of the form sm_XY");
      return false;
    }
  llvm::SmallString<256> work(outputDir);
  llvm::sys::path::append(work, "resource-usage");
  options.workDir = std::string(work);
  std::vector<backend::KernelResources> rows;
  for (ir::ElemType type : {ir::ElemType::Float, ir::ElemType::Double}) {
    driver::LoadOptions load;
    load.elemType = type;
    load.pipeline.forceSplit = forceSplit;
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

int runGen() {
  int status = 0;
  for (const std::string &path : inputFiles) {
    auto loaded = loadModule(path);
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
        backend::CudaEmitOptions options;
        options.kernelName = kernelName;
        options.sourcePath = llvm::sys::path::filename(path).str();
        generated = backend::emitCudaKernel(c, options);
      } else {
        backend::CpuEmitOptions options;
        options.kernelName = kernelName;
        options.sourcePath = llvm::sys::path::filename(path).str();
        generated = backend::emitCpuKernel(c, options);
      }
      for (backend::GeneratedFile &f : generated)
        files.push_back(std::move(f));
    }
    if (!writeFilesAtomically(outputDir, files))
      status = 1;
    else if (resourceUsage && !reportCudaResources(path))
      status = 1;
  }
  return status;
}
/// "256" -> 256^3 (256^2 for 2D, decided later), "64x32x16" -> each extent.
bool parseSize(const std::string &text, BenchOptions &o) {
  if (text.empty())
    return true;
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(text).split(parts, 'x');
  int values[3] = {0, 0, 0};
  if (parts.size() != 1 && parts.size() != 2 && parts.size() != 3)
    return false;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].getAsInteger(10, values[i]) || values[i] < 1 || values[i] > 100000)
      return false;
  if (parts.size() == 1)
    o.nx = o.ny = o.nz = values[0];
  else {
    o.nx = values[0];
    o.ny = values[1];
    o.nz = parts.size() == 3 ? values[2] : 1;
  }
  return true;
}

int runBenchCommand() {
  if (inputFiles.size() != 1) {
    llvm::WithColor::error(llvm::errs(), "stencilc") << "bench takes one .stencil file\n";
    return 2;
  }
  BenchOptions o;
  o.sourcePath = inputFiles[0];
  if (!parseSize(benchSize, o)) {
    llvm::WithColor::error(llvm::errs(), "stencilc")
        << "bad --size '" << benchSize << "': expected N or NXxNYxNZ\n";
    return 2;
  }
  o.nd = benchNd;
  o.repeats = benchRepeats;
  o.search = benchSearch;
  o.json = benchJson;
  o.keep = benchKeep;
  o.inPlace = benchInPlace;
  if (o.nd < 1 || o.repeats < 1) {
    llvm::WithColor::error(llvm::errs(), "stencilc") << "--nd and --repeats must be positive\n";
    return 2;
  }
  auto loaded = loadModule(inputFiles[0]);
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
  if (benchCommand)
    return runBenchCommand();
  if (driver::CommandEntry run = driver::selectedRegisteredCommand())
    return run();
  llvm::cl::PrintHelpMessage();
  return 2;
}
