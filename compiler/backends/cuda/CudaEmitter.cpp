//===- CudaEmitter.cpp - CUDA kernels from linear forms --------------------===//
//
// Each sweep of the decomposition becomes four kernels that evaluate the
// same coefficient groups (DeviceBody.h) from different places:
//
//   gmem, ro     one thread per point; reads from global memory, coefficients
//                plain or through the read-only cache;
//   traditional  a 2D block marches z; the current plane of every field read
//                off-centre on it sits in shared memory, the points of each
//                (dx, dy) column above and below it in a per-thread register
//                queue (docs/DESIGN.md §Plane plan, multi-to-one);
//   planes       a 2D block marches the input planes; each is read once into
//                shared memory and added to the partial sums of every output
//                plane it touches, a per-thread register queue that stores and
//                rotates its oldest entry (docs/DESIGN.md §Plane plan, one-to-multi). The
//                sweep's table rows sit in shared memory as the decomposition
//                placed them (SubStencil::tableSpace).
//
// A host launcher per sweep picks the kernel and its shared memory.
//
// Every kernel computes the points of one box (rt::Box, LaunchOptions::region,
// the whole extent by default): the launch grid covers the box and thread
// coordinates start at its origin, so a step can be split into boxes (a
// boundary shell and an interior for overlapped halo exchange) that together
// write exactly what one whole-grid launch writes.
//
//===----------------------------------------------------------------------===//
#include "backends/cuda/CudaEmitter.h"

#include "backends/CExpr.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "backends/cuda/DeviceBody.h"
#include "ir/Printer.h"
#include "support/Template.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace stencilc::backend {

namespace {

using ir::FieldRole;
using ir::Offset;

/// "m2" for -2, "0", "p3" for 3: offsets inside identifiers.
std::string offsetSuffix(int n) {
  return n < 0 ? fmt::format("m{}", -n) : n > 0 ? fmt::format("p{}", n) : "0";
}

/// " + 2", " - 3", or "" for 0: an offset added to a coordinate.
std::string plusOffset(int n) {
  return n < 0 ? fmt::format(" - {}", -n) : n > 0 ? fmt::format(" + {}", n) : "";
}

class CudaEmitter {
public:
  CudaEmitter(const CompiledStencil &c, const CudaEmitOptions &options)
      : s_(*c.stencil), linear_(c.linear), decomposition_(c.decomposition),
        plans_(c.sweepPlan.gpu.sweeps), names_(s_),
        kernel_(options.kernelName.empty() ? s_.name : options.kernelName),
        source_(options.sourcePath.empty() ? s_.name + ".stencil" : options.sourcePath),
        target_(options.target.empty() ? "not named by the caller" : options.target) {}

  std::vector<CudaSharedFootprint> footprints() const {
    std::vector<CudaSharedFootprint> out;
    for (const GpuSweepPlan &plan : plans_) {
      CudaSharedFootprint f;
      f.traditionalPlanes = int(plan.traditionalTiles.size());
      f.traditionalRx = plan.traditionalRx;
      f.traditionalRy = plan.traditionalRy;
      f.planesPlanes = plan.accumulates() ? int(plan.planesTiles.size()) : 0;
      f.planesRx = plan.planesRx;
      f.planesRy = plan.planesRy;
      for (const auto &[table, rows] : plan.sharedRows)
        f.stagedRows += int(rows.size());
      for (const auto &[table, rows] : plan.autoRows)
        f.autoRows += int(rows.size());
      out.push_back(f);
    }
    return out;
  }

