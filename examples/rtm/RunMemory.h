//===- RunMemory.h - What an rtm run holds, refused before it computes ------===//
//
// A migration holds, per process: the model's grids (velocity and sponge),
// the forward and adjoint propagators (each its two wavefield levels and the
// operator's coefficients, wave/RunChecks.h gridBytes), the image's sums (two
// doubles a point), and the forward wavefield the adjoint pass images with
// (Migration.h): every imaged level in memory, two levels per checkpoint
// slot for revolve with its checkpoints in memory, one snapshot being read
// for disk. Disk storage and revolve's checkpoint files need their bytes on
// the file system instead. A run that needs more than the machine has is
// refused with both figures before anything is computed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Migration.h"

#include "Propagator.h"

#include <cstdint>
#include <string>

namespace rtm {

struct MigrationFootprint {
  rt::GridShape shape; ///< the propagation grid, its halo included
  wave::Operator op = wave::Operator::Fd8;
  int propagators = 2; ///< forward and adjoint (the demo has a third, the true model's)
  int modelGrids = 2;  ///< velocity and sponge grids held outside the propagators
  int imageSums = 1;   ///< sets of image sums (the demo keeps one per storage)
  Storage storage = Storage::Revolve;
  int steps = 0, imageEvery = 1, checkpoints = 0;
  bool checkpointsOnDisk = false;
  /// The boxes one shot's grid is split into (--ranks-per-shot): each process
  /// holds its box's propagators and wavefields; the model's grids and the
  /// image's sums stay whole.
  int parts = 1;
};

/// Bytes one process holds in memory.
std::uint64_t memoryBytes(const MigrationFootprint &f);
/// Bytes written to files at once (snapshots, or checkpoint files).
std::uint64_t fileBytes(const MigrationFootprint &f);

/// The processes of this run on this machine (MPI's shared-memory split; 1
/// without MPI). Collective under MPI.
int processesOnThisMachine();

/// Refuses, with the figures, a run whose processes here need more memory
/// than this machine has available, or more bytes of files than `fileDir`'s
/// file system has free (`fileDir` empty: no files).
void checkFootprint(const MigrationFootprint &f, const std::string &fileDir);

} // namespace rtm
