//===- BenchHarness.cpp - The program `stencilc bench` compiles and runs ---===//
//
// Linked with one generated kernel, it drives the kernel through the registry:
//
//   harness check DIR
//       reads the inputs `stencilc` wrote into DIR (each grid with its halo),
//       runs one step of every variant on them, out of place, into a poisoned
//       output, and writes the outputs back, so that `stencilc` can compare
//       them with its reference evaluator.
//   harness run NX NY NZ ND REPEATS SEARCH INPLACE DEPTHS INDEX
//       measures the triad bandwidth, then times every variant on random data
//       (median of REPEATS steps after a warm-up step); with SEARCH, first
//       searches tile sizes for blocked and planes. DEPTHS ("2,4", or "0" for
//       none) are the time steps per pass of the time-tiled runs to time
//       (stencilc/timeloop/TimeTiling.h), naive and blocked inside the tiles, after
//       checking on a small odd grid that they give single steps bit for bit.
//       INDEX is how index fields are filled: "random" (uniform over ND
//       values) or "layered" (a smooth layered model, rt::fillLayered).
//       Prints one line per result for `stencilc` to read; progress goes to
//       stderr.
//   harness time NX NY NZ ND INDEX REPEATS ALTERNATE SECONDS FILE
//       for `stencilc tune`: times the configurations FILE lists, one a line,
//       "VARIANT BX BY BZ DEPTH TX TY TZ": DEPTH 1 is single steps with
//       VARIANT and tiles BX x BY x BZ; more, passes of DEPTH steps with
//       TimeTiling{DEPTH, TX, TY, TZ} and VARIANT inside the tiles (checked bit
//       for bit first, as in run). Out of place; each is the median of REPEATS
//       timings after a warm-up, printed as "timed N SECONDS_PER_STEP" for the
//       N-th line. With ALTERNATE 1 the timings go round the list, so that
//       drift in the machine's load hits every configuration alike; with 0 they
//       go one configuration after another, none started once SECONDS have
//       passed (0: no limit), and a progress line shows on a terminal. INDEX
//       "both" times every configuration on random and on layered index data,
//       in one process, each timing of one followed by the same of the other
//       (the first of the pair alternating), so that the machine's drift hits
//       both alike: it prints "timed N ..." for random and "layered N ..." for
//       layered (docs/PERFORMANCE.md §ETE-37/73: random against layered index).
//   harness incore NX NY NZ ND REPEATS
//       how far memory slows each single-sweep variant, one thread: times it
//       on an NX x NY x NZ grid (in whichever cache or memory that size puts
//       it), then on NX x at most 16 x 16 points with every field's line and
//       plane strides shrunk to a few cache lines, so that the rows of every
//       field overlap within a few kilobytes and all of them stay in L1. The second
//       is the rate of the same instructions with the memory hierarchy out of
//       the way (values meaningless, timing only): the kernel's in-core
//       ceiling on this machine. Prints a table (median of REPEATS each).
//
// Timed single steps do not rotate the time levels: every step reads and
// writes the same amount of memory either way, and the values stay bounded.
// Time-tiled passes must rotate them; their values may grow without bound on
// random data, which costs nothing extra (no denormals arise from growth).
//
//===----------------------------------------------------------------------===//
#include <stencilc/KernelData.h>
#include <stencilc/bench/CheckData.h>
#include <stencilc/bench/LayeredIndex.h>
#include <stencilc/bench/Peak.h>
#include <stencilc/bench/RandomFill.h>
#include <stencilc/bench/Stream.h>
#include <stencilc/io/Npy.h>
#include <stencilc/io/Progress.h>
#include <stencilc/timeloop/TimeTiling.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace stencilc::rt;

