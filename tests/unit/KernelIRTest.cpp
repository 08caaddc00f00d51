//===- KernelIRTest.cpp - The CPU kernel IR follows the sweep plan ---------===//
//
// The kernel IR (compiler/kernel/KernelIR.h) is the level the printers will
// walk, so what each variant loads, stages and sums must be what the sweep
// plan (SweepPlan.h) decided. These tests lower every shipped example, split
// and unsplit, with forced planes per x loop and for both GPUs, and check
// that it verifies for both targets; then they check the CPU variants'
// structure against the plan: which rows naive and blocked stage per output
// plane, and for planes the plane functions, the scatter's row buffers and
// partial-sum slots, the finish and the driver's guards.
// KernelIRCudaTest.cpp checks the CUDA variants, KernelVerifierTest.cpp the verifier.
//
//===----------------------------------------------------------------------===//
#include "KernelTestSupport.h"

#include <gtest/gtest.h>

#include <set>

using namespace stencilc;
using namespace stencilc::kernel;
using namespace stencilc::testing;

namespace {

//===----------------------------------------------------------------------===//
// Every example, every target: the lowering verifies.
//===----------------------------------------------------------------------===//

/// The pipeline options worth lowering each example with: the planner's
/// choice, forced splits, forced planes per x loop, and both GPUs.
std::vector<std::pair<std::string, PipelineOptions>> configurations() {
  std::vector<std::pair<std::string, PipelineOptions>> out = {{"default", {}}};
  for (int split : {1, 2, 3}) {
    PipelineOptions o;
    o.forceSplit = split;
    out.push_back({"--split " + std::to_string(split), o});
  }
  for (int planes : {1, 4}) {
    PipelineOptions o;
    o.outputPlanesPerLoop = planes;
    out.push_back({"--z-planes " + std::to_string(planes), o});
  }
  for (const char *arch : {"sm_80", "sm_90"}) {
    out.push_back({std::string("--plan-target ") + arch, plannedFor(arch)});
    PipelineOptions o = plannedFor(arch);
    o.forceSplit = 2;
    out.push_back({std::string("--plan-target ") + arch + " --split 2", o});
  }
  PipelineOptions both;
  both.forceSplit = 2;
  both.outputPlanesPerLoop = 4;
  out.push_back({"--split 2 --z-planes 4", both});
  return out;
}

TEST(KernelIR, EveryExampleVerifiesForBothTargets) {
  for (const char *example : kExamples)
    for (const auto &[label, options] : configurations())
      for (Target target : {Target::Cpu, Target::Cuda}) {
        SCOPED_TRACE(std::string(example) + " " + label + " for " + targetName(target));
        Lowered l = lower(example, target, options);
        ASSERT_FALSE(l.example.compiled.empty());
        const CompiledStencil &c = l.compiled();
        ASSERT_EQ(l.module.sweeps.size(), c.decomposition.sweeps.size());
        std::string why;
        EXPECT_TRUE(verifies(c, l.module, why)) << why;
        std::vector<std::string> expected =
            target == Target::Cpu ? std::vector<std::string>{"naive", "blocked", "planes"}
                                  : std::vector<std::string>{"gmem", "ro", "traditional", "planes"};
        // Where one sweep makes a step and every output is a time level, a launch takes two.
        if (target == Target::Cuda && twoStepReason(c).empty())
          expected.push_back("twostep");
        for (const SweepKernels &k : l.module.sweeps) {
          std::vector<std::string> names;
          for (const Variant &v : k.variants) {
            names.push_back(v.name);
            // Callees first, the entry last: the order a printer defines them in.
            ASSERT_FALSE(v.functions.empty());
            EXPECT_EQ(v.functions.back(), v.entry);
          }
          EXPECT_EQ(names, expected);
        }
      }
}

//===----------------------------------------------------------------------===//
// CPU naive and blocked
//===----------------------------------------------------------------------===//

/// A row function of naive and blocked: each table column the sweep reads is
/// staged once per output plane of the x loop, in whole blocks of 4 rows, and
/// every update's groups are summed and stored once per plane.
void checkNaiveRow(const CompiledStencil &c, const Function &f, int s, int planes) {
  SCOPED_TRACE(f.name);
  EXPECT_EQ(f.kind, FunctionKind::Row);
  EXPECT_EQ(f.outputPlanes, planes);
  EXPECT_FALSE(f.params.partialSums);
  ASSERT_EQ(f.body.size(), 1u);
  EXPECT_EQ(f.body[0].var, Var::X);
  EXPECT_EQ(f.body[0].schedule, Schedule::Vector);

  const Columns columns = sweepColumns(c, s);
  std::map<std::tuple<int, int, int>, int> staged; // (table, index, plane) -> count
  std::set<int> slots;
  for (const auto &[n, path] : findNodes(f.body, NodeKind::StageRows)) {
    EXPECT_EQ(n->dest, StageDest::VectorBlock);
    EXPECT_TRUE(inVectorLoop(path));
    ++staged[{n->table, n->index, n->planeShift}];
    auto it = columns.find({n->table, n->index});
    ASSERT_NE(it, columns.end()) << "stages a column the sweep does not read";
    EXPECT_EQ(n->beginRow % 4, 0);
    EXPECT_EQ(n->endRow % 4, 0);
    EXPECT_LE(n->beginRow, it->second.first);
    EXPECT_GT(n->endRow, it->second.second);
    slots.insert(n->slot);
  }
  EXPECT_TRUE(nodes(f.body, NodeKind::StagedRows).empty());
  EXPECT_EQ(staged.size(), columns.size() * planes);
  for (const auto &[column, rows] : columns)
    for (int k = 0; k < planes; ++k)
      EXPECT_EQ((staged[{column.first, column.second, k}]), 1)
          << "column of table " << column.first << " on plane z+" << k;
  // One vector block per (column, plane), each in its own slot.
  EXPECT_EQ(slots.size(), columns.size() * planes);

  // Every update the sweep has groups of (all of them in the first sweep,
  // which also stores the pointwise part); a later sweep leaves the others alone.
  const auto &groups = c.decomposition.sweeps[s].groups;
  std::vector<size_t> present;
  for (size_t u = 0; u < groups.size(); ++u)
    if (s == 0 || !groups[u].empty())
      present.push_back(u);
  std::vector<const Node *> sums = nodes(f.body, NodeKind::Sum);
  std::vector<const Node *> stores = nodes(f.body, NodeKind::Store);
  ASSERT_EQ(sums.size(), present.size() * planes);
  ASSERT_EQ(stores.size(), present.size() * planes);
  for (int k = 0; k < planes; ++k)
    for (size_t i = 0; i < present.size(); ++i) {
      const size_t u = present[i];
      const Node &sum = *sums[k * present.size() + i];
      const Node &store = *stores[k * present.size() + i];
      EXPECT_EQ(sum.update, int(u));
      EXPECT_EQ(sum.groups, groups[u]);
      EXPECT_FALSE(sum.hasDz);
      EXPECT_EQ(sum.planeShift, k);
      EXPECT_EQ(sum.pointwise, s == 0);
      EXPECT_EQ(store.update, int(u));
      EXPECT_EQ(store.planeShift, k);
      EXPECT_EQ(store.add, s > 0);
      // Several planes: every store after every load, so loads may be shared.
      EXPECT_EQ(store.deferred, planes > 1);
    }
}

void checkNaiveAndBlocked(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const int planes = c.sweepPlan.cpu.outputPlanesPerLoop;
  checkNaiveRow(c, function(k, name(s, "row")), s, 1);
  const std::string callee = planes > 1 ? name(s, "rows") : name(s, "row");
  if (planes > 1) {
    checkNaiveRow(c, function(k, name(s, "rows" + std::to_string(planes))), s, planes);
    const Function &rows = function(k, name(s, "rows"));
    EXPECT_TRUE(rows.params.zRange);
    std::vector<const Node *> calls = nodes(rows.body, NodeKind::Call);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0]->callee, name(s, "rows" + std::to_string(planes)));
    EXPECT_EQ(calls[1]->callee, name(s, "row"));
    EXPECT_TRUE(rows.body.at(1).continues) << "the remainder loop starts where the first stopped";
  }
  const Function &naive = function(k, name(s, "naive"));
  const Node *z = loopOver(naive, Var::Z);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->span, Span::Box);
  EXPECT_EQ(z->step, planes);
  EXPECT_EQ(z->schedule, Schedule::Threads);
  const Function &blocked = function(k, name(s, "blocked"));
  EXPECT_TRUE(blocked.params.tileSizes);
  ASSERT_EQ(blocked.body.size(), 1u);
  EXPECT_EQ(blocked.body[0].kind, NodeKind::Tiles);
  const Node *tz = loopOver(blocked, Var::Z);
  ASSERT_NE(tz, nullptr);
  EXPECT_EQ(tz->span, Span::Tile);
  EXPECT_EQ(tz->step, planes);
  for (const Function *driver : {&naive, &blocked}) {
    std::vector<const Node *> calls = nodes(driver->body, NodeKind::Call);
    ASSERT_EQ(calls.size(), 1u) << driver->name;
    EXPECT_EQ(calls[0]->callee, callee);
    EXPECT_EQ(calls[0]->step, planes);
  }
  std::vector<std::string> functions = {name(s, "row")};
  if (planes > 1)
    functions = {name(s, "row"), name(s, "rows" + std::to_string(planes)), name(s, "rows")};
  functions.push_back(name(s, "naive"));
  EXPECT_EQ(variant(k, "naive").functions, functions);
  functions.back() = name(s, "blocked");
  EXPECT_EQ(variant(k, "blocked").functions, functions);
}

