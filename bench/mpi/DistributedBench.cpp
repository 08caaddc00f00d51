//===- DistributedBench.cpp - Time per step of a kernel over MPI ranks ----===//
//
//   mpiexec -n N distributed-bench --kernel acoustic_iso8 --size 256 [--ranks 2x1x1]
//        [--variant naive] [--steps 10] [--rounds 3]
//        [--steps-per-exchange T [--tiles TYxTZ]]
//
// Each rank allocates only its own subdomain (with the halo), fills it with
// random levels, and runs the generated kernel distributed: per round, a
// few steps with the exchange overlapped with the interior and as many
// without, alternating. It prints, from rank 0, the median seconds per step
// of each, the halo seconds per step (packing, waiting, unpacking) and the
// overlap gain. bench/mpi/distributed-bench.sh compares N ranks x 1 thread with
// 1 rank x N threads (docs/DISTRIBUTED.md).
//
// With --steps-per-exchange T > 1 the halo is T reaches deep and exchanged
// once per T steps (DeepHaloKernel); a round alternates steps whose rounds
// run each step as one call on its box with rounds tiled for the cache
// (DeepHaloKernel::runTiled, tiles TY x TZ, 0: the runtime's), and prints both.
//
//===----------------------------------------------------------------------===//
#include <stencilc/KernelData.h>
#include <stencilc/mpi/DeepHaloKernel.h>
#include <stencilc/mpi/DistributedKernel.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace stencilc;
using namespace stencilc::rt;

namespace {

struct Options {
  std::string kernel = "acoustic_iso8";
  std::string ranks;
  Extent size{256, 256, 256};
  Variant variant = Variant::Naive;
  int steps = 10, rounds = 3;
  int stepsPerExchange = 1;
  int tileY = 0, tileZ = 0;
  bool tilesGiven = false; ///< --tiles: only with T > 1 steps per exchange
};

[[noreturn]] void fail(int rank, const std::string &message) {
  if (rank == 0)
    std::fprintf(stderr, "distributed-bench: error: %s\n", message.c_str());
  MPI_Finalize();
  std::exit(2);
}

Options parse(int argc, char **argv, int rank) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(rank, arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--kernel")
      o.kernel = value();
    else if (arg == "--ranks")
      o.ranks = value();
    else if (arg == "--size") {
      const std::string v = value();
      int nx = 0, ny = 0, nz = 0;
      char tail = 0;
      if (std::sscanf(v.c_str(), "%dx%dx%d%c", &nx, &ny, &nz, &tail) == 3 && nx > 0 && ny > 0 &&
          nz > 0)
        o.size = {nx, ny, nz};
      else if (std::sscanf(v.c_str(), "%d%c", &nx, &tail) == 1 && nx > 0)
        o.size = {nx, nx, nx};
      else
        fail(rank, "--size: expected N or NXxNYxNZ, got '" + v + "'");
    } else if (arg == "--variant") {
      const std::string v = value();
      auto parsed = parseVariant(v);
      if (!parsed)
        fail(rank, "--variant: naive, blocked or planes, not '" + v + "'");
      o.variant = *parsed;
    } else if (arg == "--steps")
      o.steps = std::atoi(value().c_str());
    else if (arg == "--rounds")
      o.rounds = std::atoi(value().c_str());
    else if (arg == "--steps-per-exchange")
      o.stepsPerExchange = std::atoi(value().c_str());
    else if (arg == "--tiles") {
      const std::string v = value();
      char tail = 0;
      if (std::sscanf(v.c_str(), "%dx%d%c", &o.tileY, &o.tileZ, &tail) != 2 || o.tileY < 0 ||
          o.tileZ < 0)
        fail(rank, "--tiles: expected TYxTZ (0 or more each), got '" + v + "'");
      o.tilesGiven = true;
    } else
      fail(rank, "unknown option " + arg);
  }
  if (o.steps < 1 || o.rounds < 1 || o.stepsPerExchange < 1)
    fail(rank, "--steps, --rounds and --steps-per-exchange must be at least 1");
  if (o.tilesGiven && o.stepsPerExchange == 1)
    fail(rank, "--tiles: the cache tiles are for rounds of --steps-per-exchange 2 or more");
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

/// Seconds per step of the `steps` steps `run` makes, and the halo seconds
/// per step `kernel` counted meanwhile: the slowest rank's, which sets the step.
template <typename Kernel, typename Run>
std::pair<double, double> perStep(int steps, const Kernel &kernel, Run &&run) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double halo0 = kernel.haloSeconds(), t0 = MPI_Wtime();
  run();
  double seconds = (MPI_Wtime() - t0) / steps, halo = (kernel.haloSeconds() - halo0) / steps;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &halo, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {seconds, halo};
}