  std::vector<GeneratedFile> emit() {
    TemplateValues common = {{"SOURCE", source_},
                             {"DESCRIPTION", description()},
                             {"KERNEL", kernel_},
                             {"TARGET", target_}};
    TemplateValues header = abiHeaderValues(s_, names_, common);
    TemplateValues source =
        abiSourceValues(s_, names_, kernel_, int(decomposition_.sweeps.size()), 7, common);
    source["SWEEPS"] = sweeps();
    source["RUN_BODY"] = runBody();
    return {
        {kernel_ + "_cuda.h", renderTemplate(embeddedTemplate("cuda/kernel_cuda.h.tmpl"), header)},
        {kernel_ + ".cu", renderTemplate(embeddedTemplate("cuda/kernel.cu.tmpl"), source)}};
  }

private:
  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  std::string description() const {
    std::string d = stencilSummary(s_, linear_, decomposition_);
    d += ".\n";
    for (size_t sweep = 0; sweep < plans_.size(); ++sweep) {
      const GpuSweepPlan &plan = plans_[sweep];
      int shared = 0, autos = 0, others = int(plan.placement.size());
      for (const auto &[table, rows] : plan.sharedRows)
        shared += int(rows.size());
      for (const auto &[table, rows] : plan.autoRows)
        autos += int(rows.size());
      others -= shared + autos;
      d += fmt::format("// Sweep {}: traditional keeps {} shared plane{} and {} register queue{} "
                       "({} values); planes keeps {} shared plane{} and {} partial sum{} per "
                       "output",
                       sweep, plan.traditionalTiles.size(),
                       plan.traditionalTiles.size() == 1 ? "" : "s", plan.queues.size(),
                       plan.queues.size() == 1 ? "" : "s", plan.queueValues(),
                       plan.planesTiles.size(), plan.planesTiles.size() == 1 ? "" : "s",
                       plan.ringSize(), plan.ringSize() == 1 ? "" : "s");
      if (!plan.placement.empty())
        d += fmt::format(";\n//   table rows in shared memory: {} always, {} if they fit the "
                         "budget (else read-only), {} read-only or global",
                         shared, autos, others);
      d += ".\n";
    }
    d += "// Variants (LaunchOptions::variant): gmem, ro (read-only coefficients), traditional "
         "(2.5D\n// blocking), planes (one-to-multi partial sums); traditional and planes march "
         "nw planes per block.\n";
    return d;
  }

  //===--------------------------------------------------------------------===//
  // Point bodies
  //===--------------------------------------------------------------------===//

  std::string valueName(int output) const { return names_.field(output) + "_value"; }

  /// Evaluates every group of the sweep at the point and stores it: `=` in the
  /// first sweep, `+=` in later ones. Returns prologue + body.
  std::string pointBody(int sweep, const ReadStyle &style, const std::string &z,
                        const std::string &x, const std::string &y,
                        const std::string &indent) const {
    PointScope scope(s_, names_, style);
    std::string body;
    for (const SweepUpdate &update : plans_[sweep].updates) {
      bool pointwise = sweep == 0;
      if (update.groups.empty() && !pointwise)
        continue; // nothing of this update in a later sweep
      const LinearForm &form = linear_.updates[update.update];
      std::string value = valueName(form.output);
      body += fmt::format("{}Real {};\n", indent, value);
      body += sumStatements(s_, form, update.groups, scope.reads(), value, true,
                            {.pointwise = pointwise, .indent = indent});
      body += fmt::format("{}{} {} {};\n", indent, scope.output(form.output),
                          sweep == 0 ? "=" : "+=", value);
    }
    return scope.prologue(x, y, z, indent) + body;
  }

  ReadStyle globalStyle(bool readOnly) const {
    ReadStyle style;
    style.readOnlyCoefficients = readOnly;
    style.restrictPointers = readOnly;
    TableSpace space = readOnly ? TableSpace::ReadOnly : TableSpace::Global;
    style.rowPlacement = [space](int, int) { return RowPlacement{space, -1}; };
    return style;
  }

  //===--------------------------------------------------------------------===//
  // Kernels
  //===--------------------------------------------------------------------===//

