//===- KernelVerifier.cpp - Structural checks of the kernel IR ------------===//
#include "kernel/KernelIR.h"
#include "passes/Pipeline.h"

#include "kernel/TableReads.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace stencilc::kernel {

namespace {

class Verifier {
public:
  Verifier(const CompiledStencil &c, const KernelModule &m, std::vector<std::string> &problems)
      : c_(c), m_(m), problems_(problems) {}

  void run() {
    if (m_.sweeps.size() != c_.decomposition.sweeps.size())
      problem("", fmt::format("{} sweeps of kernels for {} sweeps of the decomposition",
                              m_.sweeps.size(), c_.decomposition.sweeps.size()));
    for (const SweepKernels &sweep : m_.sweeps) {
      sweep_ = &sweep;
      std::set<std::string> names;
      for (const Function &f : sweep.functions) {
        if (!names.insert(f.name).second)
          problem(f.name, "defined twice");
        function(f);
      }
      for (const Variant &v : sweep.variants)
        variant(v);
      for (const Function &f : sweep.functions)
        if (f.kind == FunctionKind::Driver && f.ringOutputs)
          planesDriver(f);
    }
    sweep_ = nullptr;
    if (m_.target == Target::Cpu)
      runDefaults(m_.runDefaults);
    for (const TunedLaunch &t : m_.tunedLaunches)
      tunedLaunch(t);
    for (const ArchLaunch &l : m_.launchDefaults)
      launchShape(fmt::format("launch defaults of {}", l.arch), l.variant, l.blockX, l.blockY,
                  l.planesPerBlock, l.rowsPerThread, /*nwForEvery=*/true);
  }

private:
  /// Settings the runtime takes: `auto` or a variant every sweep has, tiles of 0 (its default)
  /// or more, at least one step per pass, and several only where the time levels only rotate
  /// (else rt::runTimeTiled refuses them).
  void runDefaults(const RunDefaults &d) {
    const target::RunConfig &r = d.run;
    for (const SweepKernels &sweep : m_.sweeps)
      if (r.variant != "auto" &&
          std::none_of(sweep.variants.begin(), sweep.variants.end(),
                       [&](const Variant &v) { return v.name == r.variant; }))
        problem("",
                fmt::format("run defaults: sweep {} has no variant '{}'", sweep.sweep, r.variant));
    if (std::min({r.blockX, r.blockY, r.blockZ, r.timeTileX, r.timeTileY, r.timeTileZ}) < 0)
      problem("", "run defaults: a negative tile extent (" + r.describe() + ")");
    if (r.timeDepth < 1)
      problem("", fmt::format("run defaults: {} steps per pass", r.timeDepth));
    if (r.timeDepth > 1 && !isTimeTileable(*c_.stencil))
      problem("", fmt::format("run defaults: {} steps per pass, but {}", r.timeDepth,
                              timeTilingObstacle(*c_.stencil)));
    if (d.origin.empty())
      problem("", "run defaults: no origin for the header to give");
  }

  /// A tuned launch names a GPU, a variant every sweep has, a block the kernels are compiled
  /// for, and planes per block exactly where the variant marches in z.
  void tunedLaunch(const TunedLaunch &t) {
    const std::string where = fmt::format("tuned launch on \"{}\"", t.device);
    if (m_.target != Target::Cuda)
      problem("", where + ": only CUDA kernels take one");
    if (t.device.empty() || t.computeCapability <= 0)
      problem("", where + ": no device name or compute capability");
    // The header spells the name as a string literal.
    if (std::any_of(t.device.begin(), t.device.end(), [](char c) {
          return c == '"' || c == '\\' || !std::isprint(static_cast<unsigned char>(c));
        }))
      problem("", where + ": the name has a quote, a backslash or a character that does not print");
    launchShape(where, t.variant, t.blockX, t.blockY, t.nw, t.rows, /*nwForEvery=*/false);
    if (t.origin.empty())
      problem("", where + ": no origin for the header to give");
    for (const TunedLaunch &o : m_.tunedLaunches)
      if (&o != &t && o.device == t.device && o.computeCapability == t.computeCapability)
        problem("", where + ": given twice");
  }

