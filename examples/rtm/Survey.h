//===- Survey.h - The user's velocity model and recorded shots ------------===//
//
// `rtm --model FILE --shots FILE[,FILE...]` (docs/SEISMIC.md §Migrating your
// own survey) reads:
//
//   the model   a float32 .npy of shape (nz, ny, nx), spacing --h, origin
//               --origin (default 0), or a SEG-Y depth model with its own
//               spacing and origin (examples/seismic-io/SegyModel.h), as
//               `wave --model` reads it;
//   the shots   SEG-Y files of time traces whose headers say where the source
//               and receiver are (bytes 73-88 with the scalar at 71, depths
//               at 49 and 41 with the scalar at 69, examples/seismic-io/
//               SegyGather.h), the sample interval (byte 117, µs; the binary
//               header's where the trace's is 0) and the recording delay
//               (byte 109, ms: sample s is at t = delay + s dt). A file holds
//               one shot or several: consecutive traces with the same field
//               record number (byte 9) and source position are one shot.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Geometry.h"
#include "SegyGather.h"

#include "stencilc/Grid.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;

struct SurveyModel {
  seisio::Geometry geometry;
  rt::Grid<float> velocity; ///< nx x ny x nz, no halo
};

/// Reads the model in `path` (.npy, .segy or .sgy). For .npy the spacing is
/// `h` and the origin `origin` (zero when not given); a SEG-Y model's spacing
/// must be equal along x, y and z and agree with `h` when `hGiven`, and
/// `origin` must not be given. Throws std::invalid_argument or
/// std::runtime_error naming the file and the value: an array that is not 3D
/// float32, a velocity that is NaN, infinite or not positive (its first
/// point, (i, j, k) and metres, in the file's order).
SurveyModel readSurveyModel(const std::string &path, double h, bool hGiven,
                            const std::optional<std::array<double, 3>> &origin);

/// One recorded shot: its file and first trace (from 1), positions in metres
/// (z down), and its traces.
struct RecordedShot {
  std::string file;
  int firstTrace = 1;
  int number = 0; ///< the field record number
  seisio::Position source;
  std::vector<seisio::Position> receivers;
  int samples = 0;
  double dt = 0;             ///< s
  double delay = 0;          ///< s: the time of sample 0
  std::vector<float> values; ///< receiver-major: receiver r's sample s at r * samples + s
};

/// Every shot of every file, in the files' order and then the traces'.
/// Throws std::runtime_error "FILE: why" for a missing or unreadable file,
/// a sample interval that is zero or changes within a shot, a NaN or
/// infinite sample (naming the trace and sample).
std::vector<RecordedShot> readShots(const std::vector<std::string> &files);

/// Throws std::invalid_argument naming the shot, the position and the
/// model's extent when its source or a receiver lies outside the model.
void checkInsideModel(const RecordedShot &shot, const seisio::Geometry &model);

/// The trace `values` (sample s at t = delay + s dtIn) at t = m dt for m = 1
/// .. steps, entry m − 1 (docs/SEISMIC.md §Conventions: what a receiver holds
/// after step m). Equal intervals and a delay on the step grid: the samples
/// themselves. Otherwise a Hann-windowed sinc of 8 input samples each side,
/// its cut-off lowered to the output's Nyquist frequency where dt > dtIn (no
/// aliasing); zero before the first sample and after the last.
std::vector<float> resampleTrace(const float *values, int samples, double dtIn, double delay,
                                 double dt, int steps);

/// The model smoothed by a Gaussian of standard deviation `cells` along x, y
/// and z, edges continued (cells = 0: unchanged).
rt::Grid<float> smoothVelocity(const rt::Grid<float> &velocity, double cells);

} // namespace rtm