TEST(KernelIR, CpuRowsStageEachColumnOncePerOutputPlane) {
  for (const char *example : kExamples)
    for (int outputPlanesPerLoop : {0, 1, 4})
      for (int split : {0, 2}) {
        PipelineOptions options;
        options.outputPlanesPerLoop = outputPlanesPerLoop;
        options.forceSplit = split;
        SCOPED_TRACE(std::string(example) + " --z-planes " + std::to_string(outputPlanesPerLoop) +
                     " --split " + std::to_string(split));
        Lowered l = lower(example, Target::Cpu, options);
        ASSERT_FALSE(l.example.compiled.empty());
        for (const SweepKernels &k : l.module.sweeps)
          checkNaiveAndBlocked(l.compiled(), k);
      }
}

TEST(KernelIR, Ete37RowsStageTheirElevenClassRowsPerPlane) {
  PipelineOptions options;
  options.outputPlanesPerLoop = 3;
  Lowered l = lower("ete37", Target::Cpu, options);
  const Function &rows = function(l.module.sweeps.at(0), "sweep0_rows3");
  std::vector<const Node *> staged = nodes(rows.body, NodeKind::StageRows);
  ASSERT_EQ(staged.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(l.compiled().stencil->fields[staged[k]->index].name, "vidx");
    EXPECT_EQ(staged[k]->beginRow, 0);
    EXPECT_EQ(staged[k]->endRow, 12); // rows 0..10 in blocks of 4
    EXPECT_EQ(staged[k]->planeShift, k);
  }
}

