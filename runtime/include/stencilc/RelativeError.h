//===- RelativeError.h - A kernel's output against the reference's --------===//
//
// How `stencilc bench`, `stencilc tune` and the GPU benchmark judge a
// generated kernel: the normwise relative difference of its output from the
// reference evaluator's. In the runtime so that a harness can judge on a
// machine without the compiler (the CUDA tune harness on a GPU).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/Grid.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stencilc::rt {

/// sqrt(sum (g - e)^2 / sum e^2) over the interior points; infinite where `got`
/// holds a NaN there, so that a point no variant wrote (outputs are poisoned
/// first) fails every tolerance, and where `expect` does, so that a reference
/// that read a NaN fails too instead of comparing as NaN (which max() drops).
template <typename Real>
double relativeError(const rt::Grid<Real> &got, const rt::Grid<double> &expect) {
  double diff2 = 0, norm2 = 0;
  bool nan = false;
  got.forEachInteriorPoint([&](int i, int j, int k) {
    const double g = double(got(i, j, k)), e = expect(i, j, k);
    nan |= std::isnan(g) || std::isnan(e);
    diff2 += (g - e) * (g - e);
    norm2 += e * e;
  });
  return nan ? std::numeric_limits<double>::infinity() : std::sqrt(diff2 / std::max(norm2, 1e-300));
}

} // namespace stencilc::rt
