//===- DistributedKernelTest.cpp - N ranks give the one-rank bits ---------===//
//
// Run under `mpiexec -n N` (tests/mpi/CMakeLists.txt: N = 1 to 4, more ranks
// than cores). Every rank builds the same random global problem, runs it on
// the whole grid in its own process (the one-rank result, which
// CpuKernelTest checks against the reference evaluator; once per variant,
// shared by every rank grid and overlap setting), then runs it
// distributed on its subdomain with halo exchange, and compares its part of
// every time level bit for bit after three steps. For every generated kernel
// of tests/kernels, every variant, the rank grids of rankGrids(), with and
// without overlap, in place and out of place, on sizes that
// no rank count divides.
//
//===----------------------------------------------------------------------===//
#include "DistributedSupport.h"

#include <stencilc/mpi/DistributedKernel.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace stencilc;
using namespace stencilc::rt;
using mpi::RankGrid;
using namespace stencilc::distributedtest;

namespace {

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// The rank grids of `n` ranks in `dims` dimensions to test: every one, except that 4 ranks
/// split two axes only. A split of one axis into 4 adds nothing that 3 ranks along it (a rank
/// with a neighbour on each side) do not test, and 4 ranks on CI's 2 cores are slow.
std::vector<RankGrid> rankGrids(int n, int dims) {
  std::vector<RankGrid> grids;
  for (int px = 1; px <= n; ++px)
    for (int py = 1; px * py <= n; ++py) {
      if (n % (px * py))
        continue;
      const int pz = n / (px * py);
      if (dims == 2 && pz != 1)
        continue;
      const int axesSplit = (px > 1) + (py > 1) + (pz > 1);
      if (n == 4 && axesSplit < 2)
        continue;
      grids.push_back({{px, py, pz}});
    }
  return grids;
}

struct Run {
  RankGrid ranks;
  Variant variant;
  bool overlap, inPlace;
};

constexpr int kSteps = 3;

/// The global problem of the tests: 37 x 29 x 23 (3D) or 45 x 31 points, sizes no rank count
/// divides.
GridShape globalShape(const KernelInfo &info) {
  const Extent extent = info.dims == 3 ? Extent{37, 29, 23} : Extent{45, 31, 1};
  return GridShape{info.dims, extent.nx, extent.ny, extent.nz, info.radius};
}

RunOptions runOptions(Variant variant) {
  RunOptions options;
  options.variant = variant;
  options.blockY = 3; // small tiles, so that tiles end inside the shell and the interior
  options.blockZ = 4;
  return options;
}

/// The one-rank runs of one kernel, each computed once and shared by every rank grid and
/// overlap setting that compares with it: the global problem as it starts, and after kSteps
/// steps of each variant, in place or not.
class OneRankRuns {
public:
  explicit OneRankRuns(const KernelInfo &info) : info_(info) {}

  KernelData &start(bool inPlace) {
    std::unique_ptr<KernelData> &data = starts_[inPlace];
    if (!data) {
      data = std::make_unique<KernelData>(info_, globalShape(info_), tableColumns(), inPlace);
      fillGlobal(*data, inPlace);
    }
    return *data;
  }

