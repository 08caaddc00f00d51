//===- RunFiles.h - What an imaging run leaves for scripts/plot.py ---------===//
//
// Besides model.npy and image.npy, rtm writes into --out what a figure of the
// run needs (docs/SEISMIC.md §Reverse-time migration, §Figures):
//
//   geometry.json            spacing, origin, dt, shapes, the shots and
//                            receivers
//   migration_model.npy      the smoothed model the data are migrated in
//   shot_gather.npy          one shot's data as recorded in the true model,
//                            (steps + 1, receivers): row s is time s dt
//   shot_reflections.npy     the same less the background's data: what is
//                            migrated (the direct wave removed)
//   snapshot_NNNNN_xz.npy    that shot's wavefield in the true model after
//                            step N, the x-z slice through the receivers, (nz, nx)
//
// Each file is written through a temporary one renamed into place, so a
// failed write leaves no partial file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Migration.h"

#include "stencilc/Grid.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rtm {

/// One shot's data and wavefield slices, for the figures.
struct ShotFigures {
  int shot = 0;                                          ///< which shot (from 0)
  std::vector<std::vector<float>> recorded, reflections; ///< [step][receiver]
  std::vector<std::pair<int, rt::Grid<float>>> slices;   ///< (step, x-z slice, nx by nz)
};

/// The x-z plane of `u` at y index `j`, as a 2D grid (x across, z down).
rt::Grid<float> xzSlice(const rt::Grid<float> &u, int j);

/// Writes `path` with `write(temporaryPath)` and renames it into place; on
/// an error removes the temporary file and rethrows.
void writeAtomically(const std::string &path,
                     const std::function<void(const std::string &)> &write);

/// Writes [step][receiver] data as a .npy of shape (steps + 1, receivers),
/// sample 0 being the initial, zero field.
void writeGatherNpy(const std::vector<std::vector<float>> &data, const std::string &path);

/// Writes the figure files of `figures` (the shot gathers and slices) into
/// `dir`, removing the slices an earlier run left there.
void writeShotFigures(const ShotFigures &figures, const std::string &dir);

} // namespace rtm
