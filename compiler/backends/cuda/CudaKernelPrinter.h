//===- CudaKernelPrinter.h - CUDA kernels from the kernel IR ---------------===//
//
// The walker that prints one sweep's __global__ kernels: point kernels (gmem,
// ro), marching kernels (traditional, planes) and the two-step kernel. Only
// CudaEmitter.cpp includes it; CudaEmitter.cpp adds the host launchers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/CExpr.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "backends/KernelWalker.h"
#include "backends/cuda/PointReads.h"
#include "ir/Printer.h"
#include "kernel/KernelIR.h"
#include "passes/Pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stencilc::backend::cuda_printer {

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

/// Calls `fn` on every node of `body`, depth first.
template <typename Fn> void visit(const std::vector<kernel::Node> &body, Fn &&fn) {
  for (const kernel::Node &n : body) {
    fn(n);
    visit(n.body, fn);
  }
}

/// Prints the CUDA kernels of the kernel IR. A point block (the statements
/// that compute one output point) declares the pointers its reads use before it.
class CudaPrinter : public KernelWalker {
public:
  using KernelWalker::KernelWalker;

  std::string function(const kernel::Function &f) {
    fn_ = &f;
    rows_ = false;
    tiles_.clear();
    visit(f.body, [&](const Node &n) {
      if (n.kind == kernel::NodeKind::StageTile)
        tiles_.insert(n.field);
    });
    rings_ = kernel::ringFields(s_, linear_, f);
    const Node &top = f.body.back();
    if (f.steps > 1)
      return twoStepKernel(f);
    return top.schedule == kernel::Schedule::Threads ? pointKernel(f) : marchingKernel(f);
  }

private:
  std::string pointKernel(const kernel::Function &f) {
    const Node *point = &f.body.front();
    while (!point->body.empty() && point->body.front().kind == kernel::NodeKind::Loop)
      point = &point->body.front();
    std::string out = docComment(f.note);
    out +=
        fmt::format(R"(__global__ void __launch_bounds__(kMaxThreadsPerBlock) {0}(const Args args,
{1:{2}}const rt::Box box) {{
  // The launch grid covers the box: thread (0, 0) of block (0, 0, 0) is its first point.
  const int x = box.x0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = box.z0 + int(blockIdx.z);
  if (x >= box.x1 || y >= box.y1)
    return;
)",
                    f.name, "", f.name.size() + 56);
    out += pointBlock(point->body, "z", "x", "y", "  ");
    return out + "}\n\n";
  }

  std::string marchingKernel(const kernel::Function &f) {
    const bool ring = f.ringOutputs > 0;
    std::string out = docComment(f.note);
    rows_ = f.params.rowsPerThread;
    out += fmt::format("template <bool kStageAuto{5}>\n__global__ void "
                       "__launch_bounds__(kMaxThreadsPerBlock) {0}(const Args args,\n"
                       "{1:{2}}const rt::Box box,\n{1:{2}}const int nw) {{\n"
                       "  STENCILC_DYNAMIC_SHARED(Real, shared);\n"
                       "  constexpr int kRx = {3}, kRy = {4}; // halo of the shared planes\n",
                       f.name, "", f.name.size() + 56, f.rx, f.ry, rows_ ? ", int kRows" : "");
    if (ring)
      out += fmt::format("  constexpr int kDzMin = {}, kDzMax = {}; // plane offsets of the "
                         "accumulated points\n",
                         f.ringDzMin, f.ringDzMax);
    out += rows_ ? "  // This thread's output rows: m.y, m.y + blockDim.y, ... (kRows of them, "
                   "m.rows in the "
                   "box).\n  const ZMarch m = zMarch(box, nw, kRx, kRy, kRows);\n"
                 : "  const ZMarch m = zMarch(box, nw, kRx, kRy);\n";
    std::string next = "shared", staging;
    out += stagedTableDeclarations(f, next, staging);
    for (int field : tiles_) {
      out += fmt::format(
          "  Real *const {} = {};{}\n", tileName(field), next,
          f.tileBuffers > 1 ? " // two buffers: planes z0, z0 + 2, ... and z0 + 1, ..." : "");
      next = tileName(field) + (f.tileBuffers > 1 ? fmt::format(" + {} * m.tileSize", f.tileBuffers)
                                                  : " + m.tileSize");
    }
    if (f.tileBuffers == 1) // else each step finds its plane's buffer (loop below)
      for (int field : tiles_)
        out += fmt::format("  const Real *const {} = {} + m.tileAt;\n", tileAt(field),
                           tileName(field));
    if (next == "shared")
      out += "  (void)shared; // no field is read off-centre on the current plane, no row staged\n";
    if (!staging.empty())
      out += "  // The first barrier of the march below also waits for these rows.\n" + staging;
    out += queueDeclarations(f);
    if (ring) {
      out += "  // Partial sums: entry k belongs to output plane zi - kDzMax + k.\n";
      for (int output : partialOutputs())
        out += fmt::format("  Real {}[kDzMax - kDzMin + 1] = {{}};\n", names_.acc(output));
    }
    for (const Node &n : f.body)
      if (n.kind == kernel::NodeKind::Loop)
        out += loop(n, "  ");
    return out + "}\n\n";
  }

