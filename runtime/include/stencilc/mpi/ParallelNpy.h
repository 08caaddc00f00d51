//===- ParallelNpy.h - One .npy file, each rank reading or writing its box -===//
//
// A 3D array in a .npy file (x fastest, as stencilc/io/Npy.h writes a grid's
// interior), accessed with MPI-IO: every rank reads or writes only its own
// box, through a subarray file view, so nothing goes through one rank and the
// file is byte for byte the one a single process writes (docs/DISTRIBUTED.md
// §I/O). Failures are agreed on by every rank: all throw, with one message,
// and a file being written is removed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/mpi/DomainSplit.h"

#include <stdexcept>
#include <string>

namespace stencilc::rt::mpi {

/// An I/O failure, the same on every rank.
class ParallelIoError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Collective: the global array of which `local` (this rank's box, d.owned())
/// is a part, written to `path` as a float32 .npy file of shape (nz, ny, nx).
void writeNpyParallel(const DomainSplit &d, const Grid<float> &local, const std::string &path);

/// The shape (nz, ny, nx) and dtype of a .npy file, checked on every rank:
/// throws ParallelIoError naming the file (and the ranks that cannot read it).
struct NpyVolume {
  Extent extent;
  long long dataOffset = 0;
};
NpyVolume inspectNpyParallel(MPI_Comm comm, const std::string &path);

/// Collective: fills `local` (a grid of d.local() with a halo) with this rank's
/// box and the halo around it from `path`, whose shape must be d.global();
/// halo cells outside the global grid are left as they are.
void readNpyParallel(const DomainSplit &d, Grid<float> &local, const std::string &path);

} // namespace stencilc::rt::mpi
