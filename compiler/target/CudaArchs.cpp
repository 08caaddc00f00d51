//===- CudaArchs.cpp ------------------------------------------------------===//
#include "target/CudaArchs.h"

namespace stencilc::target {

namespace {

constexpr int KiB = 1024;

} // namespace

const std::vector<CudaArch> &cudaArchs() {
  // 48 KiB per block is the limit without opting in on every architecture.
  static const std::vector<CudaArch> archs = {
      {"sm_70", 70, 128 * KiB, 48 * KiB, 96 * KiB, {32, 8, 32}, false},
      {"sm_80", 80, 192 * KiB, 48 * KiB, 163 * KiB, {32, 8, 32}, true},
      {"sm_86", 86, 128 * KiB, 48 * KiB, 99 * KiB, {32, 8, 32}, false},
      {"sm_89", 89, 128 * KiB, 48 * KiB, 99 * KiB, {32, 8, 32}, false},
      {"sm_90", 90, 256 * KiB, 48 * KiB, 227 * KiB, {32, 8, 64}, true},
  };
  return archs;
}

const CudaArch *findCudaArch(std::string_view name) {
  for (const CudaArch &arch : cudaArchs())
    if (name == arch.name)
      return &arch;
  return nullptr;
}

std::vector<std::string> buildArchNames() {
  std::vector<std::string> names;
  for (const CudaArch &arch : cudaArchs())
    if (arch.buildTarget)
      names.push_back(arch.name);
  return names;
}

} // namespace stencilc::target