//===----------------------------------------------------------------------===//
// CPU planes
//===----------------------------------------------------------------------===//

/// The calls of `driver` with the guard each sits under.
std::vector<std::pair<const Node *, const Node *>> guardedCalls(const Function &driver) {
  std::vector<std::pair<const Node *, const Node *>> out;
  for (const auto &[n, path] : findNodes(driver.body, NodeKind::Call)) {
    const Node *guard = nullptr;
    for (const Node *p : path)
      if (p->kind == NodeKind::Guard)
        guard = p;
    out.push_back({n, guard});
  }
  return out;
}

void checkCpuPlanes(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const CpuSweepPlan &plan = c.sweepPlan.cpu.sweeps[s];
  if (!plan.accumulates()) {
    // Nothing spans planes: planes is blocked.
    EXPECT_EQ(variant(k, "planes").entry, name(s, "blocked"));
    return;
  }
  const std::vector<int> &dzs = plan.accumulatedPlanes;
  const std::vector<StagedTable> &tables = plan.stagedTables;
  const int outputs = plan.accumulatingOutputs();
  const bool scatters = dzs.size() > 1;

  // The variant: one function per plane offset, the scatter, the stage, the finish, the driver.
  std::vector<std::string> functions;
  for (int dz : dzs)
    functions.push_back(name(s, "plane_" + suffix(dz)));
  if (scatters)
    functions.push_back(name(s, "scatter"));
  if (!tables.empty())
    functions.push_back(name(s, "stage"));
  functions.push_back(name(s, "finish"));
  functions.push_back(name(s, "planes"));
  EXPECT_EQ(variant(k, "planes").functions, functions);
  EXPECT_EQ(variant(k, "planes").entry, name(s, "planes"));

  // Per plane offset: the staged rows of output row (y, z), one sum of the
  // groups with a point on that plane per update, added to the update's slot.
  for (int dz : dzs) {
    const Function &f = function(k, name(s, "plane_" + suffix(dz)));
    SCOPED_TRACE(f.name);
    EXPECT_TRUE(f.params.partialSums);
    EXPECT_EQ(f.params.stagedRows, !tables.empty());
    std::vector<const Node *> staged = nodes(f.body, NodeKind::StagedRows);
    ASSERT_EQ(staged.size(), tables.size());
    for (size_t t = 0; t < tables.size(); ++t) {
      EXPECT_EQ(staged[t]->table, tables[t].table);
      EXPECT_EQ(staged[t]->index, tables[t].index);
      EXPECT_EQ(staged[t]->dest, StageDest::RowBuffer);
      EXPECT_EQ(staged[t]->slot, int(t));
      EXPECT_EQ(staged[t]->planeShift, 0);
    }
    std::vector<const Node *> sums = nodes(f.body, NodeKind::Sum);
    std::vector<const Node *> adds = nodes(f.body, NodeKind::Accumulate);
    size_t i = 0;
    for (const SweepUpdate &u : plan.updates) {
      std::vector<int> touching = onPlane(c.linear.updates[u.update], u.accumulated, dz);
      if (touching.empty())
        continue;
      ASSERT_LT(i, sums.size());
      ASSERT_LT(i, adds.size());
      EXPECT_EQ(sums[i]->update, u.update);
      EXPECT_EQ(sums[i]->groups, touching);
      EXPECT_TRUE(sums[i]->hasDz);
      EXPECT_EQ(sums[i]->dz, dz);
      EXPECT_EQ(sums[i]->withoutSharedFactors, u.sharedFactors);
      EXPECT_EQ(adds[i]->update, u.update);
      EXPECT_EQ(adds[i]->slot, u.slot);
      EXPECT_FALSE(adds[i]->inputRow);
      ++i;
    }
    EXPECT_EQ(sums.size(), i);
    EXPECT_EQ(adds.size(), i);
    EXPECT_TRUE(nodes(f.body, NodeKind::Store).empty());
  }

  // The scatter: for each (plane offset i, staged table t) the rows of output
  // row (y, z - dz) from slot i * tables + t; accumulate slots i * outputs + slot.
  if (scatters) {
    const Function &f = function(k, name(s, "scatter"));
    SCOPED_TRACE(f.name);
    std::map<std::pair<int, size_t>, int> staged; // (dz, table) -> count
    for (const Node *n : nodes(f.body, NodeKind::StagedRows)) {
      const size_t i = std::find(dzs.begin(), dzs.end(), n->dz) - dzs.begin();
      ASSERT_LT(i, dzs.size()) << "rows staged for plane offset " << n->dz;
      const size_t t = std::find_if(tables.begin(), tables.end(),
                                    [&](const StagedTable &st) {
                                      return st.table == n->table && st.index == n->index;
                                    }) -
                       tables.begin();
      ASSERT_LT(t, tables.size());
      ++staged[{n->dz, t}];
      EXPECT_TRUE(n->inputRow);
      EXPECT_TRUE(n->hasDz);
      EXPECT_EQ(n->slot, int(i * tables.size() + t));
      EXPECT_EQ(n->beginRow, tables[t].beginRow);
      EXPECT_EQ(n->endRow, tables[t].endRow);
    }
    EXPECT_EQ(staged.size(), dzs.size() * tables.size());
    for (const auto &[key, count] : staged)
      EXPECT_EQ(count, 1) << "plane offset " << key.first << ", table " << key.second;

    std::vector<const Node *> sums = nodes(f.body, NodeKind::Sum);
    std::vector<const Node *> adds = nodes(f.body, NodeKind::Accumulate);
    size_t j = 0;
    for (size_t i = 0; i < dzs.size(); ++i)
      for (const SweepUpdate &u : plan.updates) {
        std::vector<int> touching = onPlane(c.linear.updates[u.update], u.accumulated, dzs[i]);
        if (touching.empty())
          continue;
        ASSERT_LT(j, sums.size());
        ASSERT_LT(j, adds.size());
        EXPECT_EQ(sums[j]->groups, touching);
        EXPECT_EQ(sums[j]->dz, dzs[i]);
        EXPECT_TRUE(sums[j]->inputRow);
        EXPECT_EQ(adds[j]->update, u.update);
        EXPECT_EQ(adds[j]->dz, dzs[i]);
        EXPECT_TRUE(adds[j]->inputRow);
        EXPECT_EQ(adds[j]->slot, int(i) * outputs + u.slot);
        ++j;
      }
    EXPECT_EQ(sums.size(), j);
    EXPECT_EQ(adds.size(), j);
  }

  // The stage: every staged table once, into its row-buffer slot.
  if (!tables.empty()) {
    const Function &f = function(k, name(s, "stage"));
    EXPECT_EQ(f.kind, FunctionKind::Stage);
    std::vector<const Node *> staged = nodes(f.body, NodeKind::StageRows);
    ASSERT_EQ(staged.size(), tables.size());
    for (size_t t = 0; t < tables.size(); ++t) {
      EXPECT_EQ(staged[t]->table, tables[t].table);
      EXPECT_EQ(staged[t]->dest, StageDest::RowBuffer);
      EXPECT_EQ(staged[t]->slot, int(t));
      EXPECT_EQ(staged[t]->beginRow, tables[t].beginRow);
      EXPECT_EQ(staged[t]->endRow, tables[t].endRow);
    }
  }

  // The finish: the groups applied at the store, plus the partial sum.
  {
    const Function &f = function(k, name(s, "finish"));
    SCOPED_TRACE(f.name);
    std::vector<const Node *> sums = nodes(f.body, NodeKind::Sum);
    std::vector<const Node *> stores = nodes(f.body, NodeKind::Store);
    std::vector<const SweepUpdate *> present; // a later sweep stores only what it has groups of
    for (const SweepUpdate &split : plan.updates)
      if (s == 0 || !split.groups.empty())
        present.push_back(&split);
    ASSERT_EQ(sums.size(), present.size());
    ASSERT_EQ(stores.size(), present.size());
    for (size_t u = 0; u < present.size(); ++u) {
      const SweepUpdate &split = *present[u];
      EXPECT_EQ(sums[u]->groups, split.atStore);
      EXPECT_EQ(sums[u]->value, ValueName::Value);
      EXPECT_EQ(stores[u]->update, split.update);
      EXPECT_EQ(stores[u]->fromPartial, split.slot >= 0);
      EXPECT_EQ(stores[u]->slot, split.slot);
      EXPECT_EQ(stores[u]->scaleShared, split.sharedFactors);
      EXPECT_EQ(stores[u]->add, s > 0);
    }
  }

  // The driver marches zi over the tile widened by the plane offsets; each
  // per-plane call is guarded by its output row lying in the tile.
  const Function &driver = function(k, name(s, "planes"));
  EXPECT_EQ(driver.ringDzMin, dzs.front());
  EXPECT_EQ(driver.ringDzMax, dzs.back());
  EXPECT_EQ(driver.ringOutputs, outputs);
  const Node *march = loopOver(driver, Var::ZIn);
  ASSERT_NE(march, nullptr);
  EXPECT_EQ(march->span, Span::Tile);
  EXPECT_EQ(march->low, dzs.front());
  EXPECT_EQ(march->high, dzs.back());
  std::map<std::string, int> calls;
  for (const auto &[call, guard] : guardedCalls(driver)) {
    ++calls[call->callee];
    ASSERT_NE(guard, nullptr) << call->callee << " is called unguarded";
    if (call->callee == name(s, "scatter")) {
      EXPECT_EQ(guard->guard, GuardKind::AllOutputsIn);
      EXPECT_TRUE(guard->skipRest);
    } else if (call->callee == name(s, "finish")) {
      EXPECT_EQ(guard->guard, GuardKind::DoneInSpan);
      EXPECT_EQ(call->row, Var::ZDone);
    } else {
      // A plane function, or the stage at the first input plane of its output row.
      const int dz = call->callee == name(s, "stage") ? dzs.front() : call->dz;
      EXPECT_TRUE(call->callee == name(s, "stage") ||
                  call->callee == name(s, "plane_" + suffix(dz)))
          << call->callee;
      EXPECT_EQ(guard->guard, GuardKind::OutputInSpan);
      EXPECT_EQ(guard->dz, dz);
      EXPECT_EQ(call->row, Var::ZIn);
      EXPECT_EQ(call->dz, dz);
    }
  }
  for (const std::string &f : functions)
    if (f != name(s, "planes"))
      EXPECT_EQ(calls[f], 1) << f;
}

