//===- RtmModel.h - The synthetic model the imaging example migrates -------===//
//
// A background whose velocity grows with depth, with three reflectors where
// the velocity steps up: two flat ones and one dipping across x. The data
// are modelled in this true model and migrated in a smoothed copy of it
// (a Gaussian of `smoothing` cells along x and z), which keeps the
// traveltimes but has no sharp contrast to reflect, so an image's reflectors
// come from the data alone (docs/SEISMIC.md §Reverse-time migration).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"

#include <string>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;

struct ModelSize {
  int nx = 0, ny = 0, nz = 0;
};

/// The background: 1800 m/s at the top, +0.5 m/s per metre of depth.
double backgroundVelocity(double depthMetres);

/// One interface: at depth index top0 at x = 0, rising or sinking linearly
/// to top1 at the last x; below it the velocity is `contrast` m/s higher.
struct Reflector {
  double top0 = 0, top1 = 0;
  double contrast = 0;
  /// The first z index below the interface at column i (of nx).
  int topAt(int i, int nx) const;
};

/// Two flat reflectors and one dipping one, placed by fractions of the depth.
std::vector<Reflector> syntheticReflectors(const ModelSize &size);

/// The true model (background and reflectors) and the migration model (the
/// true one smoothed by a Gaussian of standard deviation `smoothing` cells
/// along x and z), with the given halo (edge values continued into it).
rt::Grid<float> trueModel(const ModelSize &size, double h, int halo);
rt::Grid<float> smoothModel(const ModelSize &size, double h, int halo, double smoothing);

} // namespace rtm
