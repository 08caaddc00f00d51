//===- SegyModel.h - Velocity models in SEG-Y ------------------------------===//
//
// One trace per (x, y) column, samples down in depth, inline-major: trace
// t = j nx + i has inline j + 1 and crossline i + 1 (bytes 189 and 193) and
// the column's position in CDP X/Y (bytes 181, 185, scaled by byte 71). The
// depth step is in the sample interval field in millimetres, where time data
// keeps microseconds, and the depth of the first sample in the delay field
// (bytes 109-110) in metres, where time data keeps milliseconds: the
// convention of public depth models such as Marmousi (dz = 4 m stored as
// 4000). docs/SEISMIC.md §Files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Geometry.h"

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"

#include <string>

namespace seisio {

namespace rt = stencilc::rt;

/// The model's geometry from its headers. Throws std::runtime_error "PATH:
/// why" for a file that is not a regular grid of traces (naming the sizes
/// found) or not a readable SEG-Y file (SegyReader). Without trace
/// coordinates, dx = dy = dz and `lateralFromFile` is false.
Geometry readSegyModelGeometry(const std::string &path);

/// Fills `local`, the box `part` of the model (global indices) and its halo,
/// from the file; halo points beyond the model are left as they were.
/// `geometry` is the file's (readSegyModelGeometry).
void readSegyModel(const std::string &path, const Geometry &geometry, const rt::Box &part,
                   rt::Grid<float> &local);

/// Writes the interior of 3D `model` with `geometry` (whose sizes must be the
/// model's). z0 must be whole metres and dz whole millimetres, as the fields
/// hold; anything else is refused (std::invalid_argument).
void writeSegyModel(const std::string &path, const rt::Grid<float> &model,
                    const Geometry &geometry);

} // namespace seisio
