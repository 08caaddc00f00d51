//===- DistributedCudaTest.cpp - The CUDA path over ranks, in the emulator -===//
//
// Under `mpiexec -n N`: generated CUDA kernels (compiled against the CUDA
// emulator) step a subdomain per rank in device memory, exchanging halos
// through DeviceHaloExchange (device pack and unpack kernels, host staging),
// and must give every rank's box of the one-rank device run bit for bit:
// one step per exchange (DistributedKernel), and T per exchange over a deep
// halo (DeepHaloKernel), each round's steps whole and tiled.
//
//===----------------------------------------------------------------------===//
#include "DistributedSupport.h"

#include "CudaKernels.inc"

#include <stencilc/cuda/DeviceKernelData.h>
#include <stencilc/cuda/mpi/DeviceHaloExchange.h>
#include <stencilc/mpi/DeepHaloKernel.h>
#include <stencilc/mpi/DistributedKernel.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace stencilc;
using namespace stencilc::rt;
using namespace stencilc::distributedtest;

namespace {

/// One launch of a generated CUDA kernel: its variant (an index into kVariants) on a box.
struct CudaKernel {
  const KernelInfo &(*info)();
  void (*run)(const ErasedArgs &, int variant, const std::optional<Box> &region);
  int variants;
};

#define STENCILC_CUDA_ENTRY(name)                                                                  \
  CudaKernel{&stencilc_kernels::name##_cuda::kernelInfo,                                           \
             [](const ErasedArgs &e, int variant, const std::optional<Box> &region) {              \
               namespace k = stencilc_kernels::name##_cuda;                                        \
               k::LaunchOptions o;                                                                 \
               o.variant = k::kVariants[variant];                                                  \
               o.region = region;                                                                  \
               k::runErased(e, o);                                                                 \
             },                                                                                    \
             int(std::size(stencilc_kernels::name##_cuda::kVariants))},

const std::vector<CudaKernel> &kernels() {
  static const std::vector<CudaKernel> all = {STENCILC_CUDA_KERNELS(STENCILC_CUDA_ENTRY)};
  return all;
}

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// Two steps of `k` on the whole grid and distributed, in device memory; the
/// points whose bits differ, summed over ranks.
long long differing(const CudaKernel &k, int variant, const mpi::RankGrid &ranks, bool overlap) {
  const KernelInfo &info = k.info();
  const Extent extent = info.dims == 3 ? Extent{21, 19, 17} : Extent{29, 23, 1};
  KernelData global(info, GridShape{info.dims, extent.nx, extent.ny, extent.nz, info.radius},
                    tableColumns(), /*inPlace=*/false);
  fillGlobal(global, false);
  mpi::DomainSplit d(MPI_COMM_WORLD, info.dims, extent, mpi::haloOf(info), ranks);
  const Extent e = d.local();
  KernelData part(info, GridShape{info.dims, e.nx, e.ny, e.nz, info.radius}, tableColumns(), false);
  scatter(global, part, d.owned());

  cuda::DeviceKernelData deviceGlobal(global), devicePart(part);
  mpi::DistributedKernel kernel(info, d, &cuda::mpi::DeviceHaloExchange::make);
  auto runBox = [&](const ErasedArgs &args, const Box &box) { k.run(args, variant, box); };
  for (int step = 0; step < 2; ++step) {
    k.run(deviceGlobal.args(), variant, std::nullopt);
    global.rotate();
    deviceGlobal.remap();
    kernel.step(devicePart.args(), runBox, overlap);
    part.rotate();
    devicePart.remap();
  }
  for (size_t f = 0; f < info.fields.size(); ++f) {
    deviceGlobal.download(int(f));
    devicePart.download(int(f));
  }
  long long mine = differences(global, part, d.owned()), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

/// Five steps of `k` on the whole grid and over a halo `steps` reaches deep,
/// exchanged once per `steps` steps in device memory, each round's steps
/// whole or (`tiled`) on cache tiles of 5 x 4 launched one after another; the
/// points whose bits differ, summed over ranks, or -1 where the split does
/// not fit the deep halo (on every rank alike).
long long differingDeep(const CudaKernel &k, int variant, const mpi::RankGrid &ranks, int steps,
                        bool tiled) {
  const KernelInfo &info = k.info();
  const Extent extent = info.dims == 3 ? Extent{21, 19, 17} : Extent{29, 23, 1};
  constexpr int kSteps = 5;
  std::unique_ptr<mpi::DomainSplit> d;
  try {
    d = std::make_unique<mpi::DomainSplit>(MPI_COMM_WORLD, info.dims, extent, mpi::haloOf(info),
                                           ranks, steps);
  } catch (const mpi::DomainSplitError &) {
    return -1;
  }
  KernelData global(info, GridShape{info.dims, extent.nx, extent.ny, extent.nz, info.radius},
                    tableColumns(), /*inPlace=*/false);
  fillGlobal(global, false);
  const Extent e = d->local();
  KernelData part(info, GridShape{info.dims, e.nx, e.ny, e.nz, info.radius * steps}, tableColumns(),
                  false);
  scatter(global, part, d->owned());

  cuda::DeviceKernelData deviceGlobal(global), devicePart(part);
  for (int step = 0; step < kSteps; ++step) {
    k.run(deviceGlobal.args(), variant, std::nullopt);
    global.rotate();
    deviceGlobal.remap();
  }
  mpi::DeepHaloKernel kernel(info, *d, &cuda::mpi::DeviceHaloExchange::make);
  auto runBox = [&](const ErasedArgs &args, const Box &box) { k.run(args, variant, box); };
  ErasedArgs a = devicePart.args();
  if (tiled)
    kernel.runTiled(a, kSteps, TimeTiling{steps, 0, 5, 4}, runBox, {}, TileConcurrency::Serial);
  else
    kernel.run(a, kSteps, runBox);
  for (int step = 0; step < kSteps; ++step) {
    part.rotate();
    devicePart.remap();
  }
  for (size_t f = 0; f < info.fields.size(); ++f) {
    deviceGlobal.download(int(f));
    devicePart.download(int(f));
  }
  long long mine = differences(global, part, d->owned()), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

/// With STENCILC_MPI_DEVICE_BUFFERS set, MPI is handed the device buffers:
/// the exchanges must say so, or the run would test the host path twice.
TEST(DistributedCuda, UsesDeviceBuffersWhenAsked) {
  mpi::DomainSplit d(MPI_COMM_WORLD, 3, {21, 19, 17}, {4, 4, 4});
  mpi::Reach reach;
  reach.cells = {4, 4, 4, 4, 4, 4};
  reach.neighbours = 1u << neighbourBit(0, 0, 1);
  cuda::mpi::DeviceHaloExchange exchange(d, reach, 4, 0);
  EXPECT_EQ(exchange.direct(), cuda::mpi::mpiTakesDeviceBuffers());
  const char *forced = std::getenv("STENCILC_MPI_DEVICE_BUFFERS");
  if (forced && std::string(forced) == "1") {
    EXPECT_TRUE(exchange.direct());
  }
}

TEST(DistributedCuda, DeviceGridsMatchTheOneRankRunBitForBit) {
  const int n = worldSize();
  // Splits along z, y and x (and x-y with 4 ranks), in 3D; along y and x in 2D.
  const std::vector<mpi::RankGrid> grids3 = {{{1, 1, n}}, {{1, n, 1}}, {{n, 1, 1}}};
  const std::vector<mpi::RankGrid> grids2 = {{{1, n, 1}}, {{n, 1, 1}}};
  for (const CudaKernel &k : kernels()) {
    const KernelInfo &info = k.info();
    std::vector<mpi::RankGrid> grids = info.dims == 3 ? grids3 : grids2;
    if (n == 4 && info.dims == 3)
      grids.push_back({{2, 2, 1}});
    for (const mpi::RankGrid &ranks : grids)
      for (int variant = 0; variant < k.variants; ++variant)
        EXPECT_EQ(differing(k, variant, ranks, /*overlap=*/variant % 2 == 0), 0)
            << info.name << " variant " << variant << " on "
            << mpi::rankGridText(ranks.ranks, info.dims);
  }
}

/// T = 2 and 3 steps per exchange over a deep halo on device grids, through
/// DeviceHaloExchange, for every CUDA kernel whose levels only rotate, in its
/// first and last variant, each round's steps whole and on cache tiles.
TEST(DistributedCuda, DeepHaloDeviceGridsMatchTheOneRankRunBitForBit) {
  const int n = worldSize();
  int checked = 0;
  for (const CudaKernel &k : kernels()) {
    const KernelInfo &info = k.info();
    if (!isTimeTileable(info))
      continue;
    const mpi::RankGrid ranks =
        info.dims == 3 ? mpi::RankGrid{{n, 1, 1}} : mpi::RankGrid{{1, n, 1}};
    for (int steps : {2, 3})
      for (int variant : {0, k.variants - 1})
        for (bool tiled : {false, true}) {
          const long long differing = differingDeep(k, variant, ranks, steps, tiled);
          if (differing < 0)
            continue; // the split is thinner than this deep halo
          EXPECT_EQ(differing, 0) << info.name << " variant " << variant << " T = " << steps
                                  << (tiled ? " tiled" : "") << " on "
                                  << mpi::rankGridText(ranks.ranks, info.dims);
          ++checked;
        }
  }
  EXPECT_GT(checked, 0);
}

} // namespace
