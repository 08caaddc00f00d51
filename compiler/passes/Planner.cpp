//===- Planner.cpp --------------------------------------------------------===//
#include "passes/Planner.h"

#include "target/CudaArchs.h"

#include "ir/ExprVisitor.h"
#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace stencilc {

namespace {

using Kind = ir::Expr::Kind;

struct NamedTarget {
  const char *name;
  PlanTarget target;
};

PlanTarget cudaTarget(const target::CudaArch &arch) {
  PlanTarget t;
  t.kind = PlanTarget::Kind::Cuda;
  t.name = arch.name;
  t.onChipBudget = arch.sharedBytesPerBlock; // what any block gets without opting in
  // The read-only path goes through L1, which shares its SRAM with shared memory.
  t.combinedL1 = arch.l1AndSharedBytes;
  t.cacheBudget = arch.l1AndSharedBytes - t.onChipBudget;
  // Calibrated on the measurements of [2] (docs/DESIGN.md §References), Fig. 8: moving ETE-37
  // float's 11 coefficient gathers from global to shared memory gains 80-130%; read-only lies in
  // between.
  t.gatherWeight[0] = 0.1;
  t.gatherWeight[1] = 0.3;
  t.gatherWeight[2] = 0.6;
  t.writeAllocate = false; // GPU stores write whole sectors
  return t;
}

const std::vector<NamedTarget> &namedTargets() {
  static const std::vector<NamedTarget> targets = [] {
    std::vector<NamedTarget> list = {{"cpu", PlanTarget{}}}; // Zen 3: 32 KiB L1d, 512 KiB L2
    for (const target::CudaArch &arch : target::cudaArchs())
      list.push_back({arch.name, cudaTarget(arch)});
    return list;
  }();
  return targets;
}

void collectTableRows(const ir::Expr &e, std::set<std::pair<int, int>> &rows) {
  ir::forEachExpr(e, [&](const ir::Expr &n) {
    if (n.kind == Kind::TableRef)
      rows.insert({n.id, n.row});
  });
}

void collectFieldReads(const ir::Expr &e, std::set<int> &fields) {
  ir::forEachExpr(e, [&](const ir::Expr &n) {
    if (n.kind == Kind::FieldRef)
      fields.insert(n.id);
    if (n.kind == Kind::TableRef && n.indexField >= 0)
      fields.insert(n.indexField);
  });
}

int fieldBytes(const ir::Stencil &s, int field) {
  const ir::Field &f = s.fields[field];
  return f.role == ir::FieldRole::Index ? ir::indexTypeBytes(f.indexType)
                                        : ir::elemTypeBytes(s.elemType);
}

/// Groups that hold no table row never pay for a sweep of their own: they go
/// to the first sweep with the centre-only groups.
bool readsTable(const LinearForm &form, int group) { return !tableRowsOf(form, {group}).empty(); }

/// `parts` sweeps; each of the first parts-1 takes table groups in order while
/// their rows fit on chip (at least one), the last takes the rest.
std::optional<Decomposition> fillOnChipFirst(const LinearStencil &linear, int parts,
                                             long onChipRowsBytes, long rowBytes) {
  Decomposition d;
  d.sweeps.assign(parts, {});
  for (SubStencil &sweep : d.sweeps)
    sweep.groups.resize(linear.updates.size());
  int part = 0;
  std::set<std::pair<int, int>> rowsInPart;
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    for (size_t g = 0; g < form.groups.size(); ++g) {
      if (isCentreOnlyGroup(form, form.groups[g]) || !readsTable(form, int(g))) {
        d.sweeps[0].groups[u].push_back(int(g));
        continue;
      }
      std::set<std::pair<int, int>> grown = rowsInPart;
      for (auto row : tableRowsOf(form, {int(g)}))
        grown.insert(row);
      bool full = long(grown.size()) * rowBytes > onChipRowsBytes && !rowsInPart.empty();
      if (full && part + 1 < parts) {
        ++part;
        grown.clear();
        for (auto row : tableRowsOf(form, {int(g)}))
          grown.insert(row);
      }
      rowsInPart = std::move(grown);
      d.sweeps[part].groups[u].push_back(int(g));
    }
  }
  if (part + 1 != parts)
    return std::nullopt; // fewer sweeps would do: another candidate covers that
  for (SubStencil &sweep : d.sweeps)
    for (auto &groups : sweep.groups)
      std::sort(groups.begin(), groups.end());
  return d;
}

