//===- CpuEmitter.cpp - C++/OpenMP-SIMD kernels from the kernel IR --------===//
//
// Prints the CPU kernel IR (kernel/LowerCpu.cpp says what each variant does)
// through the shared walker: row functions become inline functions whose x
// loop runs whole blocks of kW points on vectors where the body allows
// (their table coefficients transposed into registers, a row's x neighbours
// cut from whole vectors) and is an `omp simd` loop elsewhere, drivers become
// OpenMP loops over the box or its tiles. This file says only how C++ spells
// them.
//
//===----------------------------------------------------------------------===//
#include "backends/cpu/CpuEmitter.h"

#include "backends/CExpr.h"
#include "backends/GroupSums.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "backends/KernelWalker.h"
#include "backends/cpu/BodyUses.h"
#include "backends/cpu/CpuRunEntry.h"
#include "ir/Printer.h"
#include "ir/linear/LinearFormPrinter.h"
#include "kernel/KernelIR.h"
#include "support/Template.h"

#include <algorithm>
#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

namespace stencilc::backend {

namespace {

using ir::FieldRole;
using ir::Offset;

using cpu_printer::BodyUses;
using cpu_printer::stagedRows;

/// Prints one sweep's CPU functions from the kernel IR.
class CppPrinter : public KernelWalker {
public:
  CppPrinter(const ir::Stencil &s, const LinearStencil &linear, const KernelNames &names,
             const kernel::SweepKernels &sweep)
      : KernelWalker(s, linear, names), sweep_(sweep) {}

  std::string function(const kernel::Function &f) {
    fn_ = &f;
    switch (f.kind) {
    case kernel::FunctionKind::Row: return rowFunction(f);
    case kernel::FunctionKind::Stage: return stageFunction(f);
    case kernel::FunctionKind::Driver: return driverFunction(f);
    case kernel::FunctionKind::Device: break;
    }
    throw std::logic_error("a CUDA kernel in a CPU module");
  }

private:
  //===--------------------------------------------------------------------===//
  // Row functions: one x loop
  //===--------------------------------------------------------------------===//

