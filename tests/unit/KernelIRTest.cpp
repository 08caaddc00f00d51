//===- KernelIRTest.cpp - The kernel IR follows the sweep plan -------------===//
//
// The kernel IR (compiler/kernel/KernelIR.h) is the level the printers will
// walk, so what each variant loads, stages, queues and synchronises must be
// what the sweep plan (SweepPlan.h) decided. These tests lower the shipped
// examples, split and unsplit, for both targets and check the structure of
// every variant against the plan: which functions exist, which groups each
// sum adds on which plane, which rows are staged where, the slots partial
// sums go to, and where the CUDA barriers are. The expectations are derived
// from the plan and the linear forms here, not from the lowering's helpers.
// The last tests corrupt a lowered module and check the verifier says why.
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "kernel/KernelIR.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace stencilc;
using namespace stencilc::kernel;
using stencilc::testing::CompiledExample;
using stencilc::testing::compileExample;

namespace {

const char *const kExamples[] = {"acoustic_iso8", "ete37", "ete73",      "heat2d",
                                 "laplacian7",    "tti",   "lwc_elastic"};

/// A compiled example and its kernels for one target.
struct Lowered {
  CompiledExample example;
  KernelModule module;
  const CompiledStencil &compiled() const { return example.only(); }
};

Lowered lower(const std::string &name, Target target, const PipelineOptions &options = {}) {
  Lowered l;
  l.example = compileExample(name, false, options);
  if (!l.example.compiled.empty())
    l.module = lowerToKernels(l.example.only(), target);
  return l;
}

PipelineOptions plannedFor(const std::string &target) {
  PipelineOptions options;
  options.target = *planTargetNamed(target);
  return options;
}

std::string suffix(int dz) { return dz < 0 ? "m" + std::to_string(-dz) : "p" + std::to_string(dz); }

std::string name(int sweep, const std::string &rest) {
  return "sweep" + std::to_string(sweep) + "_" + rest;
}

const Function &function(const SweepKernels &k, const std::string &name) {
  static const Function missing;
  const Function *f = k.find(name);
  EXPECT_NE(f, nullptr) << "sweep " << k.sweep << " has no function " << name;
  return f ? *f : missing;
}

const Variant &variant(const SweepKernels &k, const std::string &name) {
  static const Variant missing;
  for (const Variant &v : k.variants)
    if (v.name == name)
      return v;
  ADD_FAILURE() << "sweep " << k.sweep << " has no variant " << name;
  return missing;
}

/// The nodes a node sits in, outermost first.
using Path = std::vector<const Node *>;

void walk(const std::vector<Node> &body, const std::function<void(const Node &, const Path &)> &f,
          Path &path) {
  for (const Node &n : body) {
    f(n, path);
    path.push_back(&n);
    walk(n.body, f, path);
    path.pop_back();
  }
}

/// Every node of `kind` under `body`, in order, with where it sits.
std::vector<std::pair<const Node *, Path>> find(const std::vector<Node> &body, NodeKind kind) {
  std::vector<std::pair<const Node *, Path>> found;
  Path path;
  walk(
      body,
      [&](const Node &n, const Path &p) {
        if (n.kind == kind)
          found.push_back({&n, p});
      },
      path);
  return found;
}

std::vector<const Node *> nodes(const std::vector<Node> &body, NodeKind kind) {
  std::vector<const Node *> out;
  for (const auto &[n, path] : find(body, kind))
    out.push_back(n);
  return out;
}

bool underGuard(const Path &path) {
  return std::any_of(path.begin(), path.end(),
                     [](const Node *n) { return n->kind == NodeKind::Guard; });
}

bool inVectorLoop(const Path &path) {
  return std::any_of(path.begin(), path.end(), [](const Node *n) {
    return n->kind == NodeKind::Loop && n->schedule == Schedule::Vector;
  });
}

/// The one loop over `var` in `f`.
const Node *loopOver(const Function &f, Var var) {
  const Node *found = nullptr;
  for (const Node *n : nodes(f.body, NodeKind::Loop))
    if (n->var == var) {
      EXPECT_EQ(found, nullptr) << f.name << " has two loops over " << varName(var);
      found = n;
    }
  EXPECT_NE(found, nullptr) << f.name << " has no loop over " << varName(var);
  return found;
}

/// The groups of `groups` with a point on plane offset dz.
std::vector<int> onPlane(const LinearForm &form, const std::vector<int> &groups, int dz) {
  std::vector<int> out;
  for (int g : groups)
    if (std::any_of(form.groups[g].terms.begin(), form.groups[g].terms.end(),
                    [&](int t) { return form.terms[t].offset[2] == dz; }))
      out.push_back(g);
  return out;
}

/// (table, index field) -> lowest and highest row that `e` reads.
using Columns = std::map<std::pair<int, int>, std::pair<int, int>>;

void tableReads(const ir::Expr &e, Columns &columns) {
  if (e.kind == ir::Expr::Kind::TableRef) {
    auto [it, fresh] = columns.try_emplace({e.id, e.indexField}, e.row, e.row);
    it->second = {std::min(it->second.first, e.row), std::max(it->second.second, e.row)};
  }
  for (const ir::ExprPtr &op : e.operands)
    tableReads(*op, columns);
}

/// The table columns every group of sweep `s` reads, and in sweep 0 the pointwise parts.
Columns sweepColumns(const CompiledStencil &c, int s) {
  Columns columns;
  for (size_t u = 0; u < c.linear.updates.size(); ++u) {
    const LinearForm &form = c.linear.updates[u];
    for (int g : c.decomposition.sweeps[s].groups[u])
      for (int t : form.groups[g].terms)
        for (const ir::ExprPtr &factor : form.terms[t].factors)
          tableReads(*factor, columns);
    if (s == 0 && form.pointwise)
      tableReads(*form.pointwise, columns);
  }
  return columns;
}

bool verifies(const CompiledStencil &c, const KernelModule &m, std::string &why) {
  std::vector<std::string> problems;
  const bool ok = verifyKernels(c, m, problems);
  for (const std::string &p : problems)
    why += p + "\n";
  return ok && problems.empty();
}

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
    o.zPlanes = planes;
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
  both.zPlanes = 4;
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
        const std::vector<std::string> expected =
            target == Target::Cpu ? std::vector<std::string>{"naive", "blocked", "planes"}
                                  : std::vector<std::string>{"gmem", "ro", "traditional", "planes"};
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
  EXPECT_EQ(f.planes, planes);
  EXPECT_FALSE(f.params.partialSums);
  ASSERT_EQ(f.body.size(), 1u);
  EXPECT_EQ(f.body[0].var, Var::X);
  EXPECT_EQ(f.body[0].schedule, Schedule::Vector);

