//===- CpuEmitter.cpp - C++/OpenMP-SIMD kernels from linear forms ----------===//
//
// Every variant is built from the same pieces: a loop over x that evaluates
// some coefficient groups of some updates at each point (a "row body"). The
// naive and blocked variants evaluate every group of a sweep per output row,
// for up to three output planes in one x loop so that the points they share
// load once; the planes variant evaluates, per input plane, the groups' points
// on that plane into partial sums of the output rows it touches (one fused x
// loop for all of them away from a tile's z edges), and finishes a row once
// its last input plane is in (its table coefficients staged once per output
// row, beside the partial sums).
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuEmitter.h"

#include "backends/CExpr.h"
#include "backends/GroupSums.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "ir/Printer.h"
#include "passes/LinearFormPrinter.h"
#include "support/Template.h"

#include <algorithm>
#include <fmt/format.h>

#include <map>
#include <set>

namespace stencilc::backend {

namespace {

using ir::FieldRole;
using ir::Offset;

/// Rows of a table's staging buffer per output plane: rt::loadColumns writes
/// whole blocks of 4 or 8 rows.
int stagedRows(const ir::Table &table) { return (table.rows + 7) / 8 * 8; }

/// Where a planes-scheme function finds the coefficients staged for it: the
/// buffer `pointer` (an expression over the function's parameters), `rows`
/// coefficients per point, read in the body as `name`.
struct StagedSource {
  std::string name, pointer;
  int rows;
};

/// Records which fields, tables and scalars a body uses, so that its prologue
/// declares exactly those.
class BodyUses {
public:
  BodyUses(const ir::Stencil &s, const KernelNames &names) : s_(s), names_(names) {}

  /// Subsequent reads are for output plane z + k of a body that computes
  /// several planes: offsets stay relative to the row pointers at (y, z), so
  /// a point two outputs share is the same expression, loaded once.
  void setPlaneShift(int k) {
    shift_ = k;
    planeCount_ = std::max(planeCount_, k + 1);
  }
  int planeCount() const { return planeCount_; }

  /// Subsequent reads are for the output row dz planes below the input row
  /// (y, z) of a planes-scheme scatter: offsets shift by -dz, so the points
  /// the outputs share are one expression, and table coefficients come from
  /// that output's staged rows, `<column><suffix>`, instead.
  void setScatterOutput(int dz, const std::string &coefSuffix) {
    shift_ = -dz;
    coefSuffix_ = coefSuffix;
  }

  std::string access(int field, Offset o) {
    o[2] += shift_;
    fields_.insert(field);
    std::string address = "x";
    if (o[0])
      address += fmt::format(" {} {}", o[0] < 0 ? '-' : '+', std::abs(o[0]));
    auto stride = [&](int n, const std::string &name) {
      if (n == 0)
        return;
      address += fmt::format(" {} ", n < 0 ? '-' : '+');
      address += std::abs(n) == 1 ? name : fmt::format("{} * {}", std::abs(n), name);
    };
    if (o[1]) {
      lines_.insert(field);
      stride(o[1], names_.line(field));
    }
    if (o[2]) {
      planes_.insert(field);
      stride(o[2], names_.plane(field));
    }
    return fmt::format("{}[{}]", names_.field(field), address);
  }

  CExprNames exprNames() {
    CExprNames n;
    n.scalar = [this](int id) {
      scalars_.insert(id);
      return names_.scalar(id);
    };
    n.field = [this](int id, const Offset &o) { return access(id, o); };
    n.table = [this](int table, int row, int index) {
      columns_.insert({table, index});
      auto [it, fresh] = rows_.try_emplace(table, row, row);
      it->second.first = std::min(it->second.first, row);
      it->second.second = std::max(it->second.second, row);
      fields_.insert(index);
      std::string name = names_.tableColumn(table, index) + coefSuffix_;
      stagedNames_.insert(name);
      if (!coefSuffix_.empty())
        return fmt::format("{}[{} * kW + l]", name, row);
      if (shift_)
        planes_.insert(index); // staged from the index row shift_ planes up
      // Staged coefficients: row r of lane l, after the rows of the planes below
      // (see rowFunction).
      return fmt::format("{}[{} * kW + l]", name, shift_ * stagedRows(s_.tables[table]) + row);
    };
    return n;
  }

  /// Declarations before the x loop: row pointers at (y, z), strides, scalars.
  /// Index fields are left out with `stagedTables`: the coefficients they
  /// select were staged before.
  std::string prologue(const std::set<int> &outputs, bool stagedTables = false) const {
    std::string out;
    for (int f : fields_) {
      const ir::Field &field = s_.fields[f];
      if (stagedTables && field.role == FieldRole::Index)
        continue;
      bool writable = outputs.count(f) != 0;
      out += fmt::format("  {}{} *{} = args.{}.row(y, z);\n", writable ? "" : "const ",
                         fieldElementType(field), names_.field(f), names_.field(f));
    }
    for (int f : lines_)
      out += fmt::format("  const std::ptrdiff_t {} = args.{}.line;\n", names_.line(f),
                         names_.field(f));
    for (int f : planes_)
      out += fmt::format("  const std::ptrdiff_t {} = args.{}.plane;\n", names_.plane(f),
                         names_.field(f));
    for (int sc : scalars_)
      out += fmt::format("  const Real {} = args.{};\n", names_.scalar(sc), names_.scalar(sc));
    for (size_t i = 0; i < invariants_.size(); ++i)
      out += fmt::format("  const Real invariant{} = {}; // the same at every point\n", i,
                         invariants_[i]);
    return out;
  }

