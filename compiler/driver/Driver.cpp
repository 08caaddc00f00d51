//===- Driver.cpp - What the stencilc subcommands share --------------------===//
#include "driver/Driver.h"

#include "passes/Adjoint.h"

#include "frontend/Frontend.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <utility>

namespace stencilc::driver {

void reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "stencilc") << message << "\n";
}

std::unique_ptr<LoadedModule> loadModule(const std::string &path, const LoadOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    reportError("cannot open '" + path + "': " + buffer.getError().message());
    return nullptr;
  }
  auto loaded = std::make_unique<LoadedModule>();
  loaded->sourceMgr = std::make_unique<llvm::SourceMgr>();
  unsigned id = loaded->sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  loaded->diag = std::make_unique<DiagnosticEngine>(*loaded->sourceMgr, llvm::errs());
  auto module = parseModule(id, *loaded->diag, options.order);
  if (!module)
    return nullptr;
  loaded->module = std::move(*module);
  if (options.elemType)
    for (ir::Stencil &stencil : loaded->module.stencils)
      stencil.elemType = *options.elemType;
  if (options.adjoint) {
    auto adjoint = adjointModule(loaded->module, *loaded->diag);
    if (!adjoint)
      return nullptr;
    loaded->module = std::move(*adjoint);
  }
  auto compiled = runPipeline(loaded->module, *loaded->diag, options.pipeline);
  if (!compiled)
    return nullptr;
  loaded->compiled = std::move(*compiled);
  return loaded;
}

namespace {
struct Registered {
  llvm::cl::SubCommand *command;
  CommandEntry run;
};

// A function-local static: registrations run during static initialisation of
// other translation units, in no particular order.
std::vector<Registered> &registry() {
  static std::vector<Registered> commands;
  return commands;
}
} // namespace

CommandRegistration::CommandRegistration(llvm::cl::SubCommand &command, CommandEntry run) {
  registry().push_back({&command, run});
}

CommandEntry selectedRegisteredCommand() {
  for (const Registered &r : registry())
    if (*r.command)
      return r.run;
  return nullptr;
}

} // namespace stencilc::driver
