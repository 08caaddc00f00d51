//===- SweepPlan.cpp - What each kernel of each sweep keeps where ---------===//
#include "passes/SweepPlan.h"

#include "ir/ExprVisitor.h"
#include "ir/linear/FieldReach.h"
#include "passes/PlanePlan.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>

namespace stencilc {

namespace {

using ir::Offset;

// Default CPU tiles; `stencilc bench --search` finds better ones per machine.
constexpr CpuTile kBlockedTile{16, 16};
constexpr CpuTile kPlanesTile{16, 64};
// With staged table coefficients the planes ring holds ~20 coefficients per
// point as well: 4 rows keep it in L2, and taller tiles, whose ring outgrows
// L2, run slower (docs/PERFORMANCE.md §Staged row coefficients and several
// output planes per x loop).
constexpr int kPlanesStagedY = 4;

/// A table lookup in a coefficient factor.
struct TableRead {
  int table, row, index;
};

void collectTableReads(const ir::Expr &e, std::vector<TableRead> &reads) {
  ir::forEachExpr(e, [&](const ir::Expr &n) {
    if (n.kind == ir::Expr::Kind::TableRef)
      reads.push_back({n.id, n.row, n.indexField});
  });
}

/// The table lookups of a group's coefficient: the factors of its first term
/// (every term of a group has the same factors).
std::vector<TableRead> groupTableReads(const LinearForm &form, int group) {
  std::vector<TableRead> reads;
  for (const ir::ExprPtr &factor : form.terms[form.groups[group].terms[0]].factors)
    collectTableReads(*factor, reads);
  return reads;
}

/// The groups of one sweep's update split into accumulated and centre-only ones.
SweepUpdate splitUpdate(const LinearForm &form, int update, const std::vector<int> &groups) {
  SweepUpdate split;
  split.update = update;
  split.groups = groups;
  for (int g : groups)
    (isCentreOnlyGroup(form, form.groups[g]) ? split.atStore : split.accumulated).push_back(g);
  return split;
}

/// Sets split.sharedFactors when the groups with points off the output's
/// plane all have the same (non-empty) factors; the other accumulated groups,
/// which then lie on the output's plane only (acoustic's 2 * u), move to the
/// store, where the output's plane is read anyway.
void shareFactors(const LinearForm &form, SweepUpdate &split) {
  std::vector<std::vector<int>> partitions = partitionGroupsByFactors(form, split.accumulated);
  auto offPlane = [&](const std::vector<int> &partition) {
    for (int g : partition)
      for (int t : form.groups[g].terms)
        if (form.terms[t].offset[2] != 0)
          return true;
    return false;
  };
  int shared = -1;
  for (size_t p = 0; p < partitions.size(); ++p)
    if (offPlane(partitions[p])) {
      if (shared >= 0)
        return; // two factor lists span planes
      shared = int(p);
    }
  if (shared < 0 || form.terms[form.groups[partitions[shared][0]].terms[0]].factors.empty())
    return;
  split.sharedFactors = true;
  split.accumulated = partitions[shared];
  std::sort(split.accumulated.begin(), split.accumulated.end());
  for (size_t p = 0; p < partitions.size(); ++p)
    if (int(p) != shared)
      split.atStore.insert(split.atStore.end(), partitions[p].begin(), partitions[p].end());
  std::sort(split.atStore.begin(), split.atStore.end());
}

/// Numbers the partial sums of the updates that accumulate anything.
void assignSlots(std::vector<SweepUpdate> &updates) {
  int slots = 0;
  for (SweepUpdate &u : updates)
    u.slot = u.accumulated.empty() ? -1 : slots++;
}

/// Output planes per x loop when the user does not say: one. Several planes
/// per loop share their loads in registers, which pays only while the fields
/// stay in cache; where the fields exceed the caches, the sizes the kernels are
/// for, the extra rows streamed per x iteration cost more than the shared loads
/// save, and one plane was the fastest on every stencil measured
/// (docs/PERFORMANCE.md §Output planes per x loop at memory-bound sizes).
/// `--z-planes` asks for more.
int defaultOutputPlanesPerLoop(const ir::Stencil &) { return 1; }

CpuSweepPlan planCpuSweep(const LinearStencil &linear, const SubStencil &sub) {
  CpuSweepPlan plan;
  std::set<int> planes;
  std::set<std::pair<int, int>> columns;     // (table, index field)
  std::map<int, std::pair<int, int>> rowsOf; // table -> lowest and highest row read
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    SweepUpdate split = splitUpdate(form, int(u), sub.groups[u]);
    shareFactors(form, split);
    for (int g : split.accumulated)
      for (int t : form.groups[g].terms)
        planes.insert(form.terms[t].offset[2]);
    for (int g : split.groups)
      for (const TableRead &read : groupTableReads(form, g)) {
        columns.insert({read.table, read.index});
        auto [it, fresh] = rowsOf.try_emplace(read.table, read.row, read.row);
        it->second.first = std::min(it->second.first, read.row);
        it->second.second = std::max(it->second.second, read.row);
      }
    plan.updates.push_back(std::move(split));
  }
  assignSlots(plan.updates);
  plan.accumulatedPlanes.assign(planes.begin(), planes.end());
  for (const auto &[table, index] : columns) {
    auto [lo, hi] = rowsOf.at(table);
    plan.stagedTables.push_back({table, index, lo / 4 * 4, (hi + 4) / 4 * 4});
  }
  return plan;
}

/// What a blocked tile of `sub` keeps for z reuse: the fields it reads at more than one
/// z offset (in its terms or in their factors), and how far it reads them along each axis.
rt::LayerFootprint blockedFootprint(const ir::Stencil &s, const LinearStencil &linear,
                                    const SubStencil &sub) {
  rt::LayerFootprint f;
  f.elementBytes = ir::elemTypeBytes(s.elemType);
  if (s.dims != 3)
    return f;
  for (const FieldReach &r : fieldReaches(s, linear, sub.groups)) {
    if (r.zOffsets.size() < 2)
      continue;
    ++f.planeFields;
    f.reachX = std::max({f.reachX, r.minus[0], r.plus[0]});
    f.reachY = std::max({f.reachY, r.minus[1], r.plus[1]});
    f.reachZ = std::max({f.reachZ, r.minus[2], r.plus[2]});
  }
  return f;
}

CpuSchedule planCpu(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                    int outputPlanesPerLoop) {
  CpuSchedule cpu;
  cpu.outputPlanesPerLoop = s.dims != 3               ? 1
                            : outputPlanesPerLoop > 0 ? outputPlanesPerLoop
                                                      : defaultOutputPlanesPerLoop(s);
  bool staged = false;
  for (const SubStencil &sub : d.sweeps) {
    cpu.sweeps.push_back(planCpuSweep(linear, sub));
    staged |= cpu.sweeps.back().accumulates() && !cpu.sweeps.back().stagedTables.empty();
    // run() gives every sweep one tile height: the one for the largest footprint.
    const rt::LayerFootprint f = blockedFootprint(s, linear, sub);
    rt::LayerFootprint &most = cpu.blockedFootprint;
    most.elementBytes = f.elementBytes;
    most.planeFields = std::max(most.planeFields, f.planeFields);
    most.reachX = std::max(most.reachX, f.reachX);
    most.reachY = std::max(most.reachY, f.reachY);
    most.reachZ = std::max(most.reachZ, f.reachZ);
  }
  // A whole number of outputPlanesPerLoop-plane x loops per tile: no one-plane remainder loops.
  cpu.blockedTile = {kBlockedTile.y, std::max(kBlockedTile.z / cpu.outputPlanesPerLoop, 1) *
                                         cpu.outputPlanesPerLoop};
  cpu.planesTile = {staged ? kPlanesStagedY : kPlanesTile.y, kPlanesTile.z};
  return cpu;
}

/// Widens the plane offsets of `column` in `queues` to take in `dz` (adds the column if new).
void widenQueue(std::map<QueueColumn, std::pair<int, int>> &queues, const QueueColumn &column,
                int dz) {
  auto [it, fresh] = queues.try_emplace(column, dz, dz);
  it->second.first = std::min(it->second.first, dz);
  it->second.second = std::max(it->second.second, dz);
}

GpuSweepPlan planGpuSweep(const LinearStencil &linear, const SubStencil &sub) {
  GpuSweepPlan plan;
  std::set<int> planeOffsets;
  std::map<std::pair<int, int>, TableSpace> rowSpace;
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    SweepUpdate update = splitUpdate(form, int(u), sub.groups[u]);
    for (size_t i = 0; i < sub.groups[u].size(); ++i) {
      int g = sub.groups[u][i];
      const CoefGroup &group = form.groups[g];
      bool atStore = isCentreOnlyGroup(form, group);
      for (int t : group.terms) {
        const Term &term = form.terms[t];
        const Offset &o = term.offset;
        if (!atStore) {
          plan.planesTiles.insert(term.field);
          plan.planesRx = std::max(plan.planesRx, std::abs(o[0]));
          plan.planesRy = std::max(plan.planesRy, std::abs(o[1]));
          planeOffsets.insert(o[2]);
        }
        if (o[2] == 0 && (o[0] || o[1]))
          plan.traditionalTiles.insert(term.field);
        if (o[2] != 0)
          widenQueue(plan.queues, {term.field, o[0], o[1]}, o[2]);
      }
      // The table rows of the group, with the space the decomposition chose for it.
      TableSpace space = i < (sub.tableSpace.size() > u ? sub.tableSpace[u].size() : 0)
                             ? sub.tableSpace[u][i]
                             : TableSpace::Auto;
      for (const auto &[table, row] : tableRowsOf(form, {g})) {
        auto [it, fresh] = rowSpace.try_emplace({table, row}, space);
        // A row two groups want in different places goes where it is cheapest to read.
        if (!fresh && (space == TableSpace::Shared || it->second == TableSpace::Shared))
          it->second = TableSpace::Shared;
        else if (!fresh && space == TableSpace::Auto)
          it->second = TableSpace::Auto;
      }
    }
    plan.updates.push_back(std::move(update));
  }
  assignSlots(plan.updates);
  plan.planeOffsets.assign(planeOffsets.begin(), planeOffsets.end());
  for (const auto &[row, space] : rowSpace)
    if (space == TableSpace::Shared)
      plan.sharedRows[row.first].push_back(row.second);
  for (const auto &[row, space] : rowSpace)
    if (space == TableSpace::Auto)
      plan.autoRows[row.first].push_back(row.second);
  // Slots: a table's Shared rows first, then its Auto rows, each in row order.
  auto rowsOf = [](const std::map<int, std::vector<int>> &rows, int table) {
    auto it = rows.find(table);
    return it == rows.end() ? std::vector<int>{} : it->second;
  };
  for (const auto &[row, space] : rowSpace) {
    RowPlacement place{space, -1};
    std::vector<int> shared = rowsOf(plan.sharedRows, row.first);
    std::vector<int> autos = rowsOf(plan.autoRows, row.first);
    if (space == TableSpace::Shared)
      place.slot = int(std::find(shared.begin(), shared.end(), row.second) - shared.begin());
    else if (space == TableSpace::Auto)
      place.slot =
          int(shared.size() + (std::find(autos.begin(), autos.end(), row.second) - autos.begin()));
    plan.placement[row] = place;
  }
  // The traditional tiles cover every on-plane read of a tiled field.
  for (const SweepUpdate &update : plan.updates) {
    const LinearForm &form = linear.updates[update.update];
    for (int g : update.groups)
      for (int t : form.groups[g].terms) {
        const Term &term = form.terms[t];
        if (term.offset[2] == 0 && plan.traditionalTiles.count(term.field)) {
          plan.traditionalRx = std::max(plan.traditionalRx, std::abs(term.offset[0]));
          plan.traditionalRy = std::max(plan.traditionalRy, std::abs(term.offset[1]));
        }
      }
  }
  return plan;
}

