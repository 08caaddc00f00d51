//===- Bench.cpp ----------------------------------------------------------===//
#include "driver/Bench.h"

#include "analysis/CostModel.h"
#include "analysis/HostCaches.h"
#include "analysis/ModelDefaults.h"
#include "analysis/Roofline.h"
#include "analysis/RunBudget.h"
#include "backends/cpu/CpuEmitter.h"
#include "driver/Driver.h"
#include "driver/FileOutput.h"
#include "eval/ReferenceEvaluator.h"
#include "eval/RelativeError.h"

#include <stencilc/io/Npy.h>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#if !defined(STENCILC_RUNTIME_DIR) || !defined(STENCILC_INSTALLED_INCLUDE_FROM_BIN) ||             \
    !defined(STENCILC_INSTALLED_HARNESS_FROM_BIN)
#error "CMake sets where the runtime is: in the source tree, and installed relative to bin/"
#endif

namespace stencilc {

namespace {

llvm::raw_ostream &error() { return llvm::WithColor::error(llvm::errs(), "stencilc bench"); }
void progress(const std::string &what) { llvm::errs() << "bench: " << what << "\n"; }

} // namespace

bool runProgram(const std::vector<std::string> &argv, const std::string &outFile,
                const std::string &who) {
  auto error = [&]() -> llvm::raw_ostream & { return llvm::WithColor::error(llvm::errs(), who); };
  auto program = llvm::sys::findProgramByName(argv[0]);
  if (!program) {
    error() << "cannot find '" << argv[0] << "'\n";
    return false;
  }
  std::vector<llvm::StringRef> args(argv.begin(), argv.end());
  llvm::Optional<llvm::StringRef> redirects[3] = {llvm::None, llvm::None, llvm::None};
  if (!outFile.empty())
    redirects[1] = llvm::StringRef(outFile);
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*program, args, llvm::None, redirects, 0, 0, &message);
  if (rc != 0) {
    error() << "'" << argv[0] << "' failed" << (message.empty() ? "" : ": " + message)
            << " (exit status " << rc << ")\n";
    return false;
  }
  return true;
}

namespace {

std::string path(const std::string &dir, const std::string &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

/// The runtime headers and the harness source the kernels are compiled with.
struct RuntimeFiles {
  std::string includeDir;
  std::string harness;
};

/// An installed stencilc uses the runtime installed with it (found relative to
/// its own directory, so the prefix may move); a built one, the source tree's.
RuntimeFiles findRuntime() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable("stencilc", &anchor);
  std::string bin(llvm::sys::path::parent_path(exe));
  RuntimeFiles installed{path(bin, STENCILC_INSTALLED_INCLUDE_FROM_BIN),
                         path(bin, STENCILC_INSTALLED_HARNESS_FROM_BIN)};
  if (!exe.empty() && llvm::sys::fs::exists(path(installed.includeDir, "stencilc/Kernel.h")) &&
      llvm::sys::fs::exists(installed.harness))
    return installed;
  return {STENCILC_RUNTIME_DIR "/include", STENCILC_RUNTIME_DIR "/src/bench/BenchHarness.cpp"};
}

/// Writes `src` with its halo as one halo-free box of type T (the harness reads it back).
template <typename T, typename S> void writeBox(const rt::Grid<S> &src, const std::string &file) {
  const int h = src.halo(), hz = src.haloZ();
  rt::Grid<T> box(
      rt::GridShape{src.dims(), src.nx() + 2 * h, src.ny() + 2 * h, src.nz() + 2 * hz, 0});
  src.forEachPointWithHalo(
      [&](int i, int j, int k) { box(i + h, j + h, k + hz) = T(src(i, j, k)); });
  rt::writeNpy(box, file);
}

/// Writes the check inputs for the harness (stencilc/bench/CheckData.h reads them).
template <typename Real>
void writeCheckInputs(const ir::Stencil &s, eval::EvalData &ref, const eval::EvalSizes &sizes,
                      const std::string &dir) {
  int halo = 0;
  for (auto &g : ref.grids)
    if (g)
      halo = g->halo();
  std::ofstream(path(dir, "shape.txt")) << sizes.nx << " " << sizes.ny << " " << sizes.nz << " "
                                        << halo << " " << sizes.tableColumns << "\n";
  for (size_t f = 0; f < s.fields.size(); ++f) {
    const ir::Field &field = s.fields[f];
    std::string file = path(dir, "in_" + std::to_string(f) + ".npy");
    if (field.role == ir::FieldRole::Output)
      continue;
    if (field.role != ir::FieldRole::Index) {
      writeBox<Real>(*ref.grids[f], file);
      continue;
    }
    switch (field.indexType) {
    case ir::IndexType::UInt8: writeBox<uint8_t>(*ref.indexGrids[f], file); break;
    case ir::IndexType::UInt16: writeBox<uint16_t>(*ref.indexGrids[f], file); break;
    case ir::IndexType::Int32: writeBox<int32_t>(*ref.indexGrids[f], file); break;
    }
  }
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const auto &table = *ref.tables[t];
    rt::Grid<Real> values(rt::GridShape{2, table.cols(), table.rows(), 1, 0});
    for (int r = 0; r < table.rows(); ++r)
      for (int c = 0; c < table.cols(); ++c)
        values(c, r) = Real(table(r, c));
    rt::writeNpy(values, path(dir, "table_" + std::to_string(t) + ".npy"));
  }
  std::ofstream scalars(path(dir, "scalars.txt"));
  scalars.precision(17);
  for (double v : ref.scalars)
    scalars << v << "\n";
}

