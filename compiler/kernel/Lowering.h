//===- Lowering.h - Shared by the CPU and CUDA lowerings -------------------===//
#pragma once

#include "kernel/KernelIR.h"

#include <string>
#include <vector>

namespace stencilc::kernel {

KernelModule lowerCpu(const CompiledStencil &compiled);
KernelModule lowerCuda(const CompiledStencil &compiled);

/// Decides which CPU row functions of `sweep` run whole vector blocks and
/// which rows they cut from whole vectors (Function::xLoop, shiftedRows).
void planVectorBlocks(const ir::Stencil &s, const LinearStencil &linear, SweepKernels &sweep);

/// Whether an update stores over a time field (in place) that a later update of
/// the stencil reads: then a point's stores must come after all its loads.
bool storeOverwritesLaterRead(const ir::Stencil &stencil, const LinearStencil &linear);

/// Whether a GPU kernel stores a point's outputs after all its loads: where the
/// CPU's rule asks it, and wherever the stencil has several updates, so that no
/// load waits behind a store (kernel/StoreOrder.cpp).
bool gpuStoresAfterLoads(const ir::Stencil &stencil, const LinearStencil &linear);

/// The groups of `groups` (in order) with a point on plane offset dz.
std::vector<int> groupsOnPlane(const LinearForm &form, const std::vector<int> &groups, int dz);

} // namespace stencilc::kernel
