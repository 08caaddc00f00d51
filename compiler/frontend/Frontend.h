//===- Frontend.h - From .stencil text to verified IR ----------------------===//
#pragma once

#include "ir/IR.h"
#include "support/Diagnostics.h"

#include <optional>

namespace stencilc {

/// Lexes, parses, resolves names and verifies the buffer `bufferId` of the
/// engine's SourceMgr. Errors are reported through `diag`; returns nullopt if
/// there were any. Never throws, never aborts on bad input. With `order`,
/// every stencil's derivative sugar is re-derived at that accuracy order
/// before it is checked (frontend/OrderOverride.h).
std::optional<ir::Module> parseModule(unsigned bufferId, DiagnosticEngine &diag,
                                      std::optional<int> order = std::nullopt);

/// Convenience for tests and the fuzzer: compiles `text` named `fileName`,
/// printing diagnostics to `errs`. The source buffer dies with the call, so
/// locations in the returned IR no longer resolve to a line (later
/// diagnostics on it print without a source line; nothing dereferences them).
std::optional<ir::Module> parseModuleFromString(llvm::StringRef text, llvm::StringRef fileName,
                                                llvm::raw_ostream &errs);

} // namespace stencilc
