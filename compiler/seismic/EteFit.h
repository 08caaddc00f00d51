//===- EteFit.h - Least-squares fit of ETE coefficient tables --------------===//
//
// The ETE update (docs/DESIGN.md §ETE coefficients [1, eq. 4]) is
// p(t+Δt) = 2 Σ_j c_j p(x + Δx_j, t) − p(t−Δt).
// In the wavenumber domain the exact step for a constant velocity v is
// p̂(t+Δt) = 2 cos(vΔt|k|) p̂(t) − p̂(t−Δt) ([1] eq. 1), so the coefficients of
// one velocity are chosen to minimise, over a band of wavenumbers k,
//
//     | Σ_j c_j e^{i k·Δx_j} − cos(vΔt|k|) |²        ([1] eq. 3)
//
// with the coefficients of one symmetry class tied together (one unknown per
// class, its basis function the sum of e^{i k·Δx_j} over the class's points).
// The zero wavenumber is matched exactly (Σ_j c_j = 1, a linear equality
// constraint), so a constant field stays constant under a step.
//
// Every velocity shares the same design matrix, so it is factorised once
// (Eigen's column-pivoting Householder QR) and solved for all velocities.
// This file knows nothing of the IR: EteStencil.h extracts the point set.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <vector>

namespace stencilc::seismic {

/// The points of an ETE operator and the coefficient class of each.
struct EtePoints {
  std::vector<std::array<int, 3>> offsets; ///< (dx, dy, dz) in grid points
  std::vector<int> classOf;                ///< per offset, in [0, numClasses)
  int numClasses = 0;
};

struct EteFitOptions {
  double spacing = 10.0; ///< grid spacing h, the same along every axis (metres)
  double dt = 1e-3;      ///< time step (seconds)
  /// The fit covers |k| <= band · π/h: a fraction of the Nyquist wavenumber.
  double band = 0.6;
  /// Wavenumber samples per half-axis of the band's bounding cube; the
  /// samples are the cube's grid points inside the ball |k| <= band · π/h.
  int samplesPerHalfAxis = 12;
};

/// The fitted table and how well it fits.
struct EteFit {
  /// coefficients[v][c]: class c's coefficient for velocities[v].
  std::vector<std::vector<double>> coefficients;
  /// Per velocity, over the fitting samples: the root-mean-square and the
  /// largest |Σ_j c_j e^{i k·Δx_j} − cos(vΔt|k|)|.
  std::vector<double> rmsMisfit;
  std::vector<double> maxMisfit;
  /// Per velocity, the largest |Σ_j c_j e^{i k·Δx_j}| over the whole Brillouin
  /// zone |k_x|, |k_y|, |k_z| <= π/h: above 1 the step amplifies that
  /// wavenumber and the scheme is unstable.
  std::vector<double> maxAmplification;
};

/// Fits one coefficient set per velocity. Throws std::invalid_argument on
/// empty or inconsistent input (a class without points, non-positive h or Δt,
/// a band outside (0, 1], fewer samples than classes).
EteFit fitEte(const EtePoints &points, const std::vector<double> &velocities,
              const EteFitOptions &options);

/// Σ_j c_j e^{i k·Δx_j} for class coefficients `classCoefficients` at
/// wavenumber k (radians per metre), as (real, imaginary).
std::array<double, 2> eteResponse(const EtePoints &points,
                                  const std::vector<double> &classCoefficients,
                                  const std::array<double, 3> &k, double spacing);

/// Largest |Σ_j c_j e^{i k·Δx_j} − cos(vΔt|k|)| over `samples` random
/// wavenumbers drawn uniformly from the ball |k| <= band · π/h: a check on
/// wavenumbers the fit never saw.
double eteMisfitAtRandomWavenumbers(const EtePoints &points,
                                    const std::vector<double> &classCoefficients, double velocity,
                                    const EteFitOptions &options, int samples, unsigned seed);

} // namespace stencilc::seismic
