//===- TwoStepEntries.h - Host entries of the two-step CUDA launch ---------===//
//
// The generated `runTwoSteps`, `rotateTwoSteps` and the pieces of
// `runErasedTwoSteps` (templates/cuda): the second step's arguments are the
// first's rotated by one step with the outputs in storages of their own, and
// after the launch four storages per time field move on by two steps.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/KernelNames.h"
#include "ir/IR.h"

#include <string>

namespace stencilc::backend {

/// `rt::FieldView<Real> <output>;` per output: SecondOutputs' members.
std::string secondOutputMembers(const ir::Stencil &s, const KernelNames &names);

/// The definitions of runTwoSteps and rotateTwoSteps. With a `reason` (the
/// kernel cannot take two steps per launch) both throw it; otherwise
/// runTwoSteps checks the storages and calls `launchSweep0TwoSteps`.
std::string twoStepEntries(const ir::Stencil &s, const KernelNames &names,
                           const std::string &kernel, const std::string &reason);

/// Fills SecondOutputs `s` from the erased fields `second`.
std::string erasedSecondOutputs(const ir::Stencil &s, const KernelNames &names,
                                const std::string &kernel);

} // namespace stencilc::backend
