//===- LocatedDiagnostics.h - Clang's diagnostics, every one located ------===//
//
// `lift` and `rewrite` parse the user's C++ with Clang, and a program that
// does not compile gets Clang's own diagnostics. A few of those carry no
// source location (a template declared in a block: "templates can only be
// declared in namespace or class scope"); every error stencilc prints is to
// say where it is, so such a diagnostic is printed at the location of the
// diagnostic before it, or at the start of the file being parsed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include <memory>
#include <string>

namespace stencilc::tooling {

class LocatedDiagnostics : public clang::DiagnosticConsumer {
public:
  /// `file`: the file being parsed, where an unlocated diagnostic with none
  /// before it is put.
  explicit LocatedDiagnostics(std::string file);
  ~LocatedDiagnostics() override;

  void BeginSourceFile(const clang::LangOptions &langOptions,
                       const clang::Preprocessor *preprocessor) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override;

private:
  std::string file_;
  std::unique_ptr<clang::TextDiagnosticPrinter> printer_;
  std::string lastLocation_; ///< "file:line:col" of the last located diagnostic
};

} // namespace stencilc::tooling