long rowBytesOf(const ir::Stencil &s, const PlanTarget &target) {
  return long(target.nd) * ir::elemTypeBytes(s.elemType);
}

/// What a block's shared memory holds for table rows once the marching kernels' planes are in:
/// planes' one buffer per plane, or traditional's two. Each sweep's plan decides later whether
/// its traditional kernel takes the second buffer (traditionalTileBuffers, from the sweep's
/// own queues), so the rows placed here leave room for it either way.
long onChipForTables(const ir::Stencil &s, const PlanePlan &planes, const PlanTarget &target) {
  if (target.kind != PlanTarget::Kind::Cuda)
    return target.onChipBudget;
  const int elem = ir::elemTypeBytes(s.elemType);
  const long tiles = std::max(sharedTileBytes(planes.planesTiles, target.block, elem),
                              2 * sharedTileBytes(planes.traditionalTiles, target.block, elem));
  return std::max(0L, target.onChipBudget - tiles);
}

int movableGroups(const LinearStencil &linear) {
  int n = 0;
  for (const LinearForm &form : linear.updates)
    for (const CoefGroup &g : form.groups)
      n += isCentreOnlyGroup(form, g) ? 0 : 1;
  return n;
}

} // namespace

std::optional<PlanTarget> planTargetNamed(const std::string &name) {
  for (const NamedTarget &t : namedTargets())
    if (name == t.name)
      return t.target;
  return std::nullopt;
}

const std::vector<std::string> &planTargetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const NamedTarget &t : namedTargets())
      n.push_back(t.name);
    return n;
  }();
  return names;
}

std::optional<PlanTarget> makePlanTarget(const std::string &name, int nd, long onChipBudget,
                                         long cacheBudget, std::string &error) {
  std::optional<PlanTarget> target = planTargetNamed(name);
  if (!target) {
    std::string names;
    for (const std::string &n : planTargetNames())
      names += (names.empty() ? "" : ", ") + n;
    error = fmt::format("unknown plan target '{}'; targets are: {}", name, names);
    return std::nullopt;
  }
  if (nd < 1 || nd > (1 << 24)) {
    error = fmt::format("Nd must be between 1 and {}, not {}", 1 << 24, nd);
    return std::nullopt;
  }
  target->nd = nd;
  if (onChipBudget >= 0) {
    target->onChipBudget = onChipBudget;
    if (target->combinedL1 > 0 && cacheBudget < 0)
      target->cacheBudget = std::max(0L, target->combinedL1 - onChipBudget);
  }
  if (cacheBudget >= 0)
    target->cacheBudget = cacheBudget;
  return target;
}

const char *tableSpaceName(TableSpace space) {
  switch (space) {
  case TableSpace::Auto: return "auto";
  case TableSpace::Shared: return "shared";
  case TableSpace::ReadOnly: return "readonly";
  case TableSpace::Global: return "global";
  }
  return "?";
}

std::vector<std::pair<int, int>> tableRowsOf(const LinearForm &form,
                                             const std::vector<int> &groups) {
  std::set<std::pair<int, int>> rows;
  for (int g : groups)
    for (int t : form.groups[g].terms)
      for (const ir::ExprPtr &f : form.terms[t].factors)
        collectTableRows(*f, rows);
  return {rows.begin(), rows.end()};
}