  std::string pointKernel(int sweep, bool readOnly) const {
    const char *variant = readOnly ? "ro" : "gmem";
    std::string comment = readOnly
                              ? "one thread per output point; coefficients (`in` and index fields, "
                                "tables)\n/// through the read-only cache."
                              : "one thread per output point; every read a plain global load.";
    return fmt::format(R"(/// Sweep {0}, {1}: {2}
__global__ void __launch_bounds__(kMaxThreadsPerBlock) sweep{0}_{1}(const Args args,
                                                                  const rt::Box box) {{
  // The launch grid covers the box: thread (0, 0) of block (0, 0, 0) is its first point.
  const int x = box.x0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = box.z0 + int(blockIdx.z);
  if (x >= box.x1 || y >= box.y1)
    return;
{3}}}

)",
                       sweep, variant, comment,
                       pointBody(sweep, globalStyle(readOnly), "z", "x", "y", "  "));
  }

  std::string tileName(int field) const { return names_.field(field) + "_tile"; }
  std::string tileAt(int field) const { return names_.field(field) + "_at"; }

  /// `f_at[dx + dy * m.tileW]`: a read from a shared plane at this thread's point.
  std::string tileRead(int field, const Offset &o) const {
    std::string index;
    if (o[0])
      index = std::to_string(o[0]);
    if (o[1]) {
      std::string rows =
          std::abs(o[1]) == 1 ? "m.tileW" : fmt::format("{} * m.tileW", std::abs(o[1]));
      index += index.empty() ? (o[1] < 0 ? "-" : "") + rows : (o[1] < 0 ? " - " : " + ") + rows;
    }
    return fmt::format("{}[{}]", tileAt(field), index.empty() ? "0" : index);
  }

  std::string queueName(const std::tuple<int, int, int> &column) const {
    auto [field, dx, dy] = column;
    return fmt::format("{}_q_{}_{}", names_.field(field), offsetSuffix(dx), offsetSuffix(dy));
  }
  std::string columnName(const std::tuple<int, int, int> &column) const {
    auto [field, dx, dy] = column;
    return fmt::format("{}_c_{}_{}", names_.field(field), offsetSuffix(dx), offsetSuffix(dy));
  }

  /// Shared planes one after another: `Real *const f_tile = <after the previous one>;`.
  std::string tileDeclarations(const std::set<int> &fields, std::string first) const {
    std::string out;
    for (int f : fields) {
      out += fmt::format("  Real *const {} = {};\n", tileName(f), first);
      first = tileName(f) + " + m.tileSize";
    }
    for (int f : fields)
      out += fmt::format("  const Real *const {} = {} + m.tileAt;\n", tileAt(f), tileName(f));
    return out;
  }

  std::string tileLoads(const std::set<int> &fields, const std::string &z,
                        const std::string &indent) const {
    std::string out;
    for (int f : fields)
      out += fmt::format("{}loadTile({}, args.{}, {}, m, kRx, kRy, box);\n", indent, tileName(f),
                         names_.field(f), z);
    return out;
  }

  /// Shared memory at `next` onwards: each table's staged rows ([slot][column]), as the
  /// plan placed them; `next` moves past them and `staging` gets the statements that fill
  /// them. Rows the plan left to the backend are staged only with kStageAuto.
  std::string stagedTableDeclarations(const GpuSweepPlan &plan, std::string &next,
                                      std::string &staging) const {
    std::string out;
    for (size_t t = 0; t < s_.tables.size(); ++t) {
      int table = int(t);
      auto shared = plan.sharedRows.count(table) ? plan.sharedRows.at(table) : std::vector<int>{};
      auto autos = plan.autoRows.count(table) ? plan.autoRows.at(table) : std::vector<int>{};
      if (shared.empty() && autos.empty())
        continue;
      std::string name = names_.table(table) + "_staged";
      out += fmt::format("  Real *const {} = {}; // rows of {}: {} always{}\n", name, next,
                         s_.tables[table].name, shared.size(),
                         autos.empty() ? "" : fmt::format(", {} with kStageAuto", autos.size()));
      std::string rows = autos.empty() ? std::to_string(shared.size())
                                       : fmt::format("(kStageAuto ? {} : {})",
                                                     shared.size() + autos.size(), shared.size());
      next = fmt::format("{} + {} * args.{}.cols", name, rows, names_.table(table));
      for (size_t i = 0; i < shared.size(); ++i)
        staging += fmt::format("  stageRow({}, {}, args.{}, {});\n", name, i, names_.table(table),
                               shared[i]);
      if (!autos.empty()) {
        staging += "  if (kStageAuto) {\n";
        for (size_t i = 0; i < autos.size(); ++i)
          staging += fmt::format("    stageRow({}, {}, args.{}, {});\n", name, shared.size() + i,
                                 names_.table(table), autos[i]);
        staging += "  }\n";
      }
    }
    return out;
  }

