//===- KernelPrinter.cpp - `stencilc dump-kernel` --------------------------===//
//
// One line per node, nested by two spaces, in words a reader can check
// against the generated code: which loop runs over which span and how it is
// shared out, which groups each sum adds and where it goes.
//
//===----------------------------------------------------------------------===//
#include "kernel/KernelIR.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace stencilc::kernel {

namespace {

std::string list(const std::vector<int> &values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "}";
}

std::string shifted(const std::string &bound, int shift) {
  return shift ? fmt::format("{} {} {}", bound, shift < 0 ? '-' : '+', std::abs(shift)) : bound;
}

class Dumper {
public:
  Dumper(const ir::Stencil &s, llvm::raw_ostream &os) : s_(s), os_(os) {}

  void function(const Function &f) {
    fn_ = &f;
    os_ << fmt::format("  {} {}", functionKindName(f.kind), f.name);
    std::vector<std::string> params;
    if (f.params.partialSums)
      params.push_back("partial sums");
    if (f.params.stagedRows)
      params.push_back("staged rows");
    if (f.params.tileSizes)
      params.push_back("tile by x bz");
    if (f.params.zRange)
      params.push_back("planes z0..z1");
    if (f.params.planesPerBlock)
      params.push_back("nw planes per block");
    if (f.params.stageAuto)
      params.push_back("kStageAuto");
    if (f.params.rowsPerThread)
      params.push_back("kRows");
    for (size_t i = 0; i < params.size(); ++i)
      os_ << (i ? ", " : " (") << params[i] << (i + 1 == params.size() ? ")" : "");
    os_ << "\n";
    if (f.outputPlanes > 1)
      os_ << fmt::format("    output planes per x loop: {}\n", f.outputPlanes);
    if (f.wholeBlocks())
      os_ << "    x loop: whole vector blocks, the last one a point loop\n";
    for (const ShiftedRow &r : f.shiftedRows)
      os_ << fmt::format("    shifted row {}(dy {:+}, dz {:+}): x neighbours {}..{} cut from whole "
                         "vectors\n",
                         field(r.field), r.dy, r.dz, -r.below, r.above);
    if (f.ringOutputs)
      os_ << fmt::format("    partial sums: {} output{}, plane offsets {}..{}\n", f.ringOutputs,
                         f.ringOutputs == 1 ? "" : "s", f.ringDzMin, f.ringDzMax);
    if (f.kind == FunctionKind::Device) {
      os_ << fmt::format("    reads: coefficients {}, table rows {} unless placed\n",
                         f.readOnlyCoefficients ? "read-only" : "global",
                         tableSpaceName(f.tableSpace));
      if (f.params.planesPerBlock)
        os_ << fmt::format("    shared planes halo: {} x {}{}{}\n", f.rx, f.ry,
                           f.tileBuffers > 1 ? fmt::format(", {} buffers per field", f.tileBuffers)
                                             : "",
                           f.vectorTiles ? ", copied in 16-byte vectors where aligned" : "");
      if (f.steps > 1)
        os_ << fmt::format("    steps per launch: {}, rings of {} planes\n", f.steps, 2 * f.rz + 1);
      if (!f.rowCounts.empty()) {
        std::vector<std::string> counts;
        for (int n : f.rowCounts)
          counts.push_back(std::to_string(n));
        os_ << "    rows per thread: " << llvm::join(counts, ", ") << " (blockDim.y apart)\n";
      }
    }
    for (const Queue &q : f.queues)
      os_ << fmt::format("    queue {}({:+}, {:+}) planes z{:+}..z{:+}\n", field(q.field), q.dx,
                         q.dy, q.low, q.high);
    if (f.loadAhead > 0)
      os_ << fmt::format("    queues loaded {} plane{} ahead of the step that reads them\n",
                         f.loadAhead, f.loadAhead == 1 ? "" : "s");
    for (const Node &n : f.body)
      node(n, 2);
  }

private:
  const Function *fn_ = nullptr;

  std::string field(int f) const { return s_.fields[f].name; }

  void line(int depth, const std::string &text) { os_.indent(2 * depth) << text << "\n"; }

  std::string updateText(int u) const { return fmt::format("update {}", u); }