double sweepGridBytes(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                      size_t sweep, bool writeAllocate) {
  std::set<int> reads;
  double bytes = 0;
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    const std::vector<int> &groups = d.sweeps[sweep].groups[u];
    for (int g : groups)
      for (int t : form.groups[g].terms) {
        reads.insert(form.terms[t].field);
        for (const ir::ExprPtr &f : form.terms[t].factors)
          collectFieldReads(*f, reads);
      }
    int out = ir::elemTypeBytes(s.elemType);
    if (sweep == 0) {
      if (form.pointwise)
        collectFieldReads(*form.pointwise, reads);
      bytes += out * (writeAllocate ? 2 : 1); // `=`: the first sweep writes every output
    } else if (!groups.empty()) {
      bytes += 2 * out; // `+=`: read and write the output
    }
  }
  for (int f : reads)
    bytes += fieldBytes(s, f);
  return bytes;
}

void costDecomposition(const ir::Stencil &s, const LinearStencil &linear, const PlanePlan &planes,
                       const PlanTarget &target, const std::optional<TableSpace> &forcedSpace,
                       PlanCandidate &c) {
  const int elem = ir::elemTypeBytes(s.elemType);
  const long rowBytes = rowBytesOf(s, target);
  const long onChip = onChipForTables(s, planes, target);
  const bool cuda = target.kind == PlanTarget::Kind::Cuda;
  c.gridBytes = c.gatherBytes = 0;
  c.rowsPerTier.clear();
  for (size_t i = 0; i < c.decomposition.sweeps.size(); ++i) {
    SubStencil &sweep = c.decomposition.sweeps[i];
    c.gridBytes += sweepGridBytes(s, linear, c.decomposition, i, target.writeAllocate);
    // Rows in group order: the first ones that fit go on chip, then into the
    // cache, the rest stay in memory. A row two groups share is placed once.
    std::set<std::pair<int, int>> placed;
    long used[2] = {0, 0};
    std::array<int, 3> tiers = {0, 0, 0};
    sweep.tableSpace.assign(sweep.groups.size(), {});
    for (size_t u = 0; u < sweep.groups.size(); ++u) {
      for (int g : sweep.groups[u]) {
        std::vector<std::pair<int, int>> rows;
        for (auto row : tableRowsOf(linear.updates[u], {g}))
          if (!placed.count(row))
            rows.push_back(row);
        placed.insert(rows.begin(), rows.end());
        long bytes = long(rows.size()) * rowBytes;
        Tier tier = Tier::Memory;
        if (forcedSpace && *forcedSpace != TableSpace::Auto)
          tier = *forcedSpace == TableSpace::Shared     ? Tier::OnChip
                 : *forcedSpace == TableSpace::ReadOnly ? Tier::Cache
                                                        : Tier::Memory;
        else if (used[0] + bytes <= onChip)
          tier = Tier::OnChip;
        else if (used[1] + bytes <= target.cacheBudget)
          tier = Tier::Cache;
        if (tier != Tier::Memory)
          used[int(tier)] += bytes;
        tiers[int(tier)] += int(rows.size());
        c.gatherBytes += double(rows.size()) * elem * target.gatherWeight[int(tier)];
        TableSpace space = TableSpace::Auto;
        if (cuda && !tableRowsOf(linear.updates[u], {g}).empty())
          space = tier == Tier::OnChip  ? TableSpace::Shared
                  : tier == Tier::Cache ? TableSpace::ReadOnly
                                        : TableSpace::Global;
        sweep.tableSpace[u].push_back(space);
      }
    }
    c.rowsPerTier.push_back(tiers);
  }
  if (!cuda) // the CPU kernels do not place tables: caches do
    for (SubStencil &sweep : c.decomposition.sweeps)
      sweep.tableSpace.clear();
}