std::string groupList(const std::vector<int> &groups) {
  if (groups.empty())
    return "none";
  std::string out;
  for (int g : groups)
    out += fmt::format("{}g{}", out.empty() ? "" : " ", g);
  return out;
}

std::string offsetRange(const std::vector<int> &dzs) {
  std::string out;
  for (int dz : dzs)
    out += fmt::format("{}{}", out.empty() ? "" : " ", dz);
  return out;
}

void printUpdates(const ir::Stencil &s, const LinearStencil &linear,
                  const std::vector<SweepUpdate> &updates, llvm::raw_ostream &os) {
  for (const SweepUpdate &u : updates) {
    os << fmt::format("    {}: accumulated {}; at store {}",
                      s.fields[linear.updates[u.update].output].name, groupList(u.accumulated),
                      groupList(u.atStore));
    if (u.slot >= 0)
      os << fmt::format("; partial sums in slot {}", u.slot);
    if (u.sharedFactors)
      os << "; shared factors applied at the store";
    os << "\n";
  }
}

const char *plural(size_t n) { return n == 1 ? "" : "s"; }

} // namespace

int CpuSweepPlan::accumulatingOutputs() const {
  return int(std::count_if(updates.begin(), updates.end(),
                           [](const SweepUpdate &u) { return u.slot >= 0; }));
}