/// T steps per exchange: whole-box steps against rounds tiled for the cache.
void deepHalo(const Options &o, const KernelInfo &info, const mpi::DomainSplit &d, KernelData &data,
              const RunOptions &options, int rank) {
  mpi::DeepHaloKernel kernel(info, d);
  const TimeTiling tiling{o.stepsPerExchange, 0, o.tileY, o.tileZ};
  auto timeSteps = [&](bool tiled) {
    return perStep(o.steps, kernel, [&] {
      ErasedArgs a = data.args();
      if (tiled)
        kernel.runTiled(a, o.steps, tiling, options);
      else
        kernel.run(a, o.steps, options);
      for (int s = 0; s < o.steps; ++s)
        data.rotate();
    });
  };
  timeSteps(false); // warm-up: first touch, caches
  std::vector<double> whole, tiled, haloWhole, haloTiled;
  for (int round = 0; round < o.rounds; ++round)
    for (bool isTiled : {round % 2 == 1, round % 2 == 0}) { // which goes first alternates
      const auto [seconds, halo] = timeSteps(isTiled);
      (isTiled ? tiled : whole).push_back(seconds);
      (isTiled ? haloTiled : haloWhole).push_back(halo);
    }
  if (rank == 0) {
    const double points = double(o.size.nx) * o.size.ny * o.size.nz;
    const char *threads = std::getenv("OMP_NUM_THREADS");
    std::printf(
        "{\"kernel\": \"%s\", \"variant\": \"%s\", \"size\": [%d, %d, %d], \"ranks\": "
        "\"%s\", \"threads_per_rank\": \"%s\", \"steps\": %d, \"rounds\": %d,\n"
        " \"steps_per_exchange\": %d, \"tiles\": [%d, %d], \"sends_per_exchange_rank0\": %d,\n"
        " \"seconds_per_step\": %.6f, \"gpts_per_s\": %.4f, \"halo_seconds_per_step\": %.6f,\n"
        " \"tiled_seconds_per_step\": %.6f, \"tiled_gpts_per_s\": %.4f, "
        "\"tiled_halo_seconds_per_step\": %.6f, \"tiled_gain\": %.3f}\n",
        info.name, variantName(o.variant), o.size.nx, o.size.ny, o.size.nz,
        mpi::rankGridText(d.ranks(), info.dims).c_str(), threads ? threads : "default", o.steps,
        o.rounds, o.stepsPerExchange, o.tileY, o.tileZ, kernel.sendsPerExchange(), median(whole),
        points / median(whole) * 1e-9, median(haloWhole), median(tiled),
        points / median(tiled) * 1e-9, median(haloTiled), median(whole) / median(tiled));
  }
}

