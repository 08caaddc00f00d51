//===- ElasticStability.h - Von Neumann analysis of the coupled LWC step ---===//
//
// `stencilc analyze` finds the stable step of an update that reads only the
// two levels it steps; each update of lwc_elastic also reads the other two
// components, so its analysis says "none". This is the analysis of the coupled
// system: with the update's coefficients held at one material's values, a
// Fourier mode X e^{i k.x} of the three components obeys
//
//   X(t + dt) = A(theta) X(t) + B(theta) X(t - dt),
//
// A and B 3 x 3, assembled from the stencil's linear form (the terms each
// update reads from each component's current and previous level). The
// leapfrog form has B = -I, and a symmetric stencil a Hermitian A (the analysis
// refuses others); each eigenvalue a of A gives the roots of z² - a z + 1 = 0,
// both on the unit circle exactly when |a| <= 2.
// The largest stable dt is found by bisection to a relative 1e-6, on the same
// grid of wavenumbers as analysis/Stability.h (every corner of [-pi, pi]^3).
//
// A model of many materials needs the analysis at a few only. lwc_elastic's
// coefficients are linear in lambda / rho = vp² - 2 vs² and mu / rho = vs², so
// A(theta) = 2I + (dt / h)² (vp² P(theta) + vs² Q(theta)), P and Q fixed; the
// largest and the smallest eigenvalue of vp² P + vs² Q are convex and concave
// functions of (vp², vs²), so over the model's materials the step is stable when
// it is at the vertices of their convex hull (extremeMaterials, ElasticModel.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ElasticModel.h"

#include <memory>
#include <string>

namespace elastic {

class CoupledStability {
public:
  /// Parses and linearizes the .stencil file at `path` (lwc_elastic's);
  /// throws std::runtime_error naming the file when it cannot, or when its
  /// updates are not of the leapfrog form above.
  explicit CoupledStability(const std::string &path);
  ~CoupledStability();

  /// The largest stable dt (s) for material `m` on a grid of spacing h (m)
  /// on every axis.
  double largestStableStep(const Material &m, double h) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace elastic
