//===- ModelFile.h - The user's velocity model: .npy or SEG-Y --------------===//
//
// `wave --model FILE` reads a float32 .npy array of shape (nz, ny, nx), whose
// spacing is --h and origin 0, or a SEG-Y model (.segy, .sgy) that carries
// its own spacing and origin (examples/seismic-io/SegyModel.h); the run's
// outputs then keep that geometry (docs/SEISMIC.md §Files).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Distribution.h"

#include "Geometry.h"

#include <optional>
#include <string>

namespace wave {

struct ModelFile {
  std::string path;
  rt::Extent extent;
  /// A SEG-Y file's geometry; none for .npy.
  std::optional<seisio::Geometry> geometry;
};

/// Whether `path` names a SEG-Y model (.segy, .sgy) rather than a .npy one;
/// throws std::invalid_argument for a name that is neither.
bool isSegyModelPath(const std::string &path);

/// The size (and, for SEG-Y, the geometry) of the model in `path`; throws
/// std::invalid_argument for a name that is neither .npy nor .segy/.sgy and
/// std::runtime_error for a file that cannot be read as one.
ModelFile inspectModelFile(const std::string &path);

/// The grid spacing of a run on `file`: --h for .npy; for SEG-Y the file's,
/// which must be the same along x, y and z and agree with --h where given
/// (`hGiven`). Throws std::invalid_argument naming the spacings otherwise.
double spacingFor(const ModelFile &file, double h, bool hGiven);

/// Fills `local`, this process's box and halo, from the file; the halo
/// beyond the model repeats the model's faces.
void readModelFile(const ModelFile &file, const Distribution &dist, rt::Grid<float> &local);

} // namespace wave