int GpuSweepPlan::queueValues() const {
  int n = 0;
  for (const auto &[column, range] : queues)
    n += range.second - range.first + 1 + traditionalAhead;
  return n;
}

namespace {

/// Every (field, dx, dy) column the `traditional` kernel of `plan` reads from memory, with the
/// plane offsets it reads there: the time fields' reads the shared planes do not serve, and the
/// coefficient and index fields its groups and (in the first sweep) pointwise parts read.
std::map<QueueColumn, std::pair<int, int>> memoryColumns(const LinearStencil &linear,
                                                         const GpuSweepPlan &plan, bool first) {
  std::map<QueueColumn, std::pair<int, int>> columns;
  auto add = [&](int field, const Offset &o) { widenQueue(columns, {field, o[0], o[1]}, o[2]); };
  auto factorReads = [&](const ir::Expr &e) {
    ir::forEachExpr(e, [&](const ir::Expr &n) {
      if (n.kind == ir::Expr::Kind::FieldRef && n.id >= 0)
        add(n.id, n.offset);
      if (n.kind == ir::Expr::Kind::TableRef && n.indexField >= 0)
        add(n.indexField, {0, 0, 0});
    });
  };
  for (const SweepUpdate &update : plan.updates) {
    const LinearForm &form = linear.updates[update.update];
    for (int g : update.groups)
      for (int t : form.groups[g].terms) {
        const Term &term = form.terms[t];
        if (term.offset[2] != 0 || !plan.traditionalTiles.count(term.field))
          add(term.field, term.offset);
        for (const ir::ExprPtr &factor : term.factors)
          factorReads(*factor);
      }
    if (first && form.pointwise)
      factorReads(*form.pointwise);
  }
  return columns;
}

} // namespace