namespace {

const KernelInfo &theKernel() {
  if (kernelRegistry().size() != 1) {
    std::fprintf(stderr, "harness: expected exactly one kernel, found %zu\n",
                 kernelRegistry().size());
    std::exit(2);
  }
  return *kernelRegistry().front();
}

bool isFloat(const KernelInfo &k) { return std::string(k.elemType) == "float"; }

template <typename Real> int check(const std::string &dir) {
  const KernelInfo &k = theKernel();
  std::unique_ptr<KernelData> owned = readCheckData<Real>(k, dir);
  KernelData &data = *owned;
  for (Variant v : {Variant::Naive, Variant::Blocked, Variant::Planes}) {
    for (size_t f = 0; f < k.fields.size(); ++f)
      if (std::string(k.fields[f].role) == "out")
        data.template field<Real>(int(f)).poison();
    k.run(data.args(), RunOptions{v, 0, 0});
    for (size_t f = 0; f < k.fields.size(); ++f)
      if (std::string(k.fields[f].role) == "out")
        writeNpy(data.template field<Real>(int(f)),
                 dir + "/out_" + variantName(v) + "_" + std::to_string(f) + ".npy");
  }
  return 0;
}

double seconds(const std::function<void()> &f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

std::vector<int> parseDepths(const std::string &list) {
  std::vector<int> depths;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (int d = std::atoi(item.c_str()); d > 0)
      depths.push_back(d);
  return depths;
}

/// Five steps as passes of `depth` (naive, small tiles) and as single steps,
/// from the same random data on an odd grid: every bit of every field equal.
template <typename Real>
bool timeTilingMatches(const KernelInfo &k, int nd, bool inPlace, int depth) {
  GridShape shape{k.dims, 37, 21, k.dims == 3 ? 13 : 1, k.radius};
  KernelData single(k, shape, nd, inPlace), tiled(k, shape, nd, inPlace);
  fillForBench<Real>(single, nd);
  fillForBench<Real>(tiled, nd);
  constexpr int kSteps = 5;
  for (int s = 0; s < kSteps; ++s) {
    k.run(single.args(), RunOptions{Variant::Naive, 0, 0});
    single.rotate();
  }
  ErasedArgs args = tiled.args();
  runTimeTiled(k, args, kSteps, TimeTiling{depth, 0, 5, 3}, RunOptions{Variant::Naive, 0, 0});
  for (int s = 0; s < kSteps; ++s)
    tiled.rotate();
  for (size_t f = 0; f < k.fields.size(); ++f) {
    bool same = true;
    std::visit(
        [&](auto &a) {
          using G = std::decay_t<decltype(a)>;
          const G &b = std::get<G>(tiled.field(int(f)));
          same = std::memcmp(a.storage(), b.storage(),
                             a.storageElements() * sizeof(typename G::value_type)) == 0;
        },
        single.field(int(f)));
    if (!same)
      return false;
  }
  return true;
}

template <typename Real> int run(int argc, char **argv) {
  if (argc != 11 || (std::string(argv[10]) != "random" && std::string(argv[10]) != "layered")) {
    std::fprintf(stderr,
                 "usage: harness run NX NY NZ ND REPEATS SEARCH INPLACE DEPTHS random|layered\n");
    return 2;
  }
  const KernelInfo &k = theKernel();
  GridShape shape{k.dims, std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), k.radius};
  const int nd = std::atoi(argv[5]), repeats = std::max(1, std::atoi(argv[6]));
  const bool search = std::atoi(argv[7]) != 0, inPlace = std::atoi(argv[8]) != 0;

  std::fprintf(stderr, "bench: measuring triad bandwidth...\n");
  std::printf("triad %.6f\n", measureTriadBandwidth());
  std::fprintf(stderr, "bench: measuring peak FMA throughput...\n");
  std::printf("peak_gflops %.6f\n", measureFmaGflops<Real>());
  std::fflush(stdout);

  KernelData data(k, shape, nd, inPlace);
  fillForBench<Real>(data, nd);
  if (std::string(argv[10]) == "layered")
    fillLayered(data, nd);
  const ErasedArgs args = data.args();
  auto time = [&](const RunOptions &o, int reps) {
    k.run(args, o); // warm-up: first touch of the partial sums, caches, threads
    std::vector<double> t;
    for (int r = 0; r < reps; ++r)
      t.push_back(seconds([&] { k.run(args, o); }));
    return median(t);
  };
  for (Variant v : {Variant::Naive, Variant::Blocked, Variant::Planes}) {
    RunOptions best{v, 0, 0};
    if (search && v != Variant::Naive) {
      std::vector<RunOptions> tiles;
      for (int by : {4, 8, 16, 32, 64})
        for (int bz : {8, 16, 32, 64, 128, shape.nz})
          if ((by <= shape.ny || by == 4) && bz <= shape.nz)
            tiles.push_back({v, by, bz});
      // Tiles per second and time left on a terminal; the per-tile lines either way.
      Progress progress(std::string("bench: ") + variantName(v) + " tile search",
                        long(tiles.size()), "tiles");
      double bestTime = 1e30;
      for (size_t n = 0; n < tiles.size(); ++n) {
        const RunOptions &o = tiles[n];
        double t = time(o, std::min(repeats, 3));
        char line[160];
        std::snprintf(line, sizeof line, "bench: %s by=%d bz=%d: %.4f s", variantName(v), o.blockY,
                      o.blockZ, t);
        progress.note(line);
        progress.advance(long(n + 1));
        if (t < bestTime) {
          bestTime = t;
          best = o;
        }
      }
    }
    std::fprintf(stderr, "bench: timing %s%s...\n", variantName(v), inPlace ? " in place" : "");
    double t = time(best, repeats);
    std::printf("variant %s %d %d %d %.9f\n", variantName(v), inPlace ? 1 : 0, best.blockY,
                best.blockZ, t);
    std::fflush(stdout);
  }
  if (!isTimeTileable(k))
    return 0;
  for (int depth : parseDepths(argv[9])) {
    if (!timeTilingMatches<Real>(k, nd, inPlace, depth)) {
      std::fprintf(stderr, "harness: %d steps per pass differ from single steps\n", depth);
      return 1;
    }
    // Whole passes: about eight steps a timing.
    const int steps = depth * std::max(1, 8 / depth);
    auto timeTiled = [&](const TimeTiling &tiling, Variant inner, int reps) {
      ErasedArgs levels = args;
      runTimeTiled(k, levels, steps, tiling, RunOptions{inner, 0, 0}); // warm-up
      std::vector<double> t;
      for (int r = 0; r < reps; ++r)
        t.push_back(seconds([&] {
                      runTimeTiled(k, levels, steps, tiling, RunOptions{inner, 0, 0});
                    }) /
                    steps);
      return median(t);
    };
    for (Variant inner : {Variant::Naive, Variant::Blocked}) {
      TimeTiling best{depth, 0, 0, 0};
      if (search) {
        std::vector<TimeTiling> tilings;
        for (int ty : {16, 32, 64})
          for (int tz : {4, 8, 16})
            if (ty <= shape.ny && tz <= shape.nz)
              tilings.push_back({depth, 0, ty, tz});
        Progress progress(std::string("bench: ") + variantName(inner) +
                              " T=" + std::to_string(depth) + " tile search",
                          long(tilings.size()), "tiles");
        double bestTime = 1e30;
        for (size_t n = 0; n < tilings.size(); ++n) {
          const double t = timeTiled(tilings[n], inner, std::min(repeats, 3));
          char line[160];
          std::snprintf(line, sizeof line, "bench: %s T=%d ty=%d tz=%d: %.4f s/step",
                        variantName(inner), depth, tilings[n].tileY, tilings[n].tileZ, t);
          progress.note(line);
          progress.advance(long(n + 1));
          if (t < bestTime) {
            bestTime = t;
            best = tilings[n];
          }
        }
      }
      std::fprintf(stderr, "bench: timing %s, %d steps per pass%s...\n", variantName(inner), depth,
                   inPlace ? " in place" : "");
      const double t = timeTiled(best, inner, repeats);
      const auto tiles = tilesOf(k, best, Extent{shape.nx, shape.ny, shape.nz});
      std::printf("temporal %s %d %d %d %d %.9f\n", variantName(inner), inPlace ? 1 : 0, depth,
                  std::get<1>(tiles), std::get<2>(tiles), t);
      std::fflush(stdout);
    }
  }
  return 0;
}

/// One line of a `time` list.
struct Configuration {
  RunOptions options;
  TimeTiling tiling;
};

std::vector<Configuration> readConfigurations(const std::string &file) {
  std::ifstream in(file);
  if (!in)
    throw std::runtime_error("cannot read " + file);
  std::vector<Configuration> list;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name;
    Configuration c;
    if (!(words >> name >> c.options.blockX >> c.options.blockY >> c.options.blockZ >>
          c.tiling.depth >> c.tiling.tileX >> c.tiling.tileY >> c.tiling.tileZ))
      throw std::runtime_error("bad configuration line '" + line + "' in " + file);
    const std::optional<Variant> v = parseVariant(name);
    if (!v || c.tiling.depth < 1)
      throw std::runtime_error("bad configuration line '" + line + "' in " + file);
    c.options.variant = *v;
    list.push_back(c);
  }
  return list;
}