  /// Two steps per launch: the rings of the first step's levels are the block's
  /// shared memory; the march (loop below) fills and reads them.
  std::string twoStepKernel(const kernel::Function &f) {
    std::string out = docComment(f.note);
    out +=
        fmt::format("__global__ void __launch_bounds__(kMaxThreadsPerBlock) {0}(const Args args,\n"
                    "{1:{2}}const Args next,\n{1:{2}}const rt::Box box,\n"
                    "{1:{2}}const int nw,\n{1:{2}}const FirstStepAdd *const adds,\n"
                    "{1:{2}}const int addCount) {{\n"
                    "  STENCILC_DYNAMIC_SHARED(Real, shared);\n"
                    "  // How far the second step reads the levels the first computes.\n"
                    "  constexpr int kRx = {3}, kRy = {4}, kRz = {5};\n"
                    "  const ZMarch m = zMarch(box, nw, kRx, kRy);\n",
                    f.name, "", f.name.size() + 56, f.rx, f.ry, f.rz);
    std::string next = "shared";
    for (int field : rings_) {
      out += fmt::format("  Real *const {} = {}; // {}'s next level: 2 kRz + 1 planes\n",
                         ringName(field), next, s_.fields[field].name);
      next = ringName(field) + " + (2 * kRz + 1) * m.tileSize";
    }
    for (const Node &n : f.body)
      if (n.kind == kernel::NodeKind::Loop)
        out += loop(n, "  ");
    return out + "}\n\n";
  }

  std::string ringName(int field) const { return names_.field(field) + "_ring"; }
  std::string ringPlaneName(int field) const { return names_.field(field) + "_ring_plane"; }
  std::string ringAt(int field, int dz) const {
    return fmt::format("{}_at_{}", names_.field(field), offsetSuffix(dz));
  }