int GpuSweepPlan::ringSize() const {
  return accumulates() ? planeOffsets.back() - planeOffsets.front() + 1 : 0;
}

SweepPlan planSweeps(const ir::Stencil &s, const LinearStencil &linear,
                     const Decomposition &decomposition, const PlanTarget &target,
                     int outputPlanesPerLoop, std::optional<int> loadAhead) {
  SweepPlan plan;
  plan.target = target.name;
  plan.cpu = planCpu(s, linear, decomposition, outputPlanesPerLoop);
  const int elemBytes = ir::elemTypeBytes(s.elemType);
  for (const SubStencil &sub : decomposition.sweeps) {
    GpuSweepPlan gpu = planGpuSweep(linear, sub);
    gpu.traditionalBuffers =
        traditionalTileBuffers(!gpu.traditionalTiles.empty(), gpu.queueValues(), elemBytes);
    // Loads ahead need a queue for every column read from memory, one plane longer.
    std::map<QueueColumn, std::pair<int, int>> columns =
        memoryColumns(linear, gpu, plan.gpu.sweeps.empty());
    int aheadValues = 0;
    for (const auto &[column, range] : columns)
      aheadValues += range.second - range.first + 2;
    // Every read from the shared planes (heat2d): nothing to load ahead.
    gpu.traditionalAhead = columns.empty() ? 0
                           : loadAhead     ? *loadAhead
                                           : traditionalLoadAhead(aheadValues, elemBytes);
    if (gpu.traditionalAhead > 0)
      gpu.queues = std::move(columns);
    plan.gpu.sweeps.push_back(std::move(gpu));
  }
  return plan;
}