  KernelData &end(Variant variant, bool inPlace) {
    std::unique_ptr<KernelData> &data = ends_[{variant, inPlace}];
    if (!data) {
      data = std::make_unique<KernelData>(info_, globalShape(info_), tableColumns(), inPlace);
      fillGlobal(*data, inPlace);
      for (int step = 0; step < kSteps; ++step) {
        info_.run(data->args(), runOptions(variant));
        data->rotate();
      }
    }
    return *data;
  }

private:
  const KernelInfo &info_;
  std::map<bool, std::unique_ptr<KernelData>> starts_;
  std::map<std::pair<Variant, bool>, std::unique_ptr<KernelData>> ends_;
};

/// kSteps steps distributed, against the one-rank run; the number of differing points, summed
/// over ranks.
long long distributedDifferences(const KernelInfo &info, OneRankRuns &oneRank, const Run &run) {
  const GridShape shape = globalShape(info);
  mpi::DomainSplit d(MPI_COMM_WORLD, info.dims, Extent{shape.nx, shape.ny, shape.nz},
                     mpi::haloOf(info), run.ranks);
  const Extent local = d.local();
  KernelData part(info, GridShape{info.dims, local.nx, local.ny, local.nz, info.radius},
                  tableColumns(), run.inPlace);
  scatter(oneRank.start(run.inPlace), part, d.owned());
  mpi::DistributedKernel kernel(info, d);
  for (int step = 0; step < kSteps; ++step) {
    kernel.step(part.args(), runOptions(run.variant), run.overlap);
    part.rotate();
  }
  long long mine = differences(oneRank.end(run.variant, run.inPlace), part, d.owned()), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

std::vector<const KernelInfo *> kernels() {
  std::vector<const KernelInfo *> out = kernelRegistry();
  // The same order on every rank: the collective calls of the runs must match.
  std::sort(out.begin(), out.end(), [](const KernelInfo *a, const KernelInfo *b) {
    return std::strcmp(a->name, b->name) < 0;
  });
  return out;
}

TEST(Distributed, EveryKernelMatchesTheOneRankRunBitForBit) {
  ASSERT_FALSE(kernels().empty());
  for (const KernelInfo *info : kernels()) {
    bool canRunInPlace = false;
    for (const KernelFieldInfo &f : info->fields)
      canRunInPlace |= f.overwrites >= 0;
    OneRankRuns oneRank(*info);
    for (const RankGrid &ranks : rankGrids(worldSize(), info->dims))
      for (Variant variant : {Variant::Naive, Variant::Blocked, Variant::Planes})
        for (bool overlap : {true, false})
          for (bool inPlace : {false, true}) {
            if (inPlace && !canRunInPlace)
              continue;
            // Overlap off and in place once per rank grid: they change the
            // order of the calls, not the code each point runs.
            if ((!overlap || inPlace) && variant != Variant::Planes)
              continue;
            const long long differing =
                distributedDifferences(*info, oneRank, {ranks, variant, overlap, inPlace});
            EXPECT_EQ(differing, 0)
                << info->name << " " << variantName(variant) << " on "
                << mpi::rankGridText(ranks.ranks, info->dims) << (overlap ? "" : ", no overlap")
                << (inPlace ? ", in place" : "");
          }
  }
}

/// The messages a rank sends per step: only to neighbours the stencil's reads
/// reach. On a 2x2x1 rank grid each rank has one face neighbour along x, one
/// along y and one (x, y) edge neighbour: a star sends 2 messages, ete73
/// (faces and the edges between them, no corners) 3.
TEST(Distributed, SendsOnlyWhereTheStencilReaches) {
  if (worldSize() != 4)
    GTEST_SKIP() << "needs 4 ranks";
  struct Expectation {
    const char *kernel;
    int sends;
  };
  for (auto [name, sends] : {Expectation{"acoustic_iso8_f32", 2}, Expectation{"laplacian7_f32", 2},
                             Expectation{"ete73_f32", 3}, Expectation{"ete37_f32", 3}}) {
    const KernelInfo *info = findKernel(name);
    ASSERT_NE(info, nullptr) << name;
    mpi::DomainSplit d(MPI_COMM_WORLD, 3, {37, 29, 23}, mpi::haloOf(*info), {{2, 2, 1}});
    mpi::DistributedKernel kernel(*info, d);
    EXPECT_EQ(kernel.sendsPerStep(), sends) << name;
  }
  // 1x1x4: two ranks in the middle with a neighbour above and below, two at the ends.
  const KernelInfo *info = findKernel("ete73_f32");
  mpi::DomainSplit d(MPI_COMM_WORLD, 3, {37, 29, 23}, mpi::haloOf(*info), {{1, 1, 4}});
  mpi::DistributedKernel kernel(*info, d);
  const int middle = d.coords()[2] == 0 || d.coords()[2] == 3 ? 1 : 2;
  EXPECT_EQ(kernel.sendsPerStep(), middle);
}

TEST(Distributed, UnevenSplitsCoverTheGridOnce) {
  mpi::DomainSplit d(MPI_COMM_WORLD, 3, {37, 29, 23}, {4, 4, 4});
  long long mine = d.owned().points(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all, 37LL * 29 * 23);
  for (int axis = 0; axis < 3; ++axis)
    EXPECT_EQ(mpi::partBegin(23, 3, 2) + mpi::partSize(23, 3, 2), 23);
  EXPECT_EQ(mpi::partSize(23, 3, 0), 8);
  EXPECT_EQ(mpi::partSize(23, 3, 2), 7);
}

TEST(Distributed, RefusesWhatCannotWorkOnEveryRank) {
  const int n = worldSize();
  // A rank grid of the wrong size.
  try {
    mpi::DomainSplit d(MPI_COMM_WORLD, 3, {37, 29, 23}, {4, 4, 4}, {{n + 1, 1, 1}});
    ADD_FAILURE() << "accepted a rank grid of " << n + 1 << " ranks";
  } catch (const mpi::DomainSplitError &e) {
    EXPECT_NE(std::string(e.what()).find("has " + std::to_string(n + 1) +
                                         " ranks, but the run has " + std::to_string(n)),
              std::string::npos)
        << e.what();
  }
  if (n < 2)
    return;
  // Subdomains thinner than the halo: 7 points along x over n ranks, halo 4.
  try {
    mpi::DomainSplit d(MPI_COMM_WORLD, 3, {7, 29, 23}, {4, 4, 4}, {{n, 1, 1}});
    ADD_FAILURE() << "accepted subdomains thinner than the halo";
  } catch (const mpi::DomainSplitError &e) {
    EXPECT_NE(std::string(e.what()).find("thinner than the stencil's halo of 4"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("at most 1 along x"), std::string::npos) << e.what();
  }
  // Left to choose, the domain split avoids the thin axis.
  mpi::DomainSplit d(MPI_COMM_WORLD, 3, {7, 29, 23}, {4, 4, 4});
  EXPECT_EQ(d.ranks()[0], 1) << d.describe();
}

TEST(Distributed, ParsesRankGrids) {
  std::string error;
  auto grid = mpi::parseRankGrid("2x1x3", 3, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(grid->ranks, (std::array<int, 3>{2, 1, 3}));
  EXPECT_FALSE(mpi::parseRankGrid("2x1", 3, error));
  EXPECT_NE(error.find("names 2 axes, the stencil has 3"), std::string::npos) << error;
  EXPECT_FALSE(mpi::parseRankGrid("2x0x1", 3, error));
  EXPECT_FALSE(mpi::parseRankGrid("2xx1", 3, error));
  EXPECT_FALSE(mpi::parseRankGrid("", 2, error));
  ASSERT_TRUE(mpi::parseRankGrid("3x1", 2, error)) << error;
}

} // namespace
