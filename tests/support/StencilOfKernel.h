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
#include <string>

namespace stencilc::kerneltest {

inline ir::Stencil stencilOfKernel(const rt::KernelInfo &k) {
  const std::string root = STENCILC_SOURCE_DIR;
  std::string path = root + "/dsl-examples/" + k.stencil + ".stencil";
  if (!std::filesystem::exists(path))
    path = root + "/tests/kernels/Inputs/" + k.stencil + ".stencil";
  if (!std::filesystem::exists(path))
    path = std::string(STENCILC_LIFTED_DIR) + "/" + k.stencil + ".stencil";
  return eval::loadStencilOfKernel(path, k);
}

} // namespace stencilc::kerneltest
