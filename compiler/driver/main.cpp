//===- main.cpp - The stencilc command line --------------------------------===//
//
//   stencilc check FILE...     parse, check and run the pass pipeline; the exit status says
//                              whether every file is valid
//   stencilc dump-ir FILE...   print the IR after the last pass (with linear forms)
//
// `--dump-after=PASS[,PASS]` prints the IR after the named passes of the pipeline.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "ir/Printer.h"
#include "passes/Pipeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace stencilc;

namespace {
llvm::cl::SubCommand checkCommand("check", "Parse and verify .stencil files");
llvm::cl::SubCommand dumpIrCommand("dump-ir", "Print the IR of .stencil files");

llvm::cl::list<std::string> inputFiles(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."),
                                       llvm::cl::OneOrMore, llvm::cl::sub(checkCommand),
                                       llvm::cl::sub(dumpIrCommand));

llvm::cl::list<std::string> dumpAfter("dump-after",
                                      llvm::cl::desc("Print the IR after these passes"),
                                      llvm::cl::value_desc("pass"), llvm::cl::CommaSeparated,
                                      llvm::cl::sub(checkCommand), llvm::cl::sub(dumpIrCommand));

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
  PipelineOptions options;
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
  llvm::cl::PrintHelpMessage();
  return 2;
}
