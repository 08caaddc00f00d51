//===- LocatedDiagnostics.cpp ---------------------------------------------===//
#include "tooling/LocatedDiagnostics.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc::tooling {

LocatedDiagnostics::LocatedDiagnostics(std::string file)
    : file_(std::move(file)), printer_(std::make_unique<clang::TextDiagnosticPrinter>(
                                  llvm::errs(), new clang::DiagnosticOptions())) {}

LocatedDiagnostics::~LocatedDiagnostics() = default;

void LocatedDiagnostics::BeginSourceFile(const clang::LangOptions &langOptions,
                                         const clang::Preprocessor *preprocessor) {
  printer_->BeginSourceFile(langOptions, preprocessor);
}

void LocatedDiagnostics::EndSourceFile() { printer_->EndSourceFile(); }

void LocatedDiagnostics::finish() { printer_->finish(); }

void LocatedDiagnostics::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                          const clang::Diagnostic &info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info); // the error and warning counts
  if (info.getLocation().isValid() && info.hasSourceManager()) {
    const clang::PresumedLoc where = info.getSourceManager().getPresumedLoc(info.getLocation());
    if (where.isValid())
      lastLocation_ = std::string(where.getFilename()) + ":" + std::to_string(where.getLine()) +
                      ":" + std::to_string(where.getColumn());
    printer_->HandleDiagnostic(level, info);
    return;
  }
  const char *kind = level >= clang::DiagnosticsEngine::Error     ? "error"
                     : level == clang::DiagnosticsEngine::Warning ? "warning"
                                                                  : "note";
  llvm::SmallString<128> message;
  info.FormatDiagnostic(message);
  llvm::errs() << (lastLocation_.empty() ? file_ + ":1:1" : lastLocation_) << ": " << kind << ": "
               << message << "\n";
}

} // namespace stencilc::tooling