/// Normwise relative error of every variant's outputs against the oracle (max over outputs).
template <typename Real>
std::map<std::string, double> readCheckOutputs(const ir::Stencil &s, eval::EvalData &ref,
                                               const std::string &dir) {
  std::map<std::string, double> errors;
  for (const char *variant : {"naive", "blocked", "planes"}) {
    double worst = 0;
    for (size_t f = 0; f < s.fields.size(); ++f) {
      if (s.fields[f].role != ir::FieldRole::Output)
        continue;
      const rt::Grid<double> &expect = *ref.grids[f];
      rt::Grid<Real> got(rt::GridShape{s.dims, expect.nx(), expect.ny(), expect.nz(), 0});
      rt::readNpyInto(got, path(dir, fmt::format("out_{}_{}.npy", variant, f)));
      worst = std::max(worst, eval::relativeError(got, expect));
    }
    errors[variant] = worst;
  }
  return errors;
}

} // namespace

void writeCheckData(const ir::Stencil &s, eval::EvalData &ref, const eval::EvalSizes &sizes,
                    const std::string &dir) {
  if (s.elemType == ir::ElemType::Float)
    writeCheckInputs<float>(s, ref, sizes, dir);
  else
    writeCheckInputs<double>(s, ref, sizes, dir);
}

namespace {

struct VariantResult {
  std::string variant; ///< naive, blocked, planes (inside the tiles, when time-tiled)
  /// The variant, with "/T<steps per pass>" when time-tiled and "/in-place"
  /// where it ran in place.
  std::string name;
  bool inPlace = false;
  int blockY = 0, blockZ = 0; ///< the tiles, in time-tiled runs the time tiles
  int timeStepsPerPass = 1;
  double seconds = 0;
  double maxRelError = 0;
};

std::string mib(double bytes) { return fmt::format("{:.0f} MiB", bytes / (1 << 20)); }

} // namespace

CompiledHarness::~CompiledHarness() {
  if (keep_)
    progress("kept " + dir_);
  else
    llvm::sys::fs::remove_directories(dir_);
}

std::string CompiledHarness::file(const std::string &name) const { return path(dir_, name); }

std::unique_ptr<CompiledHarness> CompiledHarness::build(const CompiledStencil &compiled,
                                                        const std::string &sourcePath, bool keep) {
  const ir::Stencil &s = *compiled.stencil;
  const bool isFloat = s.elemType == ir::ElemType::Float;
  llvm::SmallString<128> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("stencilc-bench", tmp)) {
    error() << "cannot create a temporary directory: " << ec.message() << "\n";
    return nullptr;
  }
  std::unique_ptr<CompiledHarness> h(new CompiledHarness(std::string(tmp), keep));
  const std::string &dir = h->dir_;

  // 1. Generate and compile.
  backend::CpuEmitOptions emit;
  emit.sourcePath = llvm::sys::path::filename(sourcePath).str();
  auto files = backend::emitCpuKernel(compiled, emit);
  if (!writeFilesAtomically(dir, files))
    return nullptr;
  const char *cxxEnv = std::getenv("CXX");
  std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
  const RuntimeFiles runtime = findRuntime();
  h->program_ = path(dir, "harness");
  progress("compiling the kernels with " + cxx + " -O3 -march=native -fopenmp against " +
           runtime.includeDir);
  if (!runProgram({cxx, "-std=c++20", "-O3", "-march=native", "-fopenmp", "-I" + runtime.includeDir,
                   "-I" + dir, path(dir, s.name + ".cpp"), runtime.harness, "-o", h->program_},
                  ""))
    return nullptr;

  // 2. Check every variant against the reference evaluator on a small odd grid.
  eval::EvalSizes sizes{s.dims == 3 ? 37 : 67, s.dims == 3 ? 21 : 45, s.dims == 3 ? 13 : 1, 23, -1};
  progress(fmt::format("checking every variant against the reference evaluator on {}x{}x{}",
                       sizes.nx, sizes.ny, sizes.nz));
  eval::EvalData ref = eval::makeRandomEvalData(s, sizes, 4242);
  eval::evaluateReference(s, ref.bindings());
  if (isFloat)
    writeCheckInputs<float>(s, ref, sizes, dir);
  else
    writeCheckInputs<double>(s, ref, sizes, dir);
  if (!runProgram({h->program_, "check", dir}, ""))
    return nullptr;
  h->errors_ =
      isFloat ? readCheckOutputs<float>(s, ref, dir) : readCheckOutputs<double>(s, ref, dir);
  h->tolerance_ = isFloat ? 1e-5 : 1e-12;
  return h;
}