  /// The x loop of one row (or of f.outputPlanes rows). Table coefficients are
  /// staged kW points at a time (rt::loadColumns) so the vector loop reads
  /// them as whole vectors instead of gathering them.
  std::string rowFunction(const kernel::Function &f) {
    const Node &xLoop = f.body.front();
    uses_.emplace(s_, names_);
    accDecl_.clear();
    std::vector<const Node *> staging, staged;
    std::vector<Node> statements;
    std::set<int> outputs;
    for (const Node &n : xLoop.body) {
      if (n.kind == kernel::NodeKind::StageRows)
        staging.push_back(&n);
      else if (n.kind == kernel::NodeKind::StagedRows)
        staged.push_back(&n);
      else
        statements.push_back(n);
      if (n.kind == kernel::NodeKind::Store) {
        outputs.insert(linear_.updates[n.update].output);
        uses_->addField(linear_.updates[n.update].output);
      }
    }
    const std::string body = walk(statements, "    ");
    BodyUses &uses = *uses_;

    std::string params;
    if (f.params.partialSums)
      params += " Real *const *acc,";
    if (f.params.stagedRows) {
      const bool reads = std::any_of(staged.begin(), staged.end(), [&](const Node *n) {
        return uses.readsStaged(stagedName(*n));
      });
      params += fmt::format(" {}const Real *const *coefs,", reads ? "" : "[[maybe_unused]] ");
    }
    std::string out = docComment(f.note);
    out += fmt::format(
        "inline void {}([[maybe_unused]] const Args &args, [[maybe_unused]] const "
        "Tables &tables,{} const rt::Box &box, std::ptrdiff_t y, std::ptrdiff_t z) {{\n",
        f.name, params);
    out += "  const std::ptrdiff_t xBegin = box.x0, xEnd = box.x1;\n";
    out += uses.prologue(outputs, /*stagedTables=*/f.params.stagedRows);
    out += accDecl_;
    // Whole blocks of kW points on rt::Vec values where the lowering says so
    // (kernel/VectorBlocks.cpp); the last, partial block is a point loop, its
    // coefficients staged in memory.
    const bool wholeBlocks = f.wholeBlocks();
    if (!uses.usesTables() && !wholeBlocks) {
      out += "#pragma omp simd\n  for (std::ptrdiff_t x = xBegin; x < xEnd; ++x) {\n";
      out += body;
      out += "  }\n}\n\n";
      return out;
    }
    out += uses.usesTables()
               ? "  constexpr int kW = rt::kSimdLanes<Real>; // points per staged block\n"
               : "  constexpr int kW = rt::kSimdLanes<Real>; // points per block\n";
    // Where a block's coefficients come from: staged once per output row by
    // the sweep's stage function (planes), or staged here for each block.
    std::string blockSetup;
    for (const Node *n : staged) {
      const std::string name = stagedName(*n);
      if (!uses.readsStaged(name))
        continue;
      out += fmt::format("  const Real *{}_row = coefs[{}]; // staged: [(x0 - xBegin) * {} + r * "
                         "kW + l]\n",
                         name, n->slot, n->endRow);
      blockSetup +=
          fmt::format("    const Real *{0} = {0}_row + (x0 - xBegin) * {1};\n", name, n->endRow);
    }
    std::set<std::pair<int, int>> declared;
    std::string stagingDecl;
    for (const Node *n : staging) {
      const std::string column = names_.tableColumn(n->table, n->index);
      const int rows = stagedRows(s_.tables[n->table]);
      if (declared.insert({n->table, n->index}).second)
        stagingDecl +=
            f.outputPlanes == 1
                ? fmt::format("alignas(64) Real {}[{} * kW]; // coefficient r of point x0 + "
                              "l at [r * kW + l]\n",
                              column, rows)
                : fmt::format("// Coefficient r of point (x0 + l, y, z + k) at [({} * k + r) "
                              "* kW + l].\nalignas(64) Real {}[{} * {} * kW];\n",
                              rows, column, f.outputPlanes, rows);
      const int k = n->planeShift;
      blockSetup +=
          fmt::format("    rt::loadColumns<kW>(tables.{}, {} + x0{}, n, {}, {}, {}{});\n",
                      names_.table(n->table), names_.field(n->index),
                      k == 0   ? ""
                      : k == 1 ? " + " + names_.plane(n->index)
                               : fmt::format(" + {} * {}", k, names_.plane(n->index)),
                      n->beginRow, n->endRow, column, k ? fmt::format(" + {} * kW", k * rows) : "");
    }
    // A plain loop over the block: a per-point lambda here stops GCC from
    // keeping the row pointers in registers, and the loop then reloads them at
    // every point (docs/PERFORMANCE.md §What bounds each variant).
    const std::string pointLoop = "#pragma omp simd\n"
                                  "    for (int l = 0; l < n; ++l) {\n"
                                  "      const std::ptrdiff_t x = x0 + l;\n" +
                                  indentLines(body, "  ") + "    }\n";
    if (!wholeBlocks) {
      out += indentLines(stagingDecl, "  ");
      out += "  for (std::ptrdiff_t x0 = xBegin; x0 < xEnd; x0 += kW) {\n"
             "    const int n = int(std::min<std::ptrdiff_t>(kW, xEnd - x0));\n";
      out += blockSetup + pointLoop + "  }\n}\n\n";
      return out;
    }
    out += "  std::ptrdiff_t x0 = xBegin;\n"
           "  for (; x0 + kW <= xEnd; x0 += kW) {\n"
           "    const std::ptrdiff_t x = x0;\n";
    out += vectorBlock(f, staging, statements);
    out += "  }\n"
           "  if (x0 < xEnd) { // the last block, shorter than kW\n"
           "    const int n = int(xEnd - x0);\n";
    out += indentLines(stagingDecl, "    ") + blockSetup + pointLoop + "  }\n}\n\n";
    return out;
  }

  /// The body of a whole block of kW points on rt::Vec values: each staged
  /// table column transposed into registers, then the statements.
  std::string vectorBlock(const kernel::Function &f, const std::vector<const Node *> &staging,
                          const std::vector<Node> &statements) {
    std::map<std::pair<int, int>, int> columnRows;
    for (const Node *n : staging)
      columnRows[{n->table, n->index}] = std::max(columnRows[{n->table, n->index}], n->endRow);
    std::string out;
    for (auto [column, rows] : columnRows)
      out += fmt::format("    rt::Vec<Real> {}[{}]; // coefficient r of points x .. x + kW - 1\n",
                         names_.tableColumn(column.first, column.second), rows);
    for (const Node *n : staging)
      out += fmt::format("    rt::transposeColumns<kW>(tables.{}, {} + x, {}, {}, {}{});\n",
                         names_.table(n->table), names_.field(n->index), n->beginRow, n->endRow,
                         names_.tableColumn(n->table, n->index),
                         n->beginRow ? fmt::format(" + {}", n->beginRow) : "");
    if (!f.shiftedRows.empty())
      out += "    // rt::shifted<d, below, above>(p): the values at p + d .. p + d + kW - 1,\n"
             "    // cut from whole vectors that all x neighbours of the row share.\n";
    uses_->setVector(true, &f.shiftedRows);
    out += walk(statements, "    ");
    uses_->setVector(false);
    return out;
  }