  /// The first step at each point of the block's widened columns on plane zi.
  std::string widenedLoop(const Node &n, const std::string &indent) {
    const Node &x = n.body.front();
    const std::string in = indent + "  ";
    std::string out = indent +
                      "// The first step at every point of the block's columns widened by "
                      "kRx, kRy, shared out\n" +
                      indent + "// among the threads as loadTile shares out a plane.\n";
    for (int field : rings_)
      out += fmt::format("{}Real *const {} = {} + ringSlot<kRz>(zi) * m.tileSize;\n", indent,
                         ringPlaneName(field), ringName(field));
    out += indent + "for (int i = int(threadIdx.y * blockDim.x + threadIdx.x); i < m.tileSize;\n" +
           indent + "     i += int(blockDim.x * blockDim.y)) {\n";
    out += in + "const int x = m.x0 - kRx + i % m.tileW, y = m.y0 - kRy + i / m.tileW;\n";
    out += in + "if (x >= box.x1 + kRx || y >= box.y1 + kRy)\n" + in +
           "  continue; // past the widened box: nothing in the block reads it\n";
    out += in + "if (!insideExtent(args.extent, x, y, zi)) {\n" + in +
           "  // The boundary: each level's storage holds it, as a single step leaves it.\n";
    for (int field : rings_) {
      const int output = kernel::outputAdvancing(s_, field);
      out += fmt::format("{}  {}[i] = args.{}.origin[at(args.{}, x, y, zi)];\n", in,
                         ringPlaneName(field), names_.field(output), names_.field(output));
    }
    out += in + "  continue;\n" + in + "}\n";
    out += in + "const bool own = zi >= m.z0 && zi < m.z1 && ownColumn(m, x, y, box);\n";
    out += pointBlock(x.body, "zi", "x", "y", in);
    return out + indent + "}\n";
  }

  /// A first-step value: its adds (sources), into the ring, and to memory at the block's own
  /// points.
  std::string ringStore(const Node &n, const std::string &indent) {
    const int output = linear_.updates[n.update].output;
    const std::string value = valueName(n);
    return fmt::format("{0}{1} = withAdds({1}, adds, addCount, {2}, x, y, zi);\n"
                       "{0}{3}[i] = {1};\n"
                       "{0}if (own)\n{0}  {4} = {1};\n",
                       indent, value, output, ringPlaneName(s_.fields[output].advances),
                       outputElement(n));
  }

  std::string statement(const Node &n, const std::string &indent) override {
    if (n.kind == kernel::NodeKind::Store && n.ring)
      return ringStore(n, indent);
    return KernelWalker::statement(n, indent);
  }

  /// Outputs with partial sums, in update order.
  std::set<int> partialOutputs() const {
    std::set<int> outputs;
    visit(fn_->body, [&](const Node &n) {
      if (n.kind == kernel::NodeKind::Sum && n.target == kernel::SumTarget::Partial)
        outputs.insert(linear_.updates[n.update].output);
    });
    return outputs;
  }

  /// Shared memory at `next` onwards: each table's staged rows ([slot][column]);
  /// `next` moves past them and `staging` gets the statements that fill them.
  /// Rows the plan left to the backend are staged only with kStageAuto.
  std::string stagedTableDeclarations(const kernel::Function &f, std::string &next,
                                      std::string &staging) const {
    std::map<int, std::vector<const Node *>> shared, autos;
    for (const Node &n : f.body)
      if (n.kind == kernel::NodeKind::StageRows)
        (n.dest == kernel::StageDest::Shared ? shared : autos)[n.table].push_back(&n);
    std::string out;
    for (size_t t = 0; t < s_.tables.size(); ++t) {
      const int table = int(t);
      const std::vector<const Node *> fixed = shared[table], extra = autos[table];
      if (fixed.empty() && extra.empty())
        continue;
      std::string name = names_.table(table) + "_staged";
      out += fmt::format("  Real *const {} = {}; // rows of {}: {} always{}\n", name, next,
                         s_.tables[table].name, fixed.size(),
                         extra.empty() ? "" : fmt::format(", {} with kStageAuto", extra.size()));
      std::string rows = extra.empty() ? std::to_string(fixed.size())
                                       : fmt::format("(kStageAuto ? {} : {})",
                                                     fixed.size() + extra.size(), fixed.size());
      next = fmt::format("{} + {} * args.{}.cols", name, rows, names_.table(table));
      for (const Node *n : fixed)
        staging += fmt::format("  stageRow({}, {}, args.{}, {});\n", name, n->slot,
                               names_.table(table), n->beginRow);
      if (!extra.empty()) {
        staging += "  if (kStageAuto) {\n";
        for (const Node *n : extra)
          staging += fmt::format("    stageRow({}, {}, args.{}, {});\n", name, n->slot,
                                 names_.table(table), n->beginRow);
        staging += "  }\n";
      }
    }
    return out;
  }

