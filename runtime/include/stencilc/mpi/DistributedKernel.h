//===- DistributedKernel.h - One step of a registered kernel on many ranks -===//
//
// Each rank holds its subdomain in local grids whose halo is at least the
// stencil's reach, and runs the generated kernel on boxes of it (the kernels'
// region argument, docs/DESIGN.md §Boxes). A step computes the boundary shell
// (every point that reads a neighbour's halo or is sent to one), starts the
// exchange of each output's halo, computes the interior while the messages
// fly, and finishes the exchange. Each point is computed by the same code as
// in a one-rank run, so the result is bit-identical to it (docs/DISTRIBUTED.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/mpi/FieldExchanges.h"
#include "stencilc/mpi/HaloExchange.h"

#include <functional>
#include <memory>
#include <vector>

namespace stencilc::rt::mpi {

/// A field's reach as the generated code describes it.
Reach reachOf(const KernelFieldInfo &field);

/// The halo a distributed run's grids need on each axis: the farthest read.
std::array<int, 3> haloOf(const KernelInfo &info);

/// The boxes of a step: the shell along every side that has a neighbour,
/// `width` cells deep on each side ({x-, x+, y-, y+, z-, z+}), and the rest.
struct StepBoxes {
  std::vector<Box> shell;
  Box interior;
};
StepBoxes stepBoxes(const DomainSplit &d, const std::array<int, 6> &width);

class DistributedKernel {
public:
  /// Makes the exchange of one field: HaloExchange for grids in host memory.
  using MakeExchange = std::function<std::unique_ptr<HaloExchange>(
      const DomainSplit &, const Reach &, int elementBytes, int tag)>;
  /// Computes one box of a step on the local grids.
  using RunBox = std::function<void(const ErasedArgs &, const Box &)>;

  DistributedKernel(const KernelInfo &info, const DomainSplit &d, MakeExchange make = {});

  /// One step of a CPU kernel on this rank's local grids (`local.extent` is
  /// d.local()). With `overlap` off, the whole subdomain is computed before
  /// the exchange starts.
  void step(const ErasedArgs &local, RunOptions options, bool overlap = true);
  /// The same with any way of running a box (a CUDA kernel's launch).
  void step(const ErasedArgs &local, const RunBox &run, bool overlap = true);

  /// Messages this rank sends per step, over every exchanged field.
  int sendsPerStep() const;
  /// The fields exchanged after each step (outputs whose next level is read off the point).
  std::vector<int> exchangedFields() const;
  /// Seconds spent packing, waiting and unpacking, summed over the steps so far.
  double haloSeconds() const { return haloSeconds_; }
  const StepBoxes &boxes() const { return boxes_; }

private:
  const KernelInfo &info_;
  FieldExchanges exchanges_;
  StepBoxes boxes_;
  double haloSeconds_ = 0;
};

} // namespace stencilc::rt::mpi
