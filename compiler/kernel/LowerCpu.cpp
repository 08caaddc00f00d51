//===- LowerCpu.cpp - Kernel IR of the C++/OpenMP-SIMD variants ------------===//
//
// Every CPU variant is built from row functions: an x loop that evaluates
// some coefficient groups of some updates at each point of one output row.
// naive and blocked evaluate every group of a sweep per output row, for up
// to CpuSchedule::outputPlanesPerLoop output planes in one x loop so the points they
// share load once; planes (docs/DESIGN.md §Plane plan, one-to-multi) adds
// each input plane's points to the partial sums of the output rows they
// touch and stores a row once its last input plane is in, its table rows
// staged once per output row.
//
//===----------------------------------------------------------------------===//
#include "kernel/Build.h"
#include "kernel/Lowering.h"
#include "kernel/TableReads.h"
#include "passes/Pipeline.h"

#include <fmt/format.h>

#include <utility>

namespace stencilc::kernel {

using namespace build;

namespace {

/// Rows [begin, end) of a column widened to whole blocks of 4, the smallest
/// block rt::loadColumns transposes.
std::pair<int, int> rowBlocks(std::pair<int, int> rows) {
  return {rows.first / 4 * 4, (rows.second + 4) / 4 * 4};
}

class CpuLowering {
public:
  explicit CpuLowering(const CompiledStencil &c)
      : s_(*c.stencil), linear_(c.linear), schedule_(c.sweepPlan.cpu),
        storesAfterLoads_(storeOverwritesLaterRead(s_, linear_)) {}

