//===- Frontend.cpp - Parse, check and verify a .stencil buffer ------------===//
#include "frontend/Frontend.h"

#include "frontend/OrderOverride.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"

namespace stencilc {

std::optional<ir::Module> parseModule(unsigned bufferId, DiagnosticEngine &diag,
                                      std::optional<int> order) {
  const llvm::MemoryBuffer *buffer = diag.sourceMgr().getMemoryBuffer(bufferId);
  Parser parser(buffer->getBuffer(), buffer->getBufferIdentifier(), diag);
  ir::Module module = parser.parseModule();
  if (diag.hasErrors())
    return std::nullopt;
  if (order)
    for (ir::Stencil &stencil : module.stencils)
      if (!overrideOrder(stencil, *order, diag))
        return std::nullopt;
  for (ir::Stencil &stencil : module.stencils)
    checkStencil(stencil, diag);
  if (diag.hasErrors())
    return std::nullopt;
  return module;
}

std::optional<ir::Module> parseModuleFromString(llvm::StringRef text, llvm::StringRef fileName,
                                                llvm::raw_ostream &errs) {
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, fileName), llvm::SMLoc());
  DiagnosticEngine diag(sm, errs);
  return parseModule(1, diag);
}

} // namespace stencilc
