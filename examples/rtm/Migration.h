//===- Migration.h - Reverse-time migration of one shot ---------------------===//
//
// The forward wavefield u of the source and the adjoint wavefield λ of the
// recorded data meet in the zero-lag cross-correlation imaging condition,
// I(x) = Σ_t u(x, t) λ(x, t), summed here every `imageEvery` steps along
// with the source illumination Σ_t u(x, t)². The adjoint runs backwards in
// time, so u is needed in reverse order; three ways to have it
// (docs/SEISMIC.md §Reverse-time migration):
//
//   memory   every imaged u kept in memory from the forward pass;
//   disk     every imaged u written to a snapshot file by a writer thread
//            during the forward pass, read back during the backward one;
//   revolve  s checkpoints of the forward state (u at two levels) placed by
//            Griewank and Walther's binomial schedule (stencilc/timeloop/Revolve.h),
//            the forward field recomputed from them.
//
// All three image the same u (the same kernels, the same steps) in the same
// order, so their images are equal bit for bit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Propagator.h"

#include "stencilc/io/Progress.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;

enum class Storage { Memory, Disk, Revolve };
const char *storageName(Storage s);

using Point = std::array<int, 3>;

/// One shot: a point source with its wavelet (the value added after each
/// forward step) and the receivers' data, data[step][receiver] (what the
/// receivers recorded after forward step `step`).
///
/// Off the grid (rtm --model, Survey.h): a non-empty `sourceSpread` replaces
/// `source`, the wavelet's value times each entry's `value` added at its
/// point; a non-empty `receiverSpread` replaces `receivers`, receiver r
/// recording Σ value·u at its points and its data injected back at them
/// times the same weights (the transpose). With `offGrid` the spreads replace
/// `source` and `receivers` even where empty: over several ranks a spread
/// holds only the points of this rank's part of the grid, maybe none.
struct Shot {
  Point source{};
  std::vector<double> wavelet;
  std::vector<Point> receivers;
  std::vector<std::vector<float>> data;
  std::vector<wave::Injection> sourceSpread;
  std::vector<std::vector<wave::Injection>> receiverSpread;
  bool offGrid = false;
};

/// What one strategy cost over the shots it migrated.
struct StorageReport {
  Storage storage = Storage::Memory;
  double seconds = 0;        ///< migration: forward, backward and imaging
  double ioSeconds = 0;      ///< disk: the writer thread writing
  double blockedSeconds = 0; ///< disk: the time loop waiting for the writer
  double readSeconds = 0;    ///< disk: reading snapshots back
  long long forwardSteps = 0, adjointSteps = 0;
  double forwardSeconds = 0, adjointSeconds = 0; ///< in the steps alone
  size_t peakBytes = 0;                          ///< wavefield storage held in memory at once
  size_t diskBytes = 0; ///< disk: snapshot files written per shot; revolve: checkpoint files
};

/// The image terms summed over shots, over the grid's interior (x fastest).
struct ImageSums {
  std::vector<double> cross, illumination;
};

struct MigrationOptions {
  Storage storage = Storage::Memory;
  int steps = 0;
  int imageEvery = 1;
  int checkpoints = 0;     ///< revolve: slots, the initial state's included
  std::string snapshotDir; ///< disk
  /// revolve: where the checkpoints go, a file per level and slot (removed
  /// after the shot); empty: held in memory.
  std::string checkpointDir;
  rt::RunOptions run;
  rt::Progress *progress = nullptr; ///< advanced by one for each forward and adjoint step
  /// Over several ranks (rtm --ranks-per-shot, ShotGroups.h): each propagator's
  /// step with halo exchange, on this rank's part of the grid; empty: the
  /// whole grid in this process.
  wave::Stepper forwardStepper, adjointStepper;
  /// Revolve's checkpoints in memory keep each level with its halo, restored
  /// with it: over several ranks the halo holds the neighbours' points, which
  /// the next step reads (the exchange follows a step; it does not precede it).
  bool checkpointHalo = false;
};

/// Migrates `shot` with the forward and adjoint propagators of the same
/// (migration) model, adding to `sums` and to `report`. Leaves no snapshot
/// files behind. Throws std::runtime_error on an I/O failure.
void migrateShot(wave::Propagator &forward, wave::Propagator &adjoint, const Shot &shot,
                 const MigrationOptions &options, ImageSums &sums, StorageReport &report);

/// Called after forward step `step` (from 1) with the wavefield it made.
using AfterStep = std::function<void(int step, const rt::Grid<float> &u)>;

/// The forward modelling of a shot: what its receivers record after each
/// step. Advances `progress` (if any) by one a step.
std::vector<std::vector<float>> modelShot(wave::Propagator &forward, const Shot &shot, int steps,
                                          const rt::RunOptions &run,
                                          rt::Progress *progress = nullptr,
                                          const AfterStep &afterStep = {});

} // namespace rtm
