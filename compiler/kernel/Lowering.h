//===- Lowering.h - Shared by the CPU and CUDA lowerings -------------------===//
#pragma once

#include "kernel/KernelIR.h"

#include <string>
#include <vector>

namespace stencilc::kernel {

KernelModule lowerCpu(const CompiledStencil &compiled);
KernelModule lowerCuda(const CompiledStencil &compiled);

/// "m2" for -2, "p0", "p3": a plane offset inside an identifier.
std::string planeSuffix(int dz);

/// The groups of `groups` (in order) with a point on plane offset dz.
std::vector<int> groupsOnPlane(const LinearForm &form, const std::vector<int> &groups, int dz);

} // namespace stencilc::kernel