  bool printingVector() const { return uses_ && uses_->vector(); }

  std::string valueType() const override { return printingVector() ? "rt::Vec<Real>" : "Real"; }

  std::string writeOutput(const Node &store, const std::string &value) override {
    if (!printingVector())
      return KernelWalker::writeOutput(store, value);
    uses_->setPlaneShift(store.planeShift);
    const std::string address =
        uses_->pointer(linear_.updates[store.update].output, Offset{0, 0, 0});
    return store.add ? fmt::format("rt::store({0}, rt::load({0}) + {1})", address, value)
                     : fmt::format("rt::store({}, {})", address, value);
  }

  /// The name a row function reads staged coefficients by: the column, with
  /// the output row's plane offset in the scatter.
  std::string stagedName(const Node &n) const {
    return names_.tableColumn(n.table, n.index) + rowSuffix(n);
  }

  static std::string rowSuffix(const Node &n) {
    return n.inputRow ? "_" + kernel::planeSuffixText(n.dz) : "";
  }

  /// Each non-empty line of `text` after `prefix`.
  static std::string indentLines(const std::string &text, const std::string &prefix) {
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end - start);
      out += (line.empty() ? "" : prefix) + line + "\n";
      start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
  }

  BodyReads reads(const Node &n) override {
    BodyUses &uses = *uses_;
    if (n.inputRow)
      uses.setScatterOutput(n.dz, rowSuffix(n));
    else
      uses.setPlaneShift(n.planeShift);
    BodyReads reads;
    reads.read = [&uses](int field, const Offset &o) { return uses.access(field, o); };
    reads.exprNames = uses.exprNames();
    reads.invariant = [&uses](const std::string &product) { return uses.invariant(product); };
    return reads;
  }

  std::string valueName(const Node &n) override {
    const int out = linear_.updates[n.update].output;
    switch (n.value) {
    case kernel::ValueName::Acc:
      return names_.acc(out) + (fn_->outputPlanes > 1 ? std::to_string(n.planeShift) : "");
    case kernel::ValueName::Sum: return names_.field(out) + "_sum" + rowSuffix(n);
    case kernel::ValueName::Value: return names_.acc(out) + "_value";
    }
    return "?";
  }

  std::string outputElement(const Node &n) override {
    uses_->setPlaneShift(n.planeShift);
    return uses_->access(linear_.updates[n.update].output, Offset{0, 0, 0});
  }

  /// A row's partial sums are `acc[slot]`, named after the output (and, in the
  /// scatter, the output row's plane offset).
  std::string partialSum(const Node &n) override {
    const int out = linear_.updates[n.update].output;
    const std::string name = names_.acc(out) + rowSuffix(n);
    if (declaredPartials_.insert(name).second)
      accDecl_ += n.inputRow ? fmt::format("  Real *{} = acc[{}]; // output row (y, z{:+})\n", name,
                                           n.slot, -n.dz)
                             : fmt::format("  Real *{} = acc[{}];\n", name, n.slot);
    return name + "[x]";
  }

  std::string consumedPartial(const Node &n, const std::string &indent) override {
    return fmt::format("{}{} = Real(0); // ready for plane z + ring size\n", indent, partialSum(n));
  }

  //===--------------------------------------------------------------------===//
  // Stage functions
  //===--------------------------------------------------------------------===//

