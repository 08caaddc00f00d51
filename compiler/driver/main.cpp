//===- main.cpp - The stencilc command line --------------------------------===//
//
//   stencilc check FILE...     parse, check and run the pass pipeline; the exit status says
//                              whether every file is valid
//   stencilc dump-ir FILE...   print the IR after the last pass (with linear forms)
//   stencilc gen FILE --backend cpu -o DIR
//                              write a header and a source file per stencil
//
// `--dump-after=PASS[,PASS]` prints the IR after the named passes of the pipeline.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuEmitter.h"
#include "frontend/Frontend.h"
#include "ir/Printer.h"
#include "passes/Pipeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace stencilc;

namespace {
llvm::cl::SubCommand checkCommand("check", "Parse and verify .stencil files");
llvm::cl::SubCommand dumpIrCommand("dump-ir", "Print the IR of .stencil files");
llvm::cl::SubCommand genCommand("gen", "Generate kernels from .stencil files");

llvm::cl::list<std::string> inputFiles(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."),
                                       llvm::cl::OneOrMore, llvm::cl::sub(checkCommand),
                                       llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand));

llvm::cl::list<std::string> dumpAfter("dump-after",
                                      llvm::cl::desc("Print the IR after these passes"),
                                      llvm::cl::value_desc("pass"), llvm::cl::CommaSeparated,
                                      llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                                      llvm::cl::sub(genCommand));

llvm::cl::opt<int> forceSplit("split",
                              llvm::cl::desc("Force N sub-stencil sweeps per step (0: one sweep)"),
                              llvm::cl::value_desc("N"), llvm::cl::init(0),
                              llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand),
                              llvm::cl::sub(genCommand));

enum class ElemTypeOverride { AsDeclared, Float, Double };
llvm::cl::opt<ElemTypeOverride> elemTypeOverride(
    "type", llvm::cl::desc("Element type of the generated kernels (default: the stencil's)"),
    llvm::cl::values(clEnumValN(ElemTypeOverride::Float, "float", "single precision"),
                     clEnumValN(ElemTypeOverride::Double, "double", "double precision")),
    llvm::cl::init(ElemTypeOverride::AsDeclared), llvm::cl::sub(checkCommand),
    llvm::cl::sub(dumpIrCommand), llvm::cl::sub(genCommand));

enum class Backend { Cpu };
llvm::cl::opt<Backend> backendOption("backend", llvm::cl::desc("Target of the generated code"),
                                     llvm::cl::values(clEnumValN(Backend::Cpu, "cpu",
                                                                 "C++ with OpenMP and SIMD")),
                                     llvm::cl::init(Backend::Cpu), llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> outputDir("o", llvm::cl::desc("Directory for the generated files"),
                                     llvm::cl::value_desc("dir"), llvm::cl::Required,
                                     llvm::cl::sub(genCommand));

llvm::cl::opt<std::string> kernelName(
    "name", llvm::cl::desc("Kernel name (namespace and file stem); default: the stencil's name. "
                           "Only for files with one stencil"),
    llvm::cl::value_desc("name"), llvm::cl::sub(genCommand));

/// A compiled file with the source manager its IR locations point into.
struct LoadedModule {
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<DiagnosticEngine> diag;
  ir::Module module;
  std::vector<CompiledStencil> compiled; ///< one per stencil, pointing into `module`
};

bool checkDumpAfterNames() {
  for (const std::string &name : dumpAfter)
    if (!llvm::is_contained(pipelinePassNames(), name)) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "unknown pass '" << name << "' in --dump-after; passes are: "
          << llvm::join(pipelinePassNames(), ", ") << "\n";
      return false;
    }
  return true;
}

/// Loads, parses and runs the pipeline on one file; diagnostics go to stderr.
std::unique_ptr<LoadedModule> loadModule(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    llvm::WithColor::error(llvm::errs(), "stencilc")
        << "cannot open '" << path << "': " << buffer.getError().message() << "\n";
    return nullptr;
  }
  auto loaded = std::make_unique<LoadedModule>();
  loaded->sourceMgr = std::make_unique<llvm::SourceMgr>();
  unsigned id = loaded->sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  loaded->diag = std::make_unique<DiagnosticEngine>(*loaded->sourceMgr, llvm::errs());
  auto module = parseModule(id, *loaded->diag);
  if (!module)
    return nullptr;
  loaded->module = std::move(*module);
  if (elemTypeOverride != ElemTypeOverride::AsDeclared)
    for (ir::Stencil &stencil : loaded->module.stencils)
      stencil.elemType = elemTypeOverride == ElemTypeOverride::Float ? ir::ElemType::Float
                                                                     : ir::ElemType::Double;
  PipelineOptions options;
  options.forceSplit = forceSplit;
  options.dumpAfter.assign(dumpAfter.begin(), dumpAfter.end());
  auto compiled = runPipeline(loaded->module, *loaded->diag, options);
  if (!compiled)
    return nullptr;
  loaded->compiled = std::move(*compiled);
  return loaded;
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
      ir::printStencilWithLinearForm(*c.stencil, c.linear, llvm::outs());
    }
  }
  return status;
}
/// Writes every file or none: each goes to a temporary file first and is
/// renamed into place only when all of them were written.
bool writeFilesAtomically(const std::string &dir,
                          const std::vector<backend::GeneratedFile> &files) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::WithColor::error(llvm::errs(), "stencilc")
        << "cannot create directory '" << dir << "': " << ec.message() << "\n";
    return false;
  }
  std::vector<std::pair<std::string, std::string>> written; // temporary, final
  auto cleanUp = [&] {
    for (const auto &[temp, final] : written)
      llvm::sys::fs::remove(temp);
  };
  for (const backend::GeneratedFile &file : files) {
    llvm::SmallString<256> final(dir);
    llvm::sys::path::append(final, file.name);
    std::string temp = std::string(final) + ".tmp";
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_Text);
    if (!ec) {
      written.push_back({temp, std::string(final)});
      os << file.text;
      os.close();
      if (os.has_error())
        ec = os.error();
    }
    if (ec) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "cannot write '" << temp << "': " << ec.message() << "\n";
      cleanUp();
      return false;
    }
  }
  for (const auto &[temp, final] : written)
    if (std::error_code ec = llvm::sys::fs::rename(temp, final)) {
      llvm::WithColor::error(llvm::errs(), "stencilc")
          << "cannot write '" << final << "': " << ec.message() << "\n";
      cleanUp();
      return false;
    }
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
      backend::CpuEmitOptions options;
      options.kernelName = kernelName;
      options.sourcePath = llvm::sys::path::filename(path).str();
      for (backend::GeneratedFile &f : backend::emitCpuKernel(c, options))
        files.push_back(std::move(f));
    }
    if (!writeFilesAtomically(outputDir, files))
      status = 1;
  }
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
  if (checkCommand)
    return runCheck();
  if (dumpIrCommand)
    return runDumpIr();
  if (genCommand)
    return runGen();
  llvm::cl::PrintHelpMessage();
  return 2;
}
