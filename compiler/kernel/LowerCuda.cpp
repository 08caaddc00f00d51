//===- LowerCuda.cpp - Kernel IR of the CUDA variants ----------------------===//
//
// Each sweep becomes four kernels that evaluate the same coefficient groups
// from different places:
//
//   gmem, ro     one thread per point; reads from global memory, coefficients
//                plain or through the read-only cache;
//   traditional  a 2D block marches z; the current plane of every field read
//                off-centre on it sits in shared memory, the points of each
//                (dx, dy) column above and below it in a per-thread register
//                queue (docs/DESIGN.md §Plane plan, multi-to-one). Two buffers
//                per plane: the next plane is copied asynchronously while the
//                current one computes, one barrier per plane;
//   planes       a 2D block marches the input planes; each is read once into
//                shared memory and added to the partial sums of every output
//                plane it touches, a per-thread register queue that stores and
//                rotates its oldest entry (docs/DESIGN.md §Plane plan, one-to-multi);
//   twostep      two time steps per launch (3.5D blocking, docs/DESIGN.md
//                §Temporal blocking): a 2D block marches z, computes the first
//                step on its columns widened by how far the second reads, into
//                rings of shared planes, and the second step from those rings.
//
// The marching kernels read table rows where the sweep plan placed them.
//
//===----------------------------------------------------------------------===//
#include "kernel/Build.h"
#include "kernel/Lowering.h"
#include "passes/Pipeline.h"
#include "target/CudaArchs.h"

#include <fmt/format.h>

#include <map>

namespace stencilc::kernel {

using namespace build;

namespace {

class CudaLowering {
public:
  explicit CudaLowering(const CompiledStencil &c)
      : compiled_(c), linear_(c.linear), plans_(c.sweepPlan.gpu.sweeps),
        storesAfterLoads_(gpuStoresAfterLoads(*c.stencil, c.linear)) {}

  SweepKernels sweep(int s) {
    SweepKernels k;
    k.sweep = s;
    const std::string prefix = fmt::format("sweep{}_", s);
    k.functions.push_back(pointKernel(s, false));
    k.functions.push_back(pointKernel(s, true));
    k.functions.push_back(traditionalKernel(s));
    if (plans_[s].accumulates())
      k.functions.push_back(planesKernel(s));
    for (const char *v : {"gmem", "ro", "traditional"})
      k.variants.push_back({v, prefix + v, {prefix + v}});
    // Nothing in a sweep without accumulated points spans planes: one thread per point does it.
    const std::string planes = plans_[s].accumulates() ? prefix + "planes" : prefix + "ro";
    k.variants.push_back({"planes", planes, {planes}});
    if (twoStepsPerLaunch()) {
      k.functions.push_back(twoStepKernel(s));
      k.variants.push_back({"twostep", prefix + "twostep", {prefix + "twostep"}});
    }
    return k;
  }

  /// One sweep per step, and every output the next level of a time field:
  /// then the second step of a launch is the first one on the rotated levels.
  bool twoStepsPerLaunch() const { return twoStepReason(compiled_).empty(); }

private:
  /// Evaluates every group of the sweep at the point and stores it: `=` in the
  /// first sweep, `+=` in later ones (which skip updates they have no groups of).
  std::vector<Node> pointBody(int s, bool onChip) const {
    std::vector<Node> body;
    for (const SweepUpdate &update : plans_[s].updates) {
      if (update.groups.empty() && s > 0)
        continue;
      Node value = sum(update.update, update.groups, ValueName::Value);
      value.pointwise = s == 0;
      value.onChip = onChip;
      body.push_back(std::move(value));
      // After every load of the point where it has several outputs (gpuStoresAfterLoads).
      Node out = store(update.update, s > 0, ValueName::Value);
      out.deferred = storesAfterLoads_;
      body.push_back(std::move(out));
    }
    return body;
  }

  Function device(const std::string &name, const std::string &note) const {
    Function f;
    f.kind = FunctionKind::Device;
    f.name = name;
    f.note = note;
    return f;
  }

  Function pointKernel(int s, bool readOnly) const {
    const char *variant = readOnly ? "ro" : "gmem";
    Function f = device(fmt::format("sweep{}_{}", s, variant),
                        fmt::format("Sweep {}, {}: {}", s, variant,
                                    readOnly ? "one thread per output point; coefficients (`in` "
                                               "and index fields, tables)\nthrough the read-only "
                                               "cache."
                                             : "one thread per output point; every read a plain "
                                               "global load."));
    f.readOnlyCoefficients = readOnly;
    f.tableSpace = readOnly ? TableSpace::ReadOnly : TableSpace::Global;
    Node x = loop(Var::X, Span::Box, Schedule::Threads, pointBody(s, false));
    Node y = loop(Var::Y, Span::Box, Schedule::Threads, {std::move(x)});
    f.body.push_back(loop(Var::Z, Span::Box, Schedule::Threads, {std::move(y)}));
    return f;
  }