  void node(const Node &n, int depth) {
    switch (n.kind) {
    case NodeKind::Loop: {
      std::string lo = n.continues
                           ? "(where the loop before stopped)"
                           : shifted(fmt::format("{}.{}0", spanName(n.span), axisOf(n.var)), n.low);
      std::string hi = shifted(fmt::format("{}.{}1", spanName(n.span), axisOf(n.var)), n.high);
      line(depth, fmt::format("loop {} in [{}, {}){} {}", varName(n.var), lo, hi,
                              n.step > 1 ? fmt::format(" step {}", n.step) : "",
                              scheduleName(n.schedule)));
      break;
    }
    case NodeKind::Tiles: line(depth, "tiles of the box (threads)"); break;
    case NodeKind::Guard: {
      std::string text = fmt::format("if {} {}", guardName(n.guard), spanName(n.guardSpan));
      if (n.guard == GuardKind::OutputInSpan)
        text += fmt::format(" (zo = zi{:+})", -n.dz);
      if (n.skipRest)
        text += ", else the rest";
      line(depth, text);
      break;
    }
    case NodeKind::Call: {
      std::string row = "(y, z)";
      if (n.inputRow)
        row = "(y, zi) into every output row";
      else if (n.row == Var::ZIn)
        row = fmt::format("(y, zi{:+})", -n.dz);
      else if (n.row == Var::ZDone)
        row = "(y, zdone)";
      if (n.step > 1)
        row = fmt::format("(y, z) .. (y, min(z + {}, {}.z1) - 1)", n.step, spanName(n.guardSpan));
      line(depth, fmt::format("call {} {}", n.callee, row));
      break;
    }
    case NodeKind::StageRows:
    case NodeKind::StagedRows: {
      std::string column = n.index >= 0
                               ? fmt::format("{}[{}]", s_.tables[n.table].name, field(n.index))
                               : s_.tables[n.table].name;
      std::string text = fmt::format(
          "{} {} rows [{}, {}) {} {} slot {}", nodeKindName(n.kind), column, n.beginRow, n.endRow,
          n.kind == NodeKind::StageRows ? "to" : "from", stageDestName(n.dest), n.slot);
      if (n.planeShift && !n.inputRow)
        text += fmt::format(", plane z{:+}", n.planeShift);
      if (n.inputRow)
        text += fmt::format(", output row (y, z{:+})", -n.dz);
      line(depth, text);
      break;
    }
    case NodeKind::StageTile:
      line(depth, fmt::format("stage-tile {} plane{} with halo{}", field(n.field),
                              n.planeShift ? fmt::format(" z{:+}", n.planeShift) : "",
                              fn_->tileBuffers > 1 ? ", asynchronous, into its buffer" : ""));
      break;
    case NodeKind::WaitTiles: line(depth, "wait-tiles (this thread's plane copies)"); break;
    case NodeKind::Barrier: line(depth, fmt::format("barrier ({})", n.note)); break;
    case NodeKind::ShiftQueues: line(depth, "shift-queues"); break;
    case NodeKind::ShiftPartials: line(depth, "shift-partials"); break;
    case NodeKind::Sum: {
      std::string text = fmt::format("sum {} {} groups {}", valueNameText(n.value),
                                     updateText(n.update), list(n.groups));
      if (n.hasDz)
        text += fmt::format(" on plane dz {:+}", n.dz);
      if (n.pointwise)
        text += " + pointwise";
      if (n.withoutSharedFactors)
        text += ", shared factors left out";
      if (n.fromPartial)
        text += ", from the partial sum";
      if (n.target == SumTarget::Partial)
        text += fmt::format(" into partial sum zo = zi{:+}", -n.dz);
      if (n.planeShift)
        text += fmt::format(", output plane z{:+}", n.planeShift);
      if (n.inputRow)
        text += fmt::format(", output row (y, z{:+})", -n.dz);
      if (n.onChip)
        text += ", reads on chip";
      if (n.level)
        text += fmt::format(", step {}", n.level + 1);
      line(depth, text);
      break;
    }
    case NodeKind::Accumulate:
      line(depth, fmt::format("accumulate {} {} into partial sum slot {}{}", valueNameText(n.value),
                              updateText(n.update), n.slot,
                              n.inputRow ? fmt::format(" of output row (y, z{:+})", -n.dz) : ""));
      break;
    case NodeKind::Store: {
      std::string text =
          fmt::format("store {} {} {} {}", valueNameText(n.value), updateText(n.update),
                      n.add ? "+=" : "to", s_.fields[s_.updates[n.update].output].name);
      if (n.fromPartial)
        text += fmt::format(", adding partial sum slot {}{}", n.slot,
                            n.scaleShared ? " times the shared factors" : "");
      if (n.planeShift)
        text += fmt::format(", output plane z{:+}", n.planeShift);
      if (n.deferred)
        text += ", after every load";
      if (n.ring)
        text += " and into its ring";
      if (n.level)
        text += fmt::format(", step {}", n.level + 1);
      line(depth, text);
      break;
    }
    }
    for (const Node &child : n.body)
      node(child, depth + 1);
  }

