//===- Diagnostics.cpp ----------------------------------------------------===//
#include "support/Diagnostics.h"

namespace stencilc {

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &msg,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  if (tooManyErrors()) {
    ++errors_;
    return;
  }
  ++errors_;
  sm_.PrintMessage(os_, loc, llvm::SourceMgr::DK_Error, msg, ranges);
  if (tooManyErrors())
    os_ << "error: too many errors emitted, stopping now\n";
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &msg) {
  sm_.PrintMessage(os_, loc, llvm::SourceMgr::DK_Warning, msg);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &msg) {
  if (!tooManyErrors())
    sm_.PrintMessage(os_, loc, llvm::SourceMgr::DK_Note, msg);
}

} // namespace stencilc
