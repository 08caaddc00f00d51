//===- Driver.h - What the stencilc subcommands share ----------------------===//
//
// Each subcommand lives in its own compiler/driver/<Name>Command.cpp with its
// own llvm::cl options and registers its entry point here; main() runs the one
// named on the command line. The commands that compile .stencil files share
// their common options through CompileOptions.h. loadModule() is the one way a command turns a file into compiled
// stencils, so every command reports errors and runs passes the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "passes/Pipeline.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::driver {

/// A compiled file with the source manager its IR locations point into.
struct LoadedModule {
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<DiagnosticEngine> diag;
  ir::Module module;
  std::vector<CompiledStencil> compiled; ///< one per stencil, pointing into `module`
};

struct LoadOptions {
  /// Overrides every stencil's declared element type.
  std::optional<ir::ElemType> elemType;
  PipelineOptions pipeline;
  /// Compile the adjoint of every stencil instead (passes/Adjoint.h).
  bool adjoint = false;
  /// Re-derive every stencil's derivative sugar at this accuracy order
  /// (`analyze --orders`, frontend/OrderOverride.h).
  std::optional<int> order;
};

/// Reads (or, for "-", stdin), parses and runs the pass pipeline over one
/// file. Diagnostics go to stderr; returns null after any error.
std::unique_ptr<LoadedModule> loadModule(const std::string &path, const LoadOptions &options);

/// Prints "stencilc: error: <message>" to stderr.
void reportError(const llvm::Twine &message);

using CommandEntry = int (*)();

/// Registers `run` as the entry point of `command`. Construct one as a static
/// object next to the command's options.
struct CommandRegistration {
  CommandRegistration(llvm::cl::SubCommand &command, CommandEntry run);
};

/// The entry point of the subcommand given on the command line, if it was
/// registered through CommandRegistration.
CommandEntry selectedRegisteredCommand();

} // namespace stencilc::driver