  /// A launch the kernels can take: a variant every sweep has, a block they are compiled for,
  /// planes per block where the variant marches in z (with `nwForEvery`, for every variant:
  /// an architecture's defaults serve whichever variant the caller names), none elsewhere,
  /// and rows per thread the variant's kernels are instantiated for (an architecture's
  /// defaults: those of some variant).
  void launchShape(const std::string &where, const std::string &variant, int blockX, int blockY,
                   int nw, int rows, bool nwForEvery) {
    for (const SweepKernels &sweep : m_.sweeps)
      if (std::none_of(sweep.variants.begin(), sweep.variants.end(),
                       [&](const Variant &v) { return v.name == variant; }))
        problem("", fmt::format("{}: sweep {} has no variant '{}'", where, sweep.sweep, variant));
    if (blockX < 1 || blockY < 1 || blockX * blockY > kCudaMaxThreadsPerBlock)
      problem("", fmt::format("{}: a block of {} x {} threads (1 to {} in all)", where, blockX,
                              blockY, kCudaMaxThreadsPerBlock));
    if ((marchesInZ(m_, variant) || nwForEvery) != (nw > 0))
      problem("", fmt::format("{}: nw {} for {}", where, nw, variant));
    std::vector<int> counts = rowCounts(m_, variant);
    if (nwForEvery)
      for (const std::string &v : cudaStepVariants())
        for (int n : rowCounts(m_, v))
          counts.push_back(n);
    if (std::find(counts.begin(), counts.end(), rows) == counts.end())
      problem("", fmt::format("{}: {} rows per thread for {}", where, rows, variant));
  }

  void problem(const std::string &where, const std::string &what) {
    problems_.push_back(
        where.empty() ? what
                      : fmt::format("sweep {}, {}: {}", sweep_ ? sweep_->sweep : -1, where, what));
  }

  bool cpu() const { return m_.target == Target::Cpu; }

  void function(const Function &f) {
    fn_ = &f;
    const bool kindFits = cpu() ? f.kind != FunctionKind::Device : f.kind == FunctionKind::Device;
    if (!kindFits)
      problem(f.name, fmt::format("a {} function in a {} module", functionKindName(f.kind),
                                  targetName(m_.target)));
    staged_.clear();
    stagedSlots_.clear();
    block(f.body, Context{});
    if (f.kind == FunctionKind::Row && f.params.partialSums != usesPartials(f.body))
      problem(f.name, "takes partial sums exactly when it accumulates or stores from them");
    if (f.kind == FunctionKind::Device)
      deviceKernel(f);
  }

  //===--------------------------------------------------------------------===//
  // CUDA kernels
  //===--------------------------------------------------------------------===//

