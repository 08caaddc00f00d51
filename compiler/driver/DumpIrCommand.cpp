//===- DumpIrCommand.cpp - `stencilc dump-ir`: the IR after the pipeline ---===//
//
//   stencilc dump-ir FILE... [--dump-after=PASS[,PASS]] [--explain] [plan options]
//
// Prints every stencil's IR after the last pass, with its linear forms.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileOptions.h"
#include "driver/Driver.h"
#include "ir/linear/LinearFormPrinter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace stencilc;

namespace {

llvm::cl::SubCommand dumpIrCommand("dump-ir", "Print the IR of .stencil files");

driver::CompileCommandLine options(dumpIrCommand, driver::CompileCommandLine::DumpAfter |
                                                      driver::CompileCommandLine::Explain |
                                                      driver::CompileCommandLine::Adjoint);

int runDumpIr() {
  if (!options.check())
    return 2;
  auto load = options.loadOptions("cpu");
  if (!load)
    return 2;
  return options.printEachStencil(*load, [](const CompiledStencil &c) {
    printStencilWithLinearForm(*c.stencil, c.linear, llvm::outs());
    return 0;
  });
}

driver::CommandRegistration registration(dumpIrCommand, &runDumpIr);

} // namespace
