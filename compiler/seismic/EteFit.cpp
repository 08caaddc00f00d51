//===- EteFit.cpp - Least-squares fit of ETE coefficient tables ------------===//
#include "seismic/EteFit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

namespace stencilc::seismic {
namespace {

using Wavenumber = std::array<double, 3>;

/// Velocities solved at once: bounds the right-hand-side matrix to a few MB
/// whatever Nd is (the papers use 902 velocities).
constexpr int kVelocityChunk = 64;
/// Samples per half-axis of the Brillouin zone for the stability check.
constexpr int kZoneSamplesPerHalfAxis = 10;

void validate(const EtePoints &points, const std::vector<double> &velocities,
              const EteFitOptions &options) {
  if (points.offsets.empty() || points.offsets.size() != points.classOf.size())
    throw std::invalid_argument("ETE fit: the point set is empty or has no class per point");
  std::vector<int> pointsPerClass(std::max(points.numClasses, 0), 0);
  for (int c : points.classOf) {
    if (c < 0 || c >= points.numClasses)
      throw std::invalid_argument("ETE fit: class " + std::to_string(c) + " out of range");
    ++pointsPerClass[c];
  }
  if (std::count(pointsPerClass.begin(), pointsPerClass.end(), 0) != 0)
    throw std::invalid_argument("ETE fit: a coefficient class has no points");
  if (velocities.empty())
    throw std::invalid_argument("ETE fit: no velocities");
  for (double v : velocities)
    if (!(v > 0) || !std::isfinite(v))
      throw std::invalid_argument("ETE fit: velocities must be positive");
  if (!(options.spacing > 0) || !(options.dt > 0))
    throw std::invalid_argument("ETE fit: the grid spacing and the time step must be positive");
  if (!(options.band > 0) || options.band > 1)
    throw std::invalid_argument("ETE fit: the band must be a fraction of Nyquist in (0, 1]");
  if (options.samplesPerHalfAxis < 1)
    throw std::invalid_argument("ETE fit: at least one sample per half-axis is needed");
}

double norm(const Wavenumber &k) { return std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]); }

/// The points of a cube grid of n samples per half-axis and half-width
/// `kMax`, kept if inside the ball of radius `kMax` (all of them if not `ballOnly`).
std::vector<Wavenumber> cubeSamples(double kMax, int n, bool ballOnly) {
  std::vector<Wavenumber> samples;
  const double step = kMax / n;
  for (int a = -n; a <= n; ++a)
    for (int b = -n; b <= n; ++b)
      for (int c = -n; c <= n; ++c) {
        Wavenumber k{a * step, b * step, c * step};
        if (!ballOnly || norm(k) <= kMax * (1 + 1e-12))
          samples.push_back(k);
      }
  return samples;
}

/// Per sample (row) and class (column): Σ over the class's points of
/// cos(k·Δx) in `re` and sin(k·Δx) in `im`.
void classBasis(const EtePoints &points, const std::vector<Wavenumber> &samples, double h,
                Eigen::MatrixXd &re, Eigen::MatrixXd &im) {
  re.setZero(Eigen::Index(samples.size()), points.numClasses);
  im.setZero(Eigen::Index(samples.size()), points.numClasses);
  for (size_t s = 0; s < samples.size(); ++s)
    for (size_t j = 0; j < points.offsets.size(); ++j) {
      const auto &o = points.offsets[j];
      double phase = h * (samples[s][0] * o[0] + samples[s][1] * o[1] + samples[s][2] * o[2]);
      re(Eigen::Index(s), points.classOf[j]) += std::cos(phase);
      im(Eigen::Index(s), points.classOf[j]) += std::sin(phase);
    }
}

/// Symmetric point sets (closed under Δx -> -Δx with classes that follow)
/// have a real response: their imaginary rows carry nothing to fit.
bool isNegligible(const Eigen::MatrixXd &m) {
  return m.size() == 0 || m.cwiseAbs().maxCoeff() < 1e-12;
}

} // namespace

std::array<double, 2> eteResponse(const EtePoints &points,
                                  const std::vector<double> &classCoefficients,
                                  const std::array<double, 3> &k, double spacing) {
  double re = 0, im = 0;
  for (size_t j = 0; j < points.offsets.size(); ++j) {
    const auto &o = points.offsets[j];
    double phase = spacing * (k[0] * o[0] + k[1] * o[1] + k[2] * o[2]);
    double c = classCoefficients.at(points.classOf[j]);
    re += c * std::cos(phase);
    im += c * std::sin(phase);
  }
  return {re, im};
}