bool verifySweepPlan(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                     const SweepPlan &plan, std::vector<std::string> &problems) {
  size_t before = problems.size();
  auto checkUpdates = [&](const char *who, size_t sweep, const std::vector<SweepUpdate> &updates,
                          std::set<int> *accumulatedDz) {
    if (updates.size() != linear.updates.size()) {
      problems.push_back(fmt::format("{} sweep {}: {} updates planned, the stencil has {}", who,
                                     sweep, updates.size(), linear.updates.size()));
      return;
    }
    int slots = 0;
    for (size_t u = 0; u < updates.size(); ++u) {
      const SweepUpdate &su = updates[u];
      std::vector<int> placed = su.accumulated;
      placed.insert(placed.end(), su.atStore.begin(), su.atStore.end());
      std::sort(placed.begin(), placed.end());
      if (placed != d.sweeps[sweep].groups[u] || su.groups != d.sweeps[sweep].groups[u])
        problems.push_back(fmt::format("{} sweep {} update {}: the accumulated and at-store "
                                       "groups are not the sweep's groups, each once",
                                       who, sweep, s.fields[linear.updates[u].output].name));
      if (su.slot != (su.accumulated.empty() ? -1 : slots))
        problems.push_back(fmt::format("{} sweep {} update {}: partial-sum slot {} out of order",
                                       who, sweep, s.fields[linear.updates[u].output].name,
                                       su.slot));
      slots += su.slot >= 0;
      const LinearForm &form = linear.updates[u];
      for (int g : su.atStore)
        if (!su.sharedFactors && !isCentreOnlyGroup(form, form.groups[g]))
          problems.push_back(fmt::format("{} sweep {}: group g{} of {} spans planes but is "
                                         "applied at the store",
                                         who, sweep, g, s.fields[form.output].name));
      if (accumulatedDz)
        for (int g : su.accumulated)
          for (int t : form.groups[g].terms)
            accumulatedDz->insert(form.terms[t].offset[2]);
    }
  };
  if (plan.cpu.sweeps.size() != d.sweeps.size() || plan.gpu.sweeps.size() != d.sweeps.size()) {
    problems.push_back(fmt::format("{} CPU and {} GPU sweeps planned for {} sweeps",
                                   plan.cpu.sweeps.size(), plan.gpu.sweeps.size(),
                                   d.sweeps.size()));
    return false;
  }
  if (plan.cpu.outputPlanesPerLoop < 1 || (s.dims != 3 && plan.cpu.outputPlanesPerLoop != 1))
    problems.push_back(
        fmt::format("CPU: {} output planes per x loop", plan.cpu.outputPlanesPerLoop));
  if (plan.cpu.blockedTile.z % plan.cpu.outputPlanesPerLoop != 0)
    problems.push_back(fmt::format("CPU: blocked tile depth {} is not a multiple of {} planes",
                                   plan.cpu.blockedTile.z, plan.cpu.outputPlanesPerLoop));
  for (size_t sweep = 0; sweep < d.sweeps.size(); ++sweep) {
    const CpuSweepPlan &cpu = plan.cpu.sweeps[sweep];
    std::set<int> dz;
    checkUpdates("CPU", sweep, cpu.updates, &dz);
    if (std::vector<int>(dz.begin(), dz.end()) != cpu.accumulatedPlanes)
      problems.push_back(fmt::format("CPU sweep {}: accumulated planes are not those of its "
                                     "accumulated groups",
                                     sweep));
    for (const StagedTable &t : cpu.stagedTables)
      if (t.table < 0 || t.table >= int(s.tables.size()) || t.beginRow < 0 || t.beginRow % 4 != 0 ||
          t.endRow % 4 != 0 || t.endRow <= t.beginRow)
        problems.push_back(fmt::format("CPU sweep {}: staged rows [{}, {}) of table {}", sweep,
                                       t.beginRow, t.endRow, t.table));
    const GpuSweepPlan &gpu = plan.gpu.sweeps[sweep];
    dz.clear();
    checkUpdates("GPU", sweep, gpu.updates, &dz);
    if (std::vector<int>(dz.begin(), dz.end()) != gpu.planeOffsets)
      problems.push_back(fmt::format("GPU sweep {}: plane offsets are not those of its "
                                     "accumulated groups",
                                     sweep));
    for (const auto &[column, range] : gpu.queues)
      if (std::get<0>(column) < 0 || std::get<0>(column) >= int(s.fields.size()) ||
          range.first > range.second)
        problems.push_back(fmt::format("GPU sweep {}: a queue of field {} with planes {}..{}",
                                       sweep, std::get<0>(column), range.first, range.second));
    if (gpu.traditionalAhead < 0 || gpu.traditionalAhead > 1)
      problems.push_back(fmt::format("GPU sweep {}: traditional loads {} planes ahead", sweep,
                                     gpu.traditionalAhead));
    // Loads ahead are only ahead if no read of the step goes to memory.
    if (gpu.traditionalAhead > 0)
      for (const auto &[column, range] : memoryColumns(linear, gpu, sweep == 0)) {
        auto queue = gpu.queues.find(column);
        if (queue == gpu.queues.end() || range.first < queue->second.first ||
            range.second > queue->second.second)
          problems.push_back(fmt::format("GPU sweep {}: traditional loads ahead, but reads "
                                         "{}({}, {}) planes {}..{} outside its queues",
                                         sweep, s.fields[std::get<0>(column)].name,
                                         std::get<1>(column), std::get<2>(column), range.first,
                                         range.second));
      }
    for (const auto &[row, place] : gpu.placement) {
      bool staged = place.space == TableSpace::Shared || place.space == TableSpace::Auto;
      if (staged != (place.slot >= 0))
        problems.push_back(fmt::format("GPU sweep {}: table {} row {} in {} with slot {}", sweep,
                                       s.tables[row.first].name, row.second,
                                       tableSpaceName(place.space), place.slot));
    }
  }
  return problems.size() == before;
}

