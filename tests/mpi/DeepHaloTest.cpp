//===- DeepHaloTest.cpp - T steps per exchange give the one-rank bits -----===//
//
// Run under `mpiexec -n N` (tests/mpi/CMakeLists.txt: N = 1 to 4). A halo T
// stencil reaches deep, exchanged once per T steps (DeepHaloKernel.h), for
// T = 1, 2, 3 and 5 on rank grids of N ranks that fit it: after 7
// steps (whole rounds and a shorter last one) every level of every rank's box
// equals the same steps in one process bit for bit, for acoustic_iso8 and
// ete37 in float, in place and not, with outputs poisoned (NaN) first and
// sources added after each step inside a subdomain, on a rank boundary and in
// the part of a neighbour's halo that only the grown boxes compute; each round
// whole-box steps, and (DeepHaloKernel::runTiled) tiled for the cache.
//
//===----------------------------------------------------------------------===//
#include "DistributedSupport.h"

#include <stencilc/mpi/DeepHaloKernel.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace stencilc;
using namespace stencilc::rt;
using mpi::RankGrid;
using namespace stencilc::distributedtest;

namespace {

/// Odd sizes; 61 x 41 fits T = 5 (a halo of 20) over 3 ranks along x and 2 x 2.
constexpr Extent kExtent{61, 41, 25};
constexpr int kSteps = 7;

/// Sources in global coordinates. (30, 20, 12) is the last point of the lower
/// rank on the 2-rank x and y splits (in the upper rank's halo) and 9 points
/// into the middle rank of 3 along x (in both neighbours' deep halos); (35, 25,
/// 14) is 5 points past the 2-rank x split, past one reach of the lower rank.
struct Source {
  int x, y, z;
};
constexpr Source kSources[] = {{10, 9, 7}, {30, 20, 12}, {35, 25, 14}};

float sourceValue(int step, int source) { return float(1 + source) + 0.25f * float(step); }

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int outputOf(const KernelInfo &info) {
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::string(info.fields[f].role) == "out")
      return int(f);
  return -1;
}

/// Adds step `step`'s sources to the new level `out` inside `box`; the grid's
/// point (0, 0, 0) is global point `origin`.
void addSources(const ErasedField &out, const Box &box, const Box &origin, int step) {
  for (int s = 0; s < int(std::size(kSources)); ++s) {
    const int x = kSources[s].x - origin.x0, y = kSources[s].y - origin.y0,
              z = kSources[s].z - origin.z0;
    if (x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1 && z >= box.z0 && z < box.z1)
      static_cast<float *>(out.origin)[x + y * out.line + z * out.plane] += sourceValue(step, s);
  }
}

/// Every rank grid of `n` ranks in 3D.
std::vector<RankGrid> rankGrids(int n) {
  std::vector<RankGrid> grids;
  for (int px = 1; px <= n; ++px)
    for (int py = 1; px * py <= n; ++py)
      if (n % (px * py) == 0)
        grids.push_back({{px, py, n / (px * py)}});
  return grids;
}

/// The global problem, with the one-process halo: a rank's deep halo past it
/// is poisoned (scatter), as no step reads there.
KernelData globalProblem(const KernelInfo &info, bool inPlace) {
  KernelData data(info, GridShape{3, kExtent.nx, kExtent.ny, kExtent.nz, info.radius},
                  tableColumns(), inPlace);
  fillGlobal(data, inPlace);
  return data;
}

struct Check {
  const KernelInfo &info;
  bool inPlace;
  Variant variant;
};

