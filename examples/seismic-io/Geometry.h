//===- Geometry.h - Where a regular grid's points are, in metres -----------===//
//
// A velocity model is only usable with its geometry: point (i, j, k) of an
// nx x ny x nz grid lies at (x0 + i dx, y0 + j dy, z0 + k dz), x and y
// horizontal, z depth (down). Readers return it, writers record it, so the
// spacing and origin of the user's model reach every output
// (docs/SEISMIC.md §Files).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace seisio {

struct Geometry {
  int nx = 0, ny = 0, nz = 0;
  double dx = 0, dy = 0, dz = 0; ///< metres
  double x0 = 0, y0 = 0, z0 = 0; ///< metres
  /// False when the file had no trace coordinates, so dx and dy were taken
  /// equal to dz (the reader says so rather than guessing silently).
  bool lateralFromFile = true;

  /// "NXxNYxNZ points, spacing DX x DY x DZ m, origin (X0, Y0, Z0) m".
  std::string describe() const;
};

} // namespace seisio
