//===- DomainSplit.h - Which part of the global grid each rank owns -------===//
//
// A distributed run (docs/DISTRIBUTED.md) splits the interior of the global
// grid into one box per rank over a Cartesian communicator: MPI_Dims_create's
// rank grid by default (its largest count along z, so rows stay whole), or
// the user's (`--ranks 2x1x2`). Sizes need not
// divide by the rank counts: along an axis of n points over p ranks, the
// first n mod p ranks own one point more. Every check is made on every rank
// from the same inputs, so a bad request fails everywhere with one message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"

#include <mpi.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stencilc::rt::mpi {

/// A request the run cannot honour (the same on every rank).
class DomainSplitError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Ranks along x, y and z; 0 lets the split choose.
struct RankGrid {
  std::array<int, 3> ranks = {0, 0, 0};
};

/// "2x1x2" (3D) or "2x3" (2D, z is 1); nullopt with `error` set otherwise.
std::optional<RankGrid> parseRankGrid(std::string_view text, int dims, std::string &error);
std::string rankGridText(const std::array<int, 3> &ranks, int dims);

/// The first point and the size of part `c` of `n` points split over `p` parts.
inline int partBegin(int n, int p, int c) { return c * (n / p) + (c < n % p ? c : n % p); }
inline int partSize(int n, int p, int c) { return n / p + (c < n % p ? 1 : 0); }

class DomainSplit {
public:
  /// Collective over `comm`. `halo` is how far a step reads across a subdomain
  /// side on each axis; with `stepsPerExchange` T > 1 (DeepHaloKernel.h) the
  /// halo is T times that. Every subdomain must be at least as thick as the
  /// halo where it has neighbours. Throws DomainSplitError, on every rank,
  /// when the wanted rank grid does not multiply to the number of ranks, or
  /// leaves a subdomain thinner than the halo (the message names the sizes,
  /// the halo and the most ranks that fit along each axis).
  DomainSplit(MPI_Comm comm, int dims, const Extent &global, const std::array<int, 3> &halo,
              const RankGrid &wanted = {}, int stepsPerExchange = 1);
  ~DomainSplit();
  DomainSplit(const DomainSplit &) = delete;
  DomainSplit &operator=(const DomainSplit &) = delete;

  MPI_Comm comm() const { return cart_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int dims() const { return dims_; }
  const std::array<int, 3> &ranks() const { return ranks_; }
  const std::array<int, 3> &coords() const { return coords_; }
  const Extent &global() const { return global_; }
  /// Time steps between halo exchanges: the halo is this many stencil reaches deep.
  int stepsPerExchange() const { return stepsPerExchange_; }
  /// The interior points this rank owns, in global coordinates.
  const Box &owned() const { return owned_; }
  /// The local grid's interior extent (the owned box's size).
  Extent local() const {
    return {owned_.x1 - owned_.x0, owned_.y1 - owned_.y0, owned_.z1 - owned_.z0};
  }
  /// The rank at direction (dx, dy, dz), each in {-1, 0, 1}, or MPI_PROC_NULL
  /// past the global boundary (no periodic wrap).
  int neighbour(int dx, int dy, int dz) const;
  bool owns(int x, int y, int z) const {
    return x >= owned_.x0 && x < owned_.x1 && y >= owned_.y0 && y < owned_.y1 && z >= owned_.z0 &&
           z < owned_.z1;
  }
  std::string describe() const; ///< "2x1x2 ranks over 37x29x23"

private:
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, dims_ = 3, stepsPerExchange_ = 1;
  Extent global_;
  std::array<int, 3> ranks_{1, 1, 1}, coords_{0, 0, 0};
  Box owned_;
};

} // namespace stencilc::rt::mpi