  SweepKernels sweep(int s) {
    SweepKernels k;
    k.sweep = s;
    const CpuSweepPlan &plan = schedule_.sweeps[s];
    const int outputPlanesPerLoop = schedule_.outputPlanesPerLoop;
    k.functions.push_back(naiveRow(s, 1));
    if (outputPlanesPerLoop > 1)
      k.functions.push_back(naiveRow(s, outputPlanesPerLoop));
    if (plan.accumulates()) {
      for (int dz : plan.accumulatedPlanes)
        k.functions.push_back(planeAccumulate(s, dz));
      if (plan.accumulatedPlanes.size() > 1)
        k.functions.push_back(planeScatter(s));
      if (!plan.stagedTables.empty())
        k.functions.push_back(planeStage(s));
      k.functions.push_back(planeFinish(s));
    }
    if (outputPlanesPerLoop > 1)
      k.functions.push_back(rowsDriver(s, outputPlanesPerLoop));
    k.functions.push_back(naiveDriver(s, outputPlanesPerLoop));
    k.functions.push_back(blockedDriver(s, outputPlanesPerLoop));
    if (plan.accumulates())
      k.functions.push_back(planesDriver(s));

    const std::string prefix = fmt::format("sweep{}_", s);
    const std::string rows = outputPlanesPerLoop > 1 ? prefix + "rows" : prefix + "row";
    std::vector<std::string> rowCallees = {prefix + "row"};
    if (outputPlanesPerLoop > 1)
      rowCallees = {prefix + "row", fmt::format("{}rows{}", prefix, outputPlanesPerLoop),
                    prefix + "rows"};
    auto with = [&](std::vector<std::string> fs, const std::string &entry) {
      fs.push_back(entry);
      return fs;
    };
    k.variants.push_back({"naive", prefix + "naive", with(rowCallees, prefix + "naive")});
    k.variants.push_back({"blocked", prefix + "blocked", with(rowCallees, prefix + "blocked")});
    if (plan.accumulates()) {
      std::vector<std::string> fs;
      for (const Function &f : k.functions)
        if (f.kind == FunctionKind::Row || f.kind == FunctionKind::Stage)
          if (f.params.partialSums || f.kind == FunctionKind::Stage)
            fs.push_back(f.name);
      fs.push_back(prefix + "planes");
      k.variants.push_back({"planes", prefix + "planes", fs});
    } else {
      // Nothing spans planes in this sweep: planes stores row by row, as blocked does.
      k.variants.push_back({"planes", prefix + "blocked", with(rowCallees, prefix + "blocked")});
    }
    return k;
  }

private:
  /// Every group of a sweep at the points of output row (y, z), or with
  /// `planes` > 1 at rows (y, z) to (y, z + planes - 1) in one x loop: the
  /// points those outputs share, such as p(x, y, z + 1) for outputs z and
  /// z + 2, are then loaded once from L1 instead of once per output.
  Function naiveRow(int s, int planes) const {
    Function f;
    f.kind = FunctionKind::Row;
    f.outputPlanes = planes;
    f.name = planes == 1 ? fmt::format("sweep{}_row", s) : fmt::format("sweep{}_rows{}", s, planes);
    f.note = planes == 1
                 ? fmt::format("Sweep {}: every group of the sweep at the points of output row "
                               "(y, z).",
                               s)
                 : fmt::format("Sweep {}: every group of the sweep at the points of output rows "
                               "(y, z) to (y, z + {}),\nin one x loop, so that the points they "
                               "share are loaded once.",
                               s, planes - 1);
    const std::vector<SweepUpdate> &updates = schedule_.sweeps[s].updates;
    ColumnRows columns;
    for (size_t u = 0; u < linear_.updates.size(); ++u)
      addTableReads(linear_.updates[u], updates[u].groups, s == 0, columns);
    std::vector<Node> body;
    // Table coefficients are staged kW points at a time (rt::loadColumns) so
    // the vector loop reads them as whole vectors instead of gathering them.
    int slot = 0;
    for (const auto &[column, rows] : columns) {
      auto [begin, end] = rowBlocks(rows);
      for (int k = 0; k < planes; ++k)
        body.push_back(
            stageRows(column.first, column.second, begin, end, StageDest::VectorBlock, slot++, k));
    }
    for (int k = 0; k < planes; ++k) {
      bool first = true;
      for (size_t u = 0; u < linear_.updates.size(); ++u) {
        if (s > 0 && updates[u].groups.empty())
          continue; // nothing of this update in a later sweep: its output stays as it is
        Node value = sum(int(u), updates[u].groups, ValueName::Acc);
        value.pointwise = s == 0;
        value.comments = k == 0;
        value.planeShift = k;
        if (planes > 1 && std::exchange(first, false))
          value.note = k == 0 ? "Output plane z."
                              : fmt::format("Output plane z + {}: the same groups, {} plane{} up.",
                                            k, k, k == 1 ? "" : "s");
        body.push_back(std::move(value));
        Node out = store(int(u), s > 0, ValueName::Acc);
        out.planeShift = k;
        // With several planes every store comes after every load, so that the
        // compiler may share loads between outputs; an in-place store must not
        // come before a later update's read of the field it overwrites.
        out.deferred = planes > 1 || storesAfterLoads_;
        body.push_back(std::move(out));
      }
    }
    f.body.push_back(loop(Var::X, Span::Box, Schedule::Vector, std::move(body)));
    return f;
  }

  /// The rows of the sweep's staged tables, read from coefs[first + i],
  /// for output row dz planes below the function's row (scatter) or its own.
  std::vector<Node> stagedInputs(int s, int first, int planeShift) const {
    std::vector<Node> nodes;
    const std::vector<StagedTable> &tables = schedule_.sweeps[s].stagedTables;
    for (size_t i = 0; i < tables.size(); ++i) {
      Node n = stageRows(tables[i].table, tables[i].index, tables[i].beginRow, tables[i].endRow,
                         StageDest::RowBuffer, first + int(i), planeShift);
      n.kind = NodeKind::StagedRows;
      nodes.push_back(std::move(n));
    }
    return nodes;
  }

  Function planesRow(const std::string &name, const std::string &note, int s) const {
    Function f;
    f.kind = FunctionKind::Row;
    f.name = name;
    f.note = note;
    f.params.partialSums = true;
    f.params.stagedRows = !schedule_.sweeps[s].stagedTables.empty();
    return f;
  }

