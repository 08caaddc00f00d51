//===- KernelComparison.h - A generated kernel against the oracle ----------===//
//
// The check every kernel test makes, CPU or CUDA: random inputs, outputs
// poisoned with NaN before each of several steps, the levels rotated in
// between; the kernel's outputs must match the double-precision reference
// evaluator normwise, with no NaN in the interior and nothing written into
// the halo (out of place). The backends differ only in how a step is run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"

#include <stencilc/KernelData.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <type_traits>

namespace stencilc::kerneltest {

/// Runs `step` (one kernel call on the arguments it is given) for three steps
/// on `shape` and compares every output with the reference evaluator after
/// each. `label` names the case in failure messages.
template <typename Real>
void runAndCompare(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::GridShape shape,
                   bool inPlace, const std::function<void(const rt::ErasedArgs &)> &step,
                   const std::string &label) {
  const double tolerance = std::is_same_v<Real, float> ? 1e-5 : 1e-12;
  eval::EvalSizes sizes{shape.nx, shape.ny, shape.nz, 23, -1};
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 20261122);
  // Kernel grids get the halo the oracle chose (the stencil's reach).
  for (auto &g : ref.grids)
    if (g)
      shape.halo = g->halo();
  rt::KernelData data(info, shape, sizes.tableColumns, inPlace);
  eval::copyInputs<Real>(ref, data);
  constexpr int kSteps = 3;
  for (int s = 0; s < kSteps; ++s) {
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output) {
        ref.grids[f]->poison();
        if (!inPlace)
          data.field<Real>(int(f)).poison();
      }
    eval::evaluateReference(stencil, ref.bindings());
    step(data.args());
    for (size_t f = 0; f < info.fields.size(); ++f) {
      if (ref.roles[f] != ir::FieldRole::Output)
        continue;
      const rt::Grid<double> &expect = *ref.grids[f];
      const rt::Grid<Real> &got = data.field<Real>(int(f));
      double diff2 = 0, norm2 = 0;
      long nans = 0, haloWrites = 0;
      got.forEachPointWithHalo([&](int i, int j, int k) {
        bool interior = i >= 0 && i < shape.nx && j >= 0 && j < shape.ny && k >= 0 && k < shape.nz;
        if (!interior) {
          haloWrites += !inPlace && !std::isnan(double(got(i, j, k)));
          return;
        }
        double e = expect(i, j, k), g = double(got(i, j, k));
        nans += std::isnan(g);
        diff2 += (g - e) * (g - e);
        norm2 += e * e;
      });
      std::string where = label + " " + std::to_string(shape.nx) + "x" + std::to_string(shape.ny) +
                          "x" + std::to_string(shape.nz) + " step " + std::to_string(s) +
                          " field " + info.fields[f].name + (inPlace ? " in place" : "");
      ASSERT_EQ(nans, 0) << where << ": interior points not written";
      ASSERT_EQ(haloWrites, 0) << where << ": halo points written";
      ASSERT_GT(norm2, 0) << where;
      double error = std::sqrt(diff2 / norm2);
      ASSERT_LT(error, tolerance) << where << ": normwise relative error " << error;
    }
    // The new level's halo is the boundary condition of the next step: zero
    // (Dirichlet) in both, instead of the poison that proved nothing wrote it.
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output) {
        eval::zeroHalo(*ref.grids[f], shape);
        eval::zeroHalo(data.field<Real>(int(f)), shape);
      }
    data.rotate();
    eval::rotateReference(info, ref);
  }
}

} // namespace stencilc::kerneltest
