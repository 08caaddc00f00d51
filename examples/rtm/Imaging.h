//===- Imaging.h - From the correlation sums to the image -----------------===//
//
// The image is the cross-correlation of source and receiver wavefields
// divided by the source illumination (Σ u², which undoes the geometric
// spreading of the source wavefield and the uneven coverage of the shots),
// stabilised by a small fraction of its largest value where the source
// barely reaches, and then filtered by −∇², which suppresses the
// low-wavenumber artefacts that backscattered and diving waves leave along
// their paths (docs/SEISMIC.md §Reverse-time migration).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Migration.h"

#include "stencilc/Grid.h"

namespace rtm {

struct ImageOptions {
  bool normalise = true; ///< divide by the source illumination
  bool laplacian = true; ///< filter by −∇²
  /// The fraction of the largest illumination added to every point's before dividing.
  double stabilisation = 1e-3;
};

/// The image on an nx x ny x nz grid (halo 1, zero).
rt::Grid<float> finishImage(const ImageSums &sums, int nx, int ny, int nz,
                            const ImageOptions &options = {});

} // namespace rtm
