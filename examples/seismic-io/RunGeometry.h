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

#include <string>

namespace seisio {

struct RunGeometry {
  Geometry grid;
  double dt = 0;         ///< seconds per step
  int steps = 0;         ///< steps taken (rows of the seismogram)
  int snapshotEvery = 0; ///< steps between snapshots
  int source[3] = {};    ///< grid indices of the source
  int receiverDepth = 0; ///< z index of the receiver line (along x, through the source)
  int sliceY = 0;        ///< y index of the *_xz slices
  int sliceZ = 0;        ///< z index of the *_xy slices
};

/// Writes `run` as JSON to `path` (whole, or not at all); throws
/// std::runtime_error naming the path when it cannot.
void writeRunGeometry(const std::string &path, const RunGeometry &run);

} // namespace seisio