  /// A march stages its shared planes between two barriers; partial sums shift
  /// once a step and stay in their ring; on-chip reads find their plane or
  /// queue; table rows are staged exactly where the placement says.
  void deviceKernel(const Function &f) {
    if (f.vectorTiles && !f.params.planesPerBlock)
      problem(f.name, "copies shared planes in vectors but keeps none");
    if (f.params.rowsPerThread != !f.rowCounts.empty() ||
        (!f.rowCounts.empty() &&
         (f.rowCounts.front() != 1 || !std::is_sorted(f.rowCounts.begin(), f.rowCounts.end()) ||
          std::adjacent_find(f.rowCounts.begin(), f.rowCounts.end()) != f.rowCounts.end() ||
          !f.params.planesPerBlock || f.steps > 1 || f.ringOutputs > 0)))
      problem(f.name, "takes kRows exactly where it lists rows per thread: 1 first, ascending, "
                      "in a one-step march without partial sums");
    if (f.loadAhead < 0 || f.loadAhead > 1 || (f.loadAhead > 0 && f.queues.empty()))
      problem(f.name, fmt::format("loads {} planes ahead with {} register queues", f.loadAhead,
                                  f.queues.size()));
    std::set<int> tiles;
    bool shifts = false;
    visitNodes(f.body, [&](const Node &n) {
      if (n.kind == NodeKind::StageTile)
        tiles.insert(n.field);
      shifts |= n.kind == NodeKind::ShiftPartials;
      if (n.kind == NodeKind::Sum && (n.target == SumTarget::Partial || n.fromPartial) &&
          (n.slot < 0 || n.slot >= f.ringOutputs))
        problem(f.name, fmt::format("partial sums of update {} in slot {} of {}", n.update, n.slot,
                                    f.ringOutputs));
      if (n.kind == NodeKind::Sum && n.onChip)
        onChipReads(f, n, tiles);
    });
    if (f.ringOutputs && !shifts)
      problem(f.name, "keeps partial sums but never shifts them");
    for (const Node &n : f.body)
      if (n.kind == NodeKind::Loop && n.span == Span::March)
        marchBarriers(f, n);
    // Table rows in shared memory: staged exactly as placed.
    std::set<std::tuple<int, int, int, bool>> staged, placed;
    for (const Node &n : f.body)
      if (n.kind == NodeKind::StageRows)
        staged.insert({n.table, n.beginRow, n.slot, n.dest == StageDest::SharedAuto});
    for (const auto &[key, place] : f.placement)
      if (place.space == TableSpace::Shared || place.space == TableSpace::Auto)
        placed.insert({key.first, key.second, place.slot, place.space == TableSpace::Auto});
    if (staged != placed)
      problem(f.name,
              fmt::format("stages {} table rows in shared memory where the placement has {}",
                          staged.size(), placed.size()));
  }

  /// Barrier, then the shared planes, then a barrier before anything reads them. A march
  /// with two buffers per plane (pipelined) stages its first plane on the first step, then
  /// at every step waits for its copies, meets the block at the one barrier, and only after
  /// it copies the next plane into the buffer the previous step read, before the reads.
  void marchBarriers(const Function &f, const Node &march) {
    if (f.tileBuffers > 1)
      return pipelinedMarch(f, march);
    int firstStage = -1, lastStage = -1;
    for (size_t i = 0; i < march.body.size(); ++i)
      if (march.body[i].kind == NodeKind::StageTile) {
        lastStage = int(i);
        if (firstStage < 0)
          firstStage = int(i);
      }
    if (firstStage < 0)
      return;
    bool before = false, after = false;
    for (int i = 0; i < firstStage; ++i)
      before |= march.body[i].kind == NodeKind::Barrier;
    for (size_t i = lastStage + 1; i < march.body.size(); ++i) {
      if (march.body[i].kind == NodeKind::Barrier) {
        after = true;
        break;
      }
      if (march.body[i].kind == NodeKind::Guard && readsPoints(march.body[i].body))
        break;
    }
    if (!before)
      problem(f.name, "stages a shared plane while threads may still read the previous one");
    if (!after)
      problem(f.name, "reads a shared plane before every thread has staged its part");
  }