  /// Where a marching kernel reads table row `row`: as the plan placed it.
  static RowPlacement placedRow(const GpuSweepPlan &plan, int table, int row) {
    auto it = plan.placement.find({table, row});
    return it == plan.placement.end() ? RowPlacement{TableSpace::ReadOnly, -1} : it->second;
  }

  std::string traditionalKernel(int sweep) const {
    const GpuSweepPlan &plan = plans_[sweep];
    std::string queues, prime, shifts;
    for (const auto &[column, range] : plan.queues) {
      auto [field, dx, dy] = column;
      auto [low, high] = range;
      int length = high - low + 1;
      std::string f = names_.field(field);
      queues +=
          fmt::format("  Real {}[{}] = {{}}; // column ({}, {}) of {}: planes z{:+} .. z{:+}\n",
                      queueName(column), length, dx, dy, s_.fields[field].name, low, high);
      queues +=
          fmt::format("  const Real *const {} = args.{}.origin + at(args.{}, m.x{}, m.y{}, 0);\n",
                      columnName(column), f, f, plusOffset(dx), plusOffset(dy));
      if (length > 1)
        prime += fmt::format("    STENCILC_UNROLL\n    for (int k = 1; k < {}; ++k)\n"
                             "      {}[k] = {}[(m.z0{} + k - 1) * args.{}.plane];\n",
                             length, queueName(column), columnName(column), plusOffset(low), f);
      shifts += fmt::format("      shiftIn({}, {}[(z{}) * args.{}.plane]);\n", queueName(column),
                            columnName(column), plusOffset(high), f);
    }
    ReadStyle style;
    style.readOnlyCoefficients = true;
    style.restrictPointers = true;
    style.rowPlacement = [&plan](int table, int row) { return placedRow(plan, table, row); };
    style.onChip = [this, &plan](int field, const Offset &o) -> std::optional<std::string> {
      if (o[2] == 0 && plan.traditionalTiles.count(field))
        return tileRead(field, o);
      if (o[2] != 0) {
        auto it = plan.queues.find({field, o[0], o[1]});
        return fmt::format("{}[{}]", queueName(it->first), o[2] - it->second.first);
      }
      return std::nullopt;
    };
    std::string out = fmt::format(
        R"(/// Sweep {0}, traditional (2.5D blocking, multi-to-one): a 2D block marches z through nw
/// planes of the box. Plane z of every field read off-centre on it sits in shared memory with
/// its halo; the points of each (dx, dy) column above and below z sit in this thread's register
/// queue, which takes one new plane per step. The table rows sit where the plan placed them,
/// as in `planes`: with kStageAuto the rows it left to the backend are in shared memory too.
template <bool kStageAuto>
__global__ void __launch_bounds__(kMaxThreadsPerBlock) sweep{0}_traditional(const Args args,
                                                                        const rt::Box box,
                                                                        const int nw) {{
  STENCILC_DYNAMIC_SHARED(Real, shared);
  constexpr int kRx = {1}, kRy = {2}; // halo of the shared planes
  const ZMarch m = zMarch(box, nw, kRx, kRy);
)",
        sweep, plan.traditionalRx, plan.traditionalRy);
    std::string next = "shared", staging;
    out += stagedTableDeclarations(plan, next, staging);
    out += tileDeclarations(plan.traditionalTiles, next);
    if (plan.traditionalTiles.empty() && next == "shared")
      out += "  (void)shared; // no field is read off-centre on the current plane, no row staged\n";
    if (!staging.empty())
      out += "  // The first barrier of the march below also waits for these rows.\n" + staging;
    if (!queues.empty()) {
      out += "  // Register queues: entry k of a column holds the plane given first, plus k.\n";
      out += queues;
      if (!prime.empty())
        out += "  if (m.active) { // all but the newest plane of the first output plane\n" + prime +
               "  }\n";
    }
    out += "  for (int z = m.z0; z < m.z1; ++z) {\n"
           "    __syncthreads(); // the block is done with the previous plane\n";
    out += tileLoads(plan.traditionalTiles, "z", "    ");
    if (!shifts.empty())
      out += "    if (m.active) {\n" + shifts + "    }\n";
    out += "    __syncthreads(); // plane z is in\n"
           "    if (!m.active)\n      continue;\n";
    out += pointBody(sweep, style, "z", "m.x", "m.y", "    ");
    out += "  }\n}\n\n";
    return out;
  }

  std::string accName(int output) const { return names_.acc(output); }

  std::string planesKernel(int sweep) const {
    const GpuSweepPlan &plan = plans_[sweep];
    const int dzMin = plan.planeOffsets.front(), dzMax = plan.planeOffsets.back();
    std::string out = fmt::format(
        R"(/// Sweep {0}, planes (one-to-multi): a 2D block marches the input planes of nw output
/// planes of the box. Input plane zi is read once into shared memory with its halo, and its
/// points at plane offset dz go into the partial sum of output plane zi - dz: a register queue
/// per output, whose oldest entry is complete after plane zi, is stored, and makes room for a
/// new one. With kStageAuto the table rows the plan left to the backend are staged in shared
/// memory too.
template <bool kStageAuto>
__global__ void __launch_bounds__(kMaxThreadsPerBlock) sweep{0}_planes(const Args args,
                                                                   const rt::Box box,
                                                                   const int nw) {{
  STENCILC_DYNAMIC_SHARED(Real, shared);
  constexpr int kRx = {1}, kRy = {2}; // halo of the shared planes
  constexpr int kDzMin = {3}, kDzMax = {4}; // plane offsets of the accumulated points
  const ZMarch m = zMarch(box, nw, kRx, kRy);
)",
        sweep, plan.planesRx, plan.planesRy, dzMin, dzMax);
    std::string next = "shared", staging;
    out += stagedTableDeclarations(plan, next, staging);
    out += tileDeclarations(plan.planesTiles, next);
    if (!staging.empty())
      out += "  // The first barrier of the march below also waits for these rows.\n" + staging;
    out += "  // Partial sums: entry k belongs to output plane zi - kDzMax + k.\n";
    for (const SweepUpdate &update : plan.updates)
      if (!update.accumulated.empty())
        out += fmt::format("  Real {}[kDzMax - kDzMin + 1] = {{}};\n",
                           accName(linear_.updates[update.update].output));
    out += "  for (int zi = m.z0 + kDzMin; zi < m.z1 + kDzMax; ++zi) {\n"
           "    __syncthreads(); // the block is done with the previous planes\n";
    out += tileLoads(plan.planesTiles, "zi", "    ");
    out += "    __syncthreads(); // plane zi is in\n    if (m.active) {\n";

    ReadStyle accumulate;
    accumulate.readOnlyCoefficients = true;
    accumulate.restrictPointers = true;
    accumulate.rowPlacement = [&plan](int table, int row) { return placedRow(plan, table, row); };
    accumulate.onChip = [this](int field, const Offset &o) -> std::optional<std::string> {
      return tileRead(field, o);
    };
    for (int dz : plan.planeOffsets) {
      PointScope scope(s_, names_, accumulate);
      std::string body;
      for (const SweepUpdate &update : plan.updates) {
        const LinearForm &form = linear_.updates[update.update];
        std::vector<int> touching = groupsTouchingPlane(form, update.accumulated, dz);
        if (touching.empty())
          continue;
        body += sumStatements(s_, form, touching, scope.reads(),
                              fmt::format("{}[{}]", accName(form.output), dzMax - dz), false,
                              {.dz = dz, .indent = "        "});
      }
      out += fmt::format("      // Input plane zi is plane {0:+} of output plane zo = zi{1}.\n"
                         "      if (const int zo = zi{1}; zo >= m.z0 && zo < m.z1) {{\n",
                         dz, plusOffset(-dz));
      out += scope.prologue("m.x", "m.y", "zo", "        ") + body + "      }\n";
    }
    // The store: partial sums plus the centre-only groups.
    ReadStyle store = accumulate;
    store.onChip = nullptr;
    PointScope scope(s_, names_, store);
    std::string body;
    for (const SweepUpdate &update : plan.updates) {
      bool pointwise = sweep == 0;
      if (update.groups.empty() && !pointwise)
        continue;
      const LinearForm &form = linear_.updates[update.update];
      std::string value = valueName(form.output);
      // The finished partial sum, plus what is applied at the store.
      bool accumulated = !update.accumulated.empty();
      body += accumulated ? fmt::format("        Real {} = {}[0];\n", value, accName(form.output))
                          : fmt::format("        Real {};\n", value);
      body += sumStatements(s_, form, update.atStore, scope.reads(), value, !accumulated,
                            {.pointwise = pointwise, .indent = "        "});
      body += fmt::format("        {} {} {};\n", scope.output(form.output),
                          sweep == 0 ? "=" : "+=", value);
    }
    out += "      // Output plane zo = zi - kDzMax has all its input planes: store it.\n"
           "      if (const int zo = zi - kDzMax; zo >= m.z0) {\n";
    out += scope.prologue("m.x", "m.y", "zo", "        ") + body + "      }\n    }\n";
    for (const SweepUpdate &update : plan.updates)
      if (!update.accumulated.empty())
        out += fmt::format("    shiftIn({}, Real(0));\n",
                           accName(linear_.updates[update.update].output));
    out += "  }\n}\n\n";
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Host launchers
  //===--------------------------------------------------------------------===//

  /// The launch of a marching kernel (traditional, planes): `tiles` shared planes with their
  /// halo and the table rows the plan put in shared memory; the rows it left to the backend
  /// too when they fit the budget (kStageAuto), else through the read-only cache.
  std::string marchingLaunch(int sweep, const std::string &kernel, size_t tiles, int rx,
                             int ry) const {
    const GpuSweepPlan &plan = plans_[sweep];
    std::string fixedRows, autoRows;
    for (const auto &[table, rows] : plan.sharedRows)
      fixedRows += fmt::format(" + sizeof(Real) * {} * std::size_t(a.{}.cols)", rows.size(),
                               names_.table(table));
    for (const auto &[table, rows] : plan.autoRows)
      autoRows += fmt::format("{}sizeof(Real) * {} * std::size_t(a.{}.cols)",
                              autoRows.empty() ? "" : " + ", rows.size(), names_.table(table));
    std::string out =
        fmt::format("    // {} shared plane{}{}.\n", tiles, tiles == 1 ? "" : "s",
                    fixedRows.empty() ? "" : " and the table rows the plan put in shared memory");
    out += fmt::format("    const std::size_t fixed = {} * l.tileBytes({}, {}){};\n", tiles, rx, ry,
                       fixedRows);
    if (!autoRows.empty())
      out += fmt::format(
          "    // The rows left to the backend go to shared memory if they fit the budget.\n"
          "    const std::size_t staged = fixed + {2};\n"
          "    if (staged <= l.sharedBudget) {{\n"
          "      allowSharedBytes(sweep{0}_{1}<true>, staged);\n"
          "      STENCILC_LAUNCH(sweep{0}_{1}<true>, l.marchGrid, l.block, staged, "
          "l.stream)(a, l.box, l.nw);\n"
          "      break;\n"
          "    }}\n",
          sweep, kernel, autoRows);
    out += fmt::format("    requireShared(fixed, l, \"sweep {0}, {1}\");\n"
                       "    allowSharedBytes(sweep{0}_{1}<false>, fixed);\n"
                       "    STENCILC_LAUNCH(sweep{0}_{1}<false>, l.marchGrid, l.block, fixed, "
                       "l.stream)(a, l.box, l.nw);\n"
                       "    break;\n  }}\n",
                       sweep, kernel);
    return out;
  }

  std::string launcher(int sweep) const {
    const GpuSweepPlan &plan = plans_[sweep];
    std::string out = fmt::format(R"(/// Sweep {0} with the chosen variant, on the launch's stream.
void launchSweep{0}(const Args &a, const Launch &l) {{
  switch (l.variant) {{
  case Variant::Gmem:
    STENCILC_LAUNCH(sweep{0}_gmem, l.pointGrid, l.block, 0, l.stream)(a, l.box);
    break;
  case Variant::Ro:
    STENCILC_LAUNCH(sweep{0}_ro, l.pointGrid, l.block, 0, l.stream)(a, l.box);
    break;
  case Variant::Traditional: {{
)",
                                  sweep);
    out += marchingLaunch(sweep, "traditional", plan.traditionalTiles.size(), plan.traditionalRx,
                          plan.traditionalRy);
    out += "  case Variant::Planes: {\n";
    if (!plan.accumulates()) {
      out += "    // Nothing in this sweep spans planes: one thread per point does it.\n";
      out += fmt::format(
          "    STENCILC_LAUNCH(sweep{}_ro, l.pointGrid, l.block, 0, l.stream)(a, l.box);\n"
          "    break;\n  }}\n  }}\n  STENCILC_CUDA_CHECK(cudaGetLastError());\n}}\n\n",
          sweep);
      return out;
    }
    out += marchingLaunch(sweep, "planes", plan.planesTiles.size(), plan.planesRx, plan.planesRy);
    out += "  }\n  STENCILC_CUDA_CHECK(cudaGetLastError());\n}\n\n";
    return out;
  }

  std::string sweeps() const {
    std::string out;
    for (size_t sweep = 0; sweep < decomposition_.sweeps.size(); ++sweep) {
      out += sweepBanner(int(sweep), decomposition_.sweeps[sweep].reason);
      out += pointKernel(int(sweep), false);
      out += pointKernel(int(sweep), true);
      out += traditionalKernel(int(sweep));
      if (plans_[sweep].accumulates())
        out += planesKernel(int(sweep));
      out += launcher(int(sweep));
    }
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Entry points
  //===--------------------------------------------------------------------===//

  std::string runBody() const {
    std::string out;
    for (size_t sweep = 0; sweep < decomposition_.sweeps.size(); ++sweep)
      out += fmt::format("  launchSweep{}(a, l);\n", sweep);
    return out;
  }

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const Decomposition &decomposition_;
  const std::vector<GpuSweepPlan> &plans_;
  KernelNames names_;
  std::string kernel_;
  std::string source_;
  std::string target_;
};

} // namespace

std::vector<CudaSharedFootprint> cudaSharedFootprints(const CompiledStencil &compiled) {
  return CudaEmitter(compiled, CudaEmitOptions{}).footprints();
}

std::vector<GeneratedFile> emitCudaKernel(const CompiledStencil &compiled,
                                          const CudaEmitOptions &options) {
  return CudaEmitter(compiled, options).emit();
}

} // namespace stencilc::backend