bool planDecomposition(const ir::Stencil &s, const LinearStencil &linear, const PlanePlan &planes,
                       const PlanTarget &target, const PlanOverride &forced, PlanReport &report,
                       std::string &why) {
  report = {};
  auto add = [&](std::string shape, Decomposition d) {
    PlanCandidate c;
    c.shape = std::move(shape);
    c.decomposition = std::move(d);
    costDecomposition(s, linear, planes, target, forced.space, c);
    report.candidates.push_back(std::move(c));
  };

  if (forced.sweeps > 0) {
    Decomposition d;
    if (forced.sweeps == 1) {
      d = wholeStencil(linear);
    } else if (!splitStencil(linear, forced.sweeps, d, why)) {
      return false;
    }
    add(fmt::format("{} sweep{} (forced by {})", forced.sweeps, forced.sweeps == 1 ? "" : "s",
                    forced.origin),
        std::move(d));
    report.why = fmt::format("the number of sweeps is forced by {}", forced.origin);
  } else {
    add("1 sweep", wholeStencil(linear));
    int most = std::min(target.maxSweeps, movableGroups(linear));
    long onChip = onChipForTables(s, planes, target);
    for (int k = 2; k <= most; ++k) {
      if (auto d = fillOnChipFirst(linear, k, onChip, rowBytesOf(s, target)))
        add(fmt::format("{} sweeps, on-chip rows filled first", k), std::move(*d));
      Decomposition even;
      std::string unused;
      if (splitStencil(linear, k, even, unused))
        add(fmt::format("{} sweeps, terms dealt evenly", k), std::move(even));
    }
    // Least cost; candidates come in order of sweeps, so ties keep fewer sweeps.
    for (size_t i = 1; i < report.candidates.size(); ++i)
      if (report.candidates[i].cost() < report.candidates[report.chosen].cost() - 1e-9)
        report.chosen = int(i);
    report.why = "least modelled cost (ties go to fewer sweeps)";
  }
  // Each sweep says why it exists: the planner's placement, or (when forced)
  // the forced split's own reason, with the GPU placement after it.
  PlanCandidate &chosen = report.candidates[report.chosen];
  const bool cuda = target.kind == PlanTarget::Kind::Cuda;
  for (size_t i = 0; i < chosen.decomposition.sweeps.size(); ++i) {
    const std::array<int, 3> &t = chosen.rowsPerTier[i];
    std::string placement =
        fmt::format("rows {} {}, {} {}, {} {}", t[0], cuda ? "shared" : "L1", t[1],
                    cuda ? "read-only" : "L2", t[2], cuda ? "global" : "memory");
    std::string &reason = chosen.decomposition.sweeps[i].reason;
    if (forced.sweeps == 0)
      reason = fmt::format("{} {}/{}: {}", target.name, i + 1, chosen.decomposition.sweeps.size(),
                           placement);
    else if (cuda)
      reason += fmt::format(" ({}: {})", target.name, placement);
  }
  return true;
}

void explainPlan(const ir::Stencil &s, const PlanTarget &target, const PlanReport &report,
                 llvm::raw_ostream &os) {
  bool cuda = target.kind == PlanTarget::Kind::Cuda;
  os << fmt::format("decompose: stencil '{}' for {} ({}, Nd = {}): on-chip budget {} B ({}), "
                    "cache budget {} B ({})\n",
                    s.name, target.name, ir::elemTypeName(s.elemType), target.nd,
                    target.onChipBudget, cuda ? "shared memory per block" : "L1 per core",
                    target.cacheBudget, cuda ? "read-only cache" : "L2 per core");
  os << fmt::format("  cost per point = grid bytes of every sweep + gathered rows x {} B x "
                    "weight (on chip {}, cache {}, memory {})\n",
                    ir::elemTypeBytes(s.elemType), target.gatherWeight[0], target.gatherWeight[1],
                    target.gatherWeight[2]);
  for (size_t i = 0; i < report.candidates.size(); ++i) {
    const PlanCandidate &c = report.candidates[i];
    std::string tiers;
    for (const auto &t : c.rowsPerTier)
      tiers += fmt::format("{}[{}/{}/{}]", tiers.empty() ? "" : " ", t[0], t[1], t[2]);
    os << fmt::format("  {} {:<40} grid {:6.1f} + gathers {:6.1f} = {:6.1f} B/pt  rows "
                      "on-chip/cache/memory per sweep: {}\n",
                      int(i) == report.chosen ? "*" : " ", c.shape, c.gridBytes, c.gatherBytes,
                      c.cost(), tiers);
  }
  os << fmt::format("  chose '{}': {}\n", report.candidates[report.chosen].shape, report.why);
}

} // namespace stencilc
