//===- Diagnostics.h - Located diagnostics over llvm::SourceMgr ------------===//
//
// Every user-facing error is `file:line:col: error: message` followed by the
// source line and a caret, as llvm::SourceMgr prints it. The engine counts
// errors so a phase can report several before the driver gives up.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

class DiagnosticEngine {
public:
  DiagnosticEngine(llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm_(sm), os_(os) {}

  void error(llvm::SMLoc loc, const llvm::Twine &msg, llvm::ArrayRef<llvm::SMRange> ranges = {});
  void warning(llvm::SMLoc loc, const llvm::Twine &msg);
  void note(llvm::SMLoc loc, const llvm::Twine &msg);

  unsigned errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }
  /// Stop reporting after this many errors (a cascade helps nobody).
  bool tooManyErrors() const { return errors_ >= kMaxErrors; }
  llvm::SourceMgr &sourceMgr() { return sm_; }

private:
  static constexpr unsigned kMaxErrors = 20;
  llvm::SourceMgr &sm_;
  llvm::raw_ostream &os_;
  unsigned errors_ = 0;
};

} // namespace stencilc
