//===- ParserFuzzer.cpp - libFuzzer entry point for the frontend -----------===//
//
// Feeds arbitrary bytes, as one .stencil file, through what `stencilc check`
// and `stencilc dump-ir` run: the frontend (lexer, parser, name resolution,
// checks), the pass pipeline with the IR verifier after every pass, and the
// IR printer. Bad input must end in located diagnostics; a crash, sanitizer
// report, leak, hang, or a pipeline that fails without reporting an error (an
// internal verifier failure) is a bug. Run it with scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "ir/linear/LinearFormPrinter.h"
#include "passes/Pipeline.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace stencilc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.stencil"), llvm::SMLoc());
  // Diagnostics are still formatted (that code is fuzzed too), then dropped.
  DiagnosticEngine diag(sourceMgr, llvm::nulls());

  std::optional<ir::Module> module = parseModule(bufferId, diag);
  if (!module)
    return 0;
  std::optional<std::vector<CompiledStencil>> compiled = runPipeline(*module, diag);
  if (!compiled) {
    // A pass that rejects the input reports why; failing silently means the
    // IR verifier caught a compiler bug.
    if (!diag.hasErrors())
      __builtin_trap();
    return 0;
  }
  for (const CompiledStencil &c : *compiled)
    printStencilWithLinearForm(*c.stencil, c.linear, llvm::nulls());
  return 0;
}