template <typename Real> int timeList(int argc, char **argv) {
  const std::string index = argc == 11 ? argv[6] : "";
  if (index != "random" && index != "layered" && index != "both") {
    std::fprintf(stderr, "usage: harness time NX NY NZ ND random|layered|both REPEATS ALTERNATE "
                         "SECONDS FILE\n");
    return 2;
  }
  const KernelInfo &k = theKernel();
  GridShape shape{k.dims, std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), k.radius};
  const int nd = std::atoi(argv[5]), repeats = std::max(1, std::atoi(argv[7]));
  const bool alternate = std::atoi(argv[8]) != 0;
  const double limit = std::atof(argv[9]);
  const std::vector<Configuration> list = readConfigurations(argv[10]);
  for (const Configuration &c : list)
    if (c.tiling.depth > 1 && !isTimeTileable(k)) {
      std::fprintf(stderr, "harness: %s\n", timeTilingObstacle(k).c_str());
      return 1;
    } else if (c.tiling.depth > 1 && !timeTilingMatches<Real>(k, nd, false, c.tiling.depth)) {
      std::fprintf(stderr, "harness: %d steps per pass differ from single steps\n", c.tiling.depth);
      return 1;
    }

  // One data set, or with "both" a random and a layered one.
  const std::vector<bool> layered =
      index == "both" ? std::vector<bool>{false, true} : std::vector<bool>{index == "layered"};
  std::vector<std::unique_ptr<KernelData>> data;
  std::vector<ErasedArgs> args, levels; // levels: rotated by the time-tiled passes
  for (bool l : layered) {
    data.push_back(std::make_unique<KernelData>(k, shape, nd, /*inPlace=*/false));
    fillForBench<Real>(*data.back(), nd);
    if (l)
      fillLayered(*data.back(), nd);
    args.push_back(data.back()->args());
    levels.push_back(args.back());
  }
  // Seconds per step of one timing on data set d: one step, or one pass of `depth` steps.
  auto onceOn = [&](size_t d, const Configuration &c) {
    if (c.tiling.depth == 1)
      return seconds([&] { k.run(args[d], c.options); });
    return seconds([&] { runTimeTiled(k, levels[d], c.tiling.depth, c.tiling, c.options); }) /
           c.tiling.depth;
  };
  // With two data sets a timing is a pair, the first of it alternating by repeat.
  std::vector<std::vector<double>> layeredTimes(list.size());
  int repeat = 0;
  auto once = [&](size_t n) {
    if (data.size() == 1)
      return onceOn(0, list[n]);
    const size_t first = size_t(repeat % 2);
    const double a = onceOn(first, list[n]), b = onceOn(1 - first, list[n]);
    layeredTimes[n].push_back(first == 0 ? b : a);
    return first == 0 ? a : b;
  };
  std::vector<std::vector<double>> times(list.size());
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (alternate) {
    for (size_t n = 0; n < list.size(); ++n)
      once(n); // warm-up
    for (auto &t : layeredTimes)
      t.clear();
    for (repeat = 0; repeat < repeats; ++repeat)
      for (size_t n = 0; n < list.size(); ++n)
        times[n].push_back(once(n));
  } else {
    Progress progress("tune: measuring", long(list.size()), "configurations");
    for (size_t n = 0; n < list.size() && (limit <= 0 || elapsed() < limit); ++n) {
      once(n); // warm-up
      layeredTimes[n].clear();
      for (repeat = 0; repeat < repeats; ++repeat)
        times[n].push_back(once(n));
      progress.advance(long(n + 1));
    }
  }
  for (size_t n = 0; n < list.size(); ++n)
    if (!times[n].empty())
      std::printf("timed %zu %.9f\n", n, median(times[n]));
  for (size_t n = 0; n < list.size(); ++n)
    if (!layeredTimes[n].empty())
      std::printf("layered %zu %.9f\n", n, median(layeredTimes[n]));
  return 0;
}

