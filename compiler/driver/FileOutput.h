//===- FileOutput.h - Write generated files all or nothing -----------------===//
#pragma once

#include "backends/GeneratedFile.h"

#include <string>
#include <vector>

namespace stencilc {

/// Writes every file into `dir` (created if missing) or none: each goes to a
/// temporary file first and is renamed into place only when all were written,
/// so a failure never leaves a partial set behind. Errors go to stderr.
bool writeFilesAtomically(const std::string &dir,
                          const std::vector<backend::GeneratedFile> &files);

} // namespace stencilc