bool CompiledHarness::allCorrect() const {
  return std::all_of(errors_.begin(), errors_.end(),
                     [&](const auto &e) { return e.second < tolerance_; });
}

namespace {

/// One grid's timings: its rows and the roofs measured in its runs.
struct RowSet {
  BenchGrid grid;
  double workingSet = 0;
  double triad = 0, peakGflops = 0; ///< the best of its runs (out of and in place)
  std::vector<VariantResult> results;
};

/// Runs the harness on `set`'s grid in every mode and fills its rows; false
/// after reporting a failure.
bool timeRowSet(const BenchOptions &o, const CompiledHarness &built, const std::vector<bool> &modes,
                RowSet &set) {
  const auto [nx, ny, nz] = set.grid.size;
  const std::string dir = built.dir();
  std::string depths;
  for (int d : o.timeDepths)
    depths += (depths.empty() ? "" : ",") + std::to_string(d);
  for (bool inPlace : modes) {
    std::string out =
        path(dir, fmt::format("run-{}x{}x{}{}.txt", nx, ny, nz, inPlace ? "-in-place" : ""));
    progress(fmt::format("timing at {}x{}x{}, Nd = {}{}", nx, ny, nz, o.nd,
                         inPlace ? ", in place" : ""));
    if (!runProgram({built.program(), "run", std::to_string(nx), std::to_string(ny),
                     std::to_string(nz), std::to_string(o.nd), std::to_string(o.repeats),
                     o.search ? "1" : "0", inPlace ? "1" : "0", depths.empty() ? "0" : depths,
                     o.index == BenchOptions::Index::Layered ? "layered" : "random"},
                    out))
      return false;
    std::ifstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string kind;
      words >> kind;
      if (kind == "triad") {
        double t = 0;
        words >> t;
        set.triad = std::max(set.triad, t);
      } else if (kind == "peak_gflops") {
        double p = 0;
        words >> p;
        set.peakGflops = std::max(set.peakGflops, p);
      } else if (kind == "variant") {
        VariantResult r;
        int ip = 0;
        words >> r.variant >> ip >> r.blockY >> r.blockZ >> r.seconds;
        r.inPlace = ip != 0;
        r.maxRelError = built.errors().at(r.variant);
        r.name = r.inPlace ? r.variant + "/in-place" : r.variant;
        set.results.push_back(r);
      } else if (kind == "temporal") {
        VariantResult r;
        int ip = 0;
        words >> r.variant >> ip >> r.timeStepsPerPass >> r.blockY >> r.blockZ >> r.seconds;
        r.inPlace = ip != 0;
        r.maxRelError =
            built.errors().at(r.variant); // the same kernel; the harness checked the bits
        r.name =
            fmt::format("{}/T{}{}", r.variant, r.timeStepsPerPass, r.inPlace ? "/in-place" : "");
        set.results.push_back(r);
      }
    }
  }
  return true;
}

} // namespace