  /// The march's kernels read the sweep's table rows where the plan put them;
  /// the rows in shared memory are staged once, before the march.
  Function marching(const std::string &name, const std::string &note, int s) const {
    const GpuSweepPlan &plan = plans_[s];
    Function f = device(name, note);
    f.readOnlyCoefficients = true;
    f.tableSpace = TableSpace::ReadOnly;
    f.placement = plan.placement;
    f.params.planesPerBlock = true;
    f.params.stageAuto = true;
    for (const auto &[table, rows] : plan.sharedRows)
      for (size_t i = 0; i < rows.size(); ++i)
        f.body.push_back(stageRows(table, -1, rows[i], rows[i] + 1, StageDest::Shared, int(i)));
    for (const auto &[table, rows] : plan.autoRows) {
      const int fixed = plan.sharedRows.count(table) ? int(plan.sharedRows.at(table).size()) : 0;
      for (size_t i = 0; i < rows.size(); ++i)
        f.body.push_back(
            stageRows(table, -1, rows[i], rows[i] + 1, StageDest::SharedAuto, fixed + int(i)));
    }
    return f;
  }

  /// Whether a halo of rx points keeps a block's tile rows on 16-byte boundaries (the grid's
  /// rows start on 64 bytes, blocks are a multiple of 16 bytes wide where it matters).
  bool haloKeepsVectors(int rx) const {
    return rx * ir::elemTypeBytes(compiled_.stencil->elemType) % 16 == 0;
  }

  static Node stageTile(int field, int planeShift = 0) {
    Node n;
    n.kind = NodeKind::StageTile;
    n.field = field;
    n.planeShift = planeShift;
    return n;
  }

  Function traditionalKernel(int s) const {
    const GpuSweepPlan &plan = plans_[s];
    Function f = marching(
        fmt::format("sweep{}_traditional", s),
        fmt::format("Sweep {}, traditional (2.5D blocking, multi-to-one): a 2D block marches z "
                    "through nw\nplanes of the box. Plane z of every field read off-centre on it "
                    "sits in shared memory with\nits halo; the points of each (dx, dy) column "
                    "above and below z sit in this thread's register\nqueue, which takes one new "
                    "plane per step. The table rows sit where the plan placed them,\nas in "
                    "`planes`: with kStageAuto the rows it left to the backend are in shared "
                    "memory too.{}",
                    s,
                    std::string(plans_[s].traditionalBuffers > 1
                                    ? "\nEach shared plane has two buffers: plane z + 1 is "
                                      "copied into the other one\nasynchronously while plane z "
                                      "computes, and one barrier a plane orders both."
                                    : "") +
                        (plans_[s].traditionalAhead > 0
                             ? "\nEvery column the kernel reads from memory has a queue, "
                               "loaded one plane ahead: the\nstep of plane z loads what step "
                               "z + 1 reads, in flight while plane z computes."
                             : "")),
        s);
    f.rx = plan.traditionalRx;
    f.ry = plan.traditionalRy;
    f.loadAhead = plan.traditionalAhead;
    f.params.rowsPerThread = true;
    f.rowCounts = cudaRowCounts();
    for (const auto &[column, range] : plan.queues)
      f.queues.push_back({std::get<0>(column), std::get<1>(column), std::get<2>(column),
                          range.first, range.second});
    // The pipeline (two buffers, where the plan chose them): the first plane's copies on the
    // first step; at every step this thread waits for its copies of plane z, the block meets
    // (plane z is in, and nobody reads the other buffer any more), and plane z + 1 is copied
    // into it while plane z computes.
    f.tileBuffers = plan.traditionalBuffers;
    // Registers leave room where the plan loads the queues ahead (they fit three eighths), and
    // in float: in double a vector is two elements, and the second copy path cost acoustic_iso8
    // 80 -> 95 registers a thread (ptxas, sm_90), three blocks a multiprocessor -> two.
    f.vectorTiles = haloKeepsVectors(f.rx) && plan.traditionalAhead > 0 &&
                    ir::elemTypeBytes(compiled_.stencil->elemType) == 4;
    std::vector<Node> march;
    if (f.tileBuffers > 1) {
      std::vector<Node> first, next;
      for (int field : plan.traditionalTiles) {
        first.push_back(stageTile(field));
        next.push_back(stageTile(field, 1));
      }
      march.push_back(guard(GuardKind::FirstPlane, Span::March, std::move(first)));
      Node wait;
      wait.kind = NodeKind::WaitTiles;
      march.push_back(std::move(wait));
      if (!f.queues.empty()) {
        Node shift;
        shift.kind = NodeKind::ShiftQueues;
        march.push_back(guard(GuardKind::Active, Span::March, {std::move(shift)}));
      }
      march.push_back(barrier("plane z is in; the block is done with the other buffer"));
      march.push_back(guard(GuardKind::NextInSpan, Span::March, std::move(next)));
    } else { // a plane at a time, staged between two barriers
      march.push_back(barrier("the block is done with the previous plane"));
      for (int field : plan.traditionalTiles)
        march.push_back(stageTile(field));
      if (!f.queues.empty()) {
        Node shift;
        shift.kind = NodeKind::ShiftQueues;
        march.push_back(guard(GuardKind::Active, Span::March, {std::move(shift)}));
      }
      march.push_back(barrier("plane z is in"));
    }
    march.push_back(guard(GuardKind::Active, Span::March, pointBody(s, true)));
    f.body.push_back(loop(Var::Z, Span::March, Schedule::Serial, std::move(march)));
    return f;
  }

