//===- LiftCommand.cpp - stencilc lift: .stencil files from C++ loops ------===//
//
//   stencilc lift FILE.cpp [-o OUT.stencil] [--all] [-- COMPILER FLAGS]
//
// Reads FILE.cpp with Clang, lifts every loop nest marked `#pragma stencil
// NAME` (and, with --all, every other 2D/3D nest whose body is one
// assignment) and writes one `stencil` block per nest. The flags after `--`
// are those FILE.cpp compiles with (-I, -D, -std=...). See docs/LIFT.md.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "tooling/LiftAction.h"
#include "tooling/StencilText.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {

llvm::cl::SubCommand liftCommand("lift", "Write the .stencil equivalent of C++ stencil loops");

llvm::cl::list<std::string> liftArgs(llvm::cl::Positional,
                                     llvm::cl::desc("<file.cpp> [-- <compiler flags>]"),
                                     llvm::cl::OneOrMore, llvm::cl::sub(liftCommand));
llvm::cl::opt<std::string> liftOutput("o",
                                      llvm::cl::desc("Write the .stencil file here (default: "
                                                     "standard output)"),
                                      llvm::cl::value_desc("file"), llvm::cl::init("-"),
                                      llvm::cl::sub(liftCommand));
llvm::cl::opt<bool> liftAll("all",
                            llvm::cl::desc("Also lift unmarked 2D/3D loop nests whose body is "
                                           "one assignment"),
                            llvm::cl::sub(liftCommand));

int runLift() {
  stencilc::tooling::LiftOptions options;
  options.all = liftAll;
  stencilc::tooling::LiftResult result;
  // Everything after the file came after `--`: the compiler's flags.
  std::vector<std::string> compilerArgs(liftArgs.begin() + 1, liftArgs.end());
  if (!stencilc::tooling::liftFile(liftArgs[0], compilerArgs, options, result))
    return 1;
  if (result.stencils.empty()) {
    stencilc::driver::reportError("no loop nest to lift in '" + liftArgs[0] +
                                  "': mark one with '#pragma stencil NAME' or pass --all");
    return 1;
  }
  std::error_code error;
  llvm::ToolOutputFile out(liftOutput, error, llvm::sys::fs::OF_Text);
  if (error) {
    stencilc::driver::reportError("cannot write '" + liftOutput + "': " + error.message());
    return 1;
  }
  for (size_t i = 0; i < result.stencils.size(); ++i)
    out.os() << (i ? "\n" : "") << stencilc::tooling::stencilText(result.stencils[i]);
  out.keep();
  return 0;
}

stencilc::driver::CommandRegistration registration(liftCommand, &runLift);

} // namespace