/// The benchmark proper; everything MPI it makes is gone when it returns.
void benchmark(int argc, char **argv) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Options o = parse(argc, argv, rank);
  const KernelInfo *info = findKernel(o.kernel);
  if (!info)
    fail(rank, "no kernel '" + o.kernel + "' in this program (acoustic_iso8, ete37)");

  mpi::RankGrid grid;
  if (!o.ranks.empty()) {
    std::string error;
    auto parsed = mpi::parseRankGrid(o.ranks, info->dims, error);
    if (!parsed)
      fail(rank, "--ranks: " + error);
    grid = *parsed;
  }
  std::unique_ptr<mpi::DomainSplit> d;
  try {
    d = std::make_unique<mpi::DomainSplit>(MPI_COMM_WORLD, info->dims, o.size, mpi::haloOf(*info),
                                           grid, o.stepsPerExchange);
  } catch (const mpi::DomainSplitError &e) {
    fail(rank, e.what());
  }
  const Extent local = d->local();
  // In place, as the wave example and production runs keep two levels.
  const int halo = info->radius * o.stepsPerExchange;
  KernelData data(*info, GridShape{info->dims, local.nx, local.ny, local.nz, halo},
                  /*tableColumns=*/902, /*inPlace=*/true);
  for (size_t f = 0; f < info->fields.size(); ++f)
    std::visit(
        [&](auto &g) {
          using T = typename std::decay_t<decltype(g)>::value_type;
          if constexpr (std::is_floating_point_v<T>)
            g.fillRandom(uint64_t(rank) * 100 + f, T(0.5), T(1.5));
          else
            // Columns in [0, 902) in the halo too, where a deep halo's grown boxes read them.
            g.fillWith([](int i, int j, int k) { return ((i + 3 * j + 7 * k) % 902 + 902) % 902; });
        },
        data.field(int(f)));
  for (size_t t = 0; t < info->tables.size(); ++t) {
    auto &table = data.table<float>(int(t));
    for (int r = 0; r < table.rows(); ++r)
      for (int c = 0; c < table.cols(); ++c)
        table(r, c) = 0.01f;
  }
  RunOptions options;
  options.variant = o.variant;
  if (o.stepsPerExchange > 1) {
    deepHalo(o, *info, *d, data, options, rank);
    return;
  }
  mpi::DistributedKernel kernel(*info, *d);

  auto timeSteps = [&](bool overlap) {
    return perStep(o.steps, kernel, [&] {
      for (int s = 0; s < o.steps; ++s) {
        kernel.step(data.args(), options, overlap);
        data.rotate();
      }
    });
  };
  timeSteps(true); // warm-up: first touch, caches
  std::vector<double> with, without, haloWith, haloWithout;
  for (int round = 0; round < o.rounds; ++round) {
    auto [a, ha] = timeSteps(true);
    auto [b, hb] = timeSteps(false);
    with.push_back(a);
    haloWith.push_back(ha);
    without.push_back(b);
    haloWithout.push_back(hb);
  }
  if (rank == 0) {
    const double points = double(o.size.nx) * o.size.ny * o.size.nz;
    const char *threads = std::getenv("OMP_NUM_THREADS");
    std::printf("{\"kernel\": \"%s\", \"variant\": \"%s\", \"size\": [%d, %d, %d], \"ranks\": "
                "\"%s\", \"threads_per_rank\": \"%s\", \"steps\": %d, \"rounds\": %d,\n"
                " \"seconds_per_step\": %.6f, \"gpts_per_s\": %.4f, \"halo_seconds_per_step\": "
                "%.6f, \"sends_per_step_rank0\": %d,\n"
                " \"no_overlap_seconds_per_step\": %.6f, \"no_overlap_halo_seconds_per_step\": "
                "%.6f, \"overlap_gain\": %.3f}\n",
                info->name, variantName(o.variant), o.size.nx, o.size.ny, o.size.nz,
                mpi::rankGridText(d->ranks(), info->dims).c_str(), threads ? threads : "default",
                o.steps, o.rounds, median(with), points / median(with) * 1e-9, median(haloWith),
                kernel.sendsPerStep(), median(without), median(haloWithout),
                median(without) / median(with));
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  benchmark(argc, argv);
  MPI_Finalize();
  return 0;
}