  std::string queueDeclarations(const kernel::Function &f) const {
    if (f.queues.empty())
      return "";
    std::string queues, prime;
    const std::string in = rows_ ? "      " : "    ";
    for (const kernel::Queue &q : f.queues) {
      const int length = q.high - q.low + 1 + f.loadAhead;
      const std::string field = names_.field(q.field);
      const std::string type = fieldElementType(s_.fields[q.field]);
      queues +=
          fmt::format("  {} {}{}[{}] = {{}}; // column ({}, {}) of {}: planes z{:+} .. z{:+}\n",
                      type, queueName(q), rows_ ? "[kRows]" : "", length, q.dx, q.dy,
                      s_.fields[q.field].name, q.low, q.high + f.loadAhead);
      queues += fmt::format("  const {} *const {} = args.{}.origin + at(args.{}, m.x{}, m.y{}, "
                            "0);\n",
                            type, columnName(q), field, field, plusOffset(q.dx), plusOffset(q.dy));
      if (length > 1)
        prime += fmt::format(
            "{0}STENCILC_UNROLL\n{0}for (int k = 1; k < {1}; ++k)\n{0}  {2}[k] = {3};\n", in,
            length, queueEntry(q), queueLoad(q, fmt::format("m.z0{} + k - 1", plusOffset(q.low))));
    }
    std::string out = rows_
                          ? "  // Register queues: entry [r][k] holds row r's column at the plane "
                            "given first, plus k.\n"
                          : "  // Register queues: entry k of a column holds the plane given "
                            "first, plus k.\n";
    out += queues;
    if (prime.empty())
      return out;
    out += fmt::format("  if (m.active) {{ // all but the newest plane {}\n",
                       f.loadAhead > 0 ? "the first step loads" : "of the first output plane");
    if (rows_)
      prime = rowLoopHead("    ") + prime + "    }\n";
    return out + prime + "  }\n";
  }

  /// The unrolled loop over this thread's rows in the box (kRows of them at most), to its
  /// opening brace; the caller closes it.
  static std::string rowLoopHead(const std::string &indent) {
    return fmt::format("{0}STENCILC_UNROLL\n{0}for (int r = 0; r < kRows; ++r) {{\n"
                       "{0}  if (r == m.rows)\n{0}    break; // this thread's rows past the box\n",
                       indent);
  }

  /// Queue `q` of the row the code is in (a whole array per row with kRows).
  std::string queueEntry(const kernel::Queue &q) const {
    return rows_ ? queueName(q) + "[r]" : queueName(q);
  }

  /// The element of queue `q`'s column on plane `plane`: coefficients and indices through the
  /// read-only cache where the kernel reads them so.
  std::string queueLoad(const kernel::Queue &q, const std::string &plane) const {
    const std::string field = names_.field(q.field);
    const std::string element =
        rows_ ? fmt::format("{}[({}) * args.{}.plane + rowOffset(args.{}, r)]", columnName(q),
                            plane, field, field)
              : fmt::format("{}[({}) * args.{}.plane]", columnName(q), plane, field);
    return fn_->readOnlyCoefficients && s_.fields[q.field].role != FieldRole::Time
               ? "__ldg(&" + element + ")"
               : element;
  }

  std::string queueName(const kernel::Queue &q) const {
    return fmt::format("{}_q_{}_{}", names_.field(q.field), offsetSuffix(q.dx), offsetSuffix(q.dy));
  }
  std::string columnName(const kernel::Queue &q) const {
    return fmt::format("{}_c_{}_{}", names_.field(q.field), offsetSuffix(q.dx), offsetSuffix(q.dy));
  }
  std::string tileName(int field) const { return names_.field(field) + "_tile"; }
  std::string tileAt(int field) const { return names_.field(field) + "_at"; }

