//===- Model.cpp - Velocity models, the sponge layer and the source wavelet ===//
#include "Model.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace wave {

namespace {
/// A grid for `part` of the whole grid, with a halo `halo` deep.
rt::Grid<float> gridFor(const rt::Box &part, int halo) {
  return rt::Grid<float>::make3d(part.x1 - part.x0, part.y1 - part.y0, part.z1 - part.z0, halo);
}
} // namespace

rt::Grid<float> layeredModel(int nx, int ny, int nz) {
  return layeredModel(nx, ny, nz, {0, 0, 0, nx, ny, nz});
}

rt::Grid<float> layeredModel(int nx, int ny, int nz, const rt::Box &part, int halo) {
  rt::Grid<float> v = gridFor(part, halo);
  v.fillWith([&](int li, int lj, int lk) {
    const int i = li + part.x0, j = lj + part.y0, k = lk + part.z0;
    const double x = (i + 0.5) / nx, y = (j + 0.5) / ny, z = (k + 0.5) / nz;
    const double dx = (x - 0.5) / 0.22, dy = (y - 0.5) / 0.22, dz = (z - 0.62) / 0.12;
    if (dx * dx + dy * dy + dz * dz <= 1)
      return 4500.0f;
    if (z < 0.25)
      return 1500.0f;
    if (z < 0.45)
      return 2000.0f;
    if (z < 0.75)
      return 2600.0f;
    return 3200.0f;
  });
  return v;
}

rt::Grid<float> homogeneousModel(int nx, int ny, int nz, float velocity) {
  return homogeneousModel({0, 0, 0, nx, ny, nz}, velocity);
}

rt::Grid<float> homogeneousModel(const rt::Box &part, float velocity, int halo) {
  rt::Grid<float> v = gridFor(part, halo);
  v.fill(velocity);
  return v;
}

rt::Grid<float> spongeDamping(const rt::GridShape &shape, int width, double alpha) {
  return spongeDamping(shape, {0, 0, 0, shape.nx, shape.ny, shape.nz}, width, alpha);
}

rt::Grid<float> spongeDamping(const rt::GridShape &shape, const rt::Box &part, int width,
                              double alpha) {
  rt::Grid<float> g(rt::GridShape{shape.dims, part.x1 - part.x0, part.y1 - part.y0,
                                  part.z1 - part.z0, shape.halo});
  g.fillWith([&](int li, int lj, int lk) {
    const int i = li + part.x0, j = lj + part.y0, k = lk + part.z0;
    if (width <= 0)
      return 1.0;
    // Distance to the nearest face, clamped to the interior.
    const int d =
        std::max(0, std::min({i, j, k, shape.nx - 1 - i, shape.ny - 1 - j, shape.nz - 1 - k}));
    if (d >= width)
      return 1.0;
    const double a = alpha * double(width - d) / width;
    return std::exp(-a * a);
  });
  return g;
}

rt::Grid<float> spongeDamping(const rt::GridShape &shape, const SpongeWidths &widths,
                              double alpha) {
  rt::Grid<float> g(shape);
  g.fillWith([&](int i, int j, int k) {
    // The same expression per face as above, so equal widths give the same
    // factors bit for bit; distances clamped to the interior.
    double a = 0;
    auto face = [&](int d, int width) {
      d = std::max(0, d);
      if (d < width)
        a = std::max(a, alpha * double(width - d) / width);
    };
    face(std::min(i, shape.nx - 1 - i), widths.x);
    face(std::min(j, shape.ny - 1 - j), widths.y);
    face(k, widths.top);
    face(shape.nz - 1 - k, widths.bottom);
    return a > 0 ? std::exp(-a * a) : 1.0;
  });
  return g;
}

double ricker(double t, double f, double t0) {
  const double a = std::numbers::pi * f * (t - t0);
  return (1 - 2 * a * a) * std::exp(-a * a);
}

} // namespace wave
