//===- DeepHaloKernel.h - T steps of a registered kernel per halo exchange -===//
//
// Temporal blocking across ranks (docs/DISTRIBUTED.md §Deep halo). With a
// DomainSplit of T steps per exchange, each rank's local grids hold a halo T
// stencil reaches deep, so after one exchange a rank makes T steps alone: step
// k = 1..T of a round computes the owned box grown by the reach x (T − k) on
// each side that has a neighbour (the neighbour's cells that step k + 1 reads,
// computed again here), so step T leaves the owned box exact. Then each time
// level is exchanged as deep as the next round reads it. Every point is
// computed by the same generated code as in one process, so the result is
// bit-identical to T single steps.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/mpi/DistributedKernel.h"
#include "stencilc/mpi/FieldExchanges.h"
#include "stencilc/timeloop/TimeTiling.h"

#include <memory>
#include <vector>

namespace stencilc::rt::mpi {

/// `local` seen from the corner of `box` (local coordinates, possibly in the
/// halo): the same storage, every origin moved to (box.x0, box.y0, box.z0) and
/// the extent the box's. A kernel computes only regions inside its extent, so
/// a box that reaches into the halo runs as the whole extent of these.
ErasedArgs argsAt(const KernelInfo &info, const ErasedArgs &local, const Box &box);

class DeepHaloKernel {
public:
  using MakeExchange = DistributedKernel::MakeExchange;
  using RunBox = DistributedKernel::RunBox;

  /// Rounds of d.stepsPerExchange() steps. The local grids' halo must be at
  /// least haloOf(info) x d.stepsPerExchange() deep on every axis, and every
  /// level and per-point field built by the rank on its box and that halo.
  DeepHaloKernel(const KernelInfo &info, const DomainSplit &d, MakeExchange make = {});

  /// `steps` steps of a CPU kernel on this rank's local grids (`local.extent`
  /// is d.local()), in rounds of T steps and a shorter last one, exchanging
  /// after each round; `afterBox` is called after each step with the box it
  /// computed (local coordinates) and that step's arguments, where sources
  /// are added (to every copy in the box) and receivers read. On return
  /// `local` is rotated `steps` times, as after `steps` pairs of run and
  /// rt::rotateTimeLevels. Throws KernelError for a kernel whose levels do
  /// not only rotate (rt::requireTimeTileable).
  void run(ErasedArgs &local, int steps, RunOptions options, const AfterBox &afterBox = {});
  /// The same with any way of running the whole extent of argsAt's arguments.
  void run(ErasedArgs &local, int steps, const RunBox &runBox, const AfterBox &afterBox = {});

  /// The same with each round's steps tiled for the cache as rt::runTimeTiled
  /// tiles a pass (stencilc/timeloop/TimeTiling.h): parallelogram tiles of
  /// tiling.tileX x tileY x tileZ (0: as runTimeTiled) laid over the round's
  /// step boxes, the tiles on the OpenMP threads (rt::runTimeTilePass), each (tile,
  /// step) box one call of the kernel with `options` and then of `afterBox`
  /// (that box, local coordinates). A round is one pass, so tiling.depth
  /// must equal stepsPerExchange(). The tables are packed once per call
  /// (rt::PackedTables), as rt::runTimeTiled does. Bit-identical to run() above.
  void runTiled(ErasedArgs &local, int steps, const TimeTiling &tiling, RunOptions options,
                const AfterBox &afterBox = {});
  /// The same with any way of running a box of argsAt's arguments; CUDA
  /// launches through one stream take the tiles of a diagonal in turn
  /// (TileConcurrency::Serial).
  void runTiled(ErasedArgs &local, int steps, const TimeTiling &tiling, const RunBox &runBox,
                const AfterBox &afterBox = {},
                TileConcurrency concurrency = TileConcurrency::Threads);

  /// The box step `k` (0 to length − 1) of a round of `length` steps
  /// computes, in local coordinates: the owned box grown by how far a step
  /// reads the levels, times (length − 1 − k), on each side with a neighbour.
  Box stepBox(int k, int length) const;
  int stepsPerExchange() const { return steps_; }
  /// Messages this rank sends per exchange (one per round), over every level.
  int sendsPerExchange() const;
  /// The time levels exchanged after each round (field ids, after rotation).
  std::vector<int> exchangedFields() const;
  /// Seconds spent packing, waiting and unpacking, summed over the rounds so far.
  double haloSeconds() const { return haloSeconds_; }

private:
  void exchange(const ErasedArgs &local);

  const KernelInfo &info_;
  Extent local_;
  int steps_;
  /// How far one step reads the time levels, {x-, x+, y-, y+, z-, z+}, where
  /// that side has a neighbour; 0 where it is the global boundary.
  std::array<int, 6> growth_ = {0, 0, 0, 0, 0, 0};
  FieldExchanges exchanges_;
  double haloSeconds_ = 0;
};

} // namespace stencilc::rt::mpi