TEST(KernelIR, CpuPlanesFollowTheSweepPlan) {
  for (const char *example : kExamples)
    for (int split : {0, 2, 3}) {
      PipelineOptions options;
      options.forceSplit = split;
      SCOPED_TRACE(std::string(example) + " --split " + std::to_string(split));
      Lowered l = lower(example, Target::Cpu, options);
      ASSERT_FALSE(l.example.compiled.empty());
      for (const SweepKernels &k : l.module.sweeps)
        checkCpuPlanes(l.compiled(), k);
    }
}

TEST(KernelIR, Ete73PlanesScatterStagesOneRowBufferPerOutputRow) {
  for (const char *example : {"ete37", "ete73"}) {
    SCOPED_TRACE(example);
    Lowered l = lower(example, Target::Cpu);
    const SweepKernels &k = l.module.sweeps.at(0);
    // Nine plane offsets, one staged table: nine plane functions, nine staged row buffers.
    int planeFunctions = 0;
    for (const Function &f : k.functions)
      planeFunctions += f.name.rfind("sweep0_plane_", 0) == 0;
    EXPECT_EQ(planeFunctions, 9);
    EXPECT_EQ(nodes(function(k, "sweep0_scatter").body, NodeKind::StagedRows).size(), 9u);
    EXPECT_EQ(nodes(function(k, "sweep0_scatter").body, NodeKind::Accumulate).size(), 9u);
  }
}