  static const char *axisOf(Var v) {
    switch (v) {
    case Var::X: return "x";
    case Var::Y: return "y";
    default: return "z";
    }
  }

  const ir::Stencil &s_;
  llvm::raw_ostream &os_;
};

} // namespace

void printKernels(const ir::Stencil &s, const KernelModule &module, llvm::raw_ostream &os,
                  const std::string &variant) {
  os << fmt::format("kernels {} for {}\n", module.stencil, targetName(module.target));
  for (size_t u = 0; u < s.updates.size(); ++u)
    os << fmt::format("update {}: {}\n", u, s.fields[s.updates[u].output].name);
  Dumper dumper(s, os);
  for (const SweepKernels &sweep : module.sweeps) {
    os << fmt::format("sweep {}\n", sweep.sweep);
    std::set<std::string> shown;
    for (const Variant &v : sweep.variants) {
      if (!variant.empty() && v.name != variant)
        continue;
      os << fmt::format("  variant {}: {}\n", v.name, v.entry);
      shown.insert(v.functions.begin(), v.functions.end());
    }
    for (const Function &f : sweep.functions)
      if (shown.count(f.name))
        dumper.function(f);
  }
  if (module.target == Target::Cpu) {
    os << "run defaults (kDefaultOptions and kTimeTiling): " << module.runDefaults.run.describe()
       << "\n";
    for (llvm::StringRef line : llvm::split(module.runDefaults.origin, '\n'))
      os << "  " << line << "\n";
  }
  if (!module.launchDefaults.empty())
    os << "launch defaults (LaunchOptions left at zero; the newest not newer than the GPU)\n";
  for (const ArchLaunch &l : module.launchDefaults) {
    os << fmt::format(
        "  {}: {}, block {} x {}, nw {}, rows {}, shared {} bytes (opt-in limit {}){}\n", l.arch,
        l.variant, l.blockX, l.blockY, l.planesPerBlock, l.rowsPerThread, l.sharedBytes,
        l.maxSharedBytes, l.arch == module.plannedArch ? ", planned for" : "");
    for (llvm::StringRef line : llvm::split(l.origin, '\n'))
      if (!line.empty())
        os << "    " << line << "\n";
  }
  if (!module.tunedLaunches.empty())
    os << "tuned launches (LaunchOptions left at their defaults, on the GPU named)\n";
  for (const TunedLaunch &t : module.tunedLaunches)
    os << fmt::format("  \"{}\" (sm_{}): {} block {} x {}, nw {}, rows {}\n", t.device,
                      t.computeCapability, t.variant, t.blockX, t.blockY, t.nw, t.rows);
}

void explainKernels(const ir::Stencil &s, const KernelModule &module, llvm::raw_ostream &os) {
  const char *pass = module.target == Target::Cpu ? "lower-cpu" : "lower-cuda";
  if (module.target == Target::Cpu) {
    std::string origin = module.runDefaults.origin;
    std::replace(origin.begin(), origin.end(), '\n', ' ');
    os << fmt::format("{}: stencil '{}': run defaults {}: {}\n", pass, s.name,
                      module.runDefaults.run.describe(), origin);
  }
  for (const SweepKernels &sweep : module.sweeps) {
    std::vector<std::string> variants;
    for (const Variant &v : sweep.variants)
      variants.push_back(v.name);
    os << fmt::format("{}: stencil '{}' sweep {}: {} functions for variants {}\n", pass, s.name,
                      sweep.sweep, sweep.functions.size(), llvm::join(variants, ", "));
    for (const Function &f : sweep.functions) {
      if (f.kind != FunctionKind::Row)
        continue;
      if (!f.wholeBlocks()) {
        os << fmt::format("{}:   {}: an omp simd point loop ({})\n", pass, f.name,
                          xLoopReason(f.xLoop));
        continue;
      }
      std::vector<std::string> rows;
      for (const ShiftedRow &r : f.shiftedRows)
        rows.push_back(fmt::format("{}(dy {:+}, dz {:+}) reaching {}..{}", s.fields[r.field].name,
                                   r.dy, r.dz, -r.below, r.above));
      os << fmt::format("{}:   {}: whole vector blocks{}\n", pass, f.name,
                        rows.empty() ? std::string(" (rows read by plain loads)")
                                     : ", cutting from whole vectors " + llvm::join(rows, ", "));
    }
  }
  for (const ArchLaunch &l : module.launchDefaults)
    if (l.arch == module.plannedArch)
      os << fmt::format("{}: launch defaults on {}: blocks of {} x {} threads marching {} planes, "
                        "{} bytes of shared memory per block\n",
                        pass, l.arch, l.blockX, l.blockY, l.planesPerBlock, l.sharedBytes);
}

} // namespace stencilc::kernel