  void pipelinedMarch(const Function &f, const Node &march) {
    auto indexOf = [&](auto matches) {
      for (size_t i = 0; i < march.body.size(); ++i)
        if (matches(march.body[i]))
          return int(i);
      return int(march.body.size());
    };
    auto guardOf = [](GuardKind kind) {
      return [kind](const Node &n) {
        return n.kind == NodeKind::Guard && n.guard == kind && !n.body.empty() &&
               std::all_of(n.body.begin(), n.body.end(),
                           [](const Node &c) { return c.kind == NodeKind::StageTile; });
      };
    };
    const int first = indexOf(guardOf(GuardKind::FirstPlane));
    const int next = indexOf(guardOf(GuardKind::NextInSpan));
    const int wait = indexOf([](const Node &n) { return n.kind == NodeKind::WaitTiles; });
    const int barrier = indexOf([](const Node &n) { return n.kind == NodeKind::Barrier; });
    const int reads = indexOf([](const Node &n) { return readsPoints(n.body); });
    const int end = int(march.body.size());
    if (first == end || next == end || wait == end || barrier == end)
      problem(f.name, "a pipelined march stages its first and its next plane, waits and meets");
    else if (!(first < wait && wait < barrier && barrier < next && next < reads))
      problem(f.name, "a pipelined march waits for its copies, then meets the block, then copies "
                      "the next plane, then reads");
  }

  static bool readsPoints(const std::vector<Node> &body) {
    for (const Node &n : body)
      if (n.kind == NodeKind::Sum || readsPoints(n.body))
        return true;
    return false;
  }

  /// On-chip sums read the input plane's shared copy (planes) or, off the
  /// current plane, the register queues (traditional).
  void onChipReads(const Function &f, const Node &sum, const std::set<int> &tiles) {
    const LinearForm &form = c_.linear.updates[sum.update];
    if (sum.level > 0) {
      ringReads(f, sum, form);
      return;
    }
    for (int g : sum.groups)
      for (int t : form.groups[g].terms) {
        const Term &term = form.terms[t];
        if (sum.hasDz) {
          if (term.offset[2] == sum.dz && !tiles.count(term.field))
            problem(f.name, fmt::format("reads {} on chip, but no shared plane holds it",
                                        c_.stencil->fields[term.field].name));
          continue;
        }
        if (term.offset[2] == 0)
          continue;
        bool queued = false;
        for (const Queue &q : f.queues)
          queued |= q.field == term.field && q.dx == term.offset[0] && q.dy == term.offset[1] &&
                    q.low <= term.offset[2] && term.offset[2] <= q.high;
        if (!queued)
          problem(f.name, fmt::format("reads {}({}, {}, {}) from a register queue that does not "
                                      "hold it",
                                      c_.stencil->fields[term.field].name, term.offset[0],
                                      term.offset[1], term.offset[2]));
      }
  }

  /// A later step of a multi-step launch reads the levels the step before
  /// computed from its rings, which reach rx, ry, rz around the point.
  void ringReads(const Function &f, const Node &sum, const LinearForm &form) {
    for (int g : sum.groups)
      for (int t : form.groups[g].terms) {
        const Term &term = form.terms[t];
        if (outputAdvancing(*c_.stencil, term.field) < 0)
          continue;
        if (std::abs(term.offset[0]) > f.rx || std::abs(term.offset[1]) > f.ry ||
            std::abs(term.offset[2]) > f.rz)
          problem(f.name, fmt::format("reads {}({}, {}, {}) past its rings' reach ({}, {}, {})",
                                      c_.stencil->fields[term.field].name, term.offset[0],
                                      term.offset[1], term.offset[2], f.rx, f.ry, f.rz));
      }
  }

  template <typename Fn> static void visitNodes(const std::vector<Node> &body, Fn &&fn) {
    for (const Node &n : body) {
      fn(n);
      visitNodes(n.body, fn);
    }
  }

  //===--------------------------------------------------------------------===//
  // The CPU planes driver
  //===--------------------------------------------------------------------===//