/// For each T, the differing points summed over ranks on rank grids that
/// fit; fails the test where no rank grid fits a T.
void expectOneProcessBits(const Check &c) {
  const KernelInfo &info = c.info;
  const int out = outputOf(info);
  ASSERT_GE(out, 0) << info.name;
  RunOptions options;
  options.variant = c.variant;
  KernelData initial = globalProblem(info, c.inPlace);
  KernelData one = globalProblem(info, c.inPlace);
  for (int step = 0; step < kSteps; ++step) {
    const ErasedArgs a = one.args();
    info.run(a, options);
    addSources(a.fields[size_t(out)], wholeBox(a.extent), Box{}, step);
    one.rotate();
  }
  for (int steps : {1, 2, 3, 5}) {
    // The first and the last rank grid that fit (splits along z first, x
    // last), to keep the test short: 4 ranks on fewer cores spin in MPI.
    std::vector<RankGrid> fitting;
    for (const RankGrid &ranks : rankGrids(worldSize())) {
      try {
        mpi::DomainSplit(MPI_COMM_WORLD, 3, kExtent, mpi::haloOf(info), ranks, steps);
        fitting.push_back(ranks);
      } catch (const mpi::DomainSplitError &) {
        // refused on every rank alike
      }
    }
    EXPECT_FALSE(fitting.empty()) << "no rank grid of " << worldSize()
                                  << " ranks fits T = " << steps;
    if (fitting.size() > 2)
      fitting.erase(fitting.begin() + 1, fitting.end() - 1);
    for (const RankGrid &ranks : fitting) {
      const mpi::DomainSplit d(MPI_COMM_WORLD, 3, kExtent, mpi::haloOf(info), ranks, steps);
      const Extent local = d.local();
      // Each round whole-box steps, then tiled for the cache: tiles of 5 x 4
      // (y, z) with whole rows, and of 7 x 6 x 5, multiples of nothing here.
      const TimeTiling untiled{0, 0, 0, 0};
      for (const TimeTiling &tiling :
           {untiled, TimeTiling{steps, 0, 5, 4}, TimeTiling{steps, 7, 6, 5}}) {
        KernelData part(info, GridShape{3, local.nx, local.ny, local.nz, info.radius * steps},
                        tableColumns(), c.inPlace);
        scatter(initial, part, d.owned());
        mpi::DeepHaloKernel kernel(info, d);
        ErasedArgs a = part.args();
        const AfterBox sources = [&](int step, const Box &box, const ErasedArgs &args) {
          addSources(args.fields[size_t(out)], box, d.owned(), step);
        };
        if (tiling.depth == 0)
          kernel.run(a, kSteps, options, sources);
        else
          kernel.runTiled(a, kSteps, tiling, options, sources);
        const ErasedArgs callers = part.args();
        for (size_t t = 0; t < a.tables.size(); ++t)
          EXPECT_TRUE(a.tables[t].data == callers.tables[t].data && !a.tables[t].packed)
              << info.name << ": after the run, table " << t << " is not the caller's";
        for (int step = 0; step < kSteps; ++step)
          part.rotate();
        long long mine = differences(one, part, d.owned()), all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(all, 0) << info.name << " " << variantName(c.variant) << " T = " << steps
                          << " on " << mpi::rankGridText(ranks.ranks, 3)
                          << (c.inPlace ? ", in place" : "") << ", tiles " << tiling.tileX << " x "
                          << tiling.tileY << " x " << tiling.tileZ;
      }
    }
  }
}

TEST(DeepHalo, StepsPerExchangeMatchSingleStepsOfOneProcessBitForBit) {
  for (const char *name : {"acoustic_iso8_f32", "ete37_f32"}) {
    const KernelInfo *info = findKernel(name);
    ASSERT_NE(info, nullptr) << name;
    // The variants differ in their loops, not in the code each point runs:
    // one each, the planes' row buffers sized by the grown boxes.
    expectOneProcessBits({*info, /*inPlace=*/false, Variant::Naive});
    expectOneProcessBits({*info, /*inPlace=*/true, Variant::Planes});
  }
}

