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

#include <cstdlib>

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "stencilc: a compiler for stencils with complex shapes and "
                                    "spatially variable coefficients\n");
  // With STENCILC_PARSE_ONLY set, a command line that parses is all that is
  // asked: scripts/check-doc-commands.py checks every command the docs show
  // this way, without running it (a bad option has already exited 1).
  if (std::getenv("STENCILC_PARSE_ONLY"))
    return 0;
  if (stencilc::driver::CommandEntry run = stencilc::driver::selectedRegisteredCommand())
    return run();
  llvm::cl::PrintHelpMessage();
  return 2;
}