  /// The march of a planes driver calls each plane function for the output
  /// row its guard names, and the scatter adds the same points to the same
  /// partial sums, at slot (plane offset index) x outputs + the output's slot.
  void planesDriver(const Function &driver) {
    const int outputs = driver.ringOutputs;
    std::map<int, int> slotOf; // update -> slot in the per-plane functions
    std::set<std::tuple<int, int, int>> planeParts, scatterParts;
    std::vector<int> planeDz;
    const Function *scatter = nullptr;
    visitNodes(driver.body, [&](const Node &guard) {
      if (guard.kind != NodeKind::Guard)
        return;
      for (const Node &c : guard.body) {
        if (c.kind != NodeKind::Call)
          continue;
        const Function *callee = sweep_->find(c.callee);
        if (!callee)
          continue;
        if (c.inputRow) {
          scatter = callee;
          continue;
        }
        if (guard.guard == GuardKind::OutputInSpan && c.dz != guard.dz)
          problem(driver.name,
                  fmt::format("calls {} for output row zi{:+} under a guard for zi{:+}", c.callee,
                              -c.dz, -guard.dz));
        if (callee->kind == FunctionKind::Stage) {
          if (c.dz != driver.ringDzMin)
            problem(driver.name, "stages an output row's coefficients after its first input plane");
          continue;
        }
        if (c.row != Var::ZIn)
          continue;
        planeDz.push_back(c.dz);
        visitNodes(callee->body, [&](const Node &n) {
          if (n.kind == NodeKind::Sum)
            for (int g : n.groups) {
              if (!n.hasDz || n.dz != c.dz)
                problem(callee->name, fmt::format("sums group {} for plane {:+} where the driver "
                                                  "calls it for {:+}",
                                                  g, n.dz, c.dz));
              planeParts.insert({n.update, g, n.dz});
            }
          if (n.kind == NodeKind::Accumulate) {
            if (n.slot < 0 || n.slot >= outputs)
              problem(callee->name, fmt::format("accumulates into slot {} of {}", n.slot, outputs));
            auto [it, fresh] = slotOf.try_emplace(n.update, n.slot);
            if (it->second != n.slot)
              problem(callee->name, fmt::format("update {} in slot {}, elsewhere {}", n.update,
                                                n.slot, it->second));
          }
        });
      }
    });
    std::sort(planeDz.begin(), planeDz.end());
    if (scatter)
      visitNodes(scatter->body, [&](const Node &n) {
        if (n.kind == NodeKind::Sum)
          for (int g : n.groups)
            scatterParts.insert({n.update, g, n.dz});
        if (n.kind != NodeKind::Accumulate)
          return;
        auto at = std::find(planeDz.begin(), planeDz.end(), n.dz);
        auto slot = slotOf.find(n.update);
        if (at == planeDz.end() || slot == slotOf.end() ||
            n.slot != int(at - planeDz.begin()) * outputs + slot->second)
          problem(scatter->name,
                  fmt::format("adds update {} on plane {:+} to slot {}", n.update, n.dz, n.slot));
      });
    if (scatter && scatterParts != planeParts)
      problem(driver.name, "the scatter and the per-plane functions sum different points");
    // The finish stores from the slot the planes accumulated into.
    for (const Function &f : sweep_->functions)
      visitNodes(f.body, [&](const Node &n) {
        if (n.kind == NodeKind::Store && n.fromPartial &&
            (!slotOf.count(n.update) || slotOf.at(n.update) != n.slot))
          problem(f.name, fmt::format("stores update {} from slot {}", n.update, n.slot));
      });
  }

  static bool usesPartials(const std::vector<Node> &body) {
    for (const Node &n : body) {
      if (n.kind == NodeKind::Accumulate || (n.kind == NodeKind::Store && n.fromPartial))
        return true;
      if (usesPartials(n.body))
        return true;
    }
    return false;
  }

  struct Context {
    bool inGuard = false, inTiles = false, inVector = false;
    std::set<Var> vars;
  };

  void block(const std::vector<Node> &body, const Context &context) {
    const Node *lastSum = nullptr;
    for (const Node &n : body) {
      // An accumulate adds the sum just before it: same update, local and plane.
      if (n.kind == NodeKind::Accumulate &&
          (!lastSum || lastSum->update != n.update || lastSum->value != n.value ||
           lastSum->hasDz != n.hasDz || lastSum->dz != n.dz || lastSum->inputRow != n.inputRow))
        problem(fn_->name, fmt::format("accumulates {} of update {} that no sum before it made",
                                       valueNameText(n.value), n.update));
      if (n.kind == NodeKind::Sum)
        lastSum = &n;
      node(n, context);
    }
  }