/// How run() chooses blocked's tile height, in words.
std::string blockedHeightRule(const CpuSchedule &cpu) {
  const rt::LayerFootprint &f = cpu.blockedFootprint;
  if (f.planeFields == 0)
    return fmt::format("blocked tile height: {} rows (no field is read on several planes)",
                       cpu.blockedTile.y);
  return fmt::format(
      "blocked tile height at run time: the L2 layer condition on {} field{} read "
      "on {} planes, reach {} in x and {} in y, {}-byte values ({} rows where the L2's size is "
      "unknown)",
      f.planeFields, plural(size_t(f.planeFields)), 2 * f.reachZ + 1, f.reachX, f.reachY,
      f.elementBytes, cpu.blockedTile.y);
}

/// How run() chooses the variant when left to it (rt::Variant::Auto), in words.
std::string autoVariantRule(const CpuSchedule &cpu) {
  const rt::LayerFootprint &f = cpu.blockedFootprint;
  if (f.planeFields == 0)
    return "default variant (auto): naive (no field is read on several planes)";
  return fmt::format("default variant (auto) at run time: naive while {} whole plane{} of the {} "
                     "field{} read on several planes, for each thread, fill at most half of the "
                     "machine's last-level cache; blocked past that",
                     2 * f.reachZ + 1, plural(size_t(2 * f.reachZ + 1)), f.planeFields,
                     plural(size_t(f.planeFields)));
}