  /// Adds the points at plane offset dz of output row (y, z) to its partial sums.
  Function planeAccumulate(int s, int dz) const {
    Function f = planesRow(fmt::format("sweep{}_plane_{}", s, planeSuffixText(dz)),
                           fmt::format("Sweep {}, planes scheme: adds the points on input plane "
                                       "z{:+} to the partial sums of output\nrow (y, z).",
                                       s, dz),
                           s);
    std::vector<Node> body = stagedInputs(s, 0, 0);
    for (const SweepUpdate &split : schedule_.sweeps[s].updates) {
      const LinearForm &form = linear_.updates[split.update];
      std::vector<int> touching = groupsOnPlane(form, split.accumulated, dz);
      if (touching.empty())
        continue;
      // Summed apart and then added, as the fused scatter does: a point's bits
      // must not depend on whether a tile edge sent it through this function or the scatter.
      Node value = withDz(sum(split.update, touching, ValueName::Sum), dz);
      value.withoutSharedFactors = split.sharedFactors;
      body.push_back(std::move(value));
      body.push_back(withDz(accumulate(split.update, split.slot, ValueName::Sum), dz));
    }
    f.body.push_back(loop(Var::X, Span::Box, Schedule::Vector, std::move(body)));
    return f;
  }

  /// Adds every accumulated point of input row (y, z) to the partial sums of
  /// all the output rows it touches in one x loop: a point that several
  /// outputs read (p(x + 1, y, z) is in every output's sum in ete73) is
  /// loaded once, where the per-plane functions load it once per output.
  Function planeScatter(int s) const {
    const CpuSweepPlan &plan = schedule_.sweeps[s];
    const std::vector<int> &planes = plan.accumulatedPlanes;
    Function f = planesRow(
        fmt::format("sweep{}_scatter", s),
        fmt::format("Sweep {}, planes scheme: adds the points of input row (y, z) to the partial "
                    "sums of every\noutput row they touch, (y, z{:+}) to (y, z{:+}), in one x "
                    "loop, so that points several\noutputs read are loaded once. The tile's first "
                    "and last planes use the per-plane functions.",
                    s, -planes.front(), -planes.back()),
        s);
    std::vector<Node> body;
    for (size_t i = 0; i < planes.size(); ++i) {
      std::vector<Node> inputs = stagedInputs(s, int(i * plan.stagedTables.size()), -planes[i]);
      for (Node &n : inputs) {
        n = withDz(std::move(n), planes[i]); // staged for output row (y, z - dz)
        n.inputRow = true;
        body.push_back(std::move(n));
      }
    }
    for (size_t i = 0; i < planes.size(); ++i) {
      const int dz = planes[i];
      bool first = true;
      for (const SweepUpdate &split : plan.updates) {
        const LinearForm &form = linear_.updates[split.update];
        std::vector<int> touching = groupsOnPlane(form, split.accumulated, dz);
        if (touching.empty())
          continue;
        Node value = withDz(sum(split.update, touching, ValueName::Sum), dz);
        value.withoutSharedFactors = split.sharedFactors;
        value.comments = false;
        value.inputRow = true;
        if (first)
          value.note = fmt::format("Output row (y, z{:+}): its points on this input plane.", -dz);
        first = false;
        body.push_back(std::move(value));
        Node add = withDz(accumulate(split.update, int(i) * plan.accumulatingOutputs() + split.slot,
                                     ValueName::Sum),
                          dz);
        add.inputRow = true;
        body.push_back(std::move(add));
      }
    }
    f.body.push_back(loop(Var::X, Span::Box, Schedule::Vector, std::move(body)));
    return f;
  }

  /// Stages the coefficients of output row (y, z) for all the planes that add to it.
  Function planeStage(int s) const {
    Function f;
    f.kind = FunctionKind::Stage;
    f.name = fmt::format("sweep{}_stage", s);
    f.note = fmt::format("Sweep {}, planes scheme: stages the table coefficients of output row "
                         "(y, z) once for all\nthe input planes that add to it (instead of once "
                         "per plane).",
                         s);
    f.params.stagedRows = true;
    const std::vector<StagedTable> &tables = schedule_.sweeps[s].stagedTables;
    std::vector<Node> body;
    for (size_t i = 0; i < tables.size(); ++i)
      body.push_back(stageRows(tables[i].table, tables[i].index, tables[i].beginRow,
                               tables[i].endRow, StageDest::RowBuffer, int(i)));
    f.body.push_back(loop(Var::X, Span::Box, Schedule::Vector, std::move(body)));
    return f;
  }

