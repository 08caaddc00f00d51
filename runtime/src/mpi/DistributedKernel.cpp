//===- DistributedKernel.cpp ----------------------------------------------===//
#include "stencilc/mpi/DistributedKernel.h"

#include <algorithm>
#include <string>

namespace stencilc::rt::mpi {

Reach reachOf(const KernelFieldInfo &field) {
  Reach r;
  for (int i = 0; i < 6; ++i)
    r.cells[i] = field.reach[i];
  r.neighbours = field.neighbours;
  return r;
}

std::array<int, 3> haloOf(const KernelInfo &info) {
  std::array<int, 3> halo = {0, 0, 0};
  for (const KernelFieldInfo &f : info.fields)
    for (int axis = 0; axis < 3; ++axis)
      halo[axis] = std::max({halo[axis], f.reach[2 * axis], f.reach[2 * axis + 1]});
  return halo;
}

StepBoxes stepBoxes(const DomainSplit &d, const std::array<int, 6> &width) {
  const Extent e = d.local();
  Box inner = wholeBox(e);
  int *lo[3] = {&inner.x0, &inner.y0, &inner.z0}, *hi[3] = {&inner.x1, &inner.y1, &inner.z1};
  const int n[3] = {e.nx, e.ny, e.nz};
  StepBoxes boxes;
  // Slabs peeled off axis by axis, so that they never overlap: the x slabs
  // span all of y and z, the y slabs what x left, the z slabs the rest.
  for (int axis = 0; axis < 3; ++axis) {
    int below[3] = {0, 0, 0}, above[3] = {0, 0, 0};
    below[axis] = -1;
    above[axis] = 1;
    const bool hasBelow = d.neighbour(below[0], below[1], below[2]) != MPI_PROC_NULL;
    const bool hasAbove = d.neighbour(above[0], above[1], above[2]) != MPI_PROC_NULL;
    const int w0 = hasBelow ? std::min(width[2 * axis], n[axis]) : 0;
    const int w1 = hasAbove ? std::min(width[2 * axis + 1], n[axis] - w0) : 0;
    if (w0) {
      Box slab = inner;
      *(&slab.x1 + axis) = *lo[axis] + w0;
      boxes.shell.push_back(slab);
      *lo[axis] += w0;
    }
    if (w1) {
      Box slab = inner;
      *(&slab.x0 + axis) = *hi[axis] - w1;
      boxes.shell.push_back(slab);
      *hi[axis] -= w1;
    }
  }
  boxes.interior = inner;
  return boxes;
}

DistributedKernel::DistributedKernel(const KernelInfo &info, const DomainSplit &d,
                                     MakeExchange make)
    : info_(info) {
  if (!make)
    make = [](const DomainSplit &d, const Reach &reach, int elementBytes, int tag) {
      return std::make_unique<HaloExchange>(d, reach, elementBytes, tag);
    };
  // After a step, output o's storage becomes the level it advances: exchange
  // it as far as any level of that field is read.
  std::array<int, 6> width = {0, 0, 0, 0, 0, 0};
  for (size_t o = 0; o < info.fields.size(); ++o) {
    const KernelFieldInfo &out = info.fields[o];
    if (out.advances < 0)
      continue;
    Reach reach = reachOf(out).merged(reachOf(info.fields[out.advances]));
    if (out.overwrites >= 0)
      reach = reach.merged(reachOf(info.fields[out.overwrites]));
    if (!reach.neighbours)
      continue;
    for (int i = 0; i < 6; ++i)
      width[i] = std::max(width[i], reach.cells[i]);
    exchanges_.add(int(o), make(d, reach, elementBytesOf(out.type), int(o)));
  }
  // The shell holds every point that reads a halo cell or is sent to a
  // neighbour: as deep as the reach on either side of the axis.
  for (const KernelFieldInfo &f : info.fields)
    for (int axis = 0; axis < 3; ++axis) {
      const int deepest = std::max(f.reach[2 * axis], f.reach[2 * axis + 1]);
      width[2 * axis] = std::max(width[2 * axis], deepest);
      width[2 * axis + 1] = std::max(width[2 * axis + 1], deepest);
    }
  boxes_ = stepBoxes(d, width);
}

void DistributedKernel::step(const ErasedArgs &local, RunOptions options, bool overlap) {
  step(
      local,
      [&](const ErasedArgs &args, const Box &box) {
        options.region = box;
        info_.run(args, options);
      },
      overlap);
}

void DistributedKernel::step(const ErasedArgs &local, const RunBox &runBox, bool overlap) {
  auto run = [&](const Box &box) {
    if (!box.empty())
      runBox(local, box);
  };
  auto timed = [&](auto &&what) {
    const double t0 = MPI_Wtime();
    what();
    haloSeconds_ += MPI_Wtime() - t0;
  };
  if (!overlap) {
    run(wholeBox(local.extent));
    timed([&] {
      exchanges_.start(local);
      exchanges_.finish(local);
    });
    return;
  }
  for (const Box &box : boxes_.shell)
    run(box);
  timed([&] { exchanges_.start(local); });
  run(boxes_.interior);
  timed([&] { exchanges_.finish(local); });
}

int DistributedKernel::sendsPerStep() const { return exchanges_.sends(); }

std::vector<int> DistributedKernel::exchangedFields() const { return exchanges_.fields(); }

} // namespace stencilc::rt::mpi