/// What the layer condition gives for rows of `width` points on `cacheBytes`.
std::string layerChoiceText(const CpuSchedule &cpu, int width, long long cacheBytes) {
  const rt::LayerChoice c =
      rt::layerConditionRows(cpu.blockedFootprint, width, cacheBytes, cpu.blockedTile.y);
  auto kib = [](long long bytes) { return fmt::format("{:.0f} KiB", double(bytes) / 1024); };
  if (c.fits)
    return fmt::format("rows of {} points: {} rows ({} of planes)", width, c.rows, kib(c.bytes));
  return fmt::format("rows of {} points: {} rows (the lowest: none fits, {} of planes)", width,
                     c.rows, kib(c.bytes));
}

void printSweepPlan(const ir::Stencil &s, const LinearStencil &linear, const SweepPlan &plan,
                    llvm::raw_ostream &os) {
  os << fmt::format("// sweep plan of stencil '{}' (decomposition planned for {})\n", s.name,
                    plan.target);
  const CpuSchedule &cpu = plan.cpu;
  os << fmt::format("cpu: {} output plane{} per x loop; default tiles (y x z): blocked {} x {}, "
                    "planes {} x {}\n",
                    cpu.outputPlanesPerLoop, plural(size_t(cpu.outputPlanesPerLoop)),
                    cpu.blockedTile.y, cpu.blockedTile.z, cpu.planesTile.y, cpu.planesTile.z);
  os << "  " << blockedHeightRule(cpu) << "\n";
  os << "  " << autoVariantRule(cpu) << "\n";
  for (size_t sweep = 0; sweep < cpu.sweeps.size(); ++sweep) {
    const CpuSweepPlan &p = cpu.sweeps[sweep];
    os << fmt::format("  sweep {}:", sweep);
    if (p.accumulates())
      os << fmt::format(" planes accumulates plane offsets {} into {} partial-sum slot{}\n",
                        offsetRange(p.accumulatedPlanes), p.accumulatingOutputs(),
                        plural(size_t(p.accumulatingOutputs())));
    else
      os << " nothing spans planes; planes stores row by row\n";
    printUpdates(s, linear, p.updates, os);
    for (const StagedTable &t : p.stagedTables)
      os << fmt::format("    stages {}[rows {}..{}][{}] once per output row\n",
                        s.tables[t.table].name, t.beginRow, t.endRow - 1, s.fields[t.index].name);
  }
  os << "gpu:\n";
  for (size_t sweep = 0; sweep < plan.gpu.sweeps.size(); ++sweep) {
    const GpuSweepPlan &p = plan.gpu.sweeps[sweep];
    os << fmt::format("  sweep {}:\n", sweep);
    printUpdates(s, linear, p.updates, os);
    std::string tiles;
    for (int f : p.traditionalTiles)
      tiles += (tiles.empty() ? "" : ", ") + s.fields[f].name;
    os << fmt::format(
        "    traditional: shared plane{} {} (halo {} x {}{}); {} register queue{}, "
        "{} values{}\n",
        plural(p.traditionalTiles.size()), tiles.empty() ? "none" : tiles, p.traditionalRx,
        p.traditionalRy,
        p.traditionalBuffers > 1 ? ", 2 buffers: the next copied while one computes" : "",
        p.queues.size(), plural(p.queues.size()), p.queueValues(),
        p.traditionalAhead > 0 ? fmt::format(", each loaded {} plane{} ahead", p.traditionalAhead,
                                             plural(size_t(p.traditionalAhead)))
                               : "");
    for (const auto &[column, range] : p.queues)
      os << fmt::format("      queue {}({}, {}): dz {}..{}\n", s.fields[std::get<0>(column)].name,
                        std::get<1>(column), std::get<2>(column), range.first, range.second);
    tiles.clear();
    for (int f : p.planesTiles)
      tiles += (tiles.empty() ? "" : ", ") + s.fields[f].name;
    if (p.accumulates())
      os << fmt::format("    planes: shared plane{} {} (halo {} x {}); plane offsets {}; {} "
                        "partial sum{} per output\n",
                        plural(p.planesTiles.size()), tiles, p.planesRx, p.planesRy,
                        offsetRange(p.planeOffsets), p.ringSize(), plural(size_t(p.ringSize())));
    else
      os << "    planes: nothing spans planes\n";
    for (const auto &[row, place] : p.placement)
      os << fmt::format("    {}[{}]: {}{}\n", s.tables[row.first].name, row.second,
                        tableSpaceName(place.space),
                        place.slot >= 0 ? fmt::format(", shared slot {}", place.slot) : "");
  }
}

