//===- ElasticModel.cpp ---------------------------------------------------===//
#include "ElasticModel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elastic {

void checkMaterial(const Material &m, const std::string &where) {
  auto positive = [&](double value, const char *name, const char *unit) {
    if (!std::isfinite(value) || !(value > 0))
      throw std::invalid_argument(fmt::format("{}: {} = {} {}: expected a finite positive number",
                                              where, name, value, unit));
  };
  positive(m.vp, "vp", "m/s");
  positive(m.vs, "vs", "m/s");
  positive(m.rho, "rho", "kg/m^3");
  if (!(m.vs < m.vp / std::sqrt(2.0)))
    throw std::invalid_argument(fmt::format(
        "{}: vs = {} m/s is not below vp / sqrt(2) = {:.6g} m/s (vp = {} m/s): lambda = rho (vp^2 "
        "- 2 vs^2) = {:.6g} Pa would not be positive",
        where, m.vs, m.vp / std::sqrt(2.0), m.vp, m.lambda()));
}

const Material &LayeredModel::at(int k) const {
  size_t l = 0;
  while (l + 1 < layers.size() && k >= tops[l + 1])
    ++l;
  return layers[l];
}

LayeredModel builtInLayers(int nz) {
  return {{{1800, 900, 2000}, {2400, 1300, 2200}, {3000, 1700, 2400}},
          {0, nz * 35 / 100, nz * 65 / 100}};
}

LayeredModel homogeneous(const Material &m) { return {{m}, {0}}; }

ElasticFields makeFields(const LayeredModel &model, int nx, int ny, int nz, int halo) {
  ElasticFields f{rt::Grid<float>::make3d(nx, ny, nz, halo),
                  rt::Grid<float>::make3d(nx, ny, nz, halo),
                  rt::Grid<float>::make3d(nx, ny, nz, halo)};
  auto fill = [&](rt::Grid<float> &g, double (*value)(const Material &)) {
    g.fillWith([&](int, int, int k) { return float(value(model.at(std::clamp(k, 0, nz - 1)))); });
  };
  fill(f.rho, [](const Material &m) { return m.rho; });
  fill(f.lambda, [](const Material &m) { return m.lambda(); });
  fill(f.mu, [](const Material &m) { return m.mu(); });
  return f;
}

} // namespace elastic