/// Storage of one field for `incore`: `elements` values of the field's type.
struct FlatField {
  AnyGrid storage;
  /// The element `below` elements past the start, moved on to the next
  /// address that is `page` bytes past a multiple of 4096.
  void *origin(std::ptrdiff_t below, std::ptrdiff_t page) {
    return std::visit(
        [&](auto &g) -> void * {
          using T = typename std::decay_t<decltype(g)>::value_type;
          const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(g.storage() + below);
          const std::uintptr_t moved = (at - std::uintptr_t(page) + 4095) / 4096 * 4096 + page;
          return g.storage() + below + std::ptrdiff_t(moved - at) / std::ptrdiff_t(sizeof(T));
        },
        storage);
  }
};

template <typename Real> int inCore(int argc, char **argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: harness incore NX NY NZ ND REPEATS\n");
    return 2;
  }
  const KernelInfo &k = theKernel();
  const int nx = std::atoi(argv[2]), ny = std::atoi(argv[3]),
            nz = k.dims == 3 ? std::atoi(argv[4]) : 1;
  const int nd = std::max(1, std::atoi(argv[5])), repeats = std::max(1, std::atoi(argv[6]));
  if (nx < 1 || ny < 1 || nz < 1)
    throw std::runtime_error("incore: the extent " + std::to_string(nx) + " x " +
                             std::to_string(ny) + " x " + std::to_string(nz) + " is empty");