  void node(const Node &n, Context context) {
    const std::string &where = fn_->name;
    switch (n.kind) {
    case NodeKind::Loop:
      if (context.vars.count(n.var) && !n.continues)
        problem(where,
                fmt::format("loop over {} inside a loop over {}", varName(n.var), varName(n.var)));
      if (n.step < 1)
        problem(where, fmt::format("loop over {} with step {}", varName(n.var), n.step));
      if (n.schedule == Schedule::Vector && (n.var != Var::X || !cpu()))
        problem(where, "only CPU loops over x are vector loops");
      if (n.span == Span::Tile && !context.inTiles)
        problem(where, "a loop over a tile outside the loop over tiles");
      if (n.span == Span::March && cpu())
        problem(where, "CPU kernels march tiles, not CUDA blocks");
      if (n.span == Span::Widened && (cpu() || fn_->steps < 2))
        problem(where, "a loop over widened columns outside a launch of several steps");
      if (n.span == Span::Range && !fn_->params.zRange)
        problem(where, "a loop over the caller's planes in a function that takes none");
      if ((n.low || n.high) && n.var != Var::ZIn &&
          !(n.span == Span::Range && n.low == 0 && n.high == 1 - n.step))
        problem(where, "only a march over input planes reaches past its span, and a loop in "
                       "whole steps stops a step short of it");
      context.vars.insert(n.var);
      context.inVector |= n.schedule == Schedule::Vector;
      break;
    case NodeKind::Tiles:
      if (!cpu() || !fn_->params.tileSizes)
        problem(where, "tiles in a function that takes no tile sizes");
      context.inTiles = true;
      break;
    case NodeKind::Guard:
      context.inGuard = true;
      if (n.guard == GuardKind::Active && cpu())
        problem(where, "CPU loops never run past the box: no activity guard");
      if (n.guard == GuardKind::FirstPlane || n.guard == GuardKind::NextInSpan) {
        if (cpu() || !context.vars.count(Var::Z) || fn_->tileBuffers < 2)
          problem(where, fmt::format("guard {} outside a pipelined CUDA march over z",
                                     guardName(n.guard)));
      } else if (n.guard != GuardKind::Active && !context.vars.count(Var::ZIn)) {
        problem(where,
                fmt::format("guard {} outside a march over input planes", guardName(n.guard)));
      }
      break;
    case NodeKind::Call: {
      const Function *callee = sweep_->find(n.callee);
      if (!callee)
        problem(where, fmt::format("calls {}, which the sweep does not define", n.callee));
      else if (callee->kind == FunctionKind::Driver && !callee->params.zRange)
        problem(where, fmt::format("calls driver {}", n.callee));
      if (!cpu())
        problem(where, "CUDA kernels call nothing");
      break;
    }
    case NodeKind::Barrier:
      if (cpu())
        problem(where, "a barrier in a CPU function");
      if (context.inGuard)
        problem(where, "a barrier under a guard: threads that skip it would deadlock the block");
      break;
    case NodeKind::StageRows:
    case NodeKind::StagedRows: {
      if (n.table < 0 || n.table >= int(c_.stencil->tables.size()))
        problem(where, fmt::format("stages table {}, which does not exist", n.table));
      // rt::loadColumns transposes whole blocks of 4 rows (the packed table is padded).
      else if (const int rows = c_.stencil->tables[n.table].rows;
               n.beginRow < 0 || n.endRow <= n.beginRow ||
               n.endRow > (cpu() ? (rows + 3) / 4 * 4 : rows))
        problem(where, fmt::format("stages rows [{}, {}) of a table of {}", n.beginRow, n.endRow,
                                   c_.stencil->tables[n.table].rows));
      const bool shared = n.dest == StageDest::Shared || n.dest == StageDest::SharedAuto;
      if (shared == cpu())
        problem(where, fmt::format("{} staging in a {} function", stageDestName(n.dest),
                                   targetName(m_.target)));
      if (cpu() && n.index < 0)
        problem(where, "CPU staging reads through an index field");
      if (n.kind == NodeKind::StageRows && n.dest == StageDest::VectorBlock && !context.inVector)
        problem(where, "vector-block staging outside the vector loop");
      staged_[{n.table, n.index, n.inputRow ? n.dz : n.planeShift}].insert({n.beginRow, n.endRow});
      // Slots name distinct buffers: per table in shared memory, per function otherwise.
      if (n.slot < 0 || !stagedSlots_.insert({int(n.kind), shared ? n.table : -1, n.slot}).second)
        problem(where, fmt::format("two staged row sets in slot {}", n.slot));
      break;
    }
    case NodeKind::StageTile:
      if (cpu() || n.field < 0 || c_.stencil->fields[n.field].role != ir::FieldRole::Time)
        problem(where, "shared planes hold time fields in CUDA kernels");
      if (n.planeShift < 0 || n.planeShift >= fn_->tileBuffers)
        problem(where, fmt::format("stages plane z{:+} with {} buffer(s) per plane", n.planeShift,
                                   fn_->tileBuffers));
      break;
    case NodeKind::WaitTiles:
      if (cpu() || fn_->tileBuffers < 2)
        problem(where, "waits for asynchronous plane copies the function does not make");
      break;
    case NodeKind::ShiftQueues:
      if (fn_->queues.empty())
        problem(where, "shifts register queues the kernel does not have");
      break;
    case NodeKind::ShiftPartials:
      if (!fn_->ringOutputs)
        problem(where, "shifts partial sums the kernel does not have");
      break;
    case NodeKind::Sum: sum(n, context); break;
    case NodeKind::Accumulate:
    case NodeKind::Store:
      if (n.update < 0 || n.update >= int(c_.linear.updates.size()))
        problem(where, fmt::format("{} of update {}", nodeKindName(n.kind), n.update));
      if (n.level < 0 || n.level >= fn_->steps)
        problem(where, fmt::format("step {} of a launch of {}", n.level, fn_->steps));
      if (n.ring && (n.kind != NodeKind::Store || n.level + 1 >= fn_->steps))
        problem(where, "keeps a level in a ring that no later step of the launch reads");
      if ((n.kind == NodeKind::Accumulate || n.fromPartial) && cpu() &&
          (n.slot < 0 || !fn_->params.partialSums))
        problem(where, "adds to a partial sum it has no slot for");
      break;
    }
    if (!n.body.empty() && n.kind != NodeKind::Loop && n.kind != NodeKind::Tiles &&
        n.kind != NodeKind::Guard)
      problem(where, fmt::format("a {} with a body", nodeKindName(n.kind)));
    block(n.body, context);
  }