  /// Stores finished output row (y, z): partial sums plus the groups applied at store time.
  Function planeFinish(int s) const {
    Function f = planesRow(fmt::format("sweep{}_finish", s),
                           fmt::format("Sweep {}, planes scheme: output row (y, z) has all its "
                                       "input planes; store it.",
                                       s),
                           s);
    std::vector<Node> body = stagedInputs(s, 0, 0);
    for (const SweepUpdate &split : schedule_.sweeps[s].updates) {
      if (s > 0 && split.groups.empty())
        continue;
      Node value = sum(split.update, split.atStore, ValueName::Value);
      value.pointwise = s == 0;
      body.push_back(std::move(value));
      Node out = store(split.update, s > 0, ValueName::Value);
      out.fromPartial = split.slot >= 0;
      out.slot = split.slot;
      out.deferred = storesAfterLoads_;
      out.scaleShared = split.sharedFactors;
      if (split.sharedFactors)
        out.groups = {split.accumulated.front()}; // whose factors scale the partial sum
      body.push_back(std::move(out));
    }
    f.body.push_back(loop(Var::X, Span::Box, Schedule::Vector, std::move(body)));
    return f;
  }

  Function driver(const std::string &name, const std::string &note) const {
    Function f;
    f.kind = FunctionKind::Driver;
    f.name = name;
    f.note = note;
    return f;
  }

  /// Output rows (y, z0) to (y, z1 - 1), `planes` planes per x loop where it can.
  Function rowsDriver(int s, int planes) const {
    Function f = driver(fmt::format("sweep{}_rows", s),
                        fmt::format("Sweep {}: output rows (y, z0) to (y, z1 - 1), {} planes per "
                                    "x loop where it can.",
                                    s, planes));
    f.params.zRange = true;
    f.outputPlanes = planes;
    // Whole steps while `planes` planes remain, then the rest one by one.
    f.body.push_back(loop(Var::Z, Span::Range, Schedule::Serial,
                          {call(fmt::format("sweep{}_rows{}", s, planes))}, planes, 0,
                          -(planes - 1)));
    Node rest = loop(Var::Z, Span::Range, Schedule::Serial, {call(fmt::format("sweep{}_row", s))});
    rest.continues = true;
    f.body.push_back(std::move(rest));
    return f;
  }

  /// The call of the naive and blocked loops: one row, or `planes` rows up to the span's end.
  Node rowsCall(int s, int planes, Span span) const {
    if (planes == 1)
      return call(fmt::format("sweep{}_row", s));
    Node n = call(fmt::format("sweep{}_rows", s));
    n.guardSpan = span; // rows z .. min(z + planes, span end)
    n.step = planes;
    return n;
  }

  Function naiveDriver(int s, int planes) const {
    Function f = driver(fmt::format("sweep{}_naive", s),
                        planes > 1 ? fmt::format("Sweep {}, naive: OpenMP over z and y, SIMD "
                                                 "along x, {} output planes per x loop.",
                                                 s, planes)
                                   : fmt::format("Sweep {}, naive: OpenMP over z and y, SIMD "
                                                 "along x.",
                                                 s));
    f.outputPlanes = planes;
    Node rows = loop(Var::Y, Span::Box, Schedule::Threads, {rowsCall(s, planes, Span::Box)});
    f.body.push_back(loop(Var::Z, Span::Box, Schedule::Threads, {std::move(rows)}, planes));
    return f;
  }

  Function blockedDriver(int s, int planes) const {
    Function f = driver(fmt::format("sweep{}_blocked", s),
                        fmt::format("Sweep {}, blocked: tiles of bx points x by rows x bz planes "
                                    "(bx: whole rows unless asked), one tile per task.",
                                    s));
    f.outputPlanes = planes;
    f.params.tileSizes = true;
    Node rows = loop(Var::Y, Span::Tile, Schedule::Serial, {rowsCall(s, planes, Span::Tile)});
    f.body.push_back(
        tiles({loop(Var::Z, Span::Tile, Schedule::Serial, {std::move(rows)}, planes)}));
    return f;
  }