#ifdef _OPENMP
  omp_set_num_threads(1); // overlapping rows: one writer, and the rate of one core
#endif
  KernelData data(k, GridShape{k.dims, nx, ny, nz, k.radius}, nd, /*inPlace=*/false);
  fillForBench<Real>(data, nd);
  const ErasedArgs real = data.args();

  // Strides of 16 and 48 elements: the reads of a point span r (1 + 16 + 48)
  // elements either side, and row (y, z) starts at 16 y + 48 z. At most 16 x
  // 16 rows (the rate is per point), so that every field spans a few
  // kilobytes whatever NY and NZ. Inputs start on a 4 KiB boundary and
  // outputs 2 KiB past one: a load then never shares its address bits below
  // 4 KiB with a store a few points before it, which would stall it on a
  // false dependency (4K aliasing) that the real layout, whose rows do not
  // overlap, does not have.
  constexpr std::ptrdiff_t kLine = 16, kPlane = 48;
  constexpr int kRowsL1 = 16;
  const int nyL1 = std::min(ny, kRowsL1), nzL1 = std::min(nz, kRowsL1);
  const std::ptrdiff_t r = k.radius, plane = k.dims == 3 ? kPlane : 0;
  const std::ptrdiff_t below = r + r * kLine + r * plane + 64;
  const std::ptrdiff_t elements =
      below + 4096 + nx + r + (nyL1 + r) * kLine + (nzL1 + r) * plane + 64;
  ErasedArgs l1 = real;
  l1.extent = {nx, nyL1, nzL1};
  std::vector<FlatField> flat;
  flat.reserve(k.fields.size());
  for (size_t f = 0; f < k.fields.size(); ++f) {
    const std::string role = k.fields[f].role;
    // One row of `elements` points: every element a read may reach is a point.
    flat.push_back({makeAnyGrid(k.fields[f].type, GridShape{2, int(elements), 1, 1, 0})});
    fillRole(flat.back().storage, role, 2000 + f, nd);
    l1.fields[f] = {flat.back().origin(below, role == "out" ? 2048 : 0), kLine, plane};
  }

  // The two layouts timed in turn, so that drift in the machine's load hits both alike.
  const double points = double(nx) * ny * nz, pointsL1 = double(nx) * nyL1 * nzL1;
  std::printf("%s, %d x %d x %d, one thread, GPts/s (median of %d, the two timed in turn)\n",
              k.name, nx, ny, nz, repeats);
  std::printf("%-10s %12s %12s %10s\n", "variant", "this grid", "all in L1", "of in-L1");
  for (Variant v : {Variant::Naive, Variant::Blocked, Variant::Planes}) {
    const RunOptions options{v, 0, 0};
    k.run(real, options); // warm-up
    k.run(l1, options);
    std::vector<double> onGrid, inL1, ratio;
    for (int n = 0; n < repeats; ++n) {
      onGrid.push_back(points / seconds([&] { k.run(real, options); }) / 1e9);
      inL1.push_back(pointsL1 / seconds([&] { k.run(l1, options); }) / 1e9);
      ratio.push_back(onGrid.back() / inL1.back());
    }
    std::printf("%-10s %12.3f %12.3f %10.2f\n", variantName(v), median(onGrid), median(inL1),
                median(ratio));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    bool f = isFloat(theKernel());
    if (mode == "check" && argc == 3)
      return f ? check<float>(argv[2]) : check<double>(argv[2]);
    if (mode == "run")
      return f ? run<float>(argc, argv) : run<double>(argc, argv);
    if (mode == "time")
      return f ? timeList<float>(argc, argv) : timeList<double>(argc, argv);
    if (mode == "incore")
      return f ? inCore<float>(argc, argv) : inCore<double>(argc, argv);
    std::fprintf(stderr, "usage: harness check DIR | harness run NX NY NZ ND REPEATS SEARCH "
                         "INPLACE DEPTHS random|layered | harness time NX NY NZ ND "
                         "random|layered|both REPEATS ALTERNATE SECONDS FILE | harness incore NX "
                         "NY NZ ND REPEATS\n");
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "harness: %s\n", e.what());
    return 1;
  }
}