  /// The name of a row constant holding `text` (scalars and numbers only).
  std::string invariant(const std::string &text) {
    for (size_t i = 0; i < invariants_.size(); ++i)
      if (invariants_[i] == text)
        return fmt::format("invariant{}", i);
    invariants_.push_back(text);
    return fmt::format("invariant{}", invariants_.size() - 1);
  }

  bool usesTables() const { return !columns_.empty(); }
  /// Does the body read the staged coefficients named `name` (a table column
  /// plus the setScatterOutput suffix)?
  bool readsStaged(const std::string &name) const { return stagedNames_.count(name) != 0; }
  const std::set<std::pair<int, int>> &columns() const { return columns_; }
  /// The rows of `table` that the body reads, widened to multiples of 4 (the
  /// smallest block rt::loadColumns transposes): [begin, end).
  std::pair<int, int> rowBlocks(int table) const {
    auto [lo, hi] = rows_.at(table);
    return {lo / 4 * 4, (hi + 4) / 4 * 4};
  }
  void addField(int f) { fields_.insert(f); }

private:
  const ir::Stencil &s_;
  const KernelNames &names_;
  std::set<int> fields_, lines_, planes_, scalars_;
  std::set<std::pair<int, int>> columns_;
  std::set<std::string> stagedNames_;
  std::string coefSuffix_;
  std::vector<std::string> invariants_;     ///< products of scalar factors, computed once per row
  std::map<int, std::pair<int, int>> rows_; ///< table -> lowest and highest row read
  int shift_ = 0, planeCount_ = 1;
};

class CpuEmitter {
public:
  CpuEmitter(const CompiledStencil &c, const CpuEmitOptions &options)
      : s_(*c.stencil), linear_(c.linear), decomposition_(c.decomposition), plan_(c.sweepPlan.cpu),
        names_(s_), kernel_(options.kernelName.empty() ? s_.name : options.kernelName),
        zPlanes_(plan_.zPlanes),
        source_(options.sourcePath.empty() ? s_.name + ".stencil" : options.sourcePath) {}

  std::vector<GeneratedFile> emit() {
    TemplateValues common = {
        {"SOURCE", source_}, {"DESCRIPTION", description()}, {"KERNEL", kernel_}};
    TemplateValues header = abiHeaderValues(s_, names_, common);
    TemplateValues source =
        abiSourceValues(s_, names_, kernel_, int(decomposition_.sweeps.size()), 5, common);
    source["TABLE_MEMBERS"] = tableMembers();
    source["TABLE_INIT"] = tableInit();
    source["SWEEPS"] = sweeps();
    source["RUN_BODY"] = runBody();
    return {{kernel_ + ".h", renderTemplate(embeddedTemplate("cpu/kernel.h.tmpl"), header)},
            {kernel_ + ".cpp", renderTemplate(embeddedTemplate("cpu/kernel.cpp.tmpl"), source)}};
  }

private:
  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  std::string description() const {
    std::string d = stencilSummary(s_, linear_, decomposition_);
    d += ".\n// Variants (rt::RunOptions::variant): naive, blocked (y/z tiles), planes "
         "(partial-plane\n// accumulation, one input plane at a time).\n";
    return d;
  }

  std::string tableMembers() const {
    std::string out;
    for (size_t t = 0; t < s_.tables.size(); ++t)
      out += fmt::format("  rt::PackedTable<Real> {};\n", names_.table(int(t)));
    return out;
  }