TEST(KernelIR, AcousticPlanesApplyTheSharedFactorsOnceAtTheStore) {
  Lowered l = lower("acoustic_iso8", Target::Cpu);
  const SweepKernels &k = l.module.sweeps.at(0);
  const SweepUpdate &u = l.compiled().sweepPlan.cpu.sweeps.at(0).updates.at(0);
  ASSERT_TRUE(u.sharedFactors);
  for (const char *f : {"sweep0_plane_m4", "sweep0_plane_p0", "sweep0_scatter"})
    for (const Node *sum : nodes(function(k, f).body, NodeKind::Sum))
      EXPECT_TRUE(sum->withoutSharedFactors) << f;
  std::vector<const Node *> stores = nodes(function(k, "sweep0_finish").body, NodeKind::Store);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_TRUE(stores[0]->scaleShared);
  EXPECT_TRUE(stores[0]->fromPartial);
  // The factors come from one accumulated group; -u_prev and 2 * u are added after.
  EXPECT_EQ(stores[0]->groups, std::vector<int>{u.accumulated.front()});
  EXPECT_EQ(nodes(function(k, "sweep0_finish").body, NodeKind::Sum).at(0)->groups,
            (std::vector<int>{0, 5}));
  // The CUDA planes kernel keeps the factors in its partial sums.
  Lowered gpu = lower("acoustic_iso8", Target::Cuda);
  for (const Node *sum :
       nodes(function(gpu.module.sweeps.at(0), "sweep0_planes").body, NodeKind::Sum))
    EXPECT_FALSE(sum->withoutSharedFactors);
}

