//===- ElasticModel.cpp ---------------------------------------------------===//
#include "ElasticModel.h"

#include "stencilc/io/Npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>
#include <utility>

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

namespace {
rt::Grid<float> gridOf(int nx, int ny, int nz, int halo) {
  return rt::Grid<float>::make3d(nx, ny, nz, halo);
}
} // namespace

ElasticVolumes volumesOf(const LayeredModel &model, int nx, int ny, int nz, int halo) {
  ElasticVolumes v{gridOf(nx, ny, nz, halo), gridOf(nx, ny, nz, halo), gridOf(nx, ny, nz, halo)};
  v.vp.fillWith([&](int, int, int k) { return model.at(std::clamp(k, 0, nz - 1)).vp; });
  v.vs.fillWith([&](int, int, int k) { return model.at(std::clamp(k, 0, nz - 1)).vs; });
  v.rho.fillWith([&](int, int, int k) { return model.at(std::clamp(k, 0, nz - 1)).rho; });
  return v;
}

rt::Extent inspectModelDir(const std::string &dir) {
  std::vector<int64_t> shape;
  for (const char *name : {"vp", "vs", "rho"}) {
    const std::string path = dir + "/" + name + ".npy";
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw std::runtime_error(path + ": cannot open (--model DIR holds vp.npy, vs.npy and "
                                      "rho.npy)");
    rt::NpyHeader header;
    try {
      header = rt::parseNpyHeader(in);
    } catch (const std::runtime_error &e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    if (header.descr != "<f4" || header.fortranOrder || header.shape.size() != 3)
      throw std::runtime_error(fmt::format(
          "{}: dtype '{}', shape ({}){}: expected a C-order float32 array of shape (nz, ny, nx)",
          path, header.descr, fmt::join(header.shape, ", "),
          header.fortranOrder ? ", Fortran order" : ""));
    for (int64_t extent : header.shape)
      if (extent < 1 || extent > INT32_MAX)
        throw std::runtime_error(fmt::format("{}: extent {} out of range", path, extent));
    if (!shape.empty() && header.shape != shape)
      throw std::runtime_error(fmt::format("{}: shape ({}), but vp.npy's is ({})", path,
                                           fmt::join(header.shape, ", "), fmt::join(shape, ", ")));
    shape = header.shape;
  }
  return {int(shape[2]), int(shape[1]), int(shape[0])};
}

ElasticVolumes readModelDir(const std::string &dir, int halo) {
  const rt::Extent e = inspectModelDir(dir);
  ElasticVolumes v{gridOf(e.nx, e.ny, e.nz, halo), gridOf(e.nx, e.ny, e.nz, halo),
                   gridOf(e.nx, e.ny, e.nz, halo)};
  for (auto [grid, name] : {std::pair{&v.vp, "vp"}, {&v.vs, "vs"}, {&v.rho, "rho"}}) {
    rt::readNpyInto(*grid, dir + "/" + name + ".npy");
    // The halo repeats the nearest face.
    rt::Grid<float> &g = *grid;
    g.forEachPointWithHalo([&](int i, int j, int k) {
      g(i, j, k) =
          g(std::clamp(i, 0, e.nx - 1), std::clamp(j, 0, e.ny - 1), std::clamp(k, 0, e.nz - 1));
    });
  }
  return v;
}

void checkVolumes(const ElasticVolumes &v, double h, const std::string &where) {
  // Every point in x-fastest order until the first bad one.
  for (int k = 0; k < v.vp.nz(); ++k)
    for (int j = 0; j < v.vp.ny(); ++j)
      for (int i = 0; i < v.vp.nx(); ++i)
        checkMaterial({v.vp(i, j, k), v.vs(i, j, k), v.rho(i, j, k)},
                      fmt::format("{}: point ({}, {}, {}) (x = {} m, y = {} m, z = {} m)", where, i,
                                  j, k, i * h, j * h, k * h));
}

ElasticFields makeFields(const ElasticVolumes &v) {
  ElasticFields f{v.rho.clone(), gridOf(v.vp.nx(), v.vp.ny(), v.vp.nz(), v.vp.halo()),
                  gridOf(v.vp.nx(), v.vp.ny(), v.vp.nz(), v.vp.halo())};
  f.lambda.fillWith([&](int i, int j, int k) {
    return Material{v.vp(i, j, k), v.vs(i, j, k), v.rho(i, j, k)}.lambda();
  });
  f.mu.fillWith([&](int i, int j, int k) {
    return Material{v.vp(i, j, k), v.vs(i, j, k), v.rho(i, j, k)}.mu();
  });
  return f;
}

std::vector<Material> extremeMaterials(const ElasticVolumes &v) {
  std::set<std::pair<double, double>> distinct; // (vp², vs²)
  v.vp.forEachInteriorPoint([&](int i, int j, int k) {
    const double vp = v.vp(i, j, k), vs = v.vs(i, j, k);
    distinct.insert({vp * vp, vs * vs});
  });
  // Andrew's monotone chain: the hull's vertices, collinear points left out.
  const std::vector<std::pair<double, double>> points(distinct.begin(), distinct.end());
  if (points.size() <= 2)
    return [&] {
      std::vector<Material> m;
      for (const auto &[a, b] : points)
        m.push_back({std::sqrt(a), std::sqrt(b), 1});
      return m;
    }();
  auto cross = [](const std::pair<double, double> &o, const std::pair<double, double> &a,
                  const std::pair<double, double> &b) {
    return (a.first - o.first) * (b.second - o.second) -
           (a.second - o.second) * (b.first - o.first);
  };
  std::vector<std::pair<double, double>> hull(2 * points.size());
  size_t count = 0;
  for (size_t p = 0; p < points.size(); ++p) { // lower hull
    while (count >= 2 && cross(hull[count - 2], hull[count - 1], points[p]) <= 0)
      --count;
    hull[count++] = points[p];
  }
  for (size_t p = points.size() - 1, lower = count + 1; p-- > 0;) { // upper hull
    while (count >= lower && cross(hull[count - 2], hull[count - 1], points[p]) <= 0)
      --count;
    hull[count++] = points[p];
  }
  hull.resize(count - 1); // the last point is the first
  std::vector<Material> m;
  for (const auto &[a, b] : hull)
    m.push_back({std::sqrt(a), std::sqrt(b), 1});
  return m;
}

} // namespace elastic