  std::string tableInit() const {
    std::string out;
    for (size_t t = 0; t < s_.tables.size(); ++t)
      out += fmt::format("{}rt::PackedTable<Real>(a.{})", t ? ", " : "", names_.table(int(t)));
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Row bodies
  //===--------------------------------------------------------------------===//

  /// How the bodies this emitter prints read: through the row pointers and
  /// staged coefficients `uses` declares, with point-invariant factors hoisted.
  static BodyReads readsOf(BodyUses &uses) {
    BodyReads reads;
    reads.read = [&uses](int field, const Offset &o) { return uses.access(field, o); };
    reads.exprNames = uses.exprNames();
    reads.invariant = [&uses](const std::string &product) { return uses.invariant(product); };
    return reads;
  }

  /// A function over the x points of one row (or of the rows of
  /// uses.planeCount() consecutive planes), wrapping a loop body. Table
  /// coefficients are staged kW points at a time (rt::loadColumns) so the
  /// vector loop reads them as whole vectors instead of gathering them.
  /// `accDecl` declares the partial-sum pointers after the prologue.
  std::string rowFunction(const std::string &comment, const std::string &name,
                          const std::string &extraParams, const BodyUses &uses,
                          const std::set<int> &outputs, const std::string &accDecl,
                          const std::string &body,
                          const std::vector<StagedSource> *staged = nullptr) const {
    std::string out = comment;
    out += fmt::format(
        "inline void {}([[maybe_unused]] const Args &args, [[maybe_unused]] const "
        "Tables &tables,{} const rt::Box &box, std::ptrdiff_t y, std::ptrdiff_t z) {{\n",
        name, extraParams);
    out += "  const std::ptrdiff_t xBegin = box.x0, xEnd = box.x1;\n";
    out += uses.prologue(outputs, /*stagedTables=*/staged != nullptr);
    out += accDecl;
    if (!uses.usesTables()) {
      out += "#pragma omp simd\n  for (std::ptrdiff_t x = xBegin; x < xEnd; ++x) {\n";
      out += body;
      out += "  }\n}\n\n";
      return out;
    }
    out += "  constexpr int kW = rt::kSimdLanes<Real>; // points per staged block\n";
    // Where a block's coefficients come from: staged once per output row by
    // sweepN_stage (planes), or staged here for each block of kW points.
    std::string blockSetup;
    if (staged) {
      for (const StagedSource &source : *staged) {
        if (!uses.readsStaged(source.name))
          continue;
        out +=
            fmt::format("  const Real *{}_row = {}; // staged: [(x0 - xBegin) * {} + r * kW + l]\n",
                        source.name, source.pointer, source.rows);
        blockSetup += fmt::format("    const Real *{0} = {0}_row + (x0 - xBegin) * {1};\n",
                                  source.name, source.rows);
      }
    } else {
      const int planes = uses.planeCount();
      for (const auto &[table, index] : uses.columns()) {
        std::string column = names_.tableColumn(table, index);
        out += planes == 1
                   ? fmt::format("  alignas(64) Real {}[{} * kW]; // coefficient r of point x0 + "
                                 "l at [r * kW + l]\n",
                                 column, paddedRows(table))
                   : fmt::format("  // Coefficient r of point (x0 + l, y, z + k) at [({} * k + r) "
                                 "* kW + l].\n  alignas(64) Real {}[{} * {} * kW];\n",
                                 paddedRows(table), column, planes, paddedRows(table));
        auto [begin, end] = uses.rowBlocks(table);
        for (int k = 0; k < planes; ++k)
          blockSetup += fmt::format(
              "    rt::loadColumns<kW>(tables.{}, {} + x0{}, n, {}, {}, {}{});\n",
              names_.table(table), names_.field(index),
              k == 0   ? ""
              : k == 1 ? " + " + names_.plane(index)
                       : fmt::format(" + {} * {}", k, names_.plane(index)),
              begin, end, column, k ? fmt::format(" + {} * kW", k * paddedRows(table)) : "");
      }
    }
    out += "  for (std::ptrdiff_t x0 = xBegin; x0 < xEnd; x0 += kW) {\n"
           "    const int n = int(std::min<std::ptrdiff_t>(kW, xEnd - x0));\n";
    out += blockSetup;
    // A plain loop over the block: a per-point lambda here stops GCC from
    // keeping the row pointers in registers (measured 4.5x slower on ete37).
    out += "#pragma omp simd\n"
           "    for (int l = 0; l < n; ++l) {\n"
           "      const std::ptrdiff_t x = x0 + l;\n";
    out += indentBody(body);
    out += "    }\n"
           "  }\n}\n\n";
    return out;
  }

  int paddedRows(int table) const { return stagedRows(s_.tables[table]); }

  static std::string indentBody(const std::string &body) {
    std::string out;
    size_t start = 0;
    while (start < body.size()) {
      size_t end = body.find('\n', start);
      std::string line = body.substr(start, end - start);
      out += (line.empty() ? "" : "  ") + line + "\n";
      start = end == std::string::npos ? body.size() : end + 1;
    }
    return out;
  }

  /// Every group of a sweep at the points of output row (y, z), or with
  /// `planes` > 1 at rows (y, z) to (y, z + planes - 1) in one x loop: the
  /// points those outputs share, such as p(x, y, z + 1) for outputs z and
  /// z + 2, are then loaded once from L1 instead of once per output, which
  /// matters most for the points off the output's own plane.
  std::string naiveRow(int sweep, int planes) const {
    BodyUses uses(s_, names_);
    std::set<int> outputs;
    std::string body, stores;
    for (int k = 0; k < planes; ++k) {
      uses.setPlaneShift(k);
      if (planes > 1)
        body += k == 0
                    ? "    // Output plane z.\n"
                    : fmt::format("    // Output plane z + {}: the same groups, {} plane{} up.\n",
                                  k, k, k == 1 ? "" : "s");
      for (size_t u = 0; u < linear_.updates.size(); ++u) {
        const LinearForm &form = linear_.updates[u];
        int out = form.output;
        outputs.insert(out);
        std::string sum = names_.acc(out) + (planes > 1 ? std::to_string(k) : "");
        body += fmt::format("    Real {};\n", sum);
        body += sumStatements(s_, form, decomposition_.sweeps[sweep].groups[u], readsOf(uses), sum,
                              true, {.pointwise = sweep == 0, .comments = k == 0});
        // With several planes, every store comes after every load, so that the
        // compiler may share loads between outputs.
        (planes > 1 ? stores : body) += fmt::format(
            "    {} {} {};\n", uses.access(out, Offset{0, 0, 0}), sweep == 0 ? "=" : "+=", sum);
      }
    }
    body += stores;
    std::string comment =
        planes == 1
            ? fmt::format("/// Sweep {}: every group of the sweep at the points of output row "
                          "(y, z).\n",
                          sweep)
            : fmt::format("/// Sweep {}: every group of the sweep at the points of output rows "
                          "(y, z) to (y, z + {}),\n/// in one x loop, so that the points they "
                          "share are loaded once.\n",
                          sweep, planes - 1);
    return rowFunction(comment,
                       planes == 1 ? fmt::format("sweep{}_row", sweep)
                                   : fmt::format("sweep{}_rows{}", sweep, planes),
                       "", uses, outputs, "", body);
  }

  static std::string planeSuffix(int dz) {
    return dz < 0 ? fmt::format("m{}", -dz) : fmt::format("p{}", dz);
  }

  /// The staged coefficients of one output row as a function reads them:
  /// table i of `ring` from coefs[first + i], named by its column and `suffix`.
  std::vector<StagedSource> stagedSources(const std::vector<StagedTable> &ring,
                                          const std::string &suffix, int first) const {
    std::vector<StagedSource> sources;
    for (size_t i = 0; i < ring.size(); ++i)
      sources.push_back({names_.tableColumn(ring[i].table, ring[i].index) + suffix,
                         fmt::format("coefs[{}]", first + int(i)), ring[i].endRow});
    return sources;
  }

  /// A planes-scheme row function: it takes the partial sums `acc` and, when the
  /// sweep stages table coefficients, the staged rows `coefs` that `sources` name.
  std::string ringRowFunction(const std::string &comment, const std::string &name,
                              const BodyUses &uses, const std::set<int> &outputs,
                              const std::string &accDecl, const std::string &body,
                              const std::vector<StagedSource> &sources) const {
    if (sources.empty())
      return rowFunction(comment, name, " Real *const *acc,", uses, outputs, accDecl, body);
    const bool readsCoefs = std::any_of(sources.begin(), sources.end(), [&](const StagedSource &s) {
      return uses.readsStaged(s.name);
    });
    return rowFunction(comment, name,
                       fmt::format(" Real *const *acc, {}const Real *const *coefs,",
                                   readsCoefs ? "" : "[[maybe_unused]] "),
                       uses, outputs, accDecl, body, &sources);
  }

  /// Stages the coefficients of output row (y, z) for all the planes that add to it.
  std::string planeStage(int sweep) const {
    const std::vector<StagedTable> &ring = plan_.sweeps[sweep].stagedTables;
    std::string out = fmt::format(
        "/// Sweep {0}, planes scheme: stages the table coefficients of output row (y, z) once "
        "for all\n/// the input planes that add to it (instead of once per plane).\n"
        "inline void sweep{0}_stage([[maybe_unused]] const Args &args, const Tables &tables, Real "
        "*const *coefs, const rt::Box &box, std::ptrdiff_t y, std::ptrdiff_t z) {{\n"
        "  const std::ptrdiff_t xBegin = box.x0, xEnd = box.x1;\n",
        sweep);
    std::set<int> indexFields;
    for (const StagedTable &r : ring)
      if (indexFields.insert(r.index).second)
        out += fmt::format("  const {} *{} = args.{}.row(y, z);\n",
                           fieldElementType(s_.fields[r.index]), names_.field(r.index),
                           names_.field(r.index));
    out += "  constexpr int kW = rt::kSimdLanes<Real>;\n"
           "  for (std::ptrdiff_t x0 = xBegin; x0 < xEnd; x0 += kW) {\n"
           "    const int n = int(std::min<std::ptrdiff_t>(kW, xEnd - x0));\n";
    for (size_t i = 0; i < ring.size(); ++i)
      out += fmt::format("    rt::loadColumns<kW>(tables.{}, {} + x0, n, {}, {}, coefs[{}] + (x0 - "
                         "xBegin) * {});\n",
                         names_.table(ring[i].table), names_.field(ring[i].index), ring[i].beginRow,
                         ring[i].endRow, i, ring[i].endRow);
    out += "  }\n}\n\n";
    return out;
  }

  /// Adds the points at plane offset dz of output row (y, z) to its partial sums.
  std::string planeAccumulate(int sweep, int dz) const {
    BodyUses uses(s_, names_);
    std::string body, accDecl;
    for (const SweepUpdate &split : plan_.sweeps[sweep].updates) {
      const LinearForm &form = linear_.updates[split.update];
      std::vector<int> touching = groupsTouchingPlane(form, split.accumulated, dz);
      if (touching.empty())
        continue;
      std::string acc = names_.acc(form.output);
      accDecl += fmt::format("  Real *{} = acc[{}];\n", acc, split.slot);
      // Summed apart and then added, as the fused scatter does: a point's bits must not
      // depend on whether a tile edge sent it through this function or the scatter.
      std::string sum = names_.field(form.output) + "_sum";
      body += fmt::format("    Real {};\n", sum);
      body += sumStatements(s_, form, touching, readsOf(uses), sum, true,
                            {.dz = dz, .withoutSharedFactors = split.sharedFactors});
      body += fmt::format("    {}[x] += {};\n", acc, sum);
    }
    std::string comment = fmt::format(
        "/// Sweep {}, planes scheme: adds the points on input plane z{:+} to the partial sums of "
        "output\n/// row (y, z).\n",
        sweep, dz);
    return ringRowFunction(comment, fmt::format("sweep{}_plane_{}", sweep, planeSuffix(dz)), uses,
                           {}, accDecl, body,
                           stagedSources(plan_.sweeps[sweep].stagedTables, "", 0));
  }

  /// Adds every accumulated point of input row (y, z) to the partial sums of all
  /// the output rows it touches, (y, z - dzMin) down to (y, z - dzMax), in one
  /// x loop: a point that several outputs read (p(x + 1, y, z) is in every
  /// output's sum in ete73) is loaded once, where the per-plane functions
  /// load it once per output. Reads stay relative to the input row.
  std::string planeScatter(int sweep) const {
    BodyUses uses(s_, names_);
    const std::vector<int> &planes = plan_.sweeps[sweep].accumulatedPlanes;
    const std::vector<StagedTable> &ring = plan_.sweeps[sweep].stagedTables;
    const int outputs = plan_.sweeps[sweep].accumulatingOutputs();
    std::string body, accDecl;
    std::vector<StagedSource> sources;
    for (size_t i = 0; i < planes.size(); ++i) {
      const int dz = planes[i];
      const std::string suffix = "_" + planeSuffix(dz);
      uses.setScatterOutput(dz, suffix);
      std::vector<StagedSource> mine = stagedSources(ring, suffix, int(i * ring.size()));
      sources.insert(sources.end(), mine.begin(), mine.end());
      std::string part;
      for (const SweepUpdate &split : plan_.sweeps[sweep].updates) {
        const LinearForm &form = linear_.updates[split.update];
        std::vector<int> touching = groupsTouchingPlane(form, split.accumulated, dz);
        if (touching.empty())
          continue;
        std::string acc = names_.acc(form.output) + suffix;
        accDecl += fmt::format("  Real *{} = acc[{}]; // output row (y, z{:+})\n", acc,
                               int(i) * outputs + split.slot, -dz);
        // One load and store of the partial sum per output, whatever the group count.
        std::string sum = names_.field(form.output) + "_sum" + suffix;
        part += fmt::format("    Real {};\n", sum);
        part += sumStatements(
            s_, form, touching, readsOf(uses), sum, true,
            {.dz = dz, .withoutSharedFactors = split.sharedFactors, .comments = false});
        part += fmt::format("    {}[x] += {};\n", acc, sum);
      }
      if (!part.empty())
        body += fmt::format("    // Output row (y, z{:+}): its points on this input plane.\n{}",
                            -dz, part);
    }
    std::string comment = fmt::format(
        "/// Sweep {}, planes scheme: adds the points of input row (y, z) to the partial sums of "
        "every\n/// output row they touch, (y, z{:+}) to (y, z{:+}), in one x loop, so that "
        "points several\n/// outputs read are loaded once. The tile's first and last planes use "
        "the per-plane functions.\n",
        sweep, -planes.front(), -planes.back());
    return ringRowFunction(comment, fmt::format("sweep{}_scatter", sweep), uses, {}, accDecl, body,
                           sources);
  }

  /// Stores finished output row (y, z): partial sums plus the groups applied at store time.
  std::string planeFinish(int sweep) const {
    BodyUses uses(s_, names_);
    std::set<int> outputs;
    std::string body, accDecl;
    for (const SweepUpdate &split : plan_.sweeps[sweep].updates) {
      const LinearForm &form = linear_.updates[split.update];
      int out = form.output;
      outputs.insert(out);
      uses.addField(out);
      std::string value = names_.acc(out) + "_value";
      body += fmt::format("    Real {};\n", value);
      body += sumStatements(s_, form, split.atStore, readsOf(uses), value, true,
                            {.pointwise = sweep == 0});
      if (split.slot >= 0) {
        std::string acc = names_.acc(out);
        accDecl += fmt::format("  Real *{} = acc[{}];\n", acc, split.slot);
        std::string scale;
        if (split.sharedFactors) {
          body +=
              "    // The factors every accumulated group shares, left out of the partial sums.\n";
          for (const std::string &f :
               factorTexts(form, form.groups[split.accumulated.front()], readsOf(uses)))
            scale += f + " * ";
        }
        body += fmt::format(
            "    {} += {}{}[x];\n    {}[x] = Real(0); // ready for plane z + ring size\n", value,
            scale, acc, acc);
      }
      body += fmt::format("    {}[x] {} {};\n", names_.field(out), sweep == 0 ? "=" : "+=", value);
    }
    return ringRowFunction(
        fmt::format("/// Sweep {}, planes scheme: output row (y, z) has all its input planes; "
                    "store it.\n",
                    sweep),
        fmt::format("sweep{}_finish", sweep), uses, outputs, accDecl, body,
        stagedSources(plan_.sweeps[sweep].stagedTables, "", 0));
  }

  std::string sweepDrivers(int sweep) const {
    std::string out;
    if (zPlanes_ > 1)
      out += fmt::format(
          R"(/// Sweep {0}: output rows (y, z0) to (y, z1 - 1), {1} planes per x loop where it can.
inline void sweep{0}_rows(const Args &args, const Tables &tables, const rt::Box &box, std::ptrdiff_t y,
                        std::ptrdiff_t z0, std::ptrdiff_t z1) {{
  std::ptrdiff_t z = z0;
  for (; z + {1} <= z1; z += {1})
    sweep{0}_rows{1}(args, tables, box, y, z);
  for (; z < z1; ++z)
    sweep{0}_row(args, tables, box, y, z);
}}

/// Sweep {0}, naive: OpenMP over z and y, SIMD along x, {1} output planes per x loop.
void sweep{0}_naive(const Args &args, const Tables &tables, const rt::Box &box) {{
  constexpr std::ptrdiff_t kZ = {1};
  const std::ptrdiff_t z1 = box.z1;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::ptrdiff_t z = box.z0; z < z1; z += kZ)
    for (std::ptrdiff_t y = box.y0; y < box.y1; ++y)
      sweep{0}_rows(args, tables, box, y, z, std::min(z + kZ, z1));
}}

/// Sweep {0}, blocked: tiles of by rows x bz planes (x is never tiled), one tile per task.
void sweep{0}_blocked(const Args &args, const Tables &tables, const rt::Box &box, int by, int bz) {{
  constexpr std::ptrdiff_t kZ = {1};
  const rt::TileRange ys{{box.y0, box.y1, by}}, zs{{box.z0, box.z1, bz}};
#pragma omp parallel for collapse(2) schedule(static)
  for (int tz = 0; tz < zs.count(); ++tz)
    for (int ty = 0; ty < ys.count(); ++ty)
      for (std::ptrdiff_t z = zs.begin(tz); z < zs.end(tz); z += kZ)
        for (std::ptrdiff_t y = ys.begin(ty); y < ys.end(ty); ++y)
          sweep{0}_rows(args, tables, box, y, z, std::min<std::ptrdiff_t>(z + kZ, zs.end(tz)));
}}

)",
          sweep, zPlanes_);
    else
      out += fmt::format(R"(/// Sweep {0}, naive: OpenMP over z and y, SIMD along x.
void sweep{0}_naive(const Args &args, const Tables &tables, const rt::Box &box) {{
#pragma omp parallel for collapse(2) schedule(static)
  for (std::ptrdiff_t z = box.z0; z < box.z1; ++z)
    for (std::ptrdiff_t y = box.y0; y < box.y1; ++y)
      sweep{0}_row(args, tables, box, y, z);
}}

/// Sweep {0}, blocked: tiles of by rows x bz planes (x is never tiled), one tile per task.
void sweep{0}_blocked(const Args &args, const Tables &tables, const rt::Box &box, int by, int bz) {{
  const rt::TileRange ys{{box.y0, box.y1, by}}, zs{{box.z0, box.z1, bz}};
#pragma omp parallel for collapse(2) schedule(static)
  for (int tz = 0; tz < zs.count(); ++tz)
    for (int ty = 0; ty < ys.count(); ++ty)
      for (std::ptrdiff_t z = zs.begin(tz); z < zs.end(tz); ++z)
        for (std::ptrdiff_t y = ys.begin(ty); y < ys.end(ty); ++y)
          sweep{0}_row(args, tables, box, y, z);
}}

)",
                         sweep);
    const CpuSweepPlan &plan = plan_.sweeps[sweep];
    const std::vector<int> &planes = plan.accumulatedPlanes;
    const int outputs = plan.accumulatingOutputs();
    if (!plan.accumulates()) {
      // Nothing to accumulate (e.g. a sweep of centre-only groups): store directly.
      out += fmt::format(
          R"(/// Sweep {0}, planes: nothing spans planes in this sweep; stores row by row.
void sweep{0}_planes(const Args &args, const Tables &tables, const rt::Box &box, int by, int bz) {{
  sweep{0}_blocked(args, tables, box, by, bz);
}}

)",
          sweep);
      return out;
    }
    int dzMin = planes.front(), dzMax = planes.back();
    const std::vector<StagedTable> &ring = plan.stagedTables;
    const std::string coefArg = ring.empty() ? "" : ", coefSlot(zo, y)";
    std::string calls, dzList;
    for (int dz : planes)
      dzList += (dzList.empty() ? "" : ", ") + std::to_string(dz);
    const bool scatter = planes.size() > 1;
    if (!ring.empty())
      calls +=
          fmt::format("          if (const std::ptrdiff_t zo = zi - kDzMin; zo >= z0 && zo < z1)\n"
                      "            sweep{}_stage(args, tables, coefSlot(zo, y), box, y, zo);\n",
                      sweep);
    if (scatter)
      calls +=
          fmt::format("          if (allInTile) {{\n"
                      "            sweep{}_scatter(args, tables, scatterSlots(zi, y){}, box, y, "
                      "zi);\n            continue;\n          }}\n",
                      sweep, ring.empty() ? "" : ", scatterCoefs(zi, y)");
    for (int dz : planes)
      calls +=
          fmt::format("          if (const std::ptrdiff_t zo = zi - ({}); zo >= z0 && zo < z1)\n"
                      "            sweep{}_plane_{}(args, tables, slot(zo, y){}, box, y, zo);\n",
                      dz, sweep, planeSuffix(dz), coefArg);
    std::string ringDecl, ringSlot, finishCoefs;
    if (!ring.empty()) {
      int rows = 0;
      for (const StagedTable &r : ring)
        rows = std::max(rows, r.endRow);
      ringDecl = fmt::format(
          "    // The staged coefficients of the same rows: [table][ring plane][row in tile][x / "
          "kW]"
          "[row][lane].\n"
          "    constexpr int kTables = {0}, kStagedRows = {1};\n"
          "    rt::AlignedBuffer<Real> coefRing(std::size_t(kTables) * kRing * by * accLine * "
          "kStagedRows);\n"
          "    Real *coefs[kTables];\n",
          ring.size(), rows);
      ringSlot = "        auto coefSlot = [&](std::ptrdiff_t zo, std::ptrdiff_t y) {\n"
                 "          for (int c = 0; c < kTables; ++c)\n"
                 "            coefs[c] = coefRing.data() +\n"
                 "                       ((c * kRing + zo % kRing) * by + (y - y0)) * accLine * "
                 "kStagedRows;\n"
                 "          return coefs;\n"
                 "        };\n";
      finishCoefs = ", coefSlot(zdone, y)";
    }
    std::string scatterDecl, scatterSlots, allInTile;
    if (scatter) {
      scatterDecl =
          fmt::format("    // The plane offsets with points; input row (y, zi) adds to output o's "
                      "partial sums\n"
                      "    // of row (y, zi - kDz[i]) through scatterAcc[i * kOutputs + o].\n"
                      "    constexpr int kDz[] = {{{}}}, kDzCount = {};\n"
                      "    Real *scatterAcc[kDzCount * kOutputs];\n",
                      dzList, planes.size());
      if (!ring.empty())
        scatterDecl += "    const Real *scatterCoef[kDzCount * kTables];\n";
      scatterSlots = "        auto scatterSlots = [&](std::ptrdiff_t zi, std::ptrdiff_t y) {\n"
                     "          for (int i = 0; i < kDzCount; ++i)\n"
                     "            std::copy_n(slot(zi - kDz[i], y), kOutputs, scatterAcc + i * "
                     "kOutputs);\n"
                     "          return scatterAcc;\n"
                     "        };\n";
      if (!ring.empty())
        scatterSlots += "        auto scatterCoefs = [&](std::ptrdiff_t zi, std::ptrdiff_t y) {\n"
                        "          for (int i = 0; i < kDzCount; ++i)\n"
                        "            std::copy_n(coefSlot(zi - kDz[i], y), kTables, scatterCoef + "
                        "i * kTables);\n"
                        "          return scatterCoef;\n"
                        "        };\n";
      allInTile = "          // Away from the tile's z edges every output row that input plane zi "
                  "touches is in\n"
                  "          // the tile: one fused x loop adds them all.\n"
                  "          const bool allInTile = zi - kDzMax >= z0 && zi - kDzMin < z1;\n";
    }
    out += fmt::format(
        R"(/// Sweep {0}, planes: each thread marches z through a tile of by rows x bz planes. Input
/// plane zi is read once: its points at plane offset dz go into the partial sums of output
/// plane zi - dz, kept in a ring of kRing planes; output plane zi - kDzMax is then complete.
void sweep{0}_planes(const Args &args, const Tables &tables, const rt::Box &box, int by, int bz) {{
  constexpr int kDzMin = {1}, kDzMax = {2}, kRing = kDzMax - kDzMin + 1;
  constexpr int kOutputs = {3}; // outputs with partial sums in this sweep
  const rt::TileRange ys{{box.y0, box.y1, by}}, zs{{box.z0, box.z1, bz}};
  const std::ptrdiff_t accLine = (std::ptrdiff_t(args.extent.nx) + 15) / 16 * 16;
#pragma omp parallel
  {{
    // This thread's partial sums: [output][ring plane][row in tile][x], zeroed once and
    // re-zeroed by the finish step as each plane is stored.
    rt::AlignedBuffer<Real> ring(std::size_t(kOutputs) * kRing * by * accLine);
    std::fill(ring.data(), ring.data() + ring.size(), Real(0));
    Real *acc[kOutputs];
{5}{8}#pragma omp for collapse(2) schedule(static)
    for (int tz = 0; tz < zs.count(); ++tz)
      for (int ty = 0; ty < ys.count(); ++ty) {{
        const std::ptrdiff_t y0 = ys.begin(ty), y1 = ys.end(ty), z0 = zs.begin(tz), z1 = zs.end(tz);
        auto slot = [&](std::ptrdiff_t zo, std::ptrdiff_t y) {{
          for (int o = 0; o < kOutputs; ++o)
            acc[o] = ring.data() + ((o * kRing + zo % kRing) * by + (y - y0)) * accLine;
          return acc;
        }};
{6}{9}        for (std::ptrdiff_t zi = z0 + kDzMin; zi < z1 + kDzMax; ++zi) {{
{10}          for (std::ptrdiff_t y = y0; y < y1; ++y) {{
{4}          }}
          if (const std::ptrdiff_t zdone = zi - kDzMax; zdone >= z0 && zdone < z1)
            for (std::ptrdiff_t y = y0; y < y1; ++y)
              sweep{0}_finish(args, tables, slot(zdone, y){7}, box, y, zdone);
        }}
      }}
  }}
}}

)",
        sweep, dzMin, dzMax, outputs, indentBody(calls), ringDecl, ringSlot, finishCoefs,
        scatterDecl, scatterSlots, allInTile);
    return out;
  }

  std::string sweeps() const {
    std::string out;
    for (size_t sweep = 0; sweep < decomposition_.sweeps.size(); ++sweep) {
      out += sweepBanner(int(sweep), decomposition_.sweeps[sweep].reason);
      const CpuSweepPlan &plan = plan_.sweeps[sweep];
      out += naiveRow(int(sweep), 1);
      if (zPlanes_ > 1)
        out += naiveRow(int(sweep), zPlanes_);
      if (plan.accumulates())
        for (int dz : plan.accumulatedPlanes)
          out += planeAccumulate(int(sweep), dz);
      if (plan.accumulates() && plan.accumulatedPlanes.size() > 1)
        out += planeScatter(int(sweep));
      if (plan.accumulates()) {
        if (!plan.stagedTables.empty())
          out += planeStage(int(sweep));
        out += planeFinish(int(sweep));
      }
      out += sweepDrivers(int(sweep));
    }
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Entry points
  //===--------------------------------------------------------------------===//

  std::string runBody() const {
    struct Case {
      const char *variant; ///< rt::Variant enumerator and function suffix
      const char *suffix;
      int blockY, blockZ; ///< default tiles, or 0 for untiled
    };
    const Case cases[] = {{"Naive", "naive", 0, 0},
                          {"Blocked", "blocked", plan_.blockedTile.y, plan_.blockedTile.z},
                          {"Planes", "planes", plan_.planesTile.y, plan_.planesTile.z}};
    // The partial sums and staged coefficients stay indexed by x in the whole
    // row, so a box needs no other change than the loop bounds.
    std::string out = fmt::format(
        "  const rt::Box box = rt::regionOf(\"{}\", a.extent, options.region);\n"
        "  if (box.empty())\n    return;\n"
        "  const int ny = box.y1 - box.y0, nz = box.z1 - box.z0;\n  switch (options.variant) {{\n",
        kernel_);
    for (const Case &c : cases) {
      out += fmt::format("  case rt::Variant::{}: {{\n", c.variant);
      if (c.blockY)
        out += fmt::format("    const int by = rt::chooseBlock(options.blockY, {}, ny);\n"
                           "    const int bz = rt::chooseBlock(options.blockZ, {}, nz);\n",
                           c.blockY, c.blockZ);
      for (size_t sweep = 0; sweep < decomposition_.sweeps.size(); ++sweep)
        out += fmt::format("    sweep{}_{}(a, t, box{});\n", sweep, c.suffix,
                           c.blockY ? ", by, bz" : "");
      out += "    return;\n  }\n";
    }
    out += "  }\n";
    out += fmt::format("  throw rt::KernelError(\"{}: unknown variant\");\n", kernel_);
    return out;
  }

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const Decomposition &decomposition_;
  const CpuSchedule &plan_;
  KernelNames names_;
  std::string kernel_;
  int zPlanes_; ///< output planes per x loop in naive and blocked
  std::string source_;
};

} // namespace

std::vector<GeneratedFile> emitCpuKernel(const CompiledStencil &compiled,
                                         const CpuEmitOptions &options) {
  return CpuEmitter(compiled, options).emit();
}

} // namespace stencilc::backend
