//===- ShotGroups.h - Shots over groups of ranks, a shot over its group ----===//
//
// `mpiexec -n N rtm --model ... --ranks-per-shot R` (docs/SEISMIC.md
// §Migrating your own survey): the N ranks form G = N / R groups of R
// consecutive ranks (group g: ranks gR to gR + R − 1, its leader gR), and
// group g migrates shots g, g + G, g + 2G, ... With R > 1 each shot's padded
// grid is split over the group's R ranks as `wave` splits its grid
// (Distribution.h: one box per rank, halo exchange after every step), so
// every point's wavefield is the one a single process computes, bit for bit.
//
// The image is the same bit for bit for any N and R because every sum is
// made in one fixed order, whatever the split:
//   * a shot's imaging sums at a point add its imaging steps in time order,
//     in the process that owns the point; the leader gathers the boxes'
//     sums by copying them (Distribution::gatherVolume), no arithmetic;
//   * the stack adds the shots' sums point by point in shot order 0, 1, 2, ...
//     on rank 0 (stack), receiving each from the leader of its group.
// A source or receiver spread over a cell's corners (OffGrid.h) is injected
// at every copy of each corner a rank holds, its own point or a halo copy,
// in the order of the single-process run, so owner and copy hold the same value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Migration.h"

#include "Distribution.h"
#include "Propagator.h"

#include <memory>
#include <string>
#include <vector>

namespace rtm {

/// Refuses `ranksPerShot` below 1, or not dividing the number of ranks (the
/// message names both), the same on every rank.
void checkRanksPerShot(int ranksPerShot);

class ShotGroups {
public:
  /// Collective. Throws std::invalid_argument, the same on every rank, for
  /// the refusals of checkRanksPerShot and for a split of the nx x ny x nz
  /// grid that leaves a box thinner than the operator's halo.
  ShotGroups(int ranksPerShot, int nx, int ny, int nz, wave::Operator op);
  ~ShotGroups();

  int groups() const { return groups_; }
  int group() const { return group_; }
  /// The group's first rank: it gathers the group's sums of each shot.
  bool leader() const { return leader_; }
  /// "2 groups of 2 ranks, each shot's 40x30x40 points over 2x1x1 boxes".
  std::string describe() const;

  /// A propagator of this rank's part of the grid, from the whole grid's
  /// velocity and damping (with their halo): the whole grid with one rank a shot.
  std::unique_ptr<wave::Propagator> propagator(wave::Operator op, wave::Direction direction,
                                               const rt::Grid<float> &velocity,
                                               const rt::Grid<float> &damping, double h, double dt,
                                               const std::string &stencilDir) const;
  /// The steps with halo exchange (empty with one rank a shot).
  wave::Stepper stepper(wave::Direction direction) const;
  /// Whether checkpoints must keep the levels' halo (several ranks a shot).
  bool split() const { return bool(forward_); }

  /// The entries of `spread` (the whole grid's coordinates) at points this
  /// rank holds, its own or halo copies, in this rank's coordinates, in order.
  std::vector<wave::Injection> here(const std::vector<wave::Injection> &spread) const;

  /// On the leader, a shot's sums over the whole grid from each rank's sums
  /// over its box; empty sums elsewhere. Collective over the group.
  ImageSums gather(ImageSums mine) const;

  /// On rank 0: Σ over the `shots` shots of their sums, point by point in
  /// shot order, where shot n's sums are the (n / G)-th of `mine` on the
  /// leader of group n mod G; elsewhere empty sums. Collective over every rank.
  ImageSums stack(std::vector<ImageSums> &mine, size_t shots, size_t points) const;

private:
  int ranksPerShot_ = 1, groups_ = 1, group_ = 0;
  bool leader_ = true;
  int nx_ = 0, ny_ = 0, nz_ = 0;
  /// With R > 1: the forward and the adjoint kernels' splits of the grid into
  /// the same boxes (each exchanges the halos its own kernel reads).
  std::unique_ptr<wave::Distribution> forward_, adjoint_;
};

} // namespace rtm