  const Columns columns = sweepColumns(c, s);
  std::map<std::tuple<int, int, int>, int> staged; // (table, index, plane) -> count
  std::set<int> slots;
  for (const auto &[n, path] : find(f.body, NodeKind::StageRows)) {
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
  // One vector block per (column, plane). The lowering numbers the slot by
  // plane alone, so only with one column per sweep (every shipped example)
  // are the slots distinct; a second table column would reuse them.
  if (columns.size() == 1)
    EXPECT_EQ(slots.size(), size_t(planes));

  const auto &groups = c.decomposition.sweeps[s].groups;
  std::vector<const Node *> sums = nodes(f.body, NodeKind::Sum);
  std::vector<const Node *> stores = nodes(f.body, NodeKind::Store);
  ASSERT_EQ(sums.size(), groups.size() * planes);
  ASSERT_EQ(stores.size(), groups.size() * planes);
  for (int k = 0; k < planes; ++k)
    for (size_t u = 0; u < groups.size(); ++u) {
      const Node &sum = *sums[k * groups.size() + u];
      const Node &store = *stores[k * groups.size() + u];
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
  const int planes = c.sweepPlan.cpu.zPlanes;
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
    for (int zPlanes : {0, 1, 4})
      for (int split : {0, 2}) {
        PipelineOptions options;
        options.zPlanes = zPlanes;
        options.forceSplit = split;
        SCOPED_TRACE(std::string(example) + " --z-planes " + std::to_string(zPlanes) + " --split " +
                     std::to_string(split));
        Lowered l = lower(example, Target::Cpu, options);
        ASSERT_FALSE(l.example.compiled.empty());
        for (const SweepKernels &k : l.module.sweeps)
          checkNaiveAndBlocked(l.compiled(), k);
      }
}

TEST(KernelIR, Ete37RowsStageTheirElevenClassRowsPerPlane) {
  PipelineOptions options;
  options.zPlanes = 3;
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
  for (const auto &[n, path] : find(driver.body, NodeKind::Call)) {
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
    ASSERT_EQ(sums.size(), plan.updates.size());
    ASSERT_EQ(stores.size(), plan.updates.size());
    for (size_t u = 0; u < plan.updates.size(); ++u) {
      const SweepUpdate &split = plan.updates[u];
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

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

/// The shared-memory table rows a marching kernel stages before its march:
/// the plan's Shared rows, then its Auto rows, in the slots the placement gives.
void checkStagedTableRows(const GpuSweepPlan &plan, const Function &f) {
  std::vector<std::pair<const Node *, Path>> staged = find(f.body, NodeKind::StageRows);
  size_t expected = 0;
  for (const auto *rows : {&plan.sharedRows, &plan.autoRows})
    for (const auto &[table, list] : *rows)
      expected += list.size();
  ASSERT_EQ(staged.size(), expected);
  for (const auto &[n, path] : staged) {
    EXPECT_TRUE(path.empty()) << "table rows are staged once, before the march";
    EXPECT_EQ(n->endRow, n->beginRow + 1);
    auto place = plan.placement.find({n->table, n->beginRow});
    ASSERT_NE(place, plan.placement.end());
    EXPECT_EQ(n->slot, place->second.slot);
    EXPECT_EQ(n->dest, place->second.space == TableSpace::Shared ? StageDest::Shared
                                                                 : StageDest::SharedAuto);
    const auto &rows = n->dest == StageDest::Shared ? plan.sharedRows : plan.autoRows;
    ASSERT_TRUE(rows.count(n->table));
    EXPECT_TRUE(llvm::is_contained(rows.at(n->table), n->beginRow));
  }
  // Rows not staged are read where the plan placed them.
  ASSERT_EQ(f.placement.size(), plan.placement.size());
  for (const auto &[row, place] : plan.placement) {
    auto it = f.placement.find(row);
    ASSERT_NE(it, f.placement.end());
    EXPECT_EQ(it->second.space, place.space);
    EXPECT_EQ(it->second.slot, place.slot);
  }
}

/// The march of a kernel: barrier, stage the shared planes, (shift), barrier,
/// work under the activity guard. Barriers are never under a guard, where
/// threads that skip them would deadlock the block.
std::vector<const Node *> checkMarch(const Function &f, const Node &march,
                                     const std::set<int> &tiles) {
  for (const auto &[n, path] : find(f.body, NodeKind::Barrier))
    EXPECT_FALSE(underGuard(path)) << f.name << ": barrier (" << n->note << ") under a guard";
  std::vector<const Node *> steps;
  for (const Node &n : march.body)
    steps.push_back(&n);
  int barriers = 0;
  std::set<int> staged;
  for (const Node *n : steps) {
    barriers += n->kind == NodeKind::Barrier;
    if (n->kind == NodeKind::StageTile) {
      EXPECT_EQ(barriers, 1) << "shared planes are staged between the two barriers";
      EXPECT_TRUE(staged.insert(n->field).second) << "field " << n->field << " staged twice";
    }
  }
  EXPECT_EQ(barriers, 2) << f.name << ": two barriers per march step";
  EXPECT_EQ(nodes(f.body, NodeKind::Barrier).size(), 2u);
  EXPECT_EQ(staged, tiles);
  return steps;
}

void checkTraditional(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const GpuSweepPlan &plan = c.sweepPlan.gpu.sweeps[s];
  const Function &f = function(k, name(s, "traditional"));
  SCOPED_TRACE(f.name);
  EXPECT_EQ(f.rx, plan.traditionalRx);
  EXPECT_EQ(f.ry, plan.traditionalRy);
  // The register queues are the plan's, so the registers are too.
  std::map<QueueColumn, std::pair<int, int>> queues;
  int registers = 0;
  for (const Queue &q : f.queues) {
    queues[{q.field, q.dx, q.dy}] = {q.low, q.high};
    registers += q.high - q.low + 1;
  }
  EXPECT_EQ(f.queues.size(), plan.queues.size());
  EXPECT_EQ(queues, plan.queues);
  EXPECT_EQ(registers, plan.queueValues());
  checkStagedTableRows(plan, f);

  const Node *march = loopOver(f, Var::Z);
  ASSERT_NE(march, nullptr);
  EXPECT_EQ(march->span, Span::March);
  EXPECT_EQ(march->schedule, Schedule::Serial);
  std::vector<const Node *> steps = checkMarch(f, *march, plan.traditionalTiles);
  // The queues take the new plane between the barriers, active threads only.
  std::vector<std::pair<const Node *, Path>> shifts = find(f.body, NodeKind::ShiftQueues);
  ASSERT_EQ(shifts.size(), plan.queues.empty() ? 0u : 1u);
  if (!shifts.empty()) {
    EXPECT_EQ(shifts[0].second.back()->guard, GuardKind::Active);
    EXPECT_EQ(steps.at(steps.size() - 3), shifts[0].second.back());
  }
  ASSERT_EQ(steps.back()->kind, NodeKind::Guard);
  EXPECT_EQ(steps.back()->guard, GuardKind::Active);
  // Each update's groups of the sweep at the point, read on chip.
  std::vector<const Node *> sums = nodes(steps.back()->body, NodeKind::Sum);
  size_t i = 0;
  for (const SweepUpdate &u : plan.updates) {
    if (u.groups.empty() && s > 0)
      continue;
    ASSERT_LT(i, sums.size());
    EXPECT_EQ(sums[i]->update, u.update);
    EXPECT_EQ(sums[i]->groups, u.groups);
    EXPECT_TRUE(sums[i]->onChip);
    ++i;
  }
  EXPECT_EQ(sums.size(), i);
  EXPECT_EQ(nodes(f.body, NodeKind::Store).size(), i);
}

void checkCudaPlanes(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  const GpuSweepPlan &plan = c.sweepPlan.gpu.sweeps[s];
  if (!plan.accumulates()) {
    EXPECT_EQ(variant(k, "planes").entry, name(s, "ro"));
    return;
  }
  const Function &f = function(k, name(s, "planes"));
  SCOPED_TRACE(f.name);
  const std::vector<int> &dzs = plan.planeOffsets;
  int outputs = 0;
  for (const SweepUpdate &u : plan.updates)
    outputs += !u.accumulated.empty();
  EXPECT_EQ(f.ringOutputs, outputs);
  EXPECT_EQ(f.ringDzMin, dzs.front());
  EXPECT_EQ(f.ringDzMax, dzs.back());
  EXPECT_EQ(f.ringDzMax - f.ringDzMin + 1, plan.ringSize());
  EXPECT_EQ(f.rx, plan.planesRx);
  EXPECT_EQ(f.ry, plan.planesRy);
  EXPECT_TRUE(f.queues.empty());
  checkStagedTableRows(plan, f);

  const Node *march = loopOver(f, Var::ZIn);
  ASSERT_NE(march, nullptr);
  EXPECT_EQ(march->span, Span::March);
  EXPECT_EQ(march->low, dzs.front());
  EXPECT_EQ(march->high, dzs.back());
  std::vector<const Node *> steps = checkMarch(f, *march, plan.planesTiles);
  // The partial sums rotate once per step, whether or not the thread is active.
  ASSERT_EQ(steps.back()->kind, NodeKind::ShiftPartials);
  EXPECT_EQ(nodes(f.body, NodeKind::ShiftPartials).size(), 1u);

  // One output-in guard per plane offset, with the groups that have points on it.
  std::vector<const Node *> guards;
  for (const Node *g : nodes(f.body, NodeKind::Guard))
    if (g->guard == GuardKind::OutputInSpan)
      guards.push_back(g);
  ASSERT_EQ(guards.size(), dzs.size());
  for (size_t i = 0; i < dzs.size(); ++i) {
    EXPECT_EQ(guards[i]->dz, dzs[i]);
    std::vector<const Node *> sums = nodes(guards[i]->body, NodeKind::Sum);
    size_t j = 0;
    for (const SweepUpdate &u : plan.updates) {
      std::vector<int> touching = onPlane(c.linear.updates[u.update], u.accumulated, dzs[i]);
      if (touching.empty())
        continue;
      ASSERT_LT(j, sums.size());
      EXPECT_EQ(sums[j]->update, u.update);
      EXPECT_EQ(sums[j]->groups, touching);
      EXPECT_EQ(sums[j]->dz, dzs[i]);
      EXPECT_EQ(sums[j]->target, SumTarget::Partial);
      EXPECT_TRUE(sums[j]->onChip);
      ++j;
    }
    EXPECT_EQ(sums.size(), j);
  }
  // The store of output plane zi - dzMax: the partial sum plus the groups left for it.
  std::vector<const Node *> done;
  for (const Node *g : nodes(f.body, NodeKind::Guard))
    if (g->guard == GuardKind::DoneInSpan)
      done.push_back(g);
  ASSERT_EQ(done.size(), 1u);
  std::vector<const Node *> sums = nodes(done[0]->body, NodeKind::Sum);
  size_t i = 0;
  for (const SweepUpdate &u : plan.updates) {
    if (u.groups.empty() && s > 0)
      continue;
    ASSERT_LT(i, sums.size());
    EXPECT_EQ(sums[i]->groups, u.atStore);
    EXPECT_EQ(sums[i]->fromPartial, !u.accumulated.empty());
    ++i;
  }
  EXPECT_EQ(sums.size(), i);
  EXPECT_EQ(nodes(f.body, NodeKind::Store).size(), i);
}

/// gmem and ro: one thread per point of the box, no staging, no barriers.
void checkPointKernels(const CompiledStencil &c, const SweepKernels &k) {
  const int s = k.sweep;
  for (const char *v : {"gmem", "ro"}) {
    const Function &f = function(k, name(s, v));
    SCOPED_TRACE(f.name);
    const bool ro = std::string(v) == "ro";
    EXPECT_EQ(f.readOnlyCoefficients, ro);
    EXPECT_EQ(f.tableSpace, ro ? TableSpace::ReadOnly : TableSpace::Global);
    EXPECT_TRUE(f.placement.empty());
    const Node *n = &f.body.at(0);
    for (Var var : {Var::Z, Var::Y, Var::X}) {
      ASSERT_EQ(n->kind, NodeKind::Loop);
      EXPECT_EQ(n->var, var);
      EXPECT_EQ(n->span, Span::Box);
      EXPECT_EQ(n->schedule, Schedule::Threads);
      if (var != Var::X) {
        ASSERT_EQ(n->body.size(), 1u);
        n = &n->body[0];
      }
    }
    for (NodeKind kind : {NodeKind::Barrier, NodeKind::StageRows, NodeKind::StageTile,
                          NodeKind::ShiftQueues, NodeKind::ShiftPartials, NodeKind::Guard})
      EXPECT_TRUE(nodes(f.body, kind).empty()) << nodeKindName(kind);
    for (const Node *sum : nodes(f.body, NodeKind::Sum)) {
      EXPECT_EQ(sum->groups, c.sweepPlan.gpu.sweeps[s].updates[sum->update].groups);
      EXPECT_FALSE(sum->onChip);
    }
    EXPECT_EQ(variant(k, v).functions, std::vector<std::string>{name(s, v)});
  }
}

TEST(KernelIR, CudaVariantsFollowTheSweepPlan) {
  for (const char *example : kExamples)
    for (const char *target : {"sm_80", "sm_90", "cpu"})
      for (int split : {0, 2}) {
        // Planned for the CPU, the GPU plan leaves every table row to the backend (Auto).
        PipelineOptions options = plannedFor(target);
        options.forceSplit = split;
        SCOPED_TRACE(std::string(example) + " planned for " + target + " --split " +
                     std::to_string(split));
        Lowered l = lower(example, Target::Cuda, options);
        ASSERT_FALSE(l.example.compiled.empty());
        for (const SweepKernels &k : l.module.sweeps) {
          checkPointKernels(l.compiled(), k);
          checkTraditional(l.compiled(), k);
          checkCudaPlanes(l.compiled(), k);
        }
      }
}

TEST(KernelIR, Ete73CudaLoadsQueuesAndBarriersPerVariant) {
  Lowered l = lower("ete73", Target::Cuda, plannedFor("sm_90"));
  const SweepKernels &k = l.module.sweeps.at(0);
  const GpuSweepPlan &plan = l.compiled().sweepPlan.gpu.sweeps.at(0);
  struct Expected {
    const char *variant;
    size_t barriers, queues, stagedRows, tiles;
  };
  // On sm_90 12 of C's 17 rows fit in shared memory; the other 5 go through the read-only cache.
  const size_t rows = 12;
  EXPECT_EQ(plan.placement.size(), 17u);
  for (const Expected &e :
       {Expected{"gmem", 0, 0, 0, 0}, Expected{"ro", 0, 0, 0, 0},
        Expected{"traditional", 2, 17, rows, 1}, Expected{"planes", 2, 0, rows, 1}}) {
    const Function &f = function(k, std::string("sweep0_") + e.variant);
    SCOPED_TRACE(f.name);
    EXPECT_EQ(nodes(f.body, NodeKind::Barrier).size(), e.barriers);
    EXPECT_EQ(f.queues.size(), e.queues);
    EXPECT_EQ(nodes(f.body, NodeKind::StageRows).size(), e.stagedRows);
    EXPECT_EQ(nodes(f.body, NodeKind::StageTile).size(), e.tiles);
  }
  EXPECT_EQ(function(k, "sweep0_planes").ringOutputs, 1);
  // The 17 queue columns hold every point off the current plane: 45 registers per thread.
  int registers = 0;
  for (const Queue &q : function(k, "sweep0_traditional").queues)
    registers += q.high - q.low + 1;
  EXPECT_EQ(registers, plan.queueValues());
}

//===----------------------------------------------------------------------===//
// The verifier rejects corrupted modules, and says why.
//===----------------------------------------------------------------------===//

std::vector<std::string> problemsOf(const CompiledStencil &c, const KernelModule &m) {
  std::vector<std::string> problems;
  EXPECT_FALSE(verifyKernels(c, m, problems));
  return problems;
}

bool says(const std::vector<std::string> &problems, const std::string &message) {
  return std::find(problems.begin(), problems.end(), message) != problems.end();
}

std::string listed(const std::vector<std::string> &problems) {
  std::string out;
  for (const std::string &p : problems)
    out += "\n  " + p;
  return out;
}

Function &mutableFunction(KernelModule &m, int sweep, const std::string &name) {
  for (Function &f : m.sweeps.at(sweep).functions)
    if (f.name == name)
      return f;
  ADD_FAILURE() << "no function " << name;
  static Function missing;
  return missing;
}

/// Removes every node of `kind` from `body`, at any depth; returns how many.
int erase(std::vector<Node> &body, NodeKind kind) {
  int removed = 0;
  for (Node &n : body)
    removed += erase(n.body, kind);
  const size_t before = body.size();
  body.erase(
      std::remove_if(body.begin(), body.end(), [&](const Node &n) { return n.kind == kind; }),
      body.end());
  return removed + int(before - body.size());
}

TEST(KernelIRVerifier, RejectsABarrierUnderAGuard) {
  Lowered l = lower("ete73", Target::Cuda, plannedFor("sm_90"));
  std::string why;
  ASSERT_TRUE(verifies(l.compiled(), l.module, why)) << why;
  Function &f = mutableFunction(l.module, 0, "sweep0_traditional");
  std::vector<Node> &step = f.body.back().body; // the march over z
  // Move "plane z is in" into the activity guard that follows it.
  auto barrier = std::find_if(step.rbegin(), step.rend(),
                              [](const Node &n) { return n.kind == NodeKind::Barrier; });
  ASSERT_NE(barrier, step.rend());
  Node moved = *barrier;
  step.erase(std::next(barrier).base());
  ASSERT_EQ(step.back().guard, GuardKind::Active);
  step.back().body.insert(step.back().body.begin(), moved);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_traditional: a barrier under a guard: threads that "
                             "skip it would deadlock the block"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsACallOfAFunctionTheSweepLacks) {
  Lowered l = lower("ete37", Target::Cpu);
  Function &naive = mutableFunction(l.module, 0, "sweep0_naive");
  std::vector<Node *> calls;
  std::function<void(std::vector<Node> &)> collect = [&](std::vector<Node> &body) {
    for (Node &n : body) {
      if (n.kind == NodeKind::Call)
        calls.push_back(&n);
      collect(n.body);
    }
  };
  collect(naive.body);
  ASSERT_EQ(calls.size(), 1u);
  calls[0]->callee = "sweep1_rows";
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(
      says(problems, "sweep 0, sweep0_naive: calls sweep1_rows, which the sweep does not define"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsASumOfAGroupTheSweepDoesNotHave) {
  PipelineOptions options;
  options.forceSplit = 2;
  Lowered l = lower("ete37", Target::Cuda, options);
  const auto &groups = l.compiled().decomposition.sweeps;
  ASSERT_EQ(groups.size(), 2u);
  ASSERT_FALSE(groups[1].groups[0].empty());
  const int stranger = groups[1].groups[0].front(); // a group of sweep 1 only
  Function &gmem = mutableFunction(l.module, 0, "sweep0_gmem");
  std::vector<Node> &point = gmem.body[0].body[0].body[0].body; // z, y, x
  ASSERT_EQ(point.at(0).kind, NodeKind::Sum);
  point[0].groups.push_back(stranger);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, sweep0_gmem: sums group " + std::to_string(stranger) +
                                 " of update 0, which sweep 0 does not have"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsACpuVectorLoopReadingRowsThatAreNotStaged) {
  Lowered l = lower("ete37", Target::Cpu);
  Function &row = mutableFunction(l.module, 0, "sweep0_row");
  ASSERT_EQ(erase(row.body, NodeKind::StageRows), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  // ete37's groups read rows 0..10 of C (its eleven coefficient classes).
  EXPECT_TRUE(
      says(problems, "sweep 0, sweep0_row: reads rows 0..10 of table C that are not staged"))
      << listed(problems);
}

TEST(KernelIRVerifier, RejectsAVariantThatNeverStoresAnUpdate) {
  Lowered l = lower("heat2d", Target::Cuda);
  Function &gmem = mutableFunction(l.module, 0, "sweep0_gmem");
  ASSERT_EQ(erase(gmem.body, NodeKind::Store), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  EXPECT_TRUE(says(problems, "sweep 0, gmem: update 0 is never stored")) << listed(problems);
  EXPECT_EQ(problems.size(), 1u) << "the other variants still store it" << listed(problems);
}

TEST(KernelIRVerifier, RejectsAGroupNeverSummedOnOneOfItsPlanes) {
  // heat2d is 2D: its planes variant has one plane function and no scatter,
  // so the plane function's sum is the only one of its groups.
  Lowered l = lower("heat2d", Target::Cpu);
  Function &plane = mutableFunction(l.module, 0, "sweep0_plane_p0");
  ASSERT_EQ(erase(plane.body, NodeKind::Sum), 1);
  auto problems = problemsOf(l.compiled(), l.module);
  for (int g : l.compiled().decomposition.sweeps[0].groups[0])
    EXPECT_TRUE(says(problems, "sweep 0, planes: group " + std::to_string(g) +
                                   " of update 0 is never summed on plane +0"))
        << listed(problems);
}

} // namespace
