//===- StencilOfKernel.h - The .stencil a test kernel was generated from ---===//
//
// The kernel tests (CPU, time tiling) check generated kernels against the
// reference evaluator on the stencil each was generated from: dsl-examples/,
// the test-only stencils of tests/kernels/Inputs/, or those lifted from
// tests/legacy at build time. The including target defines
// STENCILC_SOURCE_DIR and STENCILC_LIFTED_DIR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "eval/KernelInputs.h"

#include <stencilc/Kernel.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace stencilc::kerneltest {

/// Whether the file at `path` has a line `stencil <name> {`.
inline bool declaresStencil(const std::filesystem::path &path, const std::string &name) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("stencil " + name + " ", 0) == 0)
      return true;
  return false;
}

inline ir::Stencil stencilOfKernel(const rt::KernelInfo &k) {
  const std::string root = STENCILC_SOURCE_DIR;
  std::string path = root + "/dsl-examples/" + k.stencil + ".stencil";
  if (!std::filesystem::exists(path))
    path = root + "/tests/kernels/Inputs/" + k.stencil + ".stencil";
  if (!std::filesystem::exists(path))
    path = std::string(STENCILC_LIFTED_DIR) + "/" + k.stencil + ".stencil";
  // A program lifted to several stencils is one file, named after the program.
  if (!std::filesystem::exists(path))
    for (const auto &entry : std::filesystem::directory_iterator(STENCILC_LIFTED_DIR))
      if (entry.path().extension() == ".stencil" && declaresStencil(entry.path(), k.stencil))
        path = entry.path().string();
  return eval::loadStencilOfKernel(path, k);
}

} // namespace stencilc::kerneltest