  Function planesKernel(int s) const {
    const GpuSweepPlan &plan = plans_[s];
    const int dzMin = plan.planeOffsets.front(), dzMax = plan.planeOffsets.back();
    Function f = marching(
        fmt::format("sweep{}_planes", s),
        fmt::format("Sweep {}, planes (one-to-multi): a 2D block marches the input planes of nw "
                    "output\nplanes of the box. Input plane zi is read once into shared memory "
                    "with its halo, and its\npoints at plane offset dz go into the partial sum of "
                    "output plane zi - dz: a register queue\nper output, whose oldest entry is "
                    "complete after plane zi, is stored, and makes room for a\nnew one. With "
                    "kStageAuto the table rows the plan left to the backend are staged in "
                    "shared\nmemory too.",
                    s),
        s);
    f.rx = plan.planesRx;
    f.ry = plan.planesRy;
    f.vectorTiles = haloKeepsVectors(f.rx);
    f.ringDzMin = dzMin;
    f.ringDzMax = dzMax;
    std::map<int, int> ringSlot; // update -> its partial sums among the kernel's
    for (const SweepUpdate &update : plan.updates)
      if (!update.accumulated.empty())
        ringSlot[update.update] = f.ringOutputs++;
    std::vector<Node> march = {barrier("the block is done with the previous planes")};
    for (int field : plan.planesTiles)
      march.push_back(stageTile(field));
    march.push_back(barrier("plane zi is in"));
    std::vector<Node> active;
    for (int dz : plan.planeOffsets) {
      std::vector<Node> adds;
      for (const SweepUpdate &update : plan.updates) {
        std::vector<int> touching =
            groupsOnPlane(linear_.updates[update.update], update.accumulated, dz);
        if (touching.empty())
          continue;
        Node add = withDz(sum(update.update, touching, ValueName::Acc), dz);
        add.target = SumTarget::Partial;
        add.slot = ringSlot.at(update.update);
        add.onChip = true;
        add.comments = true;
        adds.push_back(std::move(add));
      }
      Node g = guard(GuardKind::OutputInSpan, Span::March, std::move(adds), dz);
      g.note = fmt::format("Input plane zi is plane {:+} of output plane zo = zi{}.", dz,
                           dz > 0   ? fmt::format(" - {}", dz)
                           : dz < 0 ? fmt::format(" + {}", -dz)
                                    : "");
      active.push_back(std::move(g));
    }
    // The store: partial sums plus the centre-only groups.
    std::vector<Node> stores;
    for (const SweepUpdate &update : plan.updates) {
      if (update.groups.empty() && s > 0)
        continue;
      Node value = sum(update.update, update.atStore, ValueName::Value);
      value.pointwise = s == 0;
      value.fromPartial = !update.accumulated.empty(); // starts as the finished partial sum
      if (value.fromPartial)
        value.slot = ringSlot.at(update.update);
      stores.push_back(std::move(value));
      Node out = store(update.update, s > 0, ValueName::Value);
      out.deferred = storesAfterLoads_;
      stores.push_back(std::move(out));
    }
    Node done = guard(GuardKind::DoneInSpan, Span::March, std::move(stores));
    done.note = "Output plane zo = zi - kDzMax has all its input planes: store it.";
    active.push_back(std::move(done));
    march.push_back(guard(GuardKind::Active, Span::March, std::move(active)));
    Node shift;
    shift.kind = NodeKind::ShiftPartials;
    march.push_back(std::move(shift));
    f.body.push_back(
        loop(Var::ZIn, Span::March, Schedule::Serial, std::move(march), 1, dzMin, dzMax));
    return f;
  }

