//===- main.cpp - The stencilc command line --------------------------------===//
//
// Parses the command line and runs the subcommand it names. Every subcommand
// lives in its own driver/<Name>Command.cpp with its own options and
// registers its entry point through Driver.h; `stencilc --help` lists them.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "stencilc: a compiler for stencils with complex shapes and "
                                    "spatially variable coefficients\n");
  if (stencilc::driver::CommandEntry run = stencilc::driver::selectedRegisteredCommand())
    return run();
  llvm::cl::PrintHelpMessage();
  return 2;
}