TEST(KernelIR, CpuRowsRecordWholeBlocksAndShiftedRows) {
  // acoustic_iso8: no table, its u row read at x +- 1..4 on plane z: whole
  // blocks that cut the row from whole vectors, reaching 4 below and 4 above.
  {
    Lowered l = lower("acoustic_iso8", Target::Cpu);
    const Function &row = function(l.module.sweeps.at(0), "sweep0_row");
    EXPECT_TRUE(row.wholeBlocks());
    ASSERT_EQ(row.shiftedRows.size(), 1u);
    const ShiftedRow &u = row.shiftedRows.front();
    EXPECT_EQ(l.compiled().stencil->fields[u.field].name, "u");
    EXPECT_EQ(u.dy, 0);
    EXPECT_EQ(u.dz, 0);
    EXPECT_EQ(u.below, 4);
    EXPECT_EQ(u.above, 4);
  }
  // ete37 stages its table columns per block: whole blocks, no row cut (the
  // transposes' shuffles are the ones a cut would compete with).
  {
    Lowered l = lower("ete37", Target::Cpu);
    const Function &row = function(l.module.sweeps.at(0), "sweep0_row");
    EXPECT_TRUE(row.wholeBlocks());
    EXPECT_TRUE(row.shiftedRows.empty());
  }
  // Functions that add to partial sums, or compute several planes per x loop, are point loops.
  for (const char *example : kExamples) {
    SCOPED_TRACE(example);
    PipelineOptions options;
    options.outputPlanesPerLoop = 2;
    Lowered l = lower(example, Target::Cpu, options);
    for (const SweepKernels &sweep : l.module.sweeps)
      for (const Function &f : sweep.functions) {
        if (f.kind != FunctionKind::Row)
          continue;
        if (f.outputPlanes > 1)
          EXPECT_EQ(f.xLoop, XLoop::SeveralPlanes) << f.name;
        else if (f.params.partialSums)
          EXPECT_EQ(f.xLoop, XLoop::PartialSums) << f.name;
        if (!f.wholeBlocks())
          EXPECT_TRUE(f.shiftedRows.empty()) << f.name;
      }
  }
}

} // namespace
