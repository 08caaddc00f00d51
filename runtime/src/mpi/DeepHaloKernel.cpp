//===- DeepHaloKernel.cpp -------------------------------------------------===//
#include "stencilc/mpi/DeepHaloKernel.h"
#include "stencilc/PackedTables.h"

#include <algorithm>
#include <cstddef>
#include <string>

namespace stencilc::rt::mpi {

ErasedArgs argsAt(const KernelInfo &info, const ErasedArgs &local, const Box &box) {
  ErasedArgs at = local;
  at.extent = {box.x1 - box.x0, box.y1 - box.y0, box.z1 - box.z0};
  for (size_t f = 0; f < at.fields.size(); ++f) {
    ErasedField &field = at.fields[f];
    const std::ptrdiff_t offset = box.x0 + box.y0 * field.line + box.z0 * field.plane;
    field.origin =
        static_cast<std::byte *>(field.origin) + offset * elementBytesOf(info.fields[f].type);
  }
  return at;
}

namespace {

/// Every direction whose cells on each axis it crosses are deeper than 0: what
/// the boxes of several steps read (their reads compound diagonally: a star's
/// two steps reach the edges, three the corners).
unsigned everyDirectionOf(const std::array<int, 6> &cells) {
  unsigned directions = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int d[3] = {dx, dy, dz};
        bool reached = dx || dy || dz;
        for (int axis = 0; axis < 3; ++axis)
          if (d[axis])
            reached = reached && cells[2 * axis + (d[axis] > 0)] > 0;
        if (reached)
          directions |= 1u << neighbourBit(dx, dy, dz);
      }
  return directions;
}

} // namespace

DeepHaloKernel::DeepHaloKernel(const KernelInfo &info, const DomainSplit &d, MakeExchange make)
    : info_(info), local_(d.local()), steps_(d.stepsPerExchange()) {
  if (!make)
    make = [](const DomainSplit &d, const Reach &reach, int elementBytes, int tag) {
      return std::make_unique<HaloExchange>(d, reach, elementBytes, tag);
    };
  // How far a step reads the time levels: the box of step k must hold what
  // step k + 1 reads of the level it computes.
  Reach levels;
  for (const KernelFieldInfo &f : info.fields)
    if (std::string(f.role) == "time")
      levels = levels.merged(reachOf(f));
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      int towards[3] = {0, 0, 0};
      towards[axis] = side ? 1 : -1;
      if (d.neighbour(towards[0], towards[1], towards[2]) != MPI_PROC_NULL)
        growth_[size_t(2 * axis + side)] = levels.cells[size_t(2 * axis + side)];
    }
  // After a round, a level that step 1 of the next reads `reach` around a
  // point is read that far around its box, itself grown by (T − 1) steps.
  for (size_t f = 0; f < info.fields.size(); ++f) {
    const KernelFieldInfo &field = info.fields[f];
    if (std::string(field.role) != "time")
      continue;
    Reach deep = reachOf(field);
    for (size_t i = 0; i < 6; ++i)
      deep.cells[i] += levels.cells[i] * (steps_ - 1);
    if (steps_ > 1)
      deep.neighbours = everyDirectionOf(deep.cells);
    if (!deep.neighbours)
      continue;
    exchanges_.add(int(f), make(d, deep, elementBytesOf(field.type), int(f)));
  }
}

Box DeepHaloKernel::stepBox(int k, int length) const {
  const int by = length - 1 - k;
  return {-growth_[0] * by,
          -growth_[2] * by,
          -growth_[4] * by,
          local_.nx + growth_[1] * by,
          local_.ny + growth_[3] * by,
          local_.nz + growth_[5] * by};
}

void DeepHaloKernel::run(ErasedArgs &local, int steps, RunOptions options,
                         const AfterBox &afterBox) {
  if (options.region)
    throw KernelError(std::string(info_.name) +
                      ": a deep-halo run computes the boxes of its steps; it takes no region");
  run(
      local, steps,
      [&](const ErasedArgs &args, const Box &box) {
        options.region = box;
        info_.run(args, options);
      },
      afterBox);
}