void explainSweepPlan(const ir::Stencil &s, const SweepPlan &plan, const PlanTarget &target,
                      llvm::raw_ostream &os) {
  os << fmt::format("sweep-plan: stencil '{}': CPU naive and blocked compute {} output plane{} "
                    "per x loop{}\n",
                    s.name, plan.cpu.outputPlanesPerLoop,
                    plural(size_t(plan.cpu.outputPlanesPerLoop)), s.dims != 3 ? " (2D)" : "");
  for (size_t sweep = 0; sweep < plan.cpu.sweeps.size(); ++sweep) {
    const CpuSweepPlan &cpu = plan.cpu.sweeps[sweep];
    const GpuSweepPlan &gpu = plan.gpu.sweeps[sweep];
    os << fmt::format("sweep-plan: sweep {}: CPU planes accumulates {} plane{} and stages {} "
                      "table column{} per output row; GPU traditional keeps {} register "
                      "value{}{}, planes {} partial sum{} per output\n",
                      sweep, cpu.accumulatedPlanes.size(), plural(cpu.accumulatedPlanes.size()),
                      cpu.stagedTables.size(), plural(cpu.stagedTables.size()), gpu.queueValues(),
                      plural(size_t(gpu.queueValues())),
                      gpu.traditionalAhead > 0 ? " (its loads one plane ahead)"
                      : gpu.queues.empty()     ? ""
                                               : " (its loads in the step that reads them)",
                      gpu.ringSize(), plural(size_t(gpu.ringSize())));
  }
  os << "sweep-plan: " << blockedHeightRule(plan.cpu) << "\n";
  os << "sweep-plan: " << autoVariantRule(plan.cpu) << "\n";
  if (plan.cpu.blockedFootprint.planeFields == 0 || target.kind != PlanTarget::Kind::Cpu)
    return;
  os << fmt::format(
      "sweep-plan: on the plan target's L2 of {:.0f} KiB (--cache-budget; a kernel reads the "
      "L2 of the machine it runs on), half of it for the planes:",
      double(target.cacheBudget) / 1024);
  for (int width : {256, 512, 1024})
    os << (width == 256 ? " " : "; ") << layerChoiceText(plan.cpu, width, target.cacheBudget);
  os << "\n";
}

} // namespace stencilc