  void sum(const Node &n, const Context &context) {
    const std::string &where = fn_->name;
    if (n.level < 0 || n.level >= fn_->steps)
      problem(where, fmt::format("sums step {} of a launch of {}", n.level, fn_->steps));
    if (n.update < 0 || n.update >= int(c_.linear.updates.size())) {
      problem(where, fmt::format("sums update {}", n.update));
      return;
    }
    const LinearForm &form = c_.linear.updates[n.update];
    const std::vector<int> &mine = c_.decomposition.sweeps[sweep_->sweep].groups[n.update];
    for (int g : n.groups) {
      if (std::find(mine.begin(), mine.end(), g) == mine.end())
        problem(where, fmt::format("sums group {} of update {}, which sweep {} does not have", g,
                                   n.update, sweep_->sweep));
      else if (n.hasDz) {
        bool touches = false;
        for (int t : form.groups[g].terms)
          touches |= form.terms[t].offset[2] == n.dz;
        if (!touches)
          problem(where,
                  fmt::format("sums group {} on plane {:+}, where it has no point", g, n.dz));
      }
    }
    if (n.pointwise && sweep_->sweep != 0)
      problem(where, "adds the pointwise part in a later sweep");
    // A CPU vector loop reads tables only from the rows staged for it.
    if (cpu() && context.inVector) {
      ColumnRows reads;
      addTableReads(form, n.groups, n.pointwise, reads);
      for (const auto &[column, rows] : reads) {
        const int plane = n.inputRow ? n.dz : n.planeShift;
        bool covered = false;
        for (const auto &[begin, end] : staged_[{column.first, column.second, plane}])
          covered |= begin <= rows.first && rows.second < end;
        if (!covered)
          problem(where,
                  fmt::format("reads rows {}..{} of table {} that are not staged", rows.first,
                              rows.second, c_.stencil->tables[column.first].name));
      }
    }
  }