EteFit fitEte(const EtePoints &points, const std::vector<double> &velocities,
              const EteFitOptions &options) {
  validate(points, velocities, options);
  const int classes = points.numClasses;
  const double h = options.spacing;
  const double kMax = options.band * std::numbers::pi / h;

  const std::vector<Wavenumber> samples = cubeSamples(kMax, options.samplesPerHalfAxis, true);
  if (int(samples.size()) < classes)
    throw std::invalid_argument("ETE fit: fewer wavenumber samples than coefficient classes");
  const Eigen::Index n = Eigen::Index(samples.size());
  // The stability check samples the whole zone, edges included.
  const std::vector<Wavenumber> zone =
      cubeSamples(std::numbers::pi / h, kZoneSamplesPerHalfAxis, false);

  Eigen::MatrixXd re, im;
  classBasis(points, samples, h, re, im);
  const bool complexResponse = !isNegligible(im);
  Eigen::MatrixXd design(complexResponse ? 2 * n : n, classes);
  design.topRows(n) = re;
  if (complexResponse)
    design.bottomRows(n) = im;

  // The constraint Σ_j c_j = 1 reads a·c = 1 with a the class sizes. Write
  // c = c0 + N z with c0 = a / |a|² and N an orthonormal basis of a's
  // orthogonal complement (the last columns of a's Householder Q); z is free.
  Eigen::VectorXd sizes = Eigen::VectorXd::Zero(classes);
  for (int c : points.classOf)
    sizes[c] += 1;
  const Eigen::VectorXd c0 = sizes / sizes.squaredNorm();
  const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(sizes).householderQ();
  const Eigen::MatrixXd nullBasis = q.rightCols(classes - 1);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> solver;
  if (classes > 1)
    solver.compute(design * nullBasis);

  Eigen::MatrixXd zoneRe, zoneIm;
  classBasis(points, zone, h, zoneRe, zoneIm);

  EteFit fit;
  const int nd = int(velocities.size());
  fit.coefficients.resize(nd);
  fit.rmsMisfit.resize(nd);
  fit.maxMisfit.resize(nd);
  fit.maxAmplification.resize(nd);
  for (int first = 0; first < nd; first += kVelocityChunk) {
    const int count = std::min(kVelocityChunk, nd - first);
    Eigen::MatrixXd cosine(n, count);
    for (int v = 0; v < count; ++v)
      for (Eigen::Index s = 0; s < n; ++s)
        cosine(s, v) = std::cos(velocities[first + v] * options.dt * norm(samples[s]));
    Eigen::MatrixXd target = Eigen::MatrixXd::Zero(design.rows(), count);
    target.topRows(n) = cosine;
    Eigen::MatrixXd coeffs = c0.replicate(1, count);
    if (classes > 1)
      coeffs += nullBasis * solver.solve(target - design * coeffs);

    const Eigen::MatrixXd bandRe = re * coeffs - cosine, bandIm = im * coeffs;
    const Eigen::MatrixXd zoneResponseRe = zoneRe * coeffs, zoneResponseIm = zoneIm * coeffs;
    for (int v = 0; v < count; ++v) {
      const Eigen::ArrayXd misfit =
          (bandRe.col(v).array().square() + bandIm.col(v).array().square()).sqrt();
      const int out = first + v;
      fit.rmsMisfit[out] = std::sqrt(misfit.square().mean());
      fit.maxMisfit[out] = misfit.maxCoeff();
      fit.maxAmplification[out] =
          (zoneResponseRe.col(v).array().square() + zoneResponseIm.col(v).array().square())
              .sqrt()
              .maxCoeff();
      fit.coefficients[out].assign(coeffs.col(v).data(), coeffs.col(v).data() + classes);
    }
  }
  return fit;
}

double eteMisfitAtRandomWavenumbers(const EtePoints &points,
                                    const std::vector<double> &classCoefficients, double velocity,
                                    const EteFitOptions &options, int samples, unsigned seed) {
  const double kMax = options.band * std::numbers::pi / options.spacing;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> component(-kMax, kMax);
  double worst = 0;
  for (int drawn = 0; drawn < samples;) {
    Wavenumber k{component(rng), component(rng), component(rng)};
    if (norm(k) > kMax)
      continue; // rejection sampling keeps the draw uniform in the ball
    ++drawn;
    auto [re, im] = eteResponse(points, classCoefficients, k, options.spacing);
    double target = std::cos(velocity * options.dt * norm(k));
    worst = std::max(worst, std::hypot(re - target, im));
  }
  return worst;
}

} // namespace stencilc::seismic
