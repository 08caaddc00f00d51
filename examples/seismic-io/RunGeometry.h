//===- RunGeometry.h - geometry.json: what a figure needs besides the arrays ===//
//
// The .npy files a run writes are bare arrays; scripts/plot.py needs where
// the points are (spacing, origin), the time step, and where the source,
// receivers and slices lie, to draw axes in metres and seconds. The run
// writes them as geometry.json beside its arrays (docs/SEISMIC.md §Files).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Geometry.h"
#include "SegyGather.h"

#include <array>
#include <string>
#include <vector>

namespace seisio {

struct RunGeometry {
  Geometry grid;
  double dt = 0;                ///< seconds per step
  int steps = 0;                ///< steps taken (rows of the seismogram)
  int snapshotEvery = 0;        ///< steps between snapshots
  int source[3] = {};           ///< grid indices of the source
  int receiverDepth = 0;        ///< z index of the receiver line (along x, through the source)
  int sliceY = 0;               ///< y index of the *_xz slices
  int sliceZ = 0;               ///< z index of the *_xy slices
  std::string program = "wave"; ///< what wrote the run: what scripts/plot.py draws from it
  int receiverFirst = 0;        ///< x index of the first receiver
  int receiverCount = 0;        ///< receivers along x, one a point; 0: one at every x
  // `{}`: a brace-initialised RunGeometry may leave these out without a warning.
  std::string volumeAxes{}; ///< "xyz": 3D arrays are (nx, ny, nz); empty: (nz, ny, nx)
  std::vector<std::array<int, 3>> shots{}; ///< every shot's source indices, when several
  /// Off the grid (rtm --model): every shot's source and every distinct
  /// receiver, in metres.
  std::vector<std::array<double, 3>> sourcePositions{}, receiverPositions{};
};

/// Writes `run` as JSON to `path` (whole, or not at all); throws
/// std::runtime_error naming the path when it cannot.
void writeRunGeometry(const std::string &path, const RunGeometry &run);

} // namespace seisio
