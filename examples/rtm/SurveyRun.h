//===- SurveyRun.h - Migrating the user's own survey -----------------------===//
//
// `rtm --model FILE --shots FILE[,FILE...] --frequency F --out DIR`
// (docs/SEISMIC.md §Migrating your own survey): every recorded shot (Survey.h)
// is migrated in the model as given (or smoothed, --smoothing), on a grid
// padded by the sponge's width on every face, so the absorbing layers lie
// outside the model and the image covers exactly the model. Sources and
// receivers anywhere in the model's extent are spread over their cells'
// corners (OffGrid.h); the source is a Ricker wavelet of peak frequency F,
// delayed by 1.2 / F, or the wavelet of --wavelet FILE (Wavelet.h), injected
// as `wave` does (docs/SEISMIC.md §Conventions). A wavelet whose band the
// grid does not resolve at the slowest velocity is refused (wave/RunChecks.h).
// The traces are resampled to the propagation step (Survey.h resampleTrace).
//
// Writes into DIR, only once every shot has been migrated (each file staged
// and renamed into place, nothing on disk on an error):
//
//   image.npy          the stacked image, (nz, ny, nx) float32
//   image.segy         the same as depth traces, one per (x, y) column in the
//                      model's geometry and trace order (SegyModel.h)
//   illumination.npy   Σ over shots and imaging steps of the source
//                      wavefield squared, (nz, ny, nx)
//   migration_model.npy  the velocity migrated in (the model, smoothed with
//                      --smoothing), (nz, ny, nx)
//   geometry.json      the model's geometry, every source and receiver in
//                      metres: scripts/plot.py draws the figures from it
//
// Under mpiexec the N ranks form N / R groups of --ranks-per-shot R (default
// 1) consecutive ranks; group g migrates shots g, g + N / R, ..., each shot's
// grid split over the group's R ranks with halo exchange, and rank 0 adds the
// shots' sums in shot order, so the image is the same bit for bit for any N
// and R (ShotGroups.h says how every sum's order is fixed).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Imaging.h"
#include "Migration.h"

#include "Propagator.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rtm {

/// Migrates one shot into `sums`, adding to `report` (rtm::migrateShot's contract).
using ShotMigrator =
    std::function<void(const Shot &, const MigrationOptions &, ImageSums &, StorageReport &)>;

struct SurveyOptions {
  std::string model;
  std::vector<std::string> shots;
  std::string out;
  double frequency = 15;
  std::string wavelet; ///< a one-trace SEG-Y file (Wavelet.h); empty: a Ricker of `frequency`
  bool allowUndersampled = false;
  double h = 10;
  bool hGiven = false;
  std::optional<std::array<double, 3>> origin;
  double courant = 0.4;
  std::optional<double> time; ///< seconds to propagate; default: the longest recording
  double smoothing = 0;       ///< cells
  int sponge = 12, spongeY = 12;
  double spongeAlpha = 0.3;
  wave::Operator op = wave::Operator::Fd8;
  Storage storage = Storage::Revolve;
  int checkpoints = 12;
  int imageEvery = 4;
  std::string snapshotDir, checkpointDir;
  ImageOptions image;
  std::string stencilDir;
  rt::RunOptions run;
  int ranksPerShot = 1; ///< ranks each shot's grid is split over (ShotGroups.h)
  /// Where set (rtm --backend cuda, CudaMigration.h), made once from the
  /// padded migration model, its damping, h and Δt, it migrates every shot
  /// in place of the CPU propagators (a whole shot per rank).
  std::function<ShotMigrator(const rt::Grid<float> &velocity, const rt::Grid<float> &damping,
                             double h, double dt)>
      device;
};

/// Runs the migration; throws std::invalid_argument or std::runtime_error
/// naming the offending file and value, before anything is computed where
/// the inputs decide it, and leaves nothing in `out` then.
void runSurvey(const SurveyOptions &options);

} // namespace rtm