  std::string stageFunction(const kernel::Function &f) const {
    std::string out = docComment(f.note);
    out += fmt::format("inline void {}([[maybe_unused]] const Args &args, const Tables &tables, "
                       "Real *const *coefs, const rt::Box &box, std::ptrdiff_t y, std::ptrdiff_t "
                       "z) {{\n  const std::ptrdiff_t xBegin = box.x0, xEnd = box.x1;\n",
                       f.name);
    const std::vector<Node> &stages = f.body.front().body;
    std::set<int> indexFields;
    for (const Node &n : stages)
      if (indexFields.insert(n.index).second)
        out += fmt::format("  const {} *{} = args.{}.row(y, z);\n",
                           fieldElementType(s_.fields[n.index]), names_.field(n.index),
                           names_.field(n.index));
    out += "  constexpr int kW = rt::kSimdLanes<Real>;\n"
           "  for (std::ptrdiff_t x0 = xBegin; x0 < xEnd; x0 += kW) {\n"
           "    const int n = int(std::min<std::ptrdiff_t>(kW, xEnd - x0));\n";
    for (const Node &n : stages)
      out += fmt::format("    rt::loadColumns<kW>(tables.{}, {} + x0, n, {}, {}, coefs[{}] + (x0 - "
                         "xBegin) * {});\n",
                         names_.table(n.table), names_.field(n.index), n.beginRow, n.endRow, n.slot,
                         n.endRow);
    out += "  }\n}\n\n";
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Drivers: OpenMP loops over the box or its tiles
  //===--------------------------------------------------------------------===//

  std::string driverFunction(const kernel::Function &f) {
    std::string out = docComment(f.note);
    if (f.params.zRange)
      out += fmt::format("inline void {}(const Args &args, const Tables &tables, const rt::Box "
                         "&box, std::ptrdiff_t y,\n{:{}}std::ptrdiff_t z0, std::ptrdiff_t z1) {{\n",
                         f.name, "", f.name.size() + 13);
    else
      out += fmt::format("void {}(const Args &args, const Tables &tables, const rt::Box &box{}) "
                         "{{\n",
                         f.name, f.params.tileSizes ? ", int bx, int by, int bz" : "");
    out += walk(f.body, "  ");
    out += "}\n\n";
    return out;
  }

  /// A loop bound: the box's, the tile's (y0, y1, z0, z1 of the tile loop) or
  /// the caller's z0, z1, plus the loop's shift.
  std::string bound(kernel::Span span, kernel::Var var, bool high, int shift) const {
    const char *axis = var == kernel::Var::Y ? "y" : "z";
    std::string base = span == kernel::Span::Box ? fmt::format("box.{}{}", axis, high ? 1 : 0)
                                                 : fmt::format("{}{}", axis, high ? 1 : 0);
    if (shift == 0)
      return base;
    // A march over the ring's plane offsets.
    if (fn_->ringOutputs && shift == (high ? fn_->ringDzMax : fn_->ringDzMin))
      return base + (high ? " + kDzMax" : " + kDzMin");
    return fmt::format("{} {} {}", base, shift < 0 ? '-' : '+', std::abs(shift));
  }

  std::string loop(const Node &n, const std::string &indent) override {
    if (n.kind == kernel::NodeKind::Tiles)
      return fn_->ringOutputs ? ringTiles(n, indent) : tiles(n, indent);
    const std::string var = kernel::varName(n.var);
    std::string out;
    if (n.schedule == kernel::Schedule::Threads && n.body.size() == 1 &&
        n.body.front().kind == kernel::NodeKind::Loop &&
        n.body.front().schedule == kernel::Schedule::Threads)
      out += "#pragma omp parallel for collapse(2) schedule(static)\n";
    const std::string step = n.step == 1 ? "++" + var : fmt::format("{} += {}", var, n.step);
    const std::string hi = bound(n.span, n.var, true, n.high);
    if (n.span == kernel::Span::Range) {
      // The caller's planes: whole steps first, then the remainder one by one.
      if (!n.continues)
        out +=
            fmt::format("{}std::ptrdiff_t {} = {};\n", indent, var, bound(n.span, n.var, false, 0));
      return out + fmt::format("{}for (; {} < {}; {})\n", indent, var, hi, step) +
             walk(n.body, indent + "  ");
    }
    out += fmt::format("{}for (std::ptrdiff_t {} = {}; {} < {}; {})", indent, var,
                       bound(n.span, n.var, false, n.low), var, hi, step);
    if (n.body.size() == 1 && n.body.front().kind != kernel::NodeKind::Guard)
      return out + "\n" + walk(n.body, indent + "  ");
    return out + " {\n" + walk(n.body, indent + "  ") + indent + "}\n";
  }

  /// The tile ranges along x, y and z, and the loops over them (x innermost,
  /// so that consecutive tiles of a thread share their y and z neighbours).
  static std::string tileRanges(const std::string &indent) {
    return indent + "const rt::TileRange xs{box.x0, box.x1, bx}, ys{box.y0, box.y1, by}, "
                    "zs{box.z0, box.z1, bz};\n";
  }
  static std::string tileLoops(const std::string &indent) {
    return fmt::format("{0}for (int tz = 0; tz < zs.count(); ++tz)\n"
                       "{0}  for (int ty = 0; ty < ys.count(); ++ty)\n"
                       "{0}    for (int tx = 0; tx < xs.count(); ++tx) {{\n"
                       "{0}      const std::ptrdiff_t y0 = ys.begin(ty), y1 = ys.end(ty), "
                       "z0 = zs.begin(tz), z1 = zs.end(tz);\n"
                       "{0}      const rt::Box tile{{xs.begin(tx), int(y0), int(z0), xs.end(tx), "
                       "int(y1), int(z1)}};\n",
                       indent);
  }

  /// blocked: one tile per task.
  std::string tiles(const Node &n, const std::string &indent) {
    std::string out = tileRanges(indent);
    out += "#pragma omp parallel for collapse(3) schedule(static)\n";
    out += tileLoops(indent);
    rowBox_ = "tile";
    out += walk(n.body, indent + "      ");
    rowBox_ = "box";
    out += indent + "    }\n";
    return out;
  }

  /// planes: each thread keeps the partial sums of a ring of output planes
  /// (and, with staged tables, their coefficients) for the tile it marches.
  std::string ringTiles(const Node &n, const std::string &indent) {
    const kernel::Function &f = *fn_;
    // What the march calls: the stage function, the fused scatter, and the
    // plane offsets of the per-plane functions (those the scatter adds in one go).
    const kernel::Function *stageFn = nullptr;
    bool scatter = false;
    std::set<int> planeOffsets;
    visitCalls(n.body, [&](const Node &call) {
      const kernel::Function *callee = sweep_.find(call.callee);
      if (callee->kind == kernel::FunctionKind::Stage)
        stageFn = callee;
      else if (call.inputRow)
        scatter = true;
      else if (call.row == kernel::Var::ZIn)
        planeOffsets.insert(call.dz);
    });
    std::string out = fmt::format("{0}constexpr int kDzMin = {1}, kDzMax = {2}, kRing = kDzMax - "
                                  "kDzMin + 1;\n"
                                  "{0}constexpr int kOutputs = {3}; // outputs with partial sums "
                                  "in this sweep\n",
                                  indent, f.ringDzMin, f.ringDzMax, f.ringOutputs);
    out += tileRanges(indent);
    out += indent + "const std::ptrdiff_t accLine = (std::ptrdiff_t(args.extent.nx) + 15) / 16 * "
                    "16;\n";
    out += "#pragma omp parallel\n" + indent + "{\n";
    const std::string in = indent + "  ";
    out += in +
           "// This thread's partial sums: [output][ring plane][row in tile][x], zeroed once "
           "and\n" +
           in + "// re-zeroed by the finish step as each plane is stored.\n";
    out += in + "rt::AlignedBuffer<Real> ring(std::size_t(kOutputs) * kRing * by * accLine);\n";
    out += in + "std::fill(ring.data(), ring.data() + ring.size(), Real(0));\n";
    out += in + "Real *acc[kOutputs];\n";
    if (stageFn) {
      int rows = 0;
      for (const Node &s : stageFn->body.front().body)
        rows = std::max(rows, s.endRow);
      out += in + "// The staged coefficients of the same rows: [table][ring plane][row in "
                  "tile][x / kW][row][lane].\n";
      out += fmt::format("{}constexpr int kTables = {}, kStagedRows = {};\n", in,
                         stageFn->body.front().body.size(), rows);
      out += in + "rt::AlignedBuffer<Real> coefRing(std::size_t(kTables) * kRing * by * accLine * "
                  "kStagedRows);\n";
      out += in + "Real *coefs[kTables];\n";
    }
    if (scatter) {
      std::string dzList;
      const int count = int(planeOffsets.size());
      for (int dz : planeOffsets)
        dzList += (dzList.empty() ? "" : ", ") + std::to_string(dz);
      out += in +
             "// The plane offsets with points; input row (y, zi) adds to output o's partial "
             "sums\n" +
             in + "// of row (y, zi - kDz[i]) through scatterAcc[i * kOutputs + o].\n";
      out += fmt::format("{}constexpr int kDz[] = {{{}}}, kDzCount = {};\n", in, dzList, count);
      out += in + "Real *scatterAcc[kDzCount * kOutputs];\n";
      if (stageFn)
        out += in + "const Real *scatterCoef[kDzCount * kTables];\n";
    }
    out += "#pragma omp for collapse(3) schedule(static)\n";
    out += tileLoops(in);
    const std::string t = in + "      ";
    out += t + "auto slot = [&](std::ptrdiff_t zo, std::ptrdiff_t y) {\n" + t +
           "  for (int o = 0; o < kOutputs; ++o)\n" + t +
           "    acc[o] = ring.data() + ((o * kRing + zo % kRing) * by + (y - y0)) * accLine;\n" +
           t + "  return acc;\n" + t + "};\n";
    if (stageFn)
      out += t + "auto coefSlot = [&](std::ptrdiff_t zo, std::ptrdiff_t y) {\n" + t +
             "  for (int c = 0; c < kTables; ++c)\n" + t + "    coefs[c] = coefRing.data() +\n" +
             t +
             "               ((c * kRing + zo % kRing) * by + (y - y0)) * accLine * "
             "kStagedRows;\n" +
             t + "  return coefs;\n" + t + "};\n";
    if (scatter) {
      out += t + "auto scatterSlots = [&](std::ptrdiff_t zi, std::ptrdiff_t y) {\n" + t +
             "  for (int i = 0; i < kDzCount; ++i)\n" + t +
             "    std::copy_n(slot(zi - kDz[i], y), kOutputs, scatterAcc + i * kOutputs);\n" + t +
             "  return scatterAcc;\n" + t + "};\n";
      if (stageFn)
        out += t + "auto scatterCoefs = [&](std::ptrdiff_t zi, std::ptrdiff_t y) {\n" + t +
               "  for (int i = 0; i < kDzCount; ++i)\n" + t +
               "    std::copy_n(coefSlot(zi - kDz[i], y), kTables, scatterCoef + i * "
               "kTables);\n" +
               t + "  return scatterCoef;\n" + t + "};\n";
    }
    rowBox_ = "tile";
    out += walk(n.body, t);
    rowBox_ = "box";
    out += in + "    }\n" + indent + "}\n";
    return out;
  }

  template <typename Fn> static void visitCalls(const std::vector<Node> &body, Fn &&fn) {
    for (const Node &n : body) {
      if (n.kind == kernel::NodeKind::Call)
        fn(n);
      visitCalls(n.body, fn);
    }
  }

  std::string guard(const Node &n, const std::string &indent) override {
    std::string out;
    if (!n.note.empty())
      out += commentLines(n.note, indent + "// ");
    switch (n.guard) {
    case kernel::GuardKind::OutputInSpan:
      out += fmt::format("{}if (const std::ptrdiff_t zo = zi{}; zo >= z0 && zo < z1)\n", indent,
                         n.dz > 0   ? fmt::format(" - {}", n.dz)
                         : n.dz < 0 ? fmt::format(" + {}", -n.dz)
                                    : "");
      return out + walk(n.body, indent + "  ");
    case kernel::GuardKind::AllOutputsIn:
      out += fmt::format("{0}if (zi - kDzMax >= z0 && zi - kDzMin < z1) {{\n", indent);
      out += walk(n.body, indent + "  ");
      if (n.skipRest)
        out += indent + "  continue;\n";
      return out + indent + "}\n";
    case kernel::GuardKind::DoneInSpan:
      out += fmt::format("{}if (const std::ptrdiff_t zdone = zi - kDzMax; zdone >= z0 && zdone < "
                         "z1)\n",
                         indent);
      return out + walk(n.body, indent + "  ");
    case kernel::GuardKind::Active: break;
    case kernel::GuardKind::FirstPlane:
    case kernel::GuardKind::NextInSpan: throw std::logic_error("CPU kernels copy no planes ahead");
    }
    throw std::logic_error("CPU loops never run past the box");
  }

  /// A call of a function of the sweep, with the partial sums and staged rows
  /// of the row it works on.
  std::string call(const Node &n, const std::string &indent) override {
    const kernel::Function &callee = *sweep_.find(n.callee);
    const std::string z = n.inputRow                    ? "zi"
                          : n.row == kernel::Var::ZIn   ? "zo"
                          : n.row == kernel::Var::ZDone ? "zdone"
                                                        : "z";
    std::string args = "args, tables";
    if (callee.kind == kernel::FunctionKind::Stage)
      args += fmt::format(", coefSlot({}, y)", z);
    else if (n.inputRow)
      args += callee.params.stagedRows ? ", scatterSlots(zi, y), scatterCoefs(zi, y)"
                                       : ", scatterSlots(zi, y)";
    else if (callee.params.partialSums)
      args += callee.params.stagedRows ? fmt::format(", slot({0}, y), coefSlot({0}, y)", z)
                                       : fmt::format(", slot({}, y)", z);
    args += fmt::format(", {}, y, {}", rowBox_, z);
    if (callee.params.zRange)
      args += fmt::format(", std::min<std::ptrdiff_t>(z + {}, {})", n.step,
                          bound(n.guardSpan, kernel::Var::Z, true, 0));
    return fmt::format("{}{}({});\n", indent, n.callee, args);
  }

  const kernel::SweepKernels &sweep_;
  const kernel::Function *fn_ = nullptr;
  std::optional<BodyUses> uses_;
  std::string accDecl_;
  std::set<std::string> declaredPartials_;
  /// What the calls pass as the x range of their rows: the box, or inside the
  /// tile loops the tile.
  std::string rowBox_ = "box";
};

class CpuEmitter {
public:
  CpuEmitter(const CompiledStencil &c, const CpuEmitOptions &options)
      : s_(*c.stencil), linear_(c.linear), decomposition_(c.decomposition), plan_(c.sweepPlan.cpu),
        module_(c.cpuKernels), names_(s_),
        kernel_(options.kernelName.empty() ? s_.name : options.kernelName),
        source_(options.sourcePath.empty() ? s_.name + ".stencil" : options.sourcePath) {
    if (module_.target != kernel::Target::Cpu || module_.sweeps.size() != plan_.sweeps.size())
      throw std::logic_error("the CPU kernels of '" + s_.name +
                             "' were not lowered (the pipeline's lower-cpu pass)");
  }