  /// Each thread marches z through a tile of by rows x bz planes. Input plane
  /// zi is read once: its points at plane offset dz go into the partial sums of
  /// output plane zi - dz, kept in a ring; output plane zi - dzMax is then complete.
  Function planesDriver(int s) const {
    const CpuSweepPlan &plan = schedule_.sweeps[s];
    const std::vector<int> &planes = plan.accumulatedPlanes;
    Function f = driver(
        fmt::format("sweep{}_planes", s),
        fmt::format("Sweep {}, planes: each thread marches z through a tile of by rows x bz "
                    "planes. Input\nplane zi is read once: its points at plane offset dz go into "
                    "the partial sums of output\nplane zi - dz, kept in a ring of kRing planes; "
                    "output plane zi - kDzMax is then complete.",
                    s));
    f.params.tileSizes = true;
    f.ringDzMin = planes.front();
    f.ringDzMax = planes.back();
    f.ringOutputs = plan.accumulatingOutputs();
    std::vector<Node> perRow;
    if (!plan.stagedTables.empty())
      perRow.push_back(guard(GuardKind::OutputInSpan, Span::Tile,
                             {call(fmt::format("sweep{}_stage", s), Var::ZIn, planes.front())},
                             planes.front()));
    if (planes.size() > 1) {
      Node all = guard(GuardKind::AllOutputsIn, Span::Tile, {});
      Node scatter = call(fmt::format("sweep{}_scatter", s), Var::ZIn);
      scatter.inputRow = true;
      all.body.push_back(std::move(scatter));
      all.skipRest = true;
      all.note = "Away from the tile's z edges every output row that input plane zi touches is "
                 "in\nthe tile: one fused x loop adds them all.";
      perRow.push_back(std::move(all));
    }
    for (int dz : planes)
      perRow.push_back(
          guard(GuardKind::OutputInSpan, Span::Tile,
                {call(fmt::format("sweep{}_plane_{}", s, planeSuffixText(dz)), Var::ZIn, dz)}, dz));
    Node finish = guard(GuardKind::DoneInSpan, Span::Tile,
                        {loop(Var::Y, Span::Tile, Schedule::Serial,
                              {call(fmt::format("sweep{}_finish", s), Var::ZDone)})});
    Node march =
        loop(Var::ZIn, Span::Tile, Schedule::Serial,
             {loop(Var::Y, Span::Tile, Schedule::Serial, std::move(perRow)), std::move(finish)}, 1,
             planes.front(), planes.back());
    f.body.push_back(tiles({std::move(march)}));
    return f;
  }

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const CpuSchedule &schedule_;
  const bool storesAfterLoads_; ///< see storeOverwritesLaterRead
};

} // namespace

std::string planeSuffixText(int dz) {
  return dz < 0 ? fmt::format("m{}", -dz) : fmt::format("p{}", dz);
}

std::vector<int> groupsOnPlane(const LinearForm &form, const std::vector<int> &groups, int dz) {
  std::vector<int> touching;
  for (int g : groups)
    for (int t : form.groups[g].terms)
      if (form.terms[t].offset[2] == dz) {
        touching.push_back(g);
        break;
      }
  return touching;
}

KernelModule lowerCpu(const CompiledStencil &compiled) {
  KernelModule m;
  m.target = Target::Cpu;
  m.stencil = compiled.stencil->name;
  CpuLowering lowering(compiled);
  for (size_t s = 0; s < compiled.sweepPlan.cpu.sweeps.size(); ++s) {
    m.sweeps.push_back(lowering.sweep(int(s)));
    planVectorBlocks(*compiled.stencil, compiled.linear, m.sweeps.back());
  }
  m.runDefaults = untunedRunDefaults(*compiled.stencil);
  m.runDefaults.origin =
      "Not tuned (no `stencilc gen --tuning` or --machine): " + m.runDefaults.origin;
  return m;
}

} // namespace stencilc::kernel
