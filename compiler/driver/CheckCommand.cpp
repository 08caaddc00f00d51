//===- CheckCommand.cpp - `stencilc check`: is every file valid? -----------===//
//
//   stencilc check FILE... [--dump-after=PASS[,PASS]] [--explain] [plan options]
//
// Parses, checks and runs the pass pipeline over every file; the exit status
// says whether every file is valid.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileOptions.h"
#include "driver/Driver.h"

#include "llvm/Support/CommandLine.h"

using namespace stencilc;

namespace {

llvm::cl::SubCommand checkCommand("check", "Parse and verify .stencil files");

driver::CompileCommandLine options(checkCommand, driver::CompileCommandLine::DumpAfter |
                                                     driver::CompileCommandLine::Explain |
                                                     driver::CompileCommandLine::Adjoint);

int runCheck() {
  if (!options.check())
    return 2;
  auto load = options.loadOptions("cpu");
  if (!load)
    return 2;
  int status = 0;
  for (const std::string &path : options.inputFiles)
    if (!driver::loadModule(path, *load))
      status = 1;
  return status;
}

driver::CommandRegistration registration(checkCommand, &runCheck);

} // namespace