  /// The first step on the block's widened columns of each plane, kept in
  /// rings; the second, once its planes are in, on the block's own columns.
  Function twoStepKernel(int s) const {
    const ir::Stencil &st = *compiled_.stencil;
    Function f = device(
        fmt::format("sweep{}_twostep", s),
        fmt::format("Sweep {}, two steps per launch (3.5D blocking): a 2D block marches z through "
                    "nw planes of the\nbox. On each plane zi it computes the first step at every "
                    "point of its columns widened by\nkRx, kRy, keeps it in a ring of 2 kRz + 1 "
                    "shared planes, and writes its own points of it;\nthen the second step at "
                    "plane zi - kRz of its own columns, reading the first step's level\nfrom the "
                    "rings and everything else through `next`, the arguments rotated by one "
                    "step.\nCoefficients and table rows come through the read-only cache.",
                    s));
    f.readOnlyCoefficients = true;
    f.tableSpace = TableSpace::ReadOnly;
    f.params.planesPerBlock = true;
    f.steps = 2;
    // How far the second step reads the levels the first computed, per axis.
    for (const LinearForm &form : linear_.updates)
      for (const Term &term : form.terms)
        if (outputAdvancing(st, term.field) >= 0) {
          f.rx = std::max(f.rx, std::abs(term.offset[0]));
          f.ry = std::max(f.ry, std::abs(term.offset[1]));
          f.rz = std::max(f.rz, std::abs(term.offset[2]));
        }
    auto levelBody = [&](int level) {
      std::vector<Node> body;
      for (const SweepUpdate &update : plans_[s].updates) {
        Node value = sum(update.update, update.groups, ValueName::Value);
        value.pointwise = true;
        value.level = level;
        value.onChip = level > 0;
        body.push_back(std::move(value));
        Node out = store(update.update, false, ValueName::Value);
        out.level = level;
        out.ring = level == 0;
        body.push_back(std::move(out));
      }
      return body;
    };
    Node x = loop(Var::X, Span::Widened, Schedule::Threads, levelBody(0));
    Node first = loop(Var::Y, Span::Widened, Schedule::Threads, {std::move(x)});
    Node done = guard(GuardKind::DoneInSpan, Span::March, levelBody(1));
    done.note =
        "The second step at plane zo = zi - kRz: the rings hold planes zo - kRz .. zo + kRz.";
    std::vector<Node> march = {barrier("the block is done with the ring planes plane zi replaces"),
                               std::move(first),
                               barrier("plane zi of the first step is in the rings"),
                               guard(GuardKind::Active, Span::March, {std::move(done)})};
    f.body.push_back(
        loop(Var::ZIn, Span::March, Schedule::Serial, std::move(march), 1, -f.rz, f.rz));
    return f;
  }

  const CompiledStencil &compiled_;
  const LinearStencil &linear_;
  const std::vector<GpuSweepPlan> &plans_;
  const bool storesAfterLoads_; ///< see gpuStoresAfterLoads
};

} // namespace

std::string twoStepReason(const CompiledStencil &compiled) {
  const ir::Stencil &s = *compiled.stencil;
  if (compiled.decomposition.sweeps.size() != 1)
    return fmt::format("it takes {} sweeps per step, and a launch of two steps needs the whole of "
                       "the first step before the second",
                       compiled.decomposition.sweeps.size());
  bool outputs = false;
  for (const ir::Field &f : s.fields)
    if (f.role == ir::FieldRole::Output) {
      if (f.advances < 0)
        return fmt::format("output '{}' is not the next level of a time field", f.name);
      outputs = true;
    }
  if (!outputs)
    return "it has no output";
  return "";
}

KernelModule lowerCuda(const CompiledStencil &compiled) {
  KernelModule m;
  m.target = Target::Cuda;
  m.stencil = compiled.stencil->name;
  CudaLowering lowering(compiled);
  for (size_t s = 0; s < compiled.sweepPlan.gpu.sweeps.size(); ++s)
    m.sweeps.push_back(lowering.sweep(int(s)));
  for (const target::CudaArch &arch : target::cudaArchs())
    m.launchDefaults.push_back({arch.name, arch.computeCapability, arch.launch.variant,
                                arch.launch.blockX, arch.launch.blockY, arch.launch.planesPerBlock,
                                arch.launch.rowsPerThread, arch.sharedBytesPerBlock,
                                arch.maxSharedBytesPerBlock, ""});
  if (target::findCudaArch(compiled.sweepPlan.target))
    m.plannedArch = compiled.sweepPlan.target;
  return m;
}

} // namespace stencilc::kernel