/// A round is one pass of the cache tiles: tiles of another depth, a region
/// and negative tiles are refused, naming the kernel and the values.
TEST(DeepHalo, RefusesTilesThatDoNotFitTheRounds) {
  const KernelInfo *info = findKernel("acoustic_iso8_f32");
  ASSERT_NE(info, nullptr);
  const mpi::DomainSplit d(MPI_COMM_WORLD, 3, kExtent, mpi::haloOf(*info), {{worldSize(), 1, 1}},
                           2);
  const Extent local = d.local();
  KernelData part(*info, GridShape{3, local.nx, local.ny, local.nz, info->radius * 2},
                  tableColumns(), /*inPlace=*/true);
  mpi::DeepHaloKernel kernel(*info, d);
  ErasedArgs a = part.args();
  auto message = [&](const TimeTiling &tiling, RunOptions options) {
    try {
      kernel.runTiled(a, 2, tiling, options);
    } catch (const KernelError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({3, 0, 8, 8}, {}),
            "acoustic_iso8_f32: time tiles of depth 3 in rounds of 2 steps per exchange (a round "
            "is one pass: they must be equal)");
  EXPECT_EQ(message({2, 0, -1, 8}, {})
                .rfind("acoustic_iso8_f32: time tiling of depth 2 with "
                       "tiles 0 x -1 x 8",
                       0),
            0u);
  RunOptions withRegion;
  withRegion.region = Box{0, 0, 0, 1, 1, 1};
  EXPECT_EQ(message({2, 0, 8, 8}, withRegion),
            "acoustic_iso8_f32: a deep-halo run computes the boxes of its steps; it takes no "
            "region");
}

/// Step k of a round computes the owned box grown by (T − 1 − k) reaches on
/// the sides with a neighbour only.
TEST(DeepHalo, GrowsTheBoxesOnlyTowardNeighbours) {
  if (worldSize() != 2)
    GTEST_SKIP() << "needs 2 ranks";
  const KernelInfo *info = findKernel("acoustic_iso8_f32");
  ASSERT_NE(info, nullptr);
  mpi::DomainSplit d(MPI_COMM_WORLD, 3, kExtent, mpi::haloOf(*info), {{2, 1, 1}}, 3);
  mpi::DeepHaloKernel kernel(*info, d);
  const Extent e = d.local();
  const bool lower = d.coords()[0] == 0;
  const Box first = kernel.stepBox(0, 3);
  EXPECT_EQ(first.x0, lower ? 0 : -8);
  EXPECT_EQ(first.x1, lower ? e.nx + 8 : e.nx);
  EXPECT_EQ(first.y0, 0);
  EXPECT_EQ(first.y1, e.ny);
  EXPECT_EQ(first.z0, 0);
  EXPECT_EQ(first.z1, e.nz);
  EXPECT_EQ(kernel.stepBox(1, 3).x1 - kernel.stepBox(1, 3).x0, e.nx + 4);
  const Box last = kernel.stepBox(2, 3);
  EXPECT_EQ(last.x1 - last.x0, e.nx);
  EXPECT_EQ(last.x0, 0);
}

/// The messages a rank sends per exchange. On 2 x 1 x 1 each rank has one
/// neighbour: one step per exchange sends the newest level (1 message a
/// step, as DistributedKernel), three steps both levels (the older one for
/// step 1's grown box): 2 messages per 3 steps. On 2 x 2 x 1 each rank has a
/// neighbour along x, along y and on the (x, y) edge: one step sends what
/// DistributedKernel sends (a star 2 messages, ETE-37 with its edges 3);
/// three steps send both levels in all three directions, since the reads of
/// successive steps compound diagonally: 6 messages per 3 steps.
TEST(DeepHalo, SendsEachLevelOncePerRound) {
  struct Expectation {
    const char *kernel;
    int steps, sends, levels;
  };
  std::vector<Expectation> expected;
  RankGrid ranks;
  if (worldSize() == 2) {
    ranks = {{2, 1, 1}};
    expected = {{"acoustic_iso8_f32", 1, 1, 1},
                {"acoustic_iso8_f32", 3, 2, 2},
                {"ete37_f32", 1, 1, 1},
                {"ete37_f32", 3, 2, 2}};
  } else if (worldSize() == 4) {
    ranks = {{2, 2, 1}};
    expected = {{"acoustic_iso8_f32", 1, 2, 1},
                {"acoustic_iso8_f32", 3, 6, 2},
                {"ete37_f32", 1, 3, 1},
                {"ete37_f32", 3, 6, 2}};
  } else {
    GTEST_SKIP() << "needs 2 or 4 ranks";
  }
  for (const Expectation &x : expected) {
    const KernelInfo *info = findKernel(x.kernel);
    ASSERT_NE(info, nullptr) << x.kernel;
    mpi::DomainSplit d(MPI_COMM_WORLD, 3, kExtent, mpi::haloOf(*info), ranks, x.steps);
    mpi::DeepHaloKernel kernel(*info, d);
    EXPECT_EQ(kernel.sendsPerExchange(), x.sends) << x.kernel << " T = " << x.steps;
    EXPECT_EQ(int(kernel.exchangedFields().size()), x.levels) << x.kernel << " T = " << x.steps;
    if (x.steps == 1) {
      EXPECT_EQ(kernel.sendsPerExchange(), mpi::DistributedKernel(*info, d).sendsPerStep());
    }
  }
}

/// A split that fits one step's halo is refused, on every rank, before
/// anything runs, once T steps' halo does not fit: 20 points over 2 to 4
/// ranks is 5 to 10 each, at least the reach of 4 but less than 4 x 3.
TEST(DeepHalo, RefusesSubdomainsThinnerThanTheDeepHalo) {
  const int n = worldSize();
  if (n < 2)
    GTEST_SKIP() << "needs 2 or more ranks";
  const Extent thin{20, 29, 23};
  EXPECT_NO_THROW(mpi::DomainSplit(MPI_COMM_WORLD, 3, thin, {4, 4, 4}, {{n, 1, 1}}, 1))
      << "a single step's halo fits";
  try {
    mpi::DomainSplit d(MPI_COMM_WORLD, 3, thin, {4, 4, 4}, {{n, 1, 1}}, 3);
    ADD_FAILURE() << "accepted subdomains thinner than 3 steps' halo";
  } catch (const mpi::DomainSplitError &e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("a subdomain of " + std::to_string(20 / n) + " points along x (20 over " +
                       std::to_string(n) +
                       " ranks) is thinner than the halo of 12 (the stencil's 4 x 3 steps per "
                       "exchange) there"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("at most 1 along x, 2 along y, 1 along z fit"), std::string::npos) << why;
  }
}

} // namespace