void DeepHaloKernel::run(ErasedArgs &local, int steps, const RunBox &runBox,
                         const AfterBox &afterBox) {
  if (steps < 0)
    throw KernelError(std::string(info_.name) + ": " + std::to_string(steps) + " time steps");
  requireTimeTileable(info_, local);
  for (int done = 0; done < steps;) {
    const int length = std::min(steps_, steps - done);
    for (int k = 0; k < length; ++k) {
      const Box box = stepBox(k, length);
      const ErasedArgs at = argsAt(info_, local, box);
      runBox(at, wholeBox(at.extent));
      if (afterBox)
        afterBox(done + k, box, local);
      rotateTimeLevels(info_, local);
    }
    exchange(local);
    done += length;
  }
}

void DeepHaloKernel::runTiled(ErasedArgs &local, int steps, const TimeTiling &tiling,
                              RunOptions options, const AfterBox &afterBox) {
  if (options.region)
    throw KernelError(std::string(info_.name) +
                      ": a deep-halo run computes the boxes of its steps; it takes no region");
  // Packed once per run, not at every call of a tile (as rt::runTimeTiled).
  const PackedTables packed(info_, local.tables);
  ErasedArgs tiledArgs = local;
  tiledArgs.tables = packed.tables();
  runTiled(
      tiledArgs, steps, tiling,
      [&](const ErasedArgs &args, const Box &box) {
        RunOptions boxOptions = options;
        boxOptions.region = box;
        info_.run(args, boxOptions);
      },
      afterBox);
  tiledArgs.tables = std::move(local.tables);
  local = std::move(tiledArgs);
}

void DeepHaloKernel::runTiled(ErasedArgs &local, int steps, const TimeTiling &tiling,
                              const RunBox &runBox, const AfterBox &afterBox,
                              TileConcurrency concurrency) {
  const std::string name = info_.name;
  if (steps < 0)
    throw KernelError(name + ": " + std::to_string(steps) + " time steps");
  requireTiling(info_, tiling);
  if (tiling.depth != steps_)
    throw KernelError(name + ": time tiles of depth " + std::to_string(tiling.depth) +
                      " in rounds of " + std::to_string(steps_) +
                      " steps per exchange (a round is one pass: they must be equal)");
  requireTimeTileable(info_, local);
  const TimeSkew skew = timeSkewOf(info_);
  const auto [tileX, tileY, tileZ] = tilesOf(info_, tiling, local.extent);
  for (int done = 0; done < steps;) {
    const int length = std::min(steps_, steps - done);
    // The tiles are laid over the first step's box, the largest; the kernel
    // sees the arguments from its corner, where every step box lies inside.
    const Box first = stepBox(0, length);
    // A box moved by `sign` times first's corner: into or out of its coordinates.
    auto moved = [&](const Box &b, int sign) {
      const int dx = sign * first.x0, dy = sign * first.y0, dz = sign * first.z0;
      return Box{b.x0 + dx, b.y0 + dy, b.z0 + dz, b.x1 + dx, b.y1 + dy, b.z1 + dz};
    };
    std::vector<Box> levels;
    for (int k = 0; k < length; ++k)
      levels.push_back(moved(stepBox(k, length), -1));
    const std::vector<ErasedArgs> levelArgs = passLevels(info_, local, length);
    std::vector<ErasedArgs> levelArgsAt;
    for (const ErasedArgs &a : levelArgs)
      levelArgsAt.push_back(argsAt(info_, a, first));
    runTimeTilePass(
        TimeTileSchedule(levels, skew, tileX, tileY, tileZ),
        [&](int level, const Box &box) {
          runBox(levelArgsAt[size_t(level)], box);
          if (afterBox)
            afterBox(done + level, moved(box, 1), levelArgs[size_t(level)]);
        },
        concurrency);
    local = levelArgs[size_t(length - 1)];
    rotateTimeLevels(info_, local);
    exchange(local);
    done += length;
  }
}

void DeepHaloKernel::exchange(const ErasedArgs &local) {
  const double t0 = MPI_Wtime();
  exchanges_.start(local);
  exchanges_.finish(local);
  haloSeconds_ += MPI_Wtime() - t0;
}

int DeepHaloKernel::sendsPerExchange() const { return exchanges_.sends(); }

std::vector<int> DeepHaloKernel::exchangedFields() const { return exchanges_.fields(); }

} // namespace stencilc::rt::mpi