  std::vector<GeneratedFile> emit() {
    TemplateValues common = {
        {"SOURCE", source_}, {"DESCRIPTION", description()}, {"KERNEL", kernel_}};
    TemplateValues header = abiHeaderValues(s_, names_, common);
    header["RUN_DEFAULTS"] = cpuRunDefaultsText(module_.runDefaults);
    TemplateValues source =
        abiSourceValues(s_, linear_, names_, kernel_, int(decomposition_.sweeps.size()), 5, common);
    source["TABLE_MEMBERS"] = tableMembers();
    source["TABLE_INIT"] = tableInit();
    source["SWEEPS"] = sweeps();
    source["RUN_BODY"] = cpuRunBody(module_, plan_, kernel_);
    return {{kernel_ + ".h", renderTemplate(embeddedTemplate("cpu/kernel.h.tmpl"), header)},
            {kernel_ + ".cpp", renderTemplate(embeddedTemplate("cpu/kernel.cpp.tmpl"), source)}};
  }

private:
  std::string description() const {
    std::string d = stencilSummary(s_, linear_, decomposition_);
    d += ".\n// Variants (rt::RunOptions::variant): naive, blocked (tiles in y and z, in x if "
         "asked),\n// planes (partial-plane accumulation, one input plane at a time).\n";
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

  std::string sweeps() const {
    std::string out;
    for (const kernel::SweepKernels &sweep : module_.sweeps) {
      out += sweepBanner(sweep.sweep, decomposition_.sweeps[sweep.sweep].reason);
      for (const kernel::Function &f : sweep.functions)
        out += CppPrinter(s_, linear_, names_, sweep).function(f);
    }
    return out;
  }

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const Decomposition &decomposition_;
  const CpuSchedule &plan_;
  const kernel::KernelModule &module_;
  KernelNames names_;
  std::string kernel_;
  std::string source_;
};

} // namespace

std::vector<GeneratedFile> emitCpuKernel(const CompiledStencil &compiled,
                                         const CpuEmitOptions &options) {
  return CpuEmitter(compiled, options).emit();
}

} // namespace stencilc::backend