  /// Every group of the sweep is summed, for each update, in every variant:
  /// once at the point, or plane by plane (every plane it has points on) plus
  /// at the store.
  void variant(const Variant &v) {
    std::map<int, std::set<int>> whole;                 // update -> groups summed without dz
    std::map<int, std::set<std::pair<int, int>>> parts; // update -> (group, dz)
    std::set<int> stored;
    for (const std::string &name : v.functions) {
      const Function *f = sweep_->find(name);
      if (!f) {
        problem(v.name, fmt::format("variant lists {}, which the sweep does not define", name));
        continue;
      }
      collect(f->body, whole, parts, stored);
    }
    if (!sweep_->find(v.entry))
      problem(v.name, fmt::format("entry {} is not defined", v.entry));
    const auto &groups = c_.decomposition.sweeps[sweep_->sweep].groups;
    for (size_t u = 0; u < groups.size(); ++u) {
      const LinearForm &form = c_.linear.updates[u];
      for (int g : groups[u]) {
        if (whole[int(u)].count(g))
          continue;
        for (int t : form.groups[g].terms)
          if (!parts[int(u)].count({g, form.terms[t].offset[2]}))
            problem(v.name, fmt::format("group {} of update {} is never summed on plane {:+}", g, u,
                                        form.terms[t].offset[2]));
      }
      if (!stored.count(int(u)) && (sweep_->sweep == 0 || !groups[u].empty()))
        problem(v.name, fmt::format("update {} is never stored", u));
    }
  }

  static void collect(const std::vector<Node> &body, std::map<int, std::set<int>> &whole,
                      std::map<int, std::set<std::pair<int, int>>> &parts, std::set<int> &stored) {
    for (const Node &n : body) {
      if (n.kind == NodeKind::Sum) {
        for (int g : n.groups) {
          if (n.hasDz)
            parts[n.update].insert({g, n.dz});
          else
            whole[n.update].insert(g);
        }
      }
      if (n.kind == NodeKind::Store)
        stored.insert(n.update);
      collect(n.body, whole, parts, stored);
    }
  }

  const CompiledStencil &c_;
  const KernelModule &m_;
  std::vector<std::string> &problems_;
  const SweepKernels *sweep_ = nullptr;
  const Function *fn_ = nullptr;
  std::map<std::tuple<int, int, int>, std::set<std::pair<int, int>>> staged_;
  std::set<std::tuple<int, int, int>> stagedSlots_; // (kind, table if shared, slot)
};

} // namespace

bool verifyKernels(const CompiledStencil &compiled, const KernelModule &module,
                   std::vector<std::string> &problems) {
  size_t before = problems.size();
  Verifier(compiled, module, problems).run();
  return problems.size() == before;
}

} // namespace stencilc::kernel
