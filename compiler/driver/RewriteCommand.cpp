//===- RewriteCommand.cpp - stencilc rewrite: C++ loops to kernel calls ----===//
//
//   stencilc rewrite FILE.cpp [-o OUT.cpp] [--all] [-- COMPILER FLAGS]
//
// Lifts the marked loop nests of FILE.cpp as `stencilc lift` does and writes
// FILE.cpp with each of them replaced by a call of the kernel that
// `stencilc gen` makes from the lifted stencil, plus the kernels' #includes;
// every other character of the file is kept. See docs/LIFT.md.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "tooling/LiftAction.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {

llvm::cl::SubCommand rewriteCommand("rewrite",
                                    "Replace marked C++ stencil loops by generated kernel calls");

llvm::cl::list<std::string> rewriteArgs(llvm::cl::Positional,
                                        llvm::cl::desc("<file.cpp> [-- <compiler flags>]"),
                                        llvm::cl::OneOrMore, llvm::cl::sub(rewriteCommand));
llvm::cl::opt<std::string> rewriteOutput("o",
                                         llvm::cl::desc("Write the rewritten file here "
                                                        "(default: standard output)"),
                                         llvm::cl::value_desc("file"), llvm::cl::init("-"),
                                         llvm::cl::sub(rewriteCommand));
llvm::cl::opt<bool> rewriteAll("all",
                               llvm::cl::desc("Also replace unmarked 2D/3D loop nests that lift"),
                               llvm::cl::sub(rewriteCommand));

int runRewrite() {
  stencilc::tooling::LiftOptions options;
  options.all = rewriteAll;
  options.rewrite = true;
  stencilc::tooling::LiftResult result;
  std::vector<std::string> compilerArgs(rewriteArgs.begin() + 1, rewriteArgs.end());
  if (!stencilc::tooling::liftFile(rewriteArgs[0], compilerArgs, options, result))
    return 1;
  if (result.stencils.empty()) {
    stencilc::driver::reportError("no loop nest to rewrite in '" + rewriteArgs[0] +
                                  "': mark one with '#pragma stencil NAME' or pass --all");
    return 1;
  }
  std::error_code error;
  llvm::ToolOutputFile out(rewriteOutput, error, llvm::sys::fs::OF_Text);
  if (error) {
    stencilc::driver::reportError("cannot write '" + rewriteOutput + "': " + error.message());
    return 1;
  }
  out.os() << result.rewrittenSource;
  out.keep();
  return 0;
}

stencilc::driver::CommandRegistration registration(rewriteCommand, &runRewrite);

} // namespace
