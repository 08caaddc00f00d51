//===- CpuRunEntry.h - A CPU kernel's run() and its default options --------===//
//
// The generated kernel's entry: kDefaultOptions and kTimeTiling in its header
// (the options run() takes when its caller gives none), and run()'s body,
// which takes the box to compute, chooses each variant's tiles (the caller's,
// else the sweep plan's defaults; whole rows in x unless asked) and calls
// each sweep's driver of that variant.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/cpu/CpuEmitter.h"
#include "kernel/KernelIR.h"
#include "passes/SweepPlan.h"

#include <string>

namespace stencilc::backend {

/// kDefaultOptions and kTimeTiling, with a comment that says where they come from.
std::string cpuRunDefaultsText(const kernel::RunDefaults &defaults);

/// run()'s body for the kernel `kernelName`.
std::string cpuRunBody(const kernel::KernelModule &module, const CpuSchedule &plan,
                       const std::string &kernelName);

} // namespace stencilc::backend
