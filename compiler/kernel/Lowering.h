//===- Lowering.h - Shared by the CPU and CUDA lowerings -------------------===//
#pragma once

#include "kernel/KernelIR.h"

#include <string>
#include <vector>

namespace stencilc::kernel {

KernelModule lowerCpu(const CompiledStencil &compiled);
KernelModule lowerCuda(const CompiledStencil &compiled);

/// The groups of `groups` (in order) with a point on plane offset dz.
std::vector<int> groupsOnPlane(const LinearForm &form, const std::vector<int> &groups, int dz);

} // namespace stencilc::kernel
