//===- RtmModel.cpp - The synthetic model the imaging example migrates -----===//
#include "RtmModel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rtm {

double backgroundVelocity(double depthMetres) { return 1800.0 + 0.5 * depthMetres; }

int Reflector::topAt(int i, int nx) const {
  const double f = nx > 1 ? double(i) / (nx - 1) : 0.0;
  return int(std::lround(top0 + (top1 - top0) * f));
}

std::vector<Reflector> syntheticReflectors(const ModelSize &size) {
  const double nz = size.nz;
  // Apart by more than the image's wavelet (about 10 cells at 25 Hz) so
  // that each reflector's image stands clear of its neighbours' side lobes.
  return {{0.35 * nz, 0.35 * nz, 250},  // flat
          {0.55 * nz, 0.55 * nz, 250},  // flat
          {0.72 * nz, 0.84 * nz, 300}}; // dipping, deeper to the right
}

namespace {
/// The grid's value at (i, j, k), clamped to the interior so that the halo
/// continues the edge.
template <typename F> rt::Grid<float> gridOf(const ModelSize &size, int halo, F &&value) {
  rt::Grid<float> g = rt::Grid<float>::make3d(size.nx, size.ny, size.nz, halo);
  g.fillWith([&](int i, int j, int k) {
    return float(value(std::clamp(i, 0, size.nx - 1), std::clamp(j, 0, size.ny - 1),
                       std::clamp(k, 0, size.nz - 1)));
  });
  return g;
}
} // namespace

namespace {
double trueVelocity(const ModelSize &size, const std::vector<Reflector> &reflectors, double h,
                    int i, int k) {
  double v = backgroundVelocity(k * h);
  for (const Reflector &r : reflectors)
    if (k >= r.topAt(i, size.nx))
      v += r.contrast;
  return v;
}
} // namespace

rt::Grid<float> trueModel(const ModelSize &size, double h, int halo) {
  const std::vector<Reflector> reflectors = syntheticReflectors(size);
  return gridOf(size, halo,
                [&](int i, int, int k) { return trueVelocity(size, reflectors, h, i, k); });
}

rt::Grid<float> smoothModel(const ModelSize &size, double h, int halo, double smoothing) {
  const std::vector<Reflector> reflectors = syntheticReflectors(size);
  // A separable Gaussian over x and z (the model does not vary along y),
  // the edges continued beyond the grid.
  const int reach = int(std::ceil(3 * smoothing));
  std::vector<double> weight(size_t(2 * reach + 1));
  double total = 0;
  for (int d = -reach; d <= reach; ++d)
    total += weight[size_t(d + reach)] =
        smoothing > 0 ? std::exp(-0.5 * d * d / (smoothing * smoothing)) : (d == 0);
  for (double &w : weight)
    w /= total;
  std::vector<double> plane(size_t(size.nx) * size.nz), pass(plane.size());
  auto at = [&](std::vector<double> &p, int i, int k) -> double & {
    return p[size_t(k) * size.nx + i];
  };
  for (int k = 0; k < size.nz; ++k)
    for (int i = 0; i < size.nx; ++i)
      at(plane, i, k) = trueVelocity(size, reflectors, h, i, k);
  for (int k = 0; k < size.nz; ++k)
    for (int i = 0; i < size.nx; ++i) {
      double sum = 0;
      for (int d = -reach; d <= reach; ++d)
        sum += weight[size_t(d + reach)] * at(plane, std::clamp(i + d, 0, size.nx - 1), k);
      at(pass, i, k) = sum;
    }
  for (int k = 0; k < size.nz; ++k)
    for (int i = 0; i < size.nx; ++i) {
      double sum = 0;
      for (int d = -reach; d <= reach; ++d)
        sum += weight[size_t(d + reach)] * at(pass, i, std::clamp(k + d, 0, size.nz - 1));
      at(plane, i, k) = sum;
    }
  return gridOf(size, halo, [&](int i, int, int k) { return at(plane, i, k); });
}

} // namespace rtm
