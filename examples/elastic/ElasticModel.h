//===- ElasticModel.h - Isotropic elastic models for the LWC step ----------===//
//
// The lwc_elastic stencil reads density and the Lamé parameters at every
// point; a user thinks in P and S velocities. A material is given as (vp, vs,
// rho) and converted: mu = rho vs², lambda = rho vp² − 2 mu. vs < vp / √2 is
// required (lambda > 0, a positive Poisson's ratio, as rocks have: a vs at or
// above it is almost surely a mistake in the model), as are finite positive
// values.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"

#include <string>
#include <vector>

namespace elastic {

namespace rt = stencilc::rt;

/// One isotropic material: velocities in m/s, density in kg/m³.
struct Material {
  double vp = 0, vs = 0, rho = 0;
  double mu() const { return rho * vs * vs; }
  double lambda() const { return rho * vp * vp - 2 * mu(); }
};

/// Throws std::invalid_argument, naming `where` and the value, unless vp, vs
/// and rho are finite and positive and vs < vp / √2 (lambda >= 0 would fail).
void checkMaterial(const Material &m, const std::string &where);

/// Flat layers: layer l spans depths [top[l], top[l + 1]) in grid points (top[0]
/// = 0, the last to the bottom).
struct LayeredModel {
  std::vector<Material> layers;
  std::vector<int> tops;
  /// The material at depth index k.
  const Material &at(int k) const;
};

/// The built-in model of `nz` points: three layers, (vp, vs, rho) = (1800,
/// 900, 2000), (2400, 1300, 2200), (3000, 1700, 2400) below 35 % and 65 % of
/// the depth.
LayeredModel builtInLayers(int nz);

/// One material everywhere.
LayeredModel homogeneous(const Material &m);

/// A model as three volumes on an nx × ny × nz grid with a halo (which repeats
/// the nearest face): vp and vs in m/s, rho in kg/m³.
struct ElasticVolumes {
  rt::Grid<float> vp, vs, rho;
};
ElasticVolumes volumesOf(const LayeredModel &model, int nx, int ny, int nz, int halo);

/// `--model DIR`: DIR/vp.npy, DIR/vs.npy and DIR/rho.npy, C-order float32 arrays
/// of one shape (nz, ny, nx) (docs/SEISMIC.md §Conventions). inspectModelDir
/// reads their headers only (the size, before any memory is taken); both throw
/// std::runtime_error naming the file that is missing or does not fit.
rt::Extent inspectModelDir(const std::string &dir);
ElasticVolumes readModelDir(const std::string &dir, int halo);

/// Refuses (std::invalid_argument) the first point, x fastest, whose material
/// fails checkMaterial, naming `where`, the point and its position at spacing h.
void checkVolumes(const ElasticVolumes &v, double h, const std::string &where);

/// The stencil's per-point fields, rho, lambda = rho (vp² − 2 vs²) and mu = rho vs²,
/// over the grid and its halo.
struct ElasticFields {
  rt::Grid<float> rho, lambda, mu;
};
ElasticFields makeFields(const ElasticVolumes &v);

/// The materials whose stable steps bound every point's: the vertices of the
/// convex hull of the model's (vp², vs²) pairs (ElasticStability.h says why), rho 1
/// (the limit does not depend on it).
std::vector<Material> extremeMaterials(const ElasticVolumes &v);

} // namespace elastic