  /// Where row r's point is in a shared plane, in the loop over a thread's rows.
  std::string tileRow(int field) const { return names_.field(field) + "_row"; }

  /// `f_at[dx + dy * m.tileW]`: a read from a shared plane at this thread's point (in the loop
  /// over its rows, at its row's).
  std::string tileRead(int field, const Offset &o) const {
    return offsetRead(rows_ ? tileRow(field) : tileAt(field), o);
  }

  /// `at[dx + dy * m.tileW]`: the point (dx, dy) from `at` in a shared plane.
  static std::string offsetRead(const std::string &at, const Offset &o) {
    std::string index;
    if (o[0])
      index = std::to_string(o[0]);
    if (o[1]) {
      std::string rows =
          std::abs(o[1]) == 1 ? "m.tileW" : fmt::format("{} * m.tileW", std::abs(o[1]));
      index += index.empty() ? (o[1] < 0 ? "-" : "") + rows : (o[1] < 0 ? " - " : " + ") + rows;
    }
    return fmt::format("{}[{}]", at, index.empty() ? "0" : index);
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  /// The march: a block's threads walk its planes in step, between barriers.
  std::string loop(const Node &n, const std::string &indent) override {
    if (n.span == kernel::Span::Widened)
      return widenedLoop(n, indent);
    march_ = kernel::varName(n.var);
    std::string out =
        n.var != kernel::Var::ZIn
            ? fmt::format("{0}for (int {1} = m.z0; {1} < m.z1; ++{1}) {{\n", indent, march_)
        : fn_->steps > 1 ? indent + "for (int zi = m.z0 - kRz; zi < m.z1 + kRz; ++zi) {\n"
                         : indent + "for (int zi = m.z0 + kDzMin; zi < m.z1 + kDzMax; ++zi) {\n";
    if (fn_->tileBuffers > 1)
      for (int field : tiles_)
        out += fmt::format("{}  const Real *const {} = {} + m.tileAt;\n", indent, tileAt(field),
                           tileBuffer(field, 0));
    for (size_t i = 0; i < n.body.size(); ++i) {
      const Node &child = n.body[i];
      // The last statement computes the point: threads outside the box skip to the next plane.
      if (i + 1 == n.body.size() && child.kind == kernel::NodeKind::Guard &&
          child.guard == kernel::GuardKind::Active) {
        out += indent + "  if (!m.active)\n" + indent + "    continue;\n";
        const bool sums = std::any_of(child.body.begin(), child.body.end(), [](const Node &c) {
          return c.kind == kernel::NodeKind::Sum;
        });
        if (sums && rows_) {
          const std::string in = indent + "    ";
          out += rowLoopHead(indent + "  ") + in + "const int y = m.y + r * int(blockDim.y);\n";
          for (int field : tiles_)
            out += fmt::format("{}const Real *const {} = {} + r * m.rowStep;\n", in, tileRow(field),
                               tileAt(field));
          out += pointBlock(child.body, march_, "m.x", "y", in) + indent + "  }\n";
          continue;
        }
        out += sums ? pointBlock(child.body, march_, "m.x", "m.y", indent + "  ")
                    : walk(child.body, indent + "  ");
        continue;
      }
      out += statement(child, indent + "  ");
    }
    return out + indent + "}\n";
  }

  std::string guard(const Node &n, const std::string &indent) override {
    std::string out;
    if (!n.note.empty())
      out += commentLines(n.note, indent + "// ");
    switch (n.guard) {
    case kernel::GuardKind::Active:
      return out + indent + "if (m.active) {\n" + walk(n.body, indent + "  ") + indent + "}\n";
    case kernel::GuardKind::FirstPlane:
      out +=
          fmt::format("{}if ({} == m.z0) {{ // the first plane, before the first step needs it\n",
                      indent, march_);
      return out + walk(n.body, indent + "  ") + indent + "}\n";
    case kernel::GuardKind::NextInSpan:
      out += fmt::format("{}if ({} + 1 < m.z1) {{ // the next plane, while this one computes\n",
                         indent, march_);
      return out + walk(n.body, indent + "  ") + indent + "}\n";
    case kernel::GuardKind::OutputInSpan:
      out += fmt::format("{}if (const int zo = {}{}; zo >= m.z0 && zo < m.z1) {{\n", indent, march_,
                         plusOffset(-n.dz));
      return out + pointBlock(n.body, "zo", "m.x", "m.y", indent + "  ") + indent + "}\n";
    case kernel::GuardKind::DoneInSpan:
      out += fmt::format("{}if (const int zo = {} - {}; zo >= m.z0) {{\n", indent, march_,
                         fn_->steps > 1 ? "kRz" : "kDzMax");
      return out + pointBlock(n.body, "zo", "m.x", "m.y", indent + "  ") + indent + "}\n";
    case kernel::GuardKind::AllOutputsIn: break;
    }
    throw std::logic_error("CUDA marches guard each output plane");
  }

  std::string barrier(const Node &n, const std::string &indent) override {
    return fmt::format("{}__syncthreads(); // {}\n", indent, n.note);
  }

  std::string stage(const Node &n, const std::string &indent) override {
    if (n.kind != kernel::NodeKind::StageTile)
      return KernelWalker::stage(n, indent); // table rows are staged before the march
    // <true>: 16-byte copies where the block's rows allow (Function::vectorTiles).
    const char *vectors = fn_->vectorTiles ? "true" : "false";
    if (fn_->tileBuffers > 1)
      return fmt::format("{}loadTileAsync<{}>({}, args.{}, {}{}, m, kRx, kRy, box);\n", indent,
                         vectors, tileBuffer(n.field, n.planeShift), names_.field(n.field), march_,
                         plusOffset(n.planeShift));
    return fmt::format("{}loadTile<{}>({}, args.{}, {}, m, kRx, kRy, box);\n", indent, vectors,
                       tileName(n.field), names_.field(n.field), march_);
  }

  std::string wait(const Node &, const std::string &indent) override {
    return indent + "waitTiles(); // this thread's copies of plane z have landed\n";
  }

  /// The buffer of `field`'s shared plane z + shift in a march with two buffers per plane.
  std::string tileBuffer(int field, int shift) const {
    return fmt::format("{} + (({}{} - m.z0) & 1) * m.tileSize", tileName(field), march_,
                       plusOffset(shift));
  }

  std::string shift(const Node &n, const std::string &indent) override {
    std::string out;
    if (n.kind == kernel::NodeKind::ShiftQueues) {
      const int ahead = fn_->loadAhead;
      if (ahead > 0)
        out += fmt::format("{}// The planes step {} + {} reads, in flight while this one computes "
                           "(none past the march).\n{}const bool {}Ahead = {} + {} < m.z1;\n",
                           indent, march_, ahead, indent, march_, march_, ahead);
      const std::string in = rows_ ? indent + "  " : indent;
      std::string shifts;
      for (const kernel::Queue &q : fn_->queues) {
        const std::string load = queueLoad(q, march_ + plusOffset(q.high + ahead));
        shifts += ahead > 0
                      ? fmt::format("{}shiftIn({}, {}Ahead ? {} : {}(0));\n", in, queueEntry(q),
                                    march_, load, fieldElementType(s_.fields[q.field]))
                      : fmt::format("{}shiftIn({}, {});\n", in, queueEntry(q), load);
      }
      return rows_ ? out + rowLoopHead(indent) + shifts + indent + "}\n" : out + shifts;
    }
    for (int output : partialOutputs())
      out += fmt::format("{}shiftIn({}, Real(0));\n", indent, names_.acc(output));
    return out;
  }

  /// The statements of one output point at (x, y, z), after the pointers they read through.
  std::string pointBlock(const std::vector<Node> &body, const std::string &z, const std::string &x,
                         const std::string &y, const std::string &indent) {
    const Node *first = nullptr;
    for (const Node &n : body)
      if (n.kind == kernel::NodeKind::Sum && !first)
        first = &n;
    scope_.emplace(s_, names_, readStyle(first));
    ringPlanes_.clear();
    std::string statements = walk(body, indent);
    std::string out = scope_->prologue(x, y, z, indent);
    for (const auto &[field, dz] : ringPlanes_)
      out += fmt::format("{}const Real *const {} = {} + ringSlot<kRz>({}{}) * m.tileSize + "
                         "m.tileAt;\n",
                         indent, ringAt(field, dz), ringName(field), z, plusOffset(dz));
    scope_.reset();
    return out + statements;
  }

  /// Where the reads of a point block come from: the function's coefficient
  /// path and table placement, and with on-chip sums the shared planes (the
  /// input plane of a planes march) and register queues.
  ReadStyle readStyle(const Node *sum) const {
    const kernel::Function &f = *fn_;
    ReadStyle style;
    style.readOnlyCoefficients = f.readOnlyCoefficients;
    style.restrictPointers = f.readOnlyCoefficients;
    style.rowPlacement = [&f](int table, int row) {
      auto it = f.placement.find({table, row});
      return it == f.placement.end() ? RowPlacement{f.tableSpace, -1} : it->second;
    };
    if (sum && sum->level > 0) {
      // A later step of the launch: the levels the step before computed come from its rings.
      style.args = "next";
      style.onChip = [this, &f](int field, const Offset &o) -> std::optional<std::string> {
        if (std::find(rings_.begin(), rings_.end(), field) == rings_.end())
          return std::nullopt;
        if (std::abs(o[0]) > f.rx || std::abs(o[1]) > f.ry || std::abs(o[2]) > f.rz)
          throw std::logic_error("a read past the rings' reach");
        ringPlanes_.insert({field, o[2]});
        return offsetRead(ringAt(field, o[2]), o);
      };
      return style;
    }
    if (!sum || !sum->onChip)
      return style;
    if (sum->hasDz) {
      style.onChip = [this](int field, const Offset &o) -> std::optional<std::string> {
        if (s_.fields[field].role != FieldRole::Time)
          return std::nullopt;
        return tileRead(field, o);
      };
      return style;
    }
    style.onChip = [this, &f](int field, const Offset &o) -> std::optional<std::string> {
      if (o[2] == 0 && tiles_.count(field))
        return tileRead(field, o);
      for (const kernel::Queue &q : f.queues)
        if (q.field == field && q.dx == o[0] && q.dy == o[1] && q.low <= o[2] && o[2] <= q.high)
          return fmt::format("{}[{}]", queueEntry(q), o[2] - q.low);
      return std::nullopt;
    };
    return style;
  }

  BodyReads reads(const Node &) override { return scope_->reads(); }

  std::string valueName(const Node &n) override {
    return names_.field(linear_.updates[n.update].output) + "_value";
  }

  std::string outputElement(const Node &n) override {
    return scope_->output(linear_.updates[n.update].output);
  }

  /// Entry k of an output's partial sums belongs to output plane zi - kDzMax + k.
  std::string partialSum(const Node &n) override {
    const std::string acc = names_.acc(linear_.updates[n.update].output);
    return n.target == kernel::SumTarget::Partial
               ? fmt::format("{}[{}]", acc, fn_->ringDzMax - n.dz)
               : acc + "[0]";
  }

  const kernel::Function *fn_ = nullptr;
  std::set<int> tiles_;
  std::vector<int> rings_; ///< time fields whose next level a ring holds
  mutable std::set<std::pair<int, int>>
      ringPlanes_; ///< (field, dz) a point block reads from a ring
  std::string march_ = "z";
  bool rows_ = false; ///< the function takes kRows (Function::rowCounts): loops over its rows
  std::optional<PointScope> scope_;
};

} // namespace stencilc::backend::cuda_printer