int runBench(const CompiledStencil &compiled, const BenchOptions &o,
             const std::vector<BenchGrid> &grids) {
  const ir::Stencil &s = *compiled.stencil;
  const bool isFloat = s.elemType == ir::ElemType::Float;
  if (o.index == BenchOptions::Index::Layered &&
      std::none_of(s.fields.begin(), s.fields.end(),
                   [](const ir::Field &f) { return f.role == ir::FieldRole::Index; })) {
    error() << "--index layered: stencil '" << s.name
            << "' has no index field to fill from a layered model\n";
    return 2;
  }
  const analysis::HostCaches caches = analysis::readHostCaches();
  std::vector<RowSet> sets;
  for (const BenchGrid &grid : grids) {
    RowSet set;
    set.grid = grid;
    set.workingSet = double(gridBytesPerPoint(s)) * grid.size[0] * grid.size[1] * grid.size[2];
    sets.push_back(set);
  }
  for (const RowSet &set : sets) {
    const auto [nx, ny, nz] = set.grid.size;
    const std::string what = set.grid.chosen == BenchGrid::Chosen::Option
                                 ? "size"
                                 : fmt::format("size chosen ({}):", set.grid.reason);
    if (caches.lastLevel())
      progress(fmt::format("{} {}x{}x{}: working set {} ({} B/point), {:.1f}x the last-level "
                           "cache ({}, {})",
                           what, nx, ny, nz, mib(set.workingSet), gridBytesPerPoint(s),
                           set.workingSet / caches.lastLevel(), mib(caches.lastLevel()),
                           caches.source));
    else
      progress(fmt::format("{} {}x{}x{}: working set {}; the last-level cache size is unknown "
                           "(no /sys/devices/system/cpu/cpu0/cache)",
                           what, nx, ny, nz, mib(set.workingSet)));
  }

  std::unique_ptr<CompiledHarness> built = CompiledHarness::build(compiled, o.sourcePath, o.keep);
  if (!built)
    return 1;

  // 3. Time every variant on every grid, out of place and, where the stencil
  // allows it, in place.
  bool allowsInPlace = false;
  for (const ir::Field &f : s.fields)
    allowsInPlace |= f.overwrites >= 0;
  std::vector<bool> modes;
  if (o.inPlace != BenchOptions::InPlace::On || !allowsInPlace)
    modes.push_back(false);
  if (o.inPlace != BenchOptions::InPlace::Off && allowsInPlace)
    modes.push_back(true);
  for (RowSet &set : sets)
    if (!timeRowSet(o, *built, modes, set))
      return 1;
  built.reset(); // the temporary directory goes

  // 4. Report. Each variant's roofline bound (docs/DESIGN.md §Performance model
  // [5, 7]) takes both roofs from its grid's runs: the triad as the bandwidth
  // and the FMA peak in the stencil's precision. Out of place, every output
  // line is read before it is written (write-allocate); in place, the output's
  // lines are those of the level it overwrites, already read, so no extra
  // traffic (compiler/analysis/Roofline.h).
  analysis::Machine measured;
  measured.name = "this machine, measured in this run";
  // A time-tiled pass of T steps moves at best the traffic of one sweep.
  auto boundOf = [&](const RowSet &set, const VariantResult &r) {
    measured.peakGflopsFloat = measured.peakGflopsDouble = set.peakGflops;
    measured.writeAllocate = !r.inPlace;
    measured.bandwidthGBs = set.triad * r.timeStepsPerPass;
    return analysis::rooflineBound(compiled, r.variant, measured);
  };
  const int flops = analysis::stencilFlops(compiled.linear);
  const int bytes = analysis::compulsoryBytes(s);
  const double tolerance = isFloat ? 1e-5 : 1e-12;
  bool allCorrect = true;
  for (const RowSet &set : sets)
    for (const VariantResult &r : set.results)
      allCorrect &= r.maxRelError < tolerance; // the time-tiled rows, too
  auto sizeJson = [](const BenchGrid &grid) {
    return llvm::json::Array{grid.size[0], grid.size[1], grid.size[2]};
  };
  auto overLastLevel = [&](const RowSet &set) {
    return caches.lastLevel() ? set.workingSet / caches.lastLevel() : 0.0;
  };
  const RowSet &first = sets.front();
  if (o.json) {
    // The first grid's figures stay at the top level (what a single-grid
    // report always carried); every row carries its own grid's size, and
    // `row_sets` says what chose each grid.
    llvm::json::Array variants, rowSets;
    for (const RowSet &set : sets) {
      const double points = double(set.grid.size[0]) * set.grid.size[1] * set.grid.size[2];
      for (const VariantResult &r : set.results) {
        double gpts = points / r.seconds / 1e9;
        analysis::RooflineBound bound = boundOf(set, r);
        variants.push_back(llvm::json::Object{
            {"name", r.name},
            {"size", sizeJson(set.grid)},
            {"in_place", r.inPlace},
            {"block_y", r.blockY},
            {"block_z", r.blockZ},
            {"seconds_per_step", r.seconds},
            {"gpts_per_s", gpts},
            {"gflops", gpts * flops},
            {"gbytes_per_s", gpts * bytes},
            {"fraction_of_stream", gpts * bytes / set.triad},
            {"roofline_gpts_per_s", bound.gptsPerSecond},
            {"roofline_limit", bound.limit},
            {"fraction_of_roofline", gpts / bound.gptsPerSecond},
            {"max_rel_error", r.maxRelError},
            {"time_steps_per_pass", r.timeStepsPerPass},
        });
      }
      rowSets.push_back(llvm::json::Object{
          {"size", sizeJson(set.grid)},
          {"chosen_by", chosenName(set.grid.chosen)},
          {"reason", set.grid.reason},
          {"working_set_bytes", set.workingSet},
          {"working_set_over_last_level_cache", overLastLevel(set)},
          {"stream_triad_gbytes_per_s", set.triad},
          {"peak_gflops", set.peakGflops},
      });
    }
    llvm::json::Object report{
        {"stencil", s.name},
        {"type", ir::elemTypeName(s.elemType)},
        {"size", sizeJson(first.grid)},
        {"nd", o.nd},
        {"index", o.index == BenchOptions::Index::Layered ? "layered" : "random"},
        {"repeats", o.repeats},
        {"flops_per_point", flops},
        {"bytes_per_point", bytes},
        {"stream_triad_gbytes_per_s", first.triad},
        {"size_chosen", first.grid.chosen != BenchGrid::Chosen::Option},
        {"working_set_bytes", first.workingSet},
        {"working_set_over_last_level_cache", overLastLevel(first)},
        {"caches", llvm::json::Object{{"l1d_bytes", caches.l1d},
                                      {"l2_bytes", caches.l2},
                                      {"l3_bytes", caches.l3},
                                      {"source", caches.source}}},
        {"peak_gflops", first.peakGflops},
        {"row_sets", std::move(rowSets)},
        {"variants", std::move(variants)},
    };
    llvm::outs() << fmt::format("{}\n",
                                llvm::formatv("{0:2}", llvm::json::Value(std::move(report))).str());
  } else {
    // One table per grid, each with its own header.
    for (const RowSet &set : sets) {
      const auto [nx, ny, nz] = set.grid.size;
      const double points = double(nx) * ny * nz;
      if (&set != &first)
        llvm::outs() << "\n";
      llvm::outs() << fmt::format(
          "stencil {} ({}), {}x{}x{}, Nd = {} ({} index), median of {} "
          "steps{}\n",
          s.name, ir::elemTypeName(s.elemType), nx, ny, nz, o.nd,
          o.index == BenchOptions::Index::Layered ? "layered" : "random", o.repeats,
          set.grid.chosen == BenchGrid::Chosen::Production ? "; " + set.grid.reason : "");
      if (caches.lastLevel())
        llvm::outs() << fmt::format("working set {}, {:.1f}x the last-level cache ({}); one time "
                                    "step per pass over memory but in the /T<steps> rows "
                                    "(time-tiled)\n",
                                    mib(set.workingSet), set.workingSet / caches.lastLevel(),
                                    mib(caches.lastLevel()));
      llvm::outs() << fmt::format("STREAM-like triad: {:.1f} GB/s; peak FMA throughput {:.1f} "
                                  "GFLOP/s; compulsory traffic {} B/point; {} flops/point\n",
                                  set.triad, set.peakGflops, bytes, flops);
      llvm::outs() << fmt::format("{:<20} {:>10} {:>8} {:>8} {:>7} {:>9} {:>16} {:>13}  {}\n",
                                  "variant", "s/step", "GPts/s", "GFLOP/s", "GB/s", "of triad",
                                  "of roofline", "max rel err", "tiles (y x z)");
      for (const VariantResult &r : set.results) {
        double gpts = points / r.seconds / 1e9;
        std::string tiles = r.blockY ? fmt::format("{} x {}", r.blockY, r.blockZ) : "default";
        if (r.name.rfind("naive", 0) == 0 && r.timeStepsPerPass == 1)
          tiles = "-";
        analysis::RooflineBound bound = boundOf(set, r);
        std::string ofRoofline =
            fmt::format("{:.3f} ({})", gpts / bound.gptsPerSecond, bound.limit);
        llvm::outs() << fmt::format(
            "{:<20} {:>10.5f} {:>8.3f} {:>8.2f} {:>7.2f} {:>9.3f} {:>16} {:>13.2e}  {}\n", r.name,
            r.seconds, gpts, gpts * flops, gpts * bytes, gpts * bytes / set.triad, ofRoofline,
            r.maxRelError, tiles);
      }
    }
  }
  if (!allCorrect) {
    error() << "a variant does not match the reference evaluator (tolerance "
            << fmt::format("{:g}", tolerance) << "); its timings are not to be trusted\n";
    return 1;
  }
  return 0;
}

} // namespace stencilc
